"""advance_game, the reconciler, the close-window sweep and the dispatch on commit, run
in-process (tasks eager): the worker process itself is tested in test_worker_process.py."""

from __future__ import annotations

import random
from datetime import timedelta
from types import SimpleNamespace

import pytest

from bots import turns
from engine import MATCH_OVER
from games import event_reads, tasks
from games.commands import game_command
from games.models import Game, GameEvent, GameSummary, HandResult, MatchResult
from tests.games.factories import bot_move, make_game
from tests.games.workers import FAMILIES, assert_finished_whole, bot_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("family", FAMILIES)
def test_advance_game_plays_a_bot_match_to_the_end(family):
    game = bot_match(family)
    for _ in range(50):
        if not turns.advance_game(game_id=game.pk).commands:
            break
    assert_finished_whole(game.pk)


def test_a_run_of_bot_turns_is_one_append():
    game = bot_match("official")
    advance = turns.advance_game(game_id=game.pk, batch=40)
    assert advance.commands == 40
    ids = GameEvent.objects.filter(game=game, version__gt=game.version).exclude(command_id=None)
    assert list(ids.values_list("command_id", flat=True)) == [f"system/advance:{game.version}"]


def test_a_second_advance_from_the_same_version_writes_nothing(monkeypatch):
    game = bot_match("official")
    first = turns.advance_game(game_id=game.pk, batch=5)
    # A second worker that read the log before the first one's append committed.
    real_load = event_reads.load
    monkeypatch.setattr(
        event_reads, "load", lambda game_id, **kw: real_load(game_id, until=game.version)
    )
    stale = turns.advance_game(game_id=game.pk, batch=5)
    # Same version, same command id: the store answers with the first append's result.
    assert stale.commands == 0
    assert stale.version == first.version
    assert GameEvent.objects.filter(game=game).count() == first.version


def test_it_leaves_a_persons_turn_alone():
    game = make_game(players=2, bots=("greedy", "greedy"))
    before = Game.objects.get(pk=game.pk)
    if before.to_act[0] < 2:
        assert turns.advance_game(game_id=game.pk).commands == 0
    turns.advance_game(game_id=game.pk)
    after = Game.objects.get(pk=game.pk)
    assert after.status == MATCH_OVER or after.to_act[0] in (0, 1)


def test_every_append_that_leaves_a_bot_to_act_dispatches_advance_game(
    django_capture_on_commit_callbacks, eager_tasks, settings
):
    # Runs of one command: every command is an append, each dispatching the next on commit (the
    # match's length depends on the game's id, which seeds the bots).
    settings.GAMES_ADVANCE_BATCH = 1
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game = make_game(players=0, bots=("greedy", "random"))
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
    appends = GameEvent.objects.filter(game=game).exclude(command_id=None).count()
    assert len(callbacks) == appends > 10


def test_an_append_that_leaves_a_person_to_act_dispatches_nothing(
    django_capture_on_commit_callbacks, monkeypatch
):
    calls: list[int] = []
    monkeypatch.setattr(tasks, "advance_game", SimpleNamespace(delay=calls.append))
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(players=2)
    assert game.status == Game.Status.PLAYING
    assert calls == []


def test_in_process_every_commit_brings_the_projections_up_to_date(
    django_capture_on_commit_callbacks, eager_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(players=1, bots=("greedy", "greedy"), seed=2)
    summary = GameSummary.objects.get(game=game)
    game.refresh_from_db()
    assert (summary.version, summary.to_act) == (game.version, [0])

    actor, command, version = bot_move(game.pk, random.Random(1))
    with django_capture_on_commit_callbacks(execute=True):
        game_command(game_id=game.pk, actor=actor, command=command, expected_version=version)
    game.refresh_from_db()
    summary.refresh_from_db()
    # The person's move and the bots' run it set off, both projected without a runner's help.
    assert game.version > version + 1
    assert (summary.version, summary.to_act) == (game.version, game.to_act)


def test_in_process_a_bot_match_s_results_are_projected_as_it_ends(
    django_capture_on_commit_callbacks, eager_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(players=0, bots=("greedy", "random"))
    hands = GameEvent.objects.filter(game=game, type="hand-ended").count()
    assert HandResult.objects.filter(game=game).count() == hands > 0
    assert MatchResult.objects.filter(game=game).exists()
    assert GameSummary.objects.get(game=game).status == MATCH_OVER


def test_with_a_broker_an_append_leaves_the_projections_to_beat(
    django_capture_on_commit_callbacks, monkeypatch, broker_tasks
):
    sent: list[str] = []
    monkeypatch.setattr(tasks.run_projections, "delay", lambda: sent.append("projections"))
    monkeypatch.setattr(tasks.send_turn_email, "delay", lambda notice_id: None)
    with django_capture_on_commit_callbacks(execute=True):
        make_game(players=2)
    assert sent == []


def test_the_reconciler_finds_a_stalled_bot_game():
    game = bot_match("official")
    Game.objects.filter(pk=game.pk).update(last_activity=game.last_activity - timedelta(minutes=5))
    assert turns.stalled_games(idle=timedelta(seconds=30)) == [game.pk]
    assert turns.stalled_games(idle=timedelta(minutes=10)) == []


def test_the_reconciler_ignores_a_game_waiting_for_a_person():
    game = make_game(players=2, bots=("greedy",))
    turns.advance_game(game_id=game.pk)
    Game.objects.filter(pk=game.pk).update(last_activity=game.last_activity - timedelta(minutes=5))
    waiting = Game.objects.get(pk=game.pk)
    assert waiting.to_act[0] in (0, 1)
    assert turns.stalled_games(idle=timedelta(seconds=1)) == []


def newno_for_people() -> Game:
    from games.creation import SeatSpec, game_create
    from tests.games.factories import make_user

    seats = [SeatSpec(user=make_user(), age=age) for age in (30, 20, 40, 10)]
    return game_create(variant_spec={"rules": "newno"}, seats=seats, seed=3)


def test_an_open_choice_waiting_for_people_is_closed_after_the_timeout():
    game = newno_for_people()
    assert len(game.to_act) > 1
    assert turns.close_open_choices(timeout=timedelta(seconds=30)) == []

    Game.objects.filter(pk=game.pk).update(last_activity=game.last_activity - timedelta(minutes=1))
    assert turns.close_open_choices(timeout=timedelta(seconds=30)) == [game.pk]
    closed = Game.objects.get(pk=game.pk)
    assert len(closed.to_act) == 1
    assert closed.version > game.version
    # Run again (a second beat tick): nothing more to close.
    assert turns.close_open_choices(timeout=timedelta(seconds=0)) == []


def test_the_projection_catch_up_task_runs_every_projection():
    from games import projections

    bot_match("official")
    tasks.run_projections()
    assert all(status.lag == 0 for status in projections.status())
