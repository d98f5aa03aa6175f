"""games/prepared.py's default_db: Django's own wrapper of the default database, looked up
without asgiref's running-loop probe, in every kind of thread Django gives a wrapper of its
own."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

from games import prepared


def in_thread(work: Any) -> Any:
    """`work()`'s result in a new thread (a thread that has no wrapper yet); what it raised, raised
    again here."""
    found: list[Any] = []

    def run() -> None:
        try:
            found.append(work())
        except BaseException as error:  # handed to the test's thread
            found.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if isinstance(found[0], BaseException):
        raise found[0]
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
    # asgiref keeps a thread's async code apart from its sync code: another wrapper, even when
    # the thread's sync code has one already.
    async def both() -> tuple[Any, Any]:
        return prepared.default_db(), connections[DEFAULT_DB_ALIAS]

    def sync_then_async() -> tuple[Any, Any, Any]:
        sync = connections[DEFAULT_DB_ALIAS]
        return (sync, *asyncio.run(both()))

    sync, ours, django_s = in_thread(sync_then_async)

    assert ours is django_s
    assert ours is not sync


# The two below run in a thread of their own: the suite's thread may have an event loop running
# (Playwright's sync API keeps one there), and then both Django and default_db rightly take the
# thread's async storage.


def test_a_sync_thread_s_wrapper_is_found_without_asking_django(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The point of default_db: once a thread (a request's, a worker's) has its wrapper, no lookup
    # through `connections`.
    def slow_path(handler: Any, alias: str) -> Any:
        pytest.fail("default_db went through connections[...]")

    def found_alone() -> tuple[Any, Any]:
        expected = connections[DEFAULT_DB_ALIAS]
        with monkeypatch.context() as patch:
            patch.setattr(type(connections), "__getitem__", slow_path)
            return prepared.default_db(), expected

    ours, expected = in_thread(found_alone)

    assert ours is expected


def test_the_local_it_reads_is_still_a_plain_thread_local() -> None:
    # The shortcut reads asgiref's storage only when it is a threading.local; if an upgrade
    # changed that, every lookup would quietly take the slow path: this says so instead.
    def read() -> tuple[Any, Any, Any, Any]:
        wrapper = connections[DEFAULT_DB_ALIAS]
        storage = connections._connections._storage  # type: ignore[attr-defined]
        return type(storage), getattr(storage, DEFAULT_DB_ALIAS), wrapper, prepared.default_db()

    kind, stored, wrapper, ours = in_thread(read)

    assert kind is threading.local
    assert stored is wrapper is ours


@pytest.mark.django_db
def test_the_thread_check_it_inlines_is_django_s() -> None:
    # prepared._run calls Django's validate_thread_sharing() only when the wrapper's
    # _thread_ident (private) is not this thread's: the check's own first test, inlined. Pinned:
    # the ident is the thread that made the wrapper, and another thread is refused as Django
    # refuses it.
    db = connections[DEFAULT_DB_ALIAS]
    assert prepared.fetch(db, "SELECT 1", []) == [(1,)]
    assert db._thread_ident == threading.get_ident()  # type: ignore[attr-defined]
    with pytest.raises(DatabaseError, match="same thread"):
        in_thread(db.validate_thread_sharing)
    with pytest.raises(DatabaseError, match="same thread"):
        in_thread(lambda: prepared.fetch(db, "SELECT 1", []))
