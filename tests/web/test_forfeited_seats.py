"""Forfeited seats told truly and the same on every page: two seats of one league fixture ruled
forfeited are both placed last (sharing the place) on the game page, its story, its replay, the
fixture's card, the season's table, the club's all-time table and the API (games/placings.py
`placing`); the person whose seat was forfeited by someone else is told under the bell
(games/forfeit_notice.py); and, in their view of the story, the default bot's moves for their
seat are their stand-in's, not "You played"."""

from __future__ import annotations

import re
from html import unescape

import pytest

from bots import turns
from games import seat_facts
from games.models import Game, MatchResult
from league.models import Fixture
from league.standings import entrant_name
from social.models import Notification
from staff.actions import game_forfeit
from tests.games.factories import make_user
from tests.web.clients import signed_in
from tests.web.league_pages import table_rows, text, two_seats_forfeited
from tests.web.tables import FAMILIES, advance, people_game

pytestmark = pytest.mark.django_db(transaction=True)

# How the story starts a move of the viewer's own.
YOUR_MOVES = ("You played", "You jumped in", "You called UNO", "You chose", "You had nothing")


def fixture_html(html: str, fixture: Fixture) -> str:
    """The fixture's card on the season page (its <li>, up to its rulings)."""
    start = html.rindex("<li", 0, html.index(f'id="fixture-{fixture.pk}"'))
    return html[start : html.index("</ol>", start)]


def staff_member():
    staff = make_user()
    staff.is_staff = True
    staff.save()
    return staff


def story_lines(html: str) -> list[str]:
    """The story's lines as the page shows them, newest first."""
    return [
        unescape(re.sub(r"\s+", " ", line)).strip()
        for line in re.findall(r'<li class="story__line[^"]*"[^>]*>(.*?)</li>', html, re.S)
    ]


def seat_tags(html: str) -> dict[str, str]:
    """Each seat's name and its place tag on the board ("place 3, forfeited")."""
    found = {}
    for seat in re.findall(r'<li class="seat[ "].*?</li>', html, re.S):
        name = re.search(r'<span class="seat__name">([^<]+)', seat)
        place = re.search(r'<span class="tag">(place [^<]+)</span>', seat)
        if name and place:
            found[name.group(1).strip()] = place.group(1)
    return found


@pytest.fixture
def two_forfeits(eager_tasks):
    return two_seats_forfeited()


def test_two_forfeited_seats_share_the_last_place_on_every_page(two_forfeits):
    club, fixture, ben, cal = two_forfeits
    game = fixture.game_id
    result = MatchResult.objects.get(game_id=game)
    names = {
        seat.number: entrant_name(seat.entry)
        for seat in fixture.seats.select_related("entry__user", "entry__bot")
    }
    seat_of = {name: number for number, name in names.items()}
    # The one rule: both forfeited seats share the place after the two bots.
    assert [result.places[seat_of[name]] for name in ("ben", "cal")] == [3, 3]
    winner = names[result.winner] if result.winner is not None else None
    assert winner in ("Greta", "Rex", None)
    client = signed_in(ben)

    # The game page: the seats' tags, the scores' places, the result line, the story's end.
    page = client.get(f"/games/{game}/").content.decode()
    tags = seat_tags(page)
    assert tags["ben"] == tags["cal"] == "place 3, forfeited"
    assert {tags["Greta"], tags["Rex"]} <= {"place 1", "place 2"}
    said = unescape(text(page))
    if winner is not None:
        assert f"{winner} wins the match." in said
    assert "ben wins" not in said and "cal wins" not in said
    assert re.search(r"ben \d+ \d+ 3, forfeited", said) and re.search(
        r"cal \d+ \d+ 3, forfeited", said
    )
    ending = story_lines(page)[0]
    assert ending.startswith("The match is over: ") and "forfeited, placed last" in ending
    # The replay's last step says the same.
    replay = client.get(f"/games/{game}/replay/?at={Game.objects.get(pk=game).version}")
    assert seat_tags(replay.content.decode()) == tags

    # The fixture's card: both 3rd.
    season_page = client.get("/seasons/spring/").content.decode()
    card = unescape(text(fixture_html(season_page, fixture)))
    assert "ben (you) person forfeited 3rd" in card and "cal person forfeited 3rd" in card

    # The season's table: both once in 3rd place, no points, no win.
    rows = {cells[1].split()[0]: cells for _, cells in table_rows(season_page)}
    for name in ("ben", "cal"):
        assert rows[name][2:6] == ["0", "1", "0", "0 · 0 · 1 · 0"]

    # The club's all-time table: level on points and wins, so the same shared place.
    club_page = client.get(f"/clubs/{club.slug}/").content.decode()
    all_time = club_page[club_page.index('id="all-time-title"') :]
    ranks = {
        cells[1].split()[0]: cells[0].replace(" ", "")
        for cells in re.findall(r"<tr>(.*?)</tr>", all_time, re.S)
        for cells in [[text(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", cells)]]
        if cells
    }
    assert ranks["ben"] == ranks["cal"] == "3="

    # The API: the game's result and the fixture's, the same places.
    body = client.get(f"/api/games/{game}").json()
    assert body["result"] == {
        "winner": result.winner,
        "places": result.places,
        "forfeited": sorted([seat_of["ben"], seat_of["cal"]]),
    }
    api_club = {
        line["entrant"]["name"]: line
        for line in client.get(f"/api/clubs/{club.slug}").json()["all_time"]
    }
    assert (api_club["ben"]["rank"], api_club["ben"]["shared"]) == (3, True)
    assert api_club["cal"]["rank"] == 3


def test_the_stand_ins_moves_are_never_told_as_yours(two_forfeits):
    _, fixture, ben, _ = two_forfeits
    page = signed_in(ben).get(f"/games/{fixture.game_id}/").content.decode()
    lines = story_lines(page)
    # The forfeit is long before the story's window: its moves are still the stand-in's.
    assert not any(line.startswith(YOUR_MOVES) for line in lines)
    assert any(line.startswith("Your stand-in ") for line in lines)
    assert any(line.startswith("cal's stand-in ") for line in lines)


def test_a_person_forfeited_by_the_league_is_told_who_and_what_happens_now(two_forfeits):
    _, fixture, ben, cal = two_forfeits
    for person in (ben, cal):
        (notice,) = Notification.objects.filter(user=person, key__startswith="forfeit:")
        assert notice.text == (
            f"Your seat in game {fixture.game_id} was forfeited by the league's ruling: "
            "“no show”. The default bot plays the seat out as your stand-in, and it is placed "
            "last."
        )
        assert (notice.kind, notice.url) == ("season", f"/games/{fixture.game_id}/")
    # Under the bell, in the person's list of notices.
    shown = unescape(text(signed_in(ben).get("/notifications/").content.decode()))
    assert f"Your seat in game {fixture.game_id} was forfeited by the league's ruling" in shown


def test_the_staffs_forfeit_tells_the_person_without_the_staffs_reason(eager_tasks):
    game, people = people_game(FAMILIES["official"], seats=2)
    game_forfeit(game_id=game.pk, seat=1, user=staff_member(), reason="private: reported for abuse")
    (notice,) = Notification.objects.filter(user=people[1], key__startswith="forfeit:")
    # One seat is left playing: the forfeit ended the match, and the notice says so.
    assert notice.text == (
        f"Your seat in game {game.pk} was forfeited by the staff. The match ended with it, and "
        "your seat is placed last."
    )
    assert "abuse" not in notice.text
    # The game's story says who, too: not a league's ruling, in a game of no league.
    lines = story_lines(signed_in(people[1]).get(f"/games/{game.pk}/").content.decode())
    assert f"You were forfeited by the staff: {people[0].username} wins the match." in lines
    # Nobody else is told; resigning is the person's own doing and tells nobody.
    assert not Notification.objects.filter(user=people[0], key__startswith="forfeit:").exists()


def test_resigning_tells_nobody(eager_tasks):
    game, people = people_game(FAMILIES["official"], seats=2)
    seat_facts.game_resign(game_id=game.pk, actor=people[0])
    assert not Notification.objects.filter(key__startswith="forfeit:").exists()


def test_after_a_forfeit_the_story_tells_the_stand_in_not_you(eager_tasks):
    # Three seats: bob and cal play on after ana's forfeit (with two, it ends the match).
    game, people = people_game(FAMILIES["official"], seats=3)
    ana, bob, _ = people
    # Both move themselves for a while; then ana's seat is forfeited and the default bot plays it.
    advance(game, 6)
    game_forfeit(game_id=game.pk, seat=0, user=staff_member(), reason="left the table")
    # A few turns more, so that the story's window still shows the forfeit.
    for _ in range(8):
        current = Game.objects.get(pk=game.pk)
        if current.status == Game.Status.MATCH_OVER:
            break
        if 0 in current.to_act:
            turns.advance_game(game_id=game.pk)
        else:
            advance(current, 1)
    lines = story_lines(signed_in(ana).get(f"/games/{game.pk}/").content.decode())
    forfeit = next(i for i, line in enumerate(lines) if line.startswith("You were forfeited"))
    after, before = lines[:forfeit], lines[forfeit + 1 :]
    assert any(line.startswith("Your stand-in played") for line in after)
    assert not any(line.startswith(YOUR_MOVES) for line in after)
    assert any(line.startswith("You played") for line in before)
    # bob reads them as ana's stand-in's.
    bobs = story_lines(signed_in(bob).get(f"/games/{game.pk}/").content.decode())
    assert any(line.startswith(f"{ana.username}'s stand-in played") for line in bobs)
