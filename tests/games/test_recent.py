"""games/recent.py and repository.state: a process's own newest state of a game spares a load
the log, and is never another state than the log's: not after a write it did not see, not after
a rollback, not for another game under a reused id; snapshots are still kept for the others."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from engine import Variant
from games import event_reads, recent, snapshots
from games.commands import game_command
from games.models import Game, Snapshot
from games.repository import repository
from games.visibility import game_view
from tests.games.factories import bot_move, make_game, play_turn

LONG = {"rules": "official", "options": {"target": 100_000}}

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    recent.forget()
    yield
    recent.forget()


def log_state(game: Game, until: int | None = None) -> tuple[object, int]:
    """The state the whole log replays to, and its version: the truth a load must equal."""
    events = event_reads.load(game.pk, until=until)
    return Variant.from_stream(events[0]).replay(events), len(events)


def event_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "games_gameevent" in q["sql"]]


def test_a_load_after_this_processs_command_reads_no_event() -> None:
    game = make_game(spec=LONG, seed=3)
    play_turn(game.pk, random.Random(1))
    game = Game.objects.get(pk=game.pk)

    with CaptureQueriesContext(connection) as queries:
        _, state, version = repository.state(game)
        view = game_view(game_id=game.pk, viewer=game.seats.get(number=0).user, game=game)

    assert event_queries(queries) == []
    assert (state, version) == log_state(game)
    assert view["version"] == game.version


def test_events_another_process_wrote_are_read_and_folded(settings) -> None:
    game = make_game(spec=LONG, seed=4)
    rng = random.Random(2)
    play_turn(game.pk, rng)
    kept_at = Game.objects.get(pk=game.pk).version
    # Another process: its commands never reach this process's memory.
    settings.RECENT_STATES = 0
    for _ in range(3):
        play_turn(game.pk, rng)
    settings.RECENT_STATES = 1000
    game = Game.objects.get(pk=game.pk)
    assert recent.get(game, game.version).version == kept_at < game.version

    with CaptureQueriesContext(connection) as queries:
        _, state, version = repository.state(game)

    assert (state, version) == log_state(game)
    assert len(event_queries(queries)) == 1  # only the events after the state kept
    assert recent.get(game, game.version).version == game.version


def test_a_command_rolled_back_is_not_kept() -> None:
    game = make_game(spec=LONG, seed=5)
    rng = random.Random(3)
    play_turn(game.pk, rng)
    before = Game.objects.get(pk=game.pk).version
    with pytest.raises(RuntimeError), transaction.atomic():
        play_turn(game.pk, rng)
        raise RuntimeError("the caller's transaction fails after the command")
    game = Game.objects.get(pk=game.pk)
    assert game.version == before
    assert recent.get(game, 10**9).version == before

    # Another command takes the version the rolled-back one had: the load sees the log's.
    play_turn(game.pk, random.Random(99))
    game = Game.objects.get(pk=game.pk)
    _, state, version = repository.state(game)
    assert (state, version) == log_state(game)


def test_an_older_version_is_never_answered_from_a_newer_state() -> None:
    game = make_game(spec=LONG, seed=6)
    rng = random.Random(4)
    for _ in range(3):
        play_turn(game.pk, rng)
    game = Game.objects.get(pk=game.pk)
    at = game.version - 2
    assert recent.get(game, at) is None
    _, state, version = repository.state(game, until=at)
    assert (state, version) == log_state(game, until=at)


def test_another_game_under_the_same_id_is_not_answered() -> None:
    game = make_game(spec=LONG, seed=7)
    play_turn(game.pk, random.Random(5))
    game = Game.objects.get(pk=game.pk)
    assert recent.get(game, game.version) is not None
    # The same id, another creation time: a row made after the first was deleted (SQLite).
    game.created_at += timedelta(microseconds=1)
    assert recent.get(game, game.version) is None


def test_each_process_keeps_at_most_its_setting(settings) -> None:
    settings.RECENT_STATES = 2
    games = [make_game(spec=LONG, seed=n) for n in range(3)]
    for game in games:
        repository.state(Game.objects.get(pk=game.pk))
    kept = [recent.get(Game.objects.get(pk=game.pk), 10**9) for game in games]
    assert [found is not None for found in kept] == [False, True, True]
    settings.RECENT_STATES = 0
    recent.forget()
    repository.state(Game.objects.get(pk=games[0].pk))
    assert recent.get(Game.objects.get(pk=games[0].pk), 10**9) is None


def test_snapshots_are_still_kept_for_the_other_processes(monkeypatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 7)
    game = make_game(spec=LONG, seed=8)
    rng = random.Random(6)
    for _ in range(30):
        actor, command, version = bot_move(game.pk, rng)
        game_command(game_id=game.pk, actor=actor, command=command, expected_version=version)
    game = Game.objects.get(pk=game.pk)
    repository.state(game)

    kept = sorted(Snapshot.objects.filter(game=game).values_list("version", flat=True))
    # Every multiple of EVERY the game passed has its snapshot, as without the states kept here.
    assert kept == list(range(7, game.version + 1, 7))
    variant, events = Variant.from_stream(event_reads.load(game.pk)[0]), event_reads.load(game.pk)
    for row in Snapshot.objects.filter(game=game):
        assert snapshots.decode(row.state)[1] == variant.replay(events[: row.version])
