"""Bot matches through a real `celery worker` process, real Redis and the test database:
every append that leaves a bot to act dispatches advance_game, and the matches run to the end.
A worker killed with SIGKILL mid-match is made good by the reconciler."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import connection

from bots import turns
from games import tasks
from games.creation import SeatSpec, game_create
from games.models import Game
from tests.games.conftest import needs_postgresql
from tests.games.workers import (
    FAMILIES,
    Worker,
    assert_finished_whole,
    bot_match,
    sending_to,
    wait_for,
)

pytestmark = [needs_postgresql, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def worker(django_db_setup, redis_url) -> Iterator[Worker]:
    worker = Worker(redis_url)
    worker.start()
    with sending_to(worker):
        yield worker


@pytest.mark.parametrize("family", FAMILIES)
def test_a_bot_match_of_each_family_runs_to_the_end_through_the_worker(worker, family):
    game = bot_match(family, seed=7)

    wait_for(
        lambda: Game.objects.get(pk=game.pk).status == Game.Status.MATCH_OVER,
        timeout=120,
        what=f"the {family} match to end; worker log:\n{worker.output()[-3000:]}",
    )
    assert_finished_whole(game.pk)


def test_the_worker_keeps_its_database_connection_from_one_task_to_the_next(worker):
    # config/celery.py: a task is treated as Django treats a request (CONN_MAX_AGE, health
    # checks), not given a new connection each time by Celery's Django fixup.
    def worker_connections() -> set[tuple[int, object]]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, backend_start FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return set(cursor.fetchall())

    def play_short_match(seed: int) -> None:
        spec = {"rules": "official", "options": {"target": 50}}
        seats = [SeatSpec(bot="greedy") for _ in range(4)]
        game = game_create(variant_spec=spec, seats=seats, seed=seed)
        wait_for(
            lambda: Game.objects.get(pk=game.pk).status == Game.Status.MATCH_OVER,
            timeout=60,
            what=f"the match to end; worker log:\n{worker.output()[-3000:]}",
        )
        time.sleep(0.5)  # the task's end, after its last commit

    play_short_match(seed=1)
    after_one = worker_connections()
    play_short_match(seed=2)
    assert after_one
    assert after_one <= worker_connections()


def test_the_reconciler_finishes_a_match_whose_worker_was_killed(redis_url, settings):
    # Small runs, so the match is many appends and the kill lands in the middle of it.
    slow = Worker(redis_url, GAMES_ADVANCE_BATCH="3")
    with sending_to(slow) as killed:
        killed.start()
        game = bot_match("official", seed=11)
        wait_for(
            lambda: Game.objects.get(pk=game.pk).version > game.version + 60,
            timeout=60,
            what=f"the match to move; worker log:\n{killed.output()[-3000:]}",
        )
        killed.kill()
        stalled = Game.objects.get(pk=game.pk)
        assert stalled.status == Game.Status.PLAYING

        # The in-flight task went down with the worker (Redis redelivers it only after the
        # visibility timeout): a new worker alone does not move the game; the reconciler does.
        killed.start()
        assert turns.stalled_games(idle=timedelta(0)) == [game.pk]
        settings.GAMES_RECONCILE_IDLE = 0
        tasks.reconcile_games()
        wait_for(
            lambda: Game.objects.get(pk=game.pk).status == Game.Status.MATCH_OVER,
            timeout=120,
            what=f"the reconciled match to end; worker log:\n{killed.output()[-3000:]}",
        )
        assert_finished_whole(game.pk)
