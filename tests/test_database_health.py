"""config/postgresql: the health check before a request's first query costs no round trip
while the connection is quiet, and still replaces a connection the server has dropped."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import close_old_connections, connection, transaction
from django.test import Client

from accounts.services import token_issue
from config.postgresql import base as postgresql
from tests.games.conftest import needs_postgresql

pytestmark = [needs_postgresql, pytest.mark.django_db(transaction=True)]


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _outside() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


def traced(check: Callable[[], object]) -> bytes:
    """What the client sent and received while `check` ran (libpq's own protocol trace)."""
    with tempfile.TemporaryFile() as trace:
        connection.connection.pgconn.trace(trace.fileno())
        try:
            check()
        finally:
            connection.connection.pgconn.untrace()
        trace.seek(0)
        return trace.read()


def test_a_quiet_connection_checked_lately_is_usable_without_a_round_trip() -> None:
    _backend_pid()
    assert connection.health_check_enabled
    # A check of a connection not checked lately asks the server; one soon after, on a quiet
    # socket, does not.
    connection._checked_at = float("-inf")
    assert b"SELECT 1" in traced(lambda: assert_usable())
    assert traced(lambda: assert_usable()) == b""
    assert b"pg_backend_pid" in traced(_backend_pid)  # the trace does see a statement


def test_a_connection_left_unused_or_in_a_transaction_is_asked() -> None:
    _backend_pid()
    assert_usable()
    # Unused for longer than QUIET_SECONDS: a peer that vanished says nothing on the socket.
    connection._checked_at -= postgresql.QUIET_SECONDS
    assert b"SELECT 1" in traced(lambda: assert_usable())
    # Not idle outside a transaction (left in one by an error, say): asked too.
    with transaction.atomic():
        _backend_pid()
        assert b"SELECT 1" in traced(lambda: assert_usable())


def assert_usable() -> None:
    assert connection.is_usable()


def test_a_request_after_the_server_dropped_the_connection_gets_a_new_one() -> None:
    user = User.objects.create(username="health")
    token = token_issue(user=user)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/me/notifications").status_code == 200
    old = _backend_pid()
    with _outside() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [old])
        deadline = time.monotonic() + 10
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [old]).fetchone():
            assert time.monotonic() < deadline, "the backend did not end"
            time.sleep(0.05)

    # What a request's start runs (Django's test client leaves it out of its own requests).
    close_old_connections()
    response = client.get("/api/me/notifications")

    assert response.status_code == 200, response.content
    assert _backend_pid() != old
