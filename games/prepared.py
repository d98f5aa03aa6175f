"""Statements PostgreSQL parses and plans once per connection: the store's append and the hot
statements of every command and view (games/rows.py's reads, the turn clocks, a pull bot's
call stats).

Django sends every statement with its parameters bound on the client, as new text the server
parses and plans each time, and turns psycopg's own preparing off. For the few statements run
on every command and view, the planning is most of the server's work: the game read with its
seats, people and bots (a four-table join) costs about 250 µs of the server's CPU sent as text
and about 50 µs prepared (docs/performance.md, "API"). `fetch` and `fetch_one` run one such
statement through a psycopg cursor that binds on the server and prepares it: psycopg names it
once per connection, and afterwards each call is one Bind/Execute round trip. psycopg drops a
connection's prepared statements at any rollback, and prepares them again on next use. On
SQLite (`make run`) the statement simply runs through Django's cursor.

Behind a connection pooler in transaction mode, prepared statements need one that keeps them
per server connection (PgBouncer 1.21 or later with `max_prepared_statements`;
docs/event-store.md).
"""

from __future__ import annotations

import datetime
import threading
from _thread import get_ident
from asyncio import _get_running_loop
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.abc import Loader

Params = Sequence[Any] | Mapping[str, Any]
_T = TypeVar("_T")

# Django turns psycopg's automatic preparing off (prepare_threshold None, its default for
# poolers); these cursors ask for it by name, which needs a threshold: this one never prepares
# another query by itself.
_PREPARE_ONLY_WHEN_ASKED = 2**31

# psycopg's default loader of timestamptz text (its C one), before Django's replaces it.
_TIMESTAMPTZ = psycopg.postgres.types["timestamptz"].oid
_FOUND = psycopg.adapters.get_loader(_TIMESTAMPTZ, psycopg.pq.Format.TEXT)
if _FOUND is None:
    raise ImportError("psycopg has no timestamptz loader")
_FAST_TIMESTAMPTZ: type[Loader] = _FOUND

# Each thread's cursor, kept from call to call (a new one costs its adapters' lookups again)
# and made anew when Django opens another connection.
_cursors = threading.local()


def default_db() -> BaseDatabaseWrapper:
    """`connections[DEFAULT_DB_ALIAS]`, the same wrapper, in a tenth of the instructions.

    Django keeps each thread's wrappers in an asgiref Local, whose every read asks asyncio for a
    running loop and catches the RuntimeError that says there is none: about 10,000
    instructions, paid by every append and hot read (docs/performance.md, "Event store", "What
    made the difference"). In a thread with no running loop the Local reads a plain
    `threading.local`, which is read here directly; anything else (an async thread, a wrapper
    not made yet in this thread, another asgiref) goes through `connections`.
    tests/games/test_prepared.py holds the two the same object."""
    if _get_running_loop() is None:
        storage = getattr(connections._connections, "_storage", None)  # type: ignore[attr-defined]
        if type(storage) is threading.local:
            found = getattr(storage, DEFAULT_DB_ALIAS, None)
            if found is not None:
                return found  # type: ignore[no-any-return]
    return connections[DEFAULT_DB_ALIAS]


def fetch(db: BaseDatabaseWrapper, sql: str, params: Params) -> list[tuple[Any, ...]]:
    """Run `sql` on `db`, prepared on PostgreSQL, and return its rows."""
    return _run(db, sql, params, _all)


def fetch_one(db: BaseDatabaseWrapper, sql: str, params: Params) -> Any:
    """Run `sql` on `db`, prepared on PostgreSQL, and return its first row (or None)."""
    return _run(db, sql, params, _one)


def _all(cursor: Any) -> list[tuple[Any, ...]]:
    return list(cursor.fetchall())


def _one(cursor: Any) -> Any:
    return cursor.fetchone()


def _run(db: BaseDatabaseWrapper, sql: str, params: Params, take: Callable[[Any], _T]) -> _T:
    """Run `sql` and `take` its rows, as through `db.cursor()`: the health check, the thread
    check, a broken transaction refused, psycopg's errors as Django's. Through Django's cursor
    wrapper too when anyone watches the queries (execute wrappers, as bench/pipeline.py's
    profile installs); when nobody does, the wrapper's own cost is skipped."""
    if db is connection:
        # Django's proxy looks the wrapper up again (a thread-local, asgiref's) at every
        # attribute, a dozen times below: once is enough.
        db = default_db()
    if db.vendor != "postgresql":
        # SQLite parses on its own and has nothing to prepare here.
        with db.cursor() as plain:
            plain.execute(sql, params)
            return take(plain)
    raw = db.connection
    if raw is None or not getattr(db, "health_check_done", False):
        db.close_if_health_check_failed()
        db.ensure_connection()
        raw = db.connection
    # Django's thread check, called only when its own first test fails: 3,900 instructions of an
    # append's 155,000 (docs/performance.md, "Event store", "What made the difference").
    # _thread_ident is Django's private attribute; tests/games/test_prepared.py pins that it is
    # the thread that made the wrapper, and that another thread is refused as Django refuses it.
    if db._thread_ident != get_ident():  # type: ignore[attr-defined]
        db.validate_thread_sharing()
    if db.queries_logged:
        # Django's query log (DEBUG, a test counting queries) reads the text psycopg keeps only
        # of a statement it did not prepare. (django-stubs take make_*_cursor's argument for a
        # wrapper: it is the driver's cursor.)
        with db.make_debug_cursor(psycopg.Cursor(raw)) as logged:  # type: ignore[arg-type]
            logged.execute(sql, params)
            return take(logged)
    cursor = getattr(_cursors, "cursor", None)
    if cursor is None or cursor.connection is not raw:
        if raw.prepare_threshold is None:
            raw.prepare_threshold = _PREPARE_ONLY_WHEN_ASKED
        cursor = _cursors.cursor = psycopg.Cursor(raw)
        if db.timezone is datetime.UTC:
            # Django loads timestamptz through a Python subclass of psycopg's pure-Python loader
            # (to set its connection's time zone); in UTC, psycopg's own C loader gives the same
            # datetimes (tzinfo datetime.UTC) at a fraction of the cost: 4% of an API request's
            # Python went to these columns (docs/performance.md, "API", "What made the
            # difference").
            cursor.adapters.register_loader(_TIMESTAMPTZ, _FAST_TIMESTAMPTZ)
    if db.execute_wrappers:
        wrapped = db.make_cursor(_Prepared(cursor))  # type: ignore[arg-type]
        wrapped.execute(sql, params)
        with db.wrap_database_errors:
            return take(wrapped)
    if db.needs_rollback:
        db.validate_no_broken_transaction()
    with db.wrap_database_errors:
        cursor.execute(sql, params, prepare=True)
        return take(cursor)


class _Prepared:
    """The cursor as Django's wrapper sees it: every execute asks psycopg to prepare."""

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self.cursor = cursor

    def execute(self, query: Any, params: Any = None) -> Any:
        return self.cursor.execute(query, params, prepare=True)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cursor, name)
