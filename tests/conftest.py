"""Shared test set-up: CI never silently tests against stand-ins for PostgreSQL or Redis; eager
tasks on demand; the clean-up that lets a transactional test database be flushed despite the
append-only event log."""

from __future__ import annotations

import gc
import os
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection, connections, transaction
from django.test import override_settings

from config import celery_app
from tests.games.fake_bot import FakeBot

# CI sets CI=true (.ci/run does too); there a missing service is a failure, never a skip.
IN_CI = os.environ.get("CI") == "true"

# The Python processes tests start (Celery workers, gunicorn, the short soak, the pure engine's
# pytest run, the example bots) share one bytecode cache in .pycache/ (git and .dockerignore
# ignore it), even where PYTHONDONTWRITEBYTECODE is set: each would otherwise compile the
# project's modules, and a child pytest rewrite its plugins' asserts, from source again (about
# 0.4 s of CPU a Django start-up; the pure engine's pytest run 31 -> 27 s). The first child of a
# checkout fills it (the standard library and packages too, once, about 2 s). Nothing is
# written beside the sources. `make test` starts this run with the same cache (Makefile).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", str(settings.BASE_DIR / ".pycache"))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop a CI run at once if the database is not PostgreSQL."""
    vendor = connections["default"].vendor
    if IN_CI and vendor != "postgresql":
        pytest.exit(
            f"CI=true but the default database is {vendor}, not postgresql. CI must test "
            "against PostgreSQL: set DATABASE_URL=postgres://... (see .ci/run).",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


@pytest.fixture(autouse=True, scope="session")
def plain_static_storage() -> Iterator[None]:
    """Render templates without the collectstatic manifest, and serve no collected files.

    The manifest exists only after `collectstatic` (the Dockerfile runs it); without it the
    production storage refuses to name any static file. STATIC_ROOT names a folder that is
    never made: once `staticfiles/` exists in the checkout (the short soak and the pages bench's
    smoke run collect into it, as production does), WhiteNoise's middleware would index its 900
    files each time a handler is built, which is every test client's first request (0.11-0.13 s
    of CPU a test; tests/web without its browser tests 83 s -> 136 s). The tests' pages name
    their files from static/ as before, and the live server serves them from there.
    """
    storage = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    root = settings.BASE_DIR / "tests" / "static-never-collected"
    with override_settings(
        STORAGES={**settings.STORAGES, "staticfiles": storage}, STATIC_ROOT=root
    ):
        yield


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """Hash test passwords with one round of MD5, as Django's testing docs advise: each of
    PBKDF2's million rounds is spent again on every password set or checked (a lockout test
    alone checks 25), and no test is about the hash's strength. Production keeps Django's
    default hashers (config/settings.py sets none)."""
    fast = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with override_settings(PASSWORD_HASHERS=fast):
        yield


@pytest.fixture
def fake(settings: Any) -> Iterator[FakeBot]:
    """A webhook bot served on loopback for the test (tests/games/fake_bot.py), with the setting
    that lets bots call loopback URLs."""
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    with FakeBot() as bot:
        yield bot


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The REDIS_URL of a Redis that answers: required under CI, a skip elsewhere."""
    url = os.environ.get("REDIS_URL", "")
    problem = ""
    if not url:
        problem = "REDIS_URL is not set"
    else:
        try:
            with redis.Redis.from_url(url, socket_connect_timeout=2) as client:
                client.ping()
        except redis.RedisError as exc:
            problem = f"Redis at {url} does not answer ({exc})"
    if problem and IN_CI:
        pytest.fail(f"{problem}; CI must test against a real Redis.", pytrace=False)
    if problem:
        pytest.skip(f"{problem}; skipping a test that needs Redis.")
    return url


@contextmanager
def _tasks_eager(eager: bool) -> Iterator[None]:
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = saved


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Tasks in-process, even when REDIS_URL is set (test_worker_process.py has the worker)."""
    with _tasks_eager(True):
        yield


@pytest.fixture(scope="class")
def class_eager_tasks() -> Iterator[None]:
    """eager_tasks for a class-scoped fixture's set-up (and the class's tests)."""
    with _tasks_eager(True):
        yield


@pytest.fixture
def broker_tasks() -> Iterator[None]:
    """Tasks sent to the broker, as in production, even without REDIS_URL (then to the memory
    broker, where nothing consumes them)."""
    with _tasks_eager(False):
        yield


@pytest.fixture(scope="class")
def class_transaction(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """A transaction for rows that a class's tests read, made once by its class-scoped
    fixtures (which ask for this one first), rolled back after the class's last test.

    Each test runs in a savepoint of it (pytest-django's own atomic block nests), so what a test
    changes is undone after it, and the rows are gone before any test outside the class runs.
    Only for tests that are not transactional.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The test database, and a cheaper end to every transactional test's flush.

    Django's flush (after each transactional test, live-server ones included) truncates every
    table, then sends post_migrate, whose receivers make the content types and permissions again
    one app at a time: about a quarter of a second of CPU per test, more than most such tests
    cost themselves. Here the flush puts back the rows those receivers made at migration, as
    they were (the same ids, so ContentType's cache stays right), in two inserts. The receivers
    still run if the flush must also grant an app role (DATABASE_APP_ROLE, games/roles.py).
    """
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType
    from django.core.management.commands import flush

    with django_db_blocker.unblock():
        content_types = list(ContentType.objects.all())
        permissions = list(Permission.objects.all())
    real = flush.emit_post_migrate_signal

    def put_back(verbosity: int, interactive: bool, db: str, **kwargs: Any) -> None:
        if getattr(settings, "DATABASE_APP_ROLE", ""):
            real(verbosity, interactive, db, **kwargs)
            return
        ContentType.objects.using(db).bulk_create(content_types)
        Permission.objects.using(db).bulk_create(permissions)

    flush.emit_post_migrate_signal = put_back
    try:
        yield
    finally:
        flush.emit_post_migrate_signal = real


@pytest.fixture(autouse=True)
def _empty_event_log_after_transactional_tests(request: pytest.FixtureRequest) -> Iterator[None]:
    """Empty the event tables after a transactional test, before pytest-django flushes them.

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
        # Archived streams (migration 0018) are guarded the same way.
        for table in ("games_gameevent", "games_archivedstream"):
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            cursor.execute(f"DELETE FROM {table}")
            cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


@pytest.fixture(autouse=True)
def _positions_as_in_a_fresh_log(request: pytest.FixtureRequest) -> Iterator[None]:
    """Hand out each database test's global positions from just after the events it starts
    with (1 in an empty log), and its game and bot ids from just after the games and bots it
    starts with, as a fresh database would.

    On PostgreSQL positions come from a sequence (games_gameevent_position, docs/event-store.md),
    and a sequence is not rewound when a test's transaction is rolled back. Game ids matter
    beyond the log: the built-in bots' choices are seeded by the game's id (bots/turns.py), and a
    bot's validation matches are dealt from the bot's id, so without this a bot match, its length
    and its cost would depend on the tests run before it.
    """
    if request.node.get_closest_marker("django_db") is None or connection.vendor != "postgresql":
        yield
        return
    request.getfixturevalue("_django_db_helper")
    ids_as_in_a_fresh_log()
    yield


def ids_as_in_a_fresh_log() -> None:
    """Global positions, game ids and bot ids from just after the rows there are (PostgreSQL);
    also for a class-scoped fixture's rows, so that they do not depend on the tests before."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval('games_gameevent_position', coalesce(max(global_position), 0) + 1, "
            "false) FROM games_gameevent"
        )
        # Bots too: a bot's validation matches are dealt from its id (bots/remote/validation.py).
        for table in ("games_game", "games_bot"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"coalesce(max(id), 0) + 1, false) FROM {table}"
            )


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """A fresh cache per test: API rate limits (api/owners.py) count in it."""
    cache.clear()
    yield


def pytest_collection_finish(session: pytest.Session) -> None:
    """Leave what collection made (the project, its packages, Django, the test items: about
    170,000 objects) out of the garbage collector's later passes: each full collection walked
    them all again while the tests added their own (2.4 -> 1.3 s of tests/league and tests/staff's
    28 s spent in collections). gc.freeze, as a forking server does before its workers."""
    gc.collect()
    gc.freeze()


# UNO_CPU_PROFILE=<file>: each test's CPU (its own and its reaped children's, user + sys, from
# its set-up's start to its teardown's end) and wall time, tab-separated, written at the
# session's end; docs/performance.md, "The test suite". Children reaped later (chromium's at
# the session's end) are charged to the test during which they end.
_CPU_PROFILE: dict[str, tuple[float, float, float]] = {}
_CPU_ROWS: list[tuple[str, float, float, float]] = []


def _cpu_now() -> tuple[float, float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (
        own.ru_utime + own.ru_stime,
        reaped.ru_utime + reaped.ru_stime,
        time.monotonic(),
    )


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    if os.environ.get("UNO_CPU_PROFILE"):
        _CPU_PROFILE[nodeid] = _cpu_now()


def pytest_runtest_logfinish(nodeid: str, location: Any) -> None:
    start = _CPU_PROFILE.pop(nodeid, None)
    if start is not None:
        end = _cpu_now()
        _CPU_ROWS.append((nodeid, end[0] - start[0], end[1] - start[1], end[2] - start[2]))


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("UNO_CPU_PROFILE")
    if path:
        with open(path, "w") as out:
            out.write("test\town_cpu_s\tchildren_cpu_s\twall_s\n")
            for test, own, reaped, wall in _CPU_ROWS:
                out.write(f"{test}\t{own:.3f}\t{reaped:.3f}\t{wall:.3f}\n")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `slow` (long simulations and soaks) run only with UNO_SLOW_TESTS=1."""
    if os.environ.get("UNO_SLOW_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set UNO_SLOW_TESTS=1 to run")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
