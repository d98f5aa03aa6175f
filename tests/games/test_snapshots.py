"""games/snapshots.py and repository.state: a snapshot and the events after it give exactly
the state the whole log replays to; a snapshot of another engine, one that does not decode and
one a rolled-back transaction made are never used; racing commands leave only true snapshots."""

from __future__ import annotations

import json
import random
import shutil
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import MATCH_OVER, Variant
from games import event_reads, recent, snapshots
from games.commands import game_command
from games.errors import Conflict
from games.models import Game, Snapshot
from games.repository import repository
from games.visibility import game_view
from tests.engine.test_properties import NEW_SEATS, SEATS, SPECS, Choices, draw_command, fits
from tests.games.conftest import needs_postgresql, run_in_threads
from tests.games.factories import bot_move, make_game, play_turn

# Matches that go on: every test here wants a long log, not a match end.
LONG = {"rules": "official", "options": {"target": 100_000}}


@pytest.fixture(autouse=True)
def no_recent_states(settings: Any) -> Iterator[None]:
    """Loads as a process that has not seen the game makes them: from the snapshots and the
    log, not from this process's own newest state (games/recent.py, tests/games/test_recent.py)."""
    settings.RECENT_STATES = 0
    recent.forget()
    yield
    recent.forget()


@pytest.fixture
def every(monkeypatch: pytest.MonkeyPatch) -> int:
    """Snapshots every 7 events, so a short test game writes many."""
    monkeypatch.setattr(snapshots, "EVERY", 7)
    return 7


# ------------------------------------------------------------- the engine's state round-trips


@pytest.mark.parametrize("family", sorted(SPECS))
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_a_snapshot_and_the_events_after_it_replay_to_the_whole_log(family, data):
    """Random games of every family (precognitive and censorship too): at random cuts, the state
    encoded, decoded and folded on with the rest of the log equals the log replayed whole."""
    spec = data.draw(st.sampled_from(SPECS[family]), label="spec")
    seats = data.draw(NEW_SEATS.get(family, SEATS), label="seats")
    assume(fits(spec, seats))
    variant = Variant.from_spec(spec)
    ages = None
    if family == "newno":
        ages = data.draw(st.none() | st.lists(st.integers(0, 3), min_size=seats, max_size=seats))
    log = variant.start(seats, seed=data.draw(st.integers(0, 2**32), label="seed"), ages=ages)
    state = variant.replay(log)
    choices = Choices(data)
    for _ in range(data.draw(st.integers(0, 250), label="commands")):
        if state.status == MATCH_OVER:
            break
        events = variant.decide(state, draw_command(choices, variant, state))
        state = variant.replay(events, state)
        log += events
    whole = variant.replay(log)
    cuts = data.draw(st.lists(st.integers(1, len(log)), min_size=1, max_size=6), label="cuts")
    for cut in cuts:
        at = variant.replay(log[:cut])
        text = snapshots.encode(log[0], at)
        json.loads(text)  # plain JSON text
        started, restored = snapshots.decode(text)
        assert started == log[0]
        assert restored == at
        assert type(restored) is type(at)
        assert variant.replay(log[cut:], restored) == whole


def test_a_state_the_format_cannot_hold_is_refused():
    variant = Variant.from_spec(LONG)
    log = variant.start(2, seed=1)
    state = variant.replay(log)
    state.extra = {"odd": object()}
    with pytest.raises(snapshots.SnapshotError):
        snapshots.encode(log[0], state)


def test_snapshots_are_due_at_each_multiple_of_every_a_fold_passes(every):
    assert snapshots.due(0, every - 1) is None
    assert snapshots.due(0, every) == every
    assert snapshots.due(0, 3 * every + 2) == 3 * every
    assert snapshots.due(every, 2 * every - 1) is None
    assert snapshots.due(every, 2 * every) == 2 * every


def test_the_fingerprint_changes_with_any_change_to_the_engines_code(tmp_path):
    copy = tmp_path / "engine"
    shutil.copytree(snapshots.ENGINE_ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    same = snapshots._fingerprint(copy)
    assert len(same) == 64
    state_py = copy / "state.py"
    state_py.write_text(state_py.read_text() + "\n# another representation\n")
    assert snapshots._fingerprint(copy) != same


# ------------------------------------------------------------------------ in the database


def whole_log(game: Game) -> tuple[Variant, list[dict[str, Any]]]:
    events = event_reads.load(game.pk)
    return Variant.from_stream(events[0]), events


def play(game: Game, turns: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        play_turn(game.pk, rng)


def put(game: Game, version: int, text: str, fingerprint: str = snapshots.FINGERPRINT) -> None:
    Snapshot.objects.create(
        game=game, fingerprint=fingerprint, version=version, state=text, written_at=timezone.now()
    )


def check_every_snapshot(game: Game) -> None:
    """Each snapshot of the game is the state its log replays to at its version."""
    variant, events = whole_log(game)
    for row in Snapshot.objects.filter(game=game):
        _, state = snapshots.decode(row.state)
        assert state == variant.replay(events[: row.version]), row.version


@pytest.mark.django_db(transaction=True)
def test_a_long_game_loads_the_same_state_at_every_version(every):
    game = make_game(spec=LONG, seed=5)
    play(game, 40)
    game.refresh_from_db()
    variant, events = whole_log(game)

    # Kept by the players' loads as they passed multiples of EVERY (the last command's events
    # may have passed one more, which no load has folded yet).
    kept = sorted(Snapshot.objects.filter(game=game).values_list("version", flat=True))
    assert kept == list(range(every, kept[-1] + 1, every))
    assert kept[-1] > game.version - 2 * every
    for at in range(1, game.version + 1):
        _, state, version = repository.state(game, until=at)
        assert version == at
        assert state == variant.replay(events[:at]), at
    _, state, version = repository.state(game)
    assert (state, version) == (variant.replay(events), game.version)
    kept = sorted(Snapshot.objects.filter(game=game).values_list("version", flat=True))
    assert kept == list(range(every, game.version + 1, every))
    check_every_snapshot(game)


@pytest.mark.django_db(transaction=True)
def test_a_load_folds_only_the_events_after_the_newest_snapshot(every):
    game = make_game(spec=LONG, seed=6)
    play(game, 10)
    game.refresh_from_db()
    snapshots.forget(game.pk)
    variant, events = whole_log(game)
    at = game.version - 3
    marked = variant.replay(events[:at])
    # A false score no event gives: seen only if the load starts from this snapshot.
    marked.scores = [4242] * len(marked.scores)
    put(game, at, snapshots.encode(events[0], marked))

    _, state, version = repository.state(game)

    assert version == game.version
    assert state.scores == [4242] * len(state.scores)
    assert state.hands == variant.replay(events).hands
    # Below the snapshot's version it is not used.
    assert repository.state(game, until=at - 1)[1] == variant.replay(events[: at - 1])


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_of_another_engine_is_ignored_and_dropped(every):
    game = make_game(spec=LONG, seed=7)
    play(game, 4)
    game.refresh_from_db()
    snapshots.forget(game.pk)
    variant, events = whole_log(game)
    wrong = variant.replay(events)
    wrong.scores = [4242] * len(wrong.scores)
    put(game, game.version, snapshots.encode(events[0], wrong), fingerprint="0" * 64)

    _, state, _ = repository.state(game)

    assert state == variant.replay(events)
    # That load folded the whole log, past multiples of EVERY: it kept its own snapshot at the
    # last one and dropped the other engine's.
    assert game.version >= every
    rows = list(Snapshot.objects.filter(game=game).values_list("fingerprint", "version"))
    assert rows == [(snapshots.FINGERPRINT, game.version - game.version % every)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        json.dumps({"started": {}, "state": {"seats": 2}}),
        json.dumps({"started": {}, "state": {"seats": {"bag": [1]}}}),
    ],
    ids=["not-json", "missing-fields", "unknown-kind"],
)
def test_a_snapshot_that_does_not_decode_falls_back_to_the_log(every, text, caplog):
    game = make_game(spec=LONG, seed=8)
    play(game, 4)
    game.refresh_from_db()
    snapshots.forget(game.pk)
    put(game, game.version, text)
    variant, events = whole_log(game)

    _, state, version = repository.state(game)

    assert (state, version) == (variant.replay(events), game.version)
    assert "ignored" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_load_inside_a_transaction_keeps_no_snapshot(every):
    game = make_game(spec=LONG, seed=9)
    play(game, 4)
    game.refresh_from_db()
    snapshots.forget(game.pk)

    # Its events could still roll back (here they are all committed; the rule does not ask).
    with pytest.raises(RuntimeError), transaction.atomic():
        repository.state(game)
        raise RuntimeError("rolled back")
    with transaction.atomic():
        repository.state(game)
    assert not Snapshot.objects.filter(game=game).exists()

    repository.state(game)
    mark = game.version - game.version % every
    assert list(Snapshot.objects.filter(game=game).values_list("version", flat=True)) == [mark]


@pytest.mark.django_db(transaction=True)
def test_snapshots_may_be_deleted_at_any_time(every):
    game = make_game(spec=LONG, seed=10)
    play(game, 12)
    assert snapshots.forget() > 0
    play(game, 3, seed=1)
    game.refresh_from_db()
    variant, events = whole_log(game)
    assert repository.state(game)[1] == variant.replay(events)
    assert game_view(game_id=game.pk, viewer=None)["version"] == game.version


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_commands_racing_one_conflicts_and_every_snapshot_is_true(every):
    game = make_game(spec=LONG, seed=11)
    rounds = 15
    barrier = threading.Barrier(2)

    def write(i: int) -> list[str]:
        rng = random.Random(i)
        outcomes = []
        for _ in range(rounds):
            actor, command, version = bot_move(game.pk, rng)
            barrier.wait(timeout=30)
            try:
                game_command(
                    game_id=game.pk,
                    actor=actor,
                    command=command,
                    expected_version=version,
                    command_id=f"racer-{i}-at-{version}",
                )
                outcomes.append("applied")
            except Conflict:
                outcomes.append("conflict")
            barrier.wait(timeout=30)
        return outcomes

    outcomes = run_in_threads(2, write)

    for round_ in zip(*outcomes, strict=True):
        assert sorted(round_) == ["applied", "conflict"]
    game.refresh_from_db()
    variant, events = whole_log(game)
    assert len(events) == game.version
    assert repository.state(game)[1] == variant.replay(events)
    assert Snapshot.objects.filter(game=game).count() >= 2
    check_every_snapshot(game)
