"""A closed chat learns that something was said from the board's poll (web/play.py live_board):
its answer, 204 or the board, carries the game's newest message (`X-Chat-Newest`), read in the
statement that reads the game's version, so the poll costs no more queries than it did; the
play page's closed chat starts from the newest message it shows (static/games.js marks the
toggle from there)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat import table
from tests.games.factories import make_game
from tests.web.clients import signed_in

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def poll(client, game, version):
    return client.get(f"/games/{game.pk}/board", {"version": str(version)}, **HTMX)


def test_the_board_poll_says_the_newest_message_in_the_same_statement():
    game = make_game(players=2, bots=["greedy"])
    ana, ben = [seat.user for seat in game.seats.order_by("number") if seat.user is not None]
    client = signed_in(ben)
    game.refresh_from_db()
    assert poll(client, game, game.version)["X-Chat-Newest"] == "0"
    with CaptureQueriesContext(connection) as quiet:
        assert poll(client, game, game.version).status_code == 204
    table.post(game_id=game.pk, author=ana, text="your move")
    table.post(game_id=game.pk, author=ana, text="still there?")
    with CaptureQueriesContext(connection) as told:
        answer = poll(client, game, game.version)
    assert answer.status_code == 204 and answer["X-Chat-Newest"] == "2"
    # Told in the read of the game's version: not one query more than a poll with nothing said.
    assert len(told) == len(quiet)
    assert any(
        "chat_message" in q["sql"] and '"version"' in q["sql"] for q in told.captured_queries
    )
    # A board that moved says it too.
    moved = poll(client, game, game.version - 1)
    assert moved.status_code == 200 and moved["X-Chat-Newest"] == "2"


def test_the_closed_chat_starts_from_the_newest_message_it_shows():
    game = make_game(players=2, bots=["greedy"])
    ana, ben = [seat.user for seat in game.seats.order_by("number") if seat.user is not None]
    table.post(game_id=game.pk, author=ana, text="hello")
    html = signed_in(ben).get(f"/games/{game.pk}/").content.decode()
    details = re.search(r'<details id="chat"[^>]*>', html).group(0)
    assert f'data-chat-url="/games/{game.pk}/chat"' in details
    assert 'data-chat-last="1"' in details and " open" not in details
    assert '<span class="chat__new" data-chat-new hidden></span>' in html
