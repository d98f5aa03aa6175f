"""A staff member's forfeit in a league fixture's game is told in the game's story as the
staff's, not as the league's ruling, and never with the staff's own reason (kept in their audit
alone); a club admin's ruling in the same game is told as the league's, with its public note.
The story reads who appended each forfeit (the log's actor: games/seat_facts.py
`stand_in_facts`)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from games.models import Game, GameEvent
from league.seasons import fixture_forfeit
from staff.actions import game_forfeit
from tests.games.factories import make_user
from tests.web.clients import signed_in
from tests.web.league_pages import table_of_four

pytestmark = pytest.mark.django_db(transaction=True)


def story_lines(html: str) -> list[str]:
    return [
        unescape(re.sub(r"\s+", " ", line)).strip()
        for line in re.findall(r'<li class="story__line[^"]*"[^>]*>(.*?)</li>', html, re.S)
    ]


def test_the_staffs_forfeit_in_a_fixture_is_the_staffs_and_the_clubs_ruling_the_leagues(
    eager_tasks,
):
    _, ada, fixture, ben, cal = table_of_four()
    staff = make_user("sam")
    staff.is_staff = True
    staff.save()
    seat_of = {p: fixture.seats.get(entry__user=p).number for p in (ben, cal)}
    game_forfeit(
        game_id=fixture.game_id, seat=seat_of[ben], user=staff, reason="private: abuse report"
    )
    assert fixture_forfeit(fixture=fixture, actor=ada, seat=seat_of[cal], note="no show")
    assert Game.objects.get(pk=fixture.game_id).status == Game.Status.MATCH_OVER

    # Each forfeit as the replay tells it at its own event (the bots played the match out after
    # them: the play page's story has moved on), to each viewer.
    forfeits = GameEvent.objects.filter(game_id=fixture.game_id, type="seat-forfeited")
    at = {event.data["seat"]: event.version for event in forfeits}
    for viewer, ben_is, cal_is in ((cal, "ben was", "You were"), (ben, "You were", "cal was")):
        client = signed_in(viewer)
        told = {}
        for person in (ben, cal):
            page = client.get(
                f"/games/{fixture.game_id}/replay/", {"at": at[seat_of[person]]}
            ).content.decode()
            told[person] = story_lines(page)[0]
        assert told[ben].startswith(f"{ben_is} forfeited by the staff"), told
        assert "abuse" not in told[ben] and "league" not in told[ben]
        assert told[cal].startswith(f"{cal_is} forfeited by the league's ruling (no show)"), told
