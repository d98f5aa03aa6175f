"""What a move from the play page costs (issue 29, item 4): the command reads the game and its
seats once, the board is drawn from what the command built, and the story reads a bounded tail
of the log, however long the match. The ceilings hold the POST (with htmx: the board comes
back; without: a redirect) and the board's refresh (the page, and the live poll once the game
moved), on a short game and on one past its snapshots (a load reads the snapshot too).

A test runs inside a transaction, so these are the counts without a process's recent state or
a snapshot (games/recent.py and games/snapshots.py keep none inside one): each load reads the
log. They include the session and the user of the test client's login, and the SAVEPOINT and
RELEASE around the append (in a real request it is a transaction of its own)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.lobby import game_detail
from games.models import Game
from games.visibility import game_events
from tests.web.clients import signed_in
from tests.web.tables import FAMILIES, advance, people_game
from web import board, story
from web.names import seat_names
from web.play import STORY_EVENTS, STORY_LINES

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Today's figures, before issue 29 (short game / 687 events): the htmx POST 13 / 15, the plain
# POST 8 / 9, the page 7 / 8, the live board 8 / 9.
# On SQLite (`make test` without DATABASE_URL) the append is three statements, not one
# (games/appends.py).
APPEND_EXTRA = 2 if connection.vendor == "sqlite" else 0
# The person's presence at the game (clocks/presence.py): one statement, at most every
# GAMES_PRESENCE_WRITE_SECONDS per person and game in a process: each person's first request here.
PRESENCE = 1
# The person's activity on the site (frontdoor/activity.py): one statement, at most every
# GAMES_SITE_WRITE_SECONDS per session in a process: each new session's first request here.
ACTIVE = 1
# A board drawn for htmx (the POST's, the poll's once the game moved) brings the header's bell
# again (templates/_bell.html): one count on the index of unread rows, after the game's own
# notices are marked read, which the page, a fresh board and a move do at once (web/notices.py
# `seen_now`), not at most every GAMES_PRESENCE_WRITE_SECONDS.
BELL = 1
HTMX_POST = 10 + PRESENCE + ACTIVE + BELL + APPEND_EXTRA
PLAIN_POST = 9 + PRESENCE + ACTIVE + APPEND_EXTRA
# The page also reads whether the person muted the game's emails (its mute form), counts their
# unread notices for the bell in its header (web/bell.py: one count on an index), and its chat
# panel reads whom the person mutes, the newest messages and whether the person may chat
# (web/chat.py).
CHAT = 3
PAGE = 6 + 1 + PRESENCE + BELL + CHAT
LIVE_BOARD = 7 + PRESENCE + BELL


def a_move(game: Game, people: list, command_id: str) -> tuple[Client, dict]:
    seat = game.to_act[0]
    legal = game_detail(game_id=game.pk, viewer=people[seat], seat=seat)["legal"]
    move = next(c for c in legal if c["type"] in ("play", "draw", "pass"))
    data = {
        "command": json.dumps(move),
        "expected_version": game.version,
        "command_id": command_id,
    }
    return signed_in(people[seat]), data


@pytest.mark.parametrize("moves", [2, 300])
def test_a_move_and_the_refresh_stay_under_their_query_ceilings(
    moves, broker_tasks, django_assert_max_num_queries
):
    game, people = people_game(FAMILIES["official"])
    game = advance(game, moves)
    url = reverse("web:command", args=[game.pk])

    client, data = a_move(game, people, "q1")
    with django_assert_max_num_queries(HTMX_POST):
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200 and b'role="alert"' not in response.content
    game.refresh_from_db()
    assert game.version > data["expected_version"]

    client, data = a_move(game, people, "q2")
    with django_assert_max_num_queries(PLAIN_POST):
        response = client.post(url, data)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version > data["expected_version"]

    with django_assert_max_num_queries(PAGE):
        assert client.get(response["Location"]).status_code == 200
    with django_assert_max_num_queries(LIVE_BOARD):
        live = client.get(reverse("web:board", args=[game.pk]), {"version": "1"}, **HTMX)
    assert live.status_code == 200


def test_the_board_after_a_command_is_the_board_a_refresh_shows(broker_tasks):
    game, people = people_game(FAMILIES["official"])
    game = advance(game, 120)
    client, data = a_move(game, people, "q3")
    after_command = client.post(reverse("web:command", args=[game.pk]), data, **HTMX)
    refreshed = client.get(reverse("web:board", args=[game.pk]), **HTMX)
    # The command id and the announcement are each response's own.
    strip = [b"command_id", b"aria-live", b'id="announce"']

    def lines(html: bytes) -> list[bytes]:
        return [line for line in html.splitlines() if not any(s in line for s in strip)]

    assert lines(after_command.content) == lines(refreshed.content)


# 40 and 150 moves: a log within STORY_EVENTS (web/play.py); 400: past it, the tail alone is read.
# 700 (more hands past it) only in the slow run.
@pytest.mark.parametrize("moves", [40, 150, 400, pytest.param(700, marks=pytest.mark.slow)])
def test_the_storys_tail_is_the_whole_storys_newest_lines(moves, broker_tasks):
    game, people = people_game(FAMILIES["official"])
    game = advance(game, moves)
    client = signed_in(people[0])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("web:play", args=[game.pk]))
    # The story reads the log's tail (and the last hand's result), never the whole of a long log.
    tails = [q["sql"] for q in queries if (q["sql"] or "").startswith("SELECT version, type")]
    assert len(tails) == 1
    assert ("version > 0 " in tails[0]) == (game.version <= STORY_EVENTS)
    names = seat_names(game_detail(game_id=game.pk, viewer=people[0])["seats"])
    everything = game_events(game_id=game.pk, viewer=people[0])
    told = response.context["story"]
    assert told == story.tell(everything, names, 0)[:STORY_LINES]
    assert response.context["last_hand"] == board.hand_result(everything, names, 0)
