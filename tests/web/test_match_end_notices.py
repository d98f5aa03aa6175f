"""Every person seated in a match that ends is told under the bell, at the moment it ends, that
it is over and how they placed (games/match_end_notice.py), however it ends: a forfeit that left
one seat playing (a club's ruling in a league fixture), the staff's abort, or played out
(tests/web/test_turn_emails.py). Unread, stamped with the end's time, once per seat: their
turn notice of the game becomes it."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
import time_machine
from django.utils import timezone

from games import dispatch
from games.models import Game
from league.seasons import fixture_forfeit
from social.models import Notification
from social.notifications import turn_key
from staff.actions import game_abort
from tests.games.factories import make_user
from tests.web.clients import signed_in
from tests.web.league_pages import fixture_of_two, text
from tests.web.tables import FAMILIES, people_game

pytestmark = pytest.mark.django_db(transaction=True)


def bell(client) -> str:
    """The bell's label as the page shows it ("Notifications, 1 unread")."""
    page = client.get("/clubs/").content.decode()
    return re.search(r'aria-label="(Notifications[^"]*)"', page).group(1)


def listed(client) -> str:
    return unescape(text(client.get("/notifications/").content.decode()))


def test_the_winner_by_a_ruled_forfeit_is_told_they_won_unread_at_the_end(eager_tasks):
    """The bug: the winner's turn notice became "Game N is over", already read and stamped with
    the old turn's time, so the bell never moved and they never heard they won."""
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        ada, fixture, game, winner, loser = fixture_of_two()
    (turn,) = Notification.objects.filter(user=winner, key=turn_key(game.pk, game.to_act[0]))
    assert turn.kind == "turn" and turn.read_at is None
    browser = signed_in(winner)
    # They looked at the game (its turn notice is read) and read the rest (the season started).
    with time_machine.travel(start + datetime.timedelta(minutes=5), tick=False):
        assert browser.get(f"/games/{game.pk}/").status_code == 200
        turn.refresh_from_db()
        assert turn.read_at is not None
        browser.post("/notifications/read", {"all": "1"})
        assert bell(browser) == "Notifications"
    ended = start + datetime.timedelta(hours=3)
    with time_machine.travel(ended, tick=False):
        seat = fixture.seats.get(entry__user=loser).number
        assert fixture_forfeit(fixture=fixture, actor=ada, seat=seat, note="no show")
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    assert bell(browser) == "Notifications, 1 unread"
    shown = listed(browser)
    assert f"You won game {game.pk} against {loser.username}" in shown
    assert f"Your turn in game {game.pk}" not in shown
    (notice,) = Notification.objects.filter(user=winner, kind="game-over")
    assert notice.read_at is None and notice.created_at == ended
    assert notice.url == f"/games/{game.pk}/"
    # The person forfeited hears the match ended and their place, besides the forfeit itself.
    told = listed(signed_in(loser))
    assert f"Game {game.pk} is over: {winner.username} won by forfeit, you placed 2nd" in told
    assert f"Your seat in game {game.pk} was forfeited by the league's ruling" in told


def test_a_match_won_by_forfeit_says_so_under_the_bell_in_the_lobby_and_on_its_page(eager_tasks):
    """The bug: the winner's bell said "You won game 78 against omar" and the lobby's Finished
    card "winner 0 – 0", as for a match won at the table."""
    ada, fixture, game, winner, loser = fixture_of_two()
    seat = fixture.seats.get(entry__user=loser).number
    assert fixture_forfeit(fixture=fixture, actor=ada, seat=seat, note="no show")
    mine = signed_in(winner)
    (notice,) = Notification.objects.filter(user=winner, kind="game-over")
    assert notice.text == f"You won game {game.pk} against {loser.username} by forfeit"
    assert notice.text in listed(mine)
    theirs = signed_in(loser)
    (notice,) = Notification.objects.filter(user=loser, kind="game-over")
    assert notice.text == (
        f"Game {game.pk} is over: {winner.username} won by forfeit, you placed 2nd"
    )
    # The lobby's Finished card, for each of them.
    card = unescape(text(mine.get("/play/?show=finished").content.decode()))
    assert "Finished: you won by forfeit" in card
    card = unescape(text(theirs.get("/play/?show=finished").content.decode()))
    assert f"Finished: {winner.username} won by forfeit" in card
    # The game's page: the result under the final board, and a spectator's line.
    page = unescape(text(mine.get(f"/games/{game.pk}/").content.decode()))
    assert "You win the match by forfeit." in page
    watcher = signed_in(make_user("wren"))
    page = unescape(text(watcher.get(f"/games/{game.pk}/").content.decode()))
    assert f"{winner.username} wins the match by forfeit." in page
    game.refresh_from_db()
    replay = watcher.get(f"/games/{game.pk}/replay/?at={game.version}").content.decode()
    assert f"{winner.username} wins the match by forfeit." in unescape(text(replay))


def test_the_end_is_told_once_however_often_the_match_is_found_over(eager_tasks):
    ada, fixture, game, winner, loser = fixture_of_two()
    seat = fixture.seats.get(entry__user=loser).number
    assert fixture_forfeit(fixture=fixture, actor=ada, seat=seat)
    browser = signed_in(winner)
    (notice,) = Notification.objects.filter(user=winner, kind="game-over")
    assert notice.read_at is None
    # Read under the bell; a later dispatch of the same game (an append after the end, a sweep)
    # tells nothing again.
    browser.post("/notifications/read", {"all": "1"})
    assert bell(browser) == "Notifications"
    before = list(Notification.objects.filter(user__in=[winner, loser]).values())
    dispatch.dispatch_game(game.pk)
    assert list(Notification.objects.filter(user__in=[winner, loser]).values()) == before
    assert bell(browser) == "Notifications"


def test_a_game_the_staff_abort_tells_everyone_seated_it_ended_without_result(eager_tasks):
    staff = make_user()
    staff.is_staff = True
    staff.save()
    game, people = people_game(FAMILIES["official"], seats=3)
    game_abort(game_id=game.pk, user=staff, reason="private: a broken deal")
    for person in people:
        (notice,) = Notification.objects.filter(user=person, kind="game-over")
        assert notice.text == f"Game {game.pk} is over: the staff aborted it, with no result"
        assert notice.read_at is None
        assert "broken" not in listed(signed_in(person))
