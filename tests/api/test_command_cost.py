"""What a command costs its request (issue 16; docs/performance.md, "API"): the queries of a
person's and a pull bot's command and of the reads before them, the dispatch a worker does
instead of the request, and the commands' throttles in one round trip to Redis.

Query counts include the SAVEPOINT and RELEASE around the append: a test runs inside a
transaction, where the store's append takes a savepoint (in a real request it is a transaction of
its own, two queries fewer)."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
import redis
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.services import token_issue
from bots.remote import tokens
from frontdoor.throttles import PersonCommandThrottle
from games import dispatch
from games.creation import SeatSpec, game_create
from games.models import Bot, Game, Seat
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db

# On SQLite (`make test` without DATABASE_URL) the append is three statements, not one: the
# position counter's, the game's and the events' (games/appends.py).
SQLITE = connection.vendor == "sqlite"
APPEND_EXTRA = 2 if SQLITE else 0
# A person's command: the token, the game with its seats (one query), the log, the append, and
# the person's presence at the game (clocks/presence.py: one statement, at most every
# GAMES_PRESENCE_WRITE_SECONDS per person and game in a process; here the first).
PERSON_COMMAND_QUERIES = 4 + 2 + 1 + APPEND_EXTRA
# A pull bot's: the bot with its owner (one query), the game, the log, the append, and the
# bot's call stats (bots/remote/strikes.py: the call's row and the counters, one statement on
# PostgreSQL, two on SQLite).
BOT_COMMAND_QUERIES = 5 + 2 + APPEND_EXTRA + (1 if SQLITE else 0)


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch, broker_tasks: None) -> list[int]:
    """The games whose dispatch the requests handed to a worker (dispatch.hand_over)."""
    sent: list[int] = []
    monkeypatch.setattr(dispatch, "hand_over", sent.append)
    return sent


def people_game() -> tuple[Game, list[APIClient]]:
    people = [make_user(), make_user()]
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(user=p) for p in people], seed=3)
    clients = []
    for person in people:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=person)}")
        clients.append(client)
    return game, clients


def a_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return next(command for command in legal if command["type"] in ("play", "draw"))


def test_a_persons_command_reads_once_and_leaves_the_dispatch_to_a_worker(
    dispatched, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    game, clients = people_game()
    clients[0].get(f"/api/games/{game.pk}")  # the token's first use notes when (once a minute)
    # The token and the game read (whether a grace it holds is over is the read game's: a
    # script's poll ends it, api/games.py).
    with django_assert_max_num_queries(3):
        detail = clients[0].get(f"/api/games/{game.pk}").json()
    assert detail["my_seats"] == [0] and detail["view"]["to_act"] == [0]
    body = {"command": a_move(detail["legal"]), "expected_version": detail["version"]}

    with (
        django_assert_max_num_queries(PERSON_COMMAND_QUERIES),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = clients[0].post(f"/api/games/{game.pk}/commands", body, format="json")

    assert response.status_code == 200, response.json()
    # The request sent one task and started no clock: that is the worker's job.
    assert dispatched == [game.pk]
    assert not Seat.objects.filter(game=game, deadline_at__isnull=False).exists()
    to_act = Game.objects.get(pk=game.pk).to_act
    dispatch.dispatch_append(game.pk)  # what the worker runs
    clocked = Seat.objects.filter(game=game, deadline_at__isnull=False)
    assert [seat.number for seat in clocked] == to_act


def test_the_workers_dispatch_of_a_turn_reads_the_game_once():
    game, _ = people_game()
    assert not Seat.objects.filter(game=game, deadline_at__isnull=False).exists()
    with CaptureQueriesContext(connection) as queries:
        dispatch.dispatch_append(game.pk)  # what the worker runs: the first turn's clock starts

    sql = [q["sql"] or "" for q in queries]
    # One read of the seats with their game, bots and people, for the bot check and the clocks,
    # and the clock's own write.
    reads = [q for q in sql if 'FROM "games_seat"' in q]
    assert len(reads) == 1, reads
    assert any(q.startswith('UPDATE "games_seat"') for q in sql), sql
    clocked = Seat.objects.filter(game=game, deadline_at__isnull=False)
    assert [seat.number for seat in clocked] == Game.objects.get(pk=game.pk).to_act


def test_a_persons_command_sends_a_task_unless_the_worker_would_find_nothing(
    dispatched, django_capture_on_commit_callbacks
):
    game, clients = people_game()
    dispatch.dispatch_append(game.pk)  # the worker starts the first turn's clock
    rng = random.Random(5)
    quiet = sent = 0
    for _ in range(60):
        seat = Game.objects.get(pk=game.pk).to_act[0]
        detail = clients[seat].get(f"/api/games/{game.pk}").json()
        if detail["status"] != "playing":
            break
        legal = [
            c
            for c in detail["legal"]
            if c.get("seat") == seat and c["type"] not in ("catch", "call-uno")
        ]
        body = {"command": rng.choice(legal), "expected_version": detail["version"]}
        dispatched.clear()
        with django_capture_on_commit_callbacks(execute=True):
            response = clients[seat].post(f"/api/games/{game.pk}/commands", body, format="json")
        assert response.status_code == 200, response.json()
        clocks = list(Seat.objects.filter(game=game).values_list("number", "deadline_at"))
        dispatch.dispatch_append(game.pk)  # what the worker would run, sent or not
        if dispatched:
            sent += 1
        else:
            # No task: the worker, had it run, would have changed no clock.
            assert list(Seat.objects.filter(game=game).values_list("number", "deadline_at")) == (
                clocks
            )
            quiet += 1
    # Both happen: a drawer who still decides keeps their clock; a move that hands the turn
    # over stops one clock and starts another.
    assert quiet and sent


def test_a_pull_bots_command_reads_the_bot_and_the_game_once(
    dispatched, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    bot = Bot.objects.create(
        owner=make_user(), name="poller", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(registered=bot)] * 2, seed=3)
    decision = next(d for d in client.get("/api/bot/decisions").json() if not d["optional"])
    body = {"command": a_move(decision["legal"]), "expected_version": decision["version"]}

    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")

    assert response.status_code == 200, response.json()
    assert len(queries) <= BOT_COMMAND_QUERIES, [(q["sql"] or "")[:80] for q in queries]
    # The append is a prepared statement (games/appends.py): captured without its text.
    sql = [query["sql"] or "" for query in queries]
    assert sum('FROM "games_game"' in q or 'FROM "games_seat"' in q for q in sql) == 1
    # The owner (request.user) comes with the bot.
    assert not any('FROM "auth_user"' in q for q in sql)
    # A game of pull bots only asks nothing of the workers: no task (asks_no_worker).
    assert dispatched == []
    bot.refresh_from_db()
    assert bot.calls == 1


def pull_bot(name: str, status: str = Bot.Status.ACTIVE) -> tuple[Bot, APIClient]:
    bot = Bot.objects.create(owner=make_user(), name=name, kind=Bot.Kind.PULL, status=status)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    return bot, client


@pytest.mark.parametrize("other", ["person", "builtin", "suspended pull bot", "pull bot"])
def test_a_pull_bots_command_is_dispatched_unless_only_pull_bots_play(
    other: str, dispatched, django_capture_on_commit_callbacks
):
    bot, client = pull_bot("mover")
    seat = {
        "person": lambda: SeatSpec(user=make_user()),
        "builtin": lambda: SeatSpec(bot="greedy"),
        "suspended pull bot": lambda: SeatSpec(registered=pull_bot("s", "suspended")[0]),
        "pull bot": lambda: SeatSpec(registered=pull_bot("p")[0]),
    }[other]()
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(registered=bot), seat], seed=3)
    Game.objects.filter(pk=game.pk).update(to_act=[0])  # the bot's turn, whoever dealt
    decision = next((d for d in client.get("/api/bot/decisions").json() if not d["optional"]), None)
    if decision is None:
        pytest.skip("the deal left the bot no turn")  # never with seed 3 (asserted below)
    body = {"command": a_move(decision["legal"]), "expected_version": decision["version"]}

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")

    assert response.status_code == 200, response.json()
    assert dispatched == ([] if other == "pull bot" else [game.pk])


def test_the_commands_throttle_counts_in_one_round_trip_and_not_the_refused(
    settings, redis_url, monkeypatch
):
    prefix = f"test-throttle-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    settings.API_PERSON_COMMANDS_RATE = "3/min"
    game, clients = people_game()
    stale = {"command": {"type": "draw", "seat": 0}, "expected_version": 0}
    url = f"/api/games/{game.pk}/commands"
    clients[0].get(f"/api/games/{game.pk}")  # the token's first use, out of the way
    trips: list[str] = []
    pipelined, single = redis.client.Pipeline.execute, redis.client.Redis.execute_command

    def pipeline_execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append("pipeline")
        return pipelined(self, *args, **kwargs)

    def execute_command(self: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(str(args[0]))
        return single(self, *args, **kwargs)

    with redis.Redis.from_url(redis_url) as server:
        try:
            with monkeypatch.context() as spying:
                spying.setattr(redis.client.Pipeline, "execute", pipeline_execute)
                spying.setattr(redis.client.Redis, "execute_command", execute_command)
                assert clients[0].post(url, stale, format="json").status_code == 409
                # The count's script (INCR, EXPIRE, and GET of the previous window), loaded first
                # on a Redis that had not seen it.
                assert trips in (["EVALSHA"], ["EVALSHA", "SCRIPT LOAD", "EVALSHA"])
                trips.clear()
                assert clients[0].post(url, stale, format="json").status_code == 409
            # Then one command, nothing else.
            assert trips == ["EVALSHA"]
            assert clients[0].post(url, stale, format="json").status_code == 409
            for _ in range(3):
                refused = clients[0].post(url, stale, format="json")
                assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
            counts = [int(server.get(key)) for key in server.keys(f"{prefix}:*")]
            assert counts == [3]  # the refused requests were not counted
            # The other person has a count of their own.
            assert clients[1].post(url, stale, format="json").status_code == 403
        finally:
            for key in server.keys(f"{prefix}:*"):
                server.delete(key)


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_the_window_slides_the_previous_minutes_requests_out_gradually(settings):
    settings.API_PERSON_COMMANDS_RATE = "10/min"
    person = make_user()
    request = type("Request", (), {"user": person})()
    clock = Clock(60 * 1000 + 59.0)  # the last second of a minute

    def allowed() -> bool:
        throttle = PersonCommandThrottle()
        throttle.timer = clock
        return throttle.allow_request(request, None)

    assert [allowed() for _ in range(11)] == [True] * 10 + [False]
    # Half into the next minute, half of the last minute's 10 still count: 5 more.
    clock.now = 60 * 1001 + 30.0
    assert [allowed() for _ in range(6)] == [True] * 5 + [False]
    throttle = PersonCommandThrottle()
    throttle.timer = clock
    assert not throttle.allow_request(request, None)
    # One more slot when a tenth of the last minute's weight (6 s) has slid out.
    assert throttle.wait() == pytest.approx(6.0)
    clock.now += 6.01
    assert allowed()
