"""The run_periodic command: the beat schedule run in-process for a site without a broker.

Transactional: the runner drops old connections between tasks, as a long-lived process must,
which a test's wrapping transaction would not survive."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from celery.schedules import crontab
from django.core.management import CommandError, call_command

from games import tasks
from games.management.commands.run_periodic import PeriodicRunner

pytestmark = pytest.mark.django_db(transaction=True)

SCHEDULE = {
    "projections": {"task": "games.tasks.run_projections", "schedule": 10.0},
    "open-choices": {"task": "games.tasks.close_open_choices", "schedule": timedelta(seconds=5)},
    "digests": {"task": "games.tasks.send_turn_digests", "schedule": crontab(hour=7, minute=0)},
}


@pytest.fixture
def ran(monkeypatch) -> list[str]:
    """The tasks the runner runs, in order (run_projections really runs)."""
    names: list[str] = []

    def recorded(task: Any) -> Callable[[], None]:
        real = task.run

        def run() -> None:
            names.append(task.name)
            real()

        return run

    for task in (tasks.run_projections, tasks.close_open_choices, tasks.send_turn_digests):
        monkeypatch.setattr(task, "run", recorded(task))
    return names


def test_interval_tasks_run_at_once_and_then_when_due(ran):
    runner = PeriodicRunner(SCHEDULE, run_level=logging.INFO)

    wait = runner.run_due()

    assert ran == ["games.tasks.run_projections", "games.tasks.close_open_choices"]
    # The loop sleeps at most a second (it watches its parent too).
    assert wait == 1.0
    runner.run_due()
    assert len(ran) == 2
    # Five seconds later the 5 s task is due again, and only it.
    for entry in runner.entries:
        if entry.last_run_at is not None:
            entry.last_run_at -= timedelta(seconds=5)
    runner.run_due()
    assert ran[2:] == ["games.tasks.close_open_choices"]


def test_a_crontab_task_runs_at_its_time():
    runner = PeriodicRunner(SCHEDULE, run_level=logging.INFO)
    digests = next(entry for entry in runner.entries if entry.name == "digests")
    assert digests.due()[0] is False
    digests.last_run_at = digests.last_run_at - timedelta(days=1)
    assert digests.due()[0] is True


def test_a_failing_task_is_logged_and_the_others_still_run(ran, monkeypatch, caplog):
    def fail() -> None:
        raise RuntimeError("database is on fire")

    monkeypatch.setattr(tasks.run_projections, "run", fail)
    runner = PeriodicRunner(SCHEDULE, run_level=logging.INFO)

    with caplog.at_level(logging.INFO):
        runner.run_due()

    assert ran == ["games.tasks.close_open_choices"]
    failed = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "periodic task projections (games.tasks.run_projections) failed" in failed[0].message
    assert "database is on fire" in caplog.text
    assert "ran open-choices (games.tasks.close_open_choices)" in caplog.text


def test_an_unknown_task_is_refused():
    with pytest.raises(CommandError, match="no task named 'games.tasks.nothing'"):
        PeriodicRunner({"x": {"task": "games.tasks.nothing", "schedule": 1}}, run_level=10)


@pytest.mark.usefixtures("eager_tasks")  # with a broker the command refuses (tested below)
def test_the_command_runs_the_schedule_until_sigterm_then_restores_the_handlers(
    settings, monkeypatch, caplog
):
    settings.CELERY_BEAT_SCHEDULE = SCHEDULE
    rounds: list[float] = []
    real_run_due = PeriodicRunner.run_due

    def run_due_then_terminate(runner: PeriodicRunner) -> float:
        rounds.append(real_run_due(runner))
        os.kill(os.getpid(), signal.SIGTERM)
        return 0.0

    monkeypatch.setattr(PeriodicRunner, "run_due", run_due_then_terminate)
    before = signal.getsignal(signal.SIGTERM)

    with caplog.at_level(logging.INFO):
        call_command("run_periodic")

    assert len(rounds) == 1
    assert "running 3 periodic tasks in-process" in caplog.text
    assert "SIGTERM: stopping after the running task" in caplog.text
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.usefixtures("eager_tasks")
def test_with_stop_with_parent_it_stops_when_its_parent_is_gone(settings, monkeypatch):
    settings.CELERY_BEAT_SCHEDULE = SCHEDULE
    parents = iter([100, 100, 1])
    monkeypatch.setattr(os, "getppid", lambda: next(parents))
    monkeypatch.setattr(PeriodicRunner, "run_due", lambda runner: 0.0)

    call_command("run_periodic", "--stop-with-parent")

    assert next(parents, None) is None


def test_it_refuses_to_run_next_to_a_broker(broker_tasks):
    with pytest.raises(CommandError, match="celery -A config beat"):
        call_command("run_periodic")


def test_a_long_chain_of_tasks_does_not_hold_up_the_schedule(eager_tasks):
    from config import celery_app
    from games.management.commands import run_periodic

    order: list[str] = []

    @celery_app.task(name="tests.periodic.link")
    def link(number: int) -> None:
        order.append(f"link {number}")

    @celery_app.task(name="tests.periodic.chain")
    def chain() -> None:
        for number in range(run_periodic.DRAIN_TASKS * 2 + 1):
            link.delay(number)

    @celery_app.task(name="tests.periodic.tick")
    def tick() -> None:
        order.append("tick")

    schedule = {
        "chain": {"task": "tests.periodic.chain", "schedule": 3600.0},
        "tick": {"task": "tests.periodic.tick", "schedule": 0.001},
    }
    runner = PeriodicRunner(schedule, run_level=logging.INFO)
    assert runner.run_due() == 0.0  # tasks left queued: the next tick comes at once
    assert order.count("tick") == 1
    assert len(order) == 1 + run_periodic.DRAIN_TASKS
    while runner.run_due() == 0.0:
        pass
    links = [name for name in order if name != "tick"]
    # Nothing lost, in the order sent, and the due entry ran between the chain's pieces.
    assert links == [f"link {n}" for n in range(run_periodic.DRAIN_TASKS * 2 + 1)]
    assert order.count("tick") >= 2
    assert order.index("tick", 1) < order.index(links[-1])
