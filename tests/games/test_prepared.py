"""games/prepared.py's default_db: Django's own wrapper of the default database, looked up
without asgiref's running-loop probe, in every kind of thread Django gives a wrapper of its
own."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from games import prepared


def in_thread(work: Any) -> Any:
    """`work()`'s result in a new thread (a thread that has no wrapper yet)."""
    found: list[Any] = []
    thread = threading.Thread(target=lambda: found.append(work()))
    thread.start()
    thread.join()
    return found[0]


def test_it_is_the_wrapper_django_gives_this_thread() -> None:
    assert prepared.default_db() is connections[DEFAULT_DB_ALIAS]
    assert prepared.default_db() is prepared.default_db()


def test_another_thread_gets_its_own_wrapper_made_on_first_use() -> None:
    def both() -> tuple[Any, Any, Any]:
        first = prepared.default_db()  # none yet in this thread: Django makes it
        return first, prepared.default_db(), connections[DEFAULT_DB_ALIAS]

    first, again, django_s = in_thread(both)

    assert first is again is django_s
    assert first is not connections[DEFAULT_DB_ALIAS]


def test_inside_a_running_loop_it_is_the_wrapper_of_that_context() -> None:
    # asgiref keeps a thread's async code apart from its sync code: another wrapper.
    async def both() -> tuple[Any, Any]:
        return prepared.default_db(), connections[DEFAULT_DB_ALIAS]

    ours, django_s = in_thread(lambda: asyncio.run(both()))

    assert ours is django_s


def test_the_local_it_reads_is_still_a_plain_thread_local() -> None:
    # The shortcut reads asgiref's storage only when it is a threading.local; if an upgrade
    # changed that, every lookup would quietly take the slow path: this says so instead.
    storage = connections._connections._storage  # type: ignore[attr-defined]
    assert type(storage) is threading.local
    assert getattr(storage, DEFAULT_DB_ALIAS) is prepared.default_db()
