"""The header's bell follows what happens while a person sits at a game: the board's poll,
when the game has moved, and a move sent from the page bring the bell again out of band
(templates/_bell.html, web/play.py), the board's own turn read first; a poll that finds
nothing new stays a bare 204."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from social.models import Notification
from social.notifications import notify, turn_key
from tests.games.factories import make_user
from tests.web.clients import signed_in
from tests.web.tables import FAMILIES, advance, people_game

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


def bells(html: str) -> list[str]:
    """Each bell the answer holds, as its label and whether htmx swaps it in out of band."""
    return [
        unescape(f"{label}{' (oob)' if oob else ''}")
        for oob, label in re.findall(
            r'<a class="bell" id="bell"( hx-swap-oob="true")? href="[^"]+" aria-label="([^"]+)"',
            html,
        )
    ]


def test_the_board_that_moved_brings_the_bell_with_its_own_turn_read(eager_tasks):
    game, (ana, ben) = people_game(FAMILIES["official"], seats=2)
    game.refresh_from_db()
    first = game.to_act[0]
    mover, waiter = (ana, ben) if game.seats.get(number=first).user_id == ana.pk else (ben, ana)
    browser = signed_in(waiter)
    page = browser.get(f"/games/{game.pk}/").content.decode()
    assert bells(page) == ["Notifications"]
    version = game.version
    # While the waiter sits at the board: a notice from elsewhere, then their turn here.
    notify(waiter, "follow", "ana opened a table you follow", url="/tables/", key="elsewhere")
    while game.to_act == [first]:  # a draw may leave the mover a decision first
        game = advance(game, 1)
    assert game.to_act == [1 - first]
    (turn,) = Notification.objects.filter(user=waiter, key=turn_key(game.pk, 1 - first))
    assert turn.read_at is None

    answer = browser.get(f"/games/{game.pk}/board", {"version": str(version)}, **HTMX)
    assert answer.status_code == 200
    # The notice from elsewhere is counted; the turn on the board in front of them is read.
    assert bells(answer.content.decode()) == ["Notifications, 1 unread (oob)"]
    turn.refresh_from_db()
    assert turn.read_at is not None
    # Nothing new: the poll answers 204, with nothing drawn.
    still = browser.get(f"/games/{game.pk}/board", {"version": str(game.version)}, **HTMX)
    assert still.status_code == 204 and still.content == b""

    # A page load draws the bell once, not out of band.
    assert bells(signed_in(mover).get(f"/games/{game.pk}/").content.decode()) == ["Notifications"]


def test_a_signed_in_spectator_gets_their_own_bell_and_writes_at_most_now_and_then(eager_tasks):
    """A spectator holds no seat: the fresh board brings their own bell (nothing of the
    players'), and marks their notices of the game read only as the 204 poll does, at most every
    GAMES_PRESENCE_WRITE_SECONDS, not at every move of a game they watch."""
    game, people = people_game(FAMILIES["official"], seats=2)
    game.refresh_from_db()
    watcher = make_user()
    notify(watcher, "follow", "ana started a game", url=f"/games/{game.pk}/", key="s", game=game.pk)
    browser = signed_in(watcher)
    version = game.version
    game = advance(game, 1)
    first = browser.get(f"/games/{game.pk}/board", {"version": str(version)}, **HTMX)
    assert bells(first.content.decode()) == ["Notifications (oob)"]  # read: it is this game's
    notify(watcher, "follow", "ben opened a table", url="/tables/", key="elsewhere")
    version = game.version
    game = advance(game, 1)
    with CaptureQueriesContext(connection) as second:
        answer = browser.get(f"/games/{game.pk}/board", {"version": str(version)}, **HTMX)
    assert bells(answer.content.decode()) == ["Notifications, 1 unread (oob)"]
    # (A prepared statement's read is recorded without its SQL: games/prepared.py.)
    sql = [q["sql"] for q in second.captured_queries if q["sql"] is not None]
    assert [text for text in sql if not text.startswith("SELECT")] == []
    # Signed out, no bell at all.
    anonymous = Client().get(f"/games/{game.pk}/board", {"version": "0"}, **HTMX)
    assert anonymous.status_code == 200 and bells(anonymous.content.decode()) == []
