"""Fixtures for the games tests: PostgreSQL-only marks, threads with their own connections, and
the clean-up that lets a transactional test database be flushed despite the append-only log."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection, connections, transaction

from config.celery import app as celery_app

# Outside CI a missing PostgreSQL is a skip with this reason; under CI=true tests/conftest.py has
# already stopped the run.
needs_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (concurrency, locks, triggers): set "
    "DATABASE_URL=postgres://uno@127.0.0.1:5432/uno to run it",
)


@pytest.fixture(autouse=True)
def _empty_event_log_after_transactional_tests(request: pytest.FixtureRequest) -> Iterator[None]:
    """Empty the event table after a transactional test, before pytest-django flushes it.

    The flush is a TRUNCATE, which the append-only trigger refuses while events exist. Switching
    the triggers off for one statement is a test-only move (it needs the table's owner).
    """
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction"))
    if not transactional or connection.vendor != "postgresql":
        yield
        return
    # Set up the database first, so that this teardown runs before its flush.
    request.getfixturevalue("_django_db_helper")
    yield
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_gameevent DISABLE TRIGGER USER")
        cursor.execute("DELETE FROM games_gameevent")
        cursor.execute("ALTER TABLE games_gameevent ENABLE TRIGGER USER")


def run_in_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run `work(i)` for i in range(count), each in its own thread with its own database
    connection; return the results in order and re-raise the first error."""
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def target(i: int) -> None:
        try:
            results[i] = work(i)
        except BaseException as error:  # handed to the test's thread below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    if errors:
        raise errors[0]
    return results


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Tasks in-process, even when REDIS_URL is set (test_worker_process.py has the worker)."""
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = saved
