"""Helpers for the games tests: the PostgreSQL-only mark and threads with their own connections
(tests/conftest.py has the fixtures every test directory shares)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

# Outside CI a missing PostgreSQL is a skip with this reason; under CI=true tests/conftest.py has
# already stopped the run.
needs_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (concurrency, locks, triggers): set "
    "DATABASE_URL=postgres://uno@127.0.0.1:5432/uno to run it",
)


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
