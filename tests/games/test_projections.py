"""games.projections: the runner, exactly-once checkpoints, rebuilds, and the game read models."""

from __future__ import annotations

import random
import re
import threading
import time
from collections import defaultdict
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bots.simulation import play_match
from bots.strategies import find_strategy
from engine import Variant
from games import appends, event_reads, projections, rebuilds
from games.models import (
    Game,
    GameEvent,
    GameSummary,
    HandResult,
    MatchResult,
    ProjectionCheckpoint,
)
from games.projections import Projection, Record
from tests.games.conftest import needs_postgresql, run_in_threads
from tests.games.factories import make_game, play_to_end, play_turn

pytestmark = pytest.mark.django_db

GAME_PROJECTIONS = ("game-results", "game-summaries")


def run_all(**kwargs: Any) -> None:
    for name in GAME_PROJECTIONS:
        projections.run(name, **kwargs)


def read_models() -> dict[str, list[dict[str, Any]]]:
    """Every row of every game read model, without surrogate keys, in a stable order."""
    return {
        "summaries": list(GameSummary.objects.order_by("game").values()),
        "hands": list(HandResult.objects.order_by("game", "hand_number").values()),
        "matches": list(MatchResult.objects.order_by("game").values()),
    }


def without_ids(models: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {
        name: [{k: v for k, v in row.items() if k != "id"} for row in rows]
        for name, rows in models.items()
    }


@pytest.fixture
def recorder():
    """A projection that notes every position it folds, and how many batches run at once."""

    class Recorder(Projection):
        name = "test-recorder"
        tables = ()
        handlers: dict = {}
        every_event = True
        seen: list[int] = []
        running = 0
        most_at_once = 0
        lock = threading.Lock()

        def begin(self, records: list[Record]) -> None:
            with Recorder.lock:
                Recorder.running += 1
                Recorder.most_at_once = max(Recorder.most_at_once, Recorder.running)
            Recorder.seen.extend(record.position for record in records)
            # Widen the window in which a second runner would overlap, if it could.
            time.sleep(0.002)

        def finish(self) -> None:
            with Recorder.lock:
                Recorder.running -= 1

    projections.register(Recorder)
    yield Recorder
    del projections.PROJECTIONS[Recorder.name]


def test_a_run_folds_a_game_into_its_summary():
    game = make_game(spec={"rules": "official"})
    rng = random.Random(1)
    for _ in range(25):
        play_turn(game.pk, rng)
    game.refresh_from_db()

    projections.run("game-summaries")

    summary = GameSummary.objects.get(game=game)
    state = Variant.from_spec(game.variant).replay(event_reads.load(game.pk))
    assert summary.status == state.status == game.status
    assert summary.to_act == list(state.to_act) == game.to_act
    assert summary.scores == state.scores
    assert summary.hand_number == state.hand_number == game.hand_number
    assert summary.version == game.version
    assert summary.last_activity == game.last_activity


def test_the_hand_and_match_results_are_those_of_the_log():
    game = make_game(seed=4)
    play_to_end(game.pk, seed=4)

    run_all()

    log = event_reads.load(game.pk)
    state = Variant.from_spec(game.variant).replay(log)
    ended = [e for e in log if e["type"] == "hand-ended"]
    hands = list(HandResult.objects.filter(game=game))
    assert [h.hand_number for h in hands] == list(range(1, state.hand_number + 1))
    assert [(h.winner, h.cards_left, h.points, h.gained, h.scores) for h in hands] == [
        (e["winner"], e["cards_left"], e["points"], e["gained"], e["scores"]) for e in ended
    ]
    result = MatchResult.objects.get(game=game)
    assert result.winner == state.winner
    assert result.places == state.places
    assert result.scores == state.scores
    assert result.hands_won == state.hands_won
    assert result.hands == state.hand_number
    assert GameSummary.objects.get(game=game).status == Game.Status.MATCH_OVER


def test_batches_of_one_event_fold_to_the_same_read_models():
    play_to_end(make_game(seed=4).pk, seed=4)
    run_all()
    folded = without_ids(read_models())
    for name in GAME_PROJECTIONS:
        projections.rebuild(name, batch_size=1)

    assert without_ids(read_models()) == folded


def test_run_all_reads_each_range_of_the_log_once_and_folds_what_each_run_would():
    game = make_game(seed=4)
    rng = random.Random(4)
    for _ in range(3):
        play_turn(game.pk, rng)
    # game-results ahead of the others: its range is read on its own.
    projections.run("game-results")
    play_to_end(game.pk, seed=4)

    with CaptureQueriesContext(connection) as queries:
        moved = projections.run_all()
    log_reads = [
        q["sql"]
        for q in queries
        if '"games_gameevent"."data"' in q["sql"] and "global_pos" in q["sql"]
    ]
    folded = without_ids(read_models())
    for name in GAME_PROJECTIONS:
        projections.rebuild(name)

    assert len(log_reads) == 2, [re.findall(r"> (\d+) AND .*<= (\d+)", sql) for sql in log_reads]
    assert without_ids(read_models()) == folded
    head = event_reads.head()
    assert moved > 0
    assert {row.name: row.position for row in ProjectionCheckpoint.objects.all()} == {
        name: head for name in projections.PROJECTIONS
    }
    assert projections.run_all() == 0


def test_a_batch_without_a_type_a_projection_handles_moves_its_checkpoint_and_folds_nothing():
    folded: list[list[int]] = []

    class HandEnds(Projection):
        name = "test-hand-ends"
        tables = ()

        def begin(self, records: list[Record]) -> None:
            folded.append([record.position for record in records])

        def hand_ended(self, record: Record) -> None:
            pass

        handlers = {"hand-ended": hand_ended}

    projections.register(HandEnds)
    try:
        game = make_game(seed=4)
        play_turn(game.pk, random.Random(4))  # a move: no hand ends
        moved = projections.run(HandEnds.name)
        play_turn(game.pk, random.Random(5))
        projections.run_all()  # passes over the move in one statement
        after_moves = ProjectionCheckpoint.objects.get(name=HandEnds.name).position
        head_after_moves = event_reads.head()
        play_to_end(game.pk, seed=4)
        projections.run_all()
    finally:
        del projections.PROJECTIONS[HandEnds.name]

    assert moved > 0
    assert after_moves == head_after_moves
    ends = GameEvent.objects.filter(type="hand-ended").values_list("global_position", flat=True)
    assert folded == [sorted(ends)]
    assert ProjectionCheckpoint.objects.get(name=HandEnds.name).position == event_reads.head()


def test_run_all_leaves_a_projection_being_rebuilt_where_its_rebuild_put_it():
    game = make_game(seed=4)
    projections.run_all()
    run = rebuilds.start(["game-results"])
    taken = ProjectionCheckpoint.objects.get(name="game-results")
    play_turn(game.pk, random.Random(4))  # no hand ends: a batch game-results would pass over

    projections.run_all()

    assert ProjectionCheckpoint.objects.get(name="game-results").position == taken.position
    assert ProjectionCheckpoint.objects.get(name="game-results").rebuilding_id == run.pk
    assert ProjectionCheckpoint.objects.get(name="game-summaries").position == event_reads.head()


def test_each_event_is_applied_once_however_often_the_runner_runs(recorder):
    game = make_game()
    projections.run(recorder.name)
    projections.run(recorder.name)
    first = list(recorder.seen)
    play_turn(game.pk, random.Random(1))

    moved = projections.run(recorder.name, batch_size=2)

    assert first == sorted(
        GameEvent.objects.filter(version__lte=first[-1]).values_list("global_position", flat=True)
    )
    assert recorder.seen == sorted(GameEvent.objects.values_list("global_position", flat=True))
    assert moved == len(recorder.seen) - len(first)
    assert ProjectionCheckpoint.objects.get(name=recorder.name).position == event_reads.head()


def test_status_shows_each_projection_s_lag_in_events():
    game = make_game()
    projections.run("game-summaries")
    play_turn(game.pk, random.Random(1))
    game.refresh_from_db()

    lags = {row.name: row.lag for row in projections.status()}

    assert lags["game-results"] == event_reads.head()
    assert 0 < lags["game-summaries"] < event_reads.head()
    assert (
        lags["game-summaries"]
        == GameEvent.objects.filter(
            global_position__gt=ProjectionCheckpoint.objects.get(name="game-summaries").position
        ).count()
    )


def test_an_unknown_projection_is_refused():
    with pytest.raises(projections.UnknownProjection, match="no projection 'nope'"):
        projections.run("nope")


def test_a_rebuild_replaces_read_models_that_went_wrong():
    game = make_game(seed=6)
    play_to_end(game.pk, seed=6)
    run_all()
    good = without_ids(read_models())
    GameSummary.objects.filter(game=game).update(status="playing", scores=[0, 0])
    MatchResult.objects.all().delete()

    for name in GAME_PROJECTIONS:
        projections.rebuild(name)

    assert without_ids(read_models()) == good


# Cheap variants and bots for the simulated-matches check, in turn.
MIX = [
    ({"rules": "official", "options": {"target": 50}}, ["greedy", "greedy"]),
    ({"rules": "basic-plus", "options": {"target": 50}}, ["greedy", "random", "greedy"]),
    (
        {"rules": "official", "options": {"target": 50, "scoring": "running-total"}},
        ["random", "greedy"],
    ),
]


# 120 matches (40 of each kind) in every CI run; the thousand with UNO_SLOW_TESTS=1.
@pytest.mark.parametrize("matches", [120, pytest.param(1000, marks=pytest.mark.slow)])
def test_simulated_matches_project_to_what_their_logs_replay_to(matches):
    played = []
    for seed in range(matches):
        spec, bots = MIX[seed % len(MIX)]
        variant = Variant.from_spec(spec)
        match = play_match(variant, [find_strategy(b) for b in bots], seed=seed)
        # The service deals the same first hand from the same seed; the rest of the simulated
        # log goes in as one append.
        game = make_game(players=0, bots=bots, spec=spec, seed=seed)
        dealt = game.version
        final = variant.replay(match.events)
        appends.append(
            game_id=game.pk,
            events=match.events[dealt:],
            expected_version=dealt,
            actor="bot:simulation",
            game_fields={"status": final.status, "hand_number": final.hand_number, "to_act": []},
        )
        played.append((game.pk, variant, match))

    run_all()

    summaries = {row.game_id: row for row in GameSummary.objects.all()}
    results = {row.game_id: row for row in MatchResult.objects.all()}
    hands = defaultdict(list)
    for row in HandResult.objects.order_by("game", "hand_number"):
        hands[row.game_id].append(row)
    assert len(summaries) == len(results) == matches
    for game_id, variant, match in played:
        log = event_reads.load(game_id)
        assert log == match.events
        state = variant.replay(log)
        summary, result = summaries[game_id], results[game_id]
        assert (summary.status, summary.to_act, summary.scores, summary.hand_number) == (
            state.status,
            list(state.to_act),
            state.scores,
            state.hand_number,
        )
        assert summary.version == len(log)
        assert (result.winner, result.places, result.scores, result.hands_won, result.hands) == (
            state.winner,
            state.places,
            state.scores,
            state.hands_won,
            state.hand_number,
        )
        assert (result.places, result.scores, result.hands) == (
            match.places,
            match.scores,
            match.hands,
        )
        assert [h.gained for h in hands[game_id]] == match.hand_points

    folded = without_ids(read_models())
    for name in GAME_PROJECTIONS:
        projections.rebuild(name)
    assert without_ids(read_models()) == folded


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_runners_racing_eight_writers_see_every_event_exactly_once(recorder):
    writers, runners, turns = 8, 2, 25
    games = [make_game(spec={"rules": "official"}, seed=i).pk for i in range(writers)]
    lock, finished, all_written = threading.Lock(), [0], threading.Event()

    def work(i: int) -> None:
        if i < writers:
            rng = random.Random(i)
            try:
                for _ in range(turns):
                    play_turn(games[i], rng)
            finally:
                with lock:
                    finished[0] += 1
                    if finished[0] == writers:
                        all_written.set()
            return
        while not all_written.is_set():
            for name in (recorder.name, *GAME_PROJECTIONS):
                projections.run(name, batch_size=7)

    run_in_threads(writers + runners, work)
    for name in (recorder.name, *GAME_PROJECTIONS):
        projections.run(name)

    positions = sorted(GameEvent.objects.values_list("global_position", flat=True))
    assert positions == list(range(positions[0], positions[0] + len(positions)))
    assert recorder.seen == positions
    assert recorder.most_at_once == 1
    for game in Game.objects.filter(pk__in=games):
        summary = GameSummary.objects.get(game=game)
        assert (summary.version, summary.to_act, summary.hand_number, summary.status) == (
            game.version,
            game.to_act,
            game.hand_number,
            game.status,
        )
