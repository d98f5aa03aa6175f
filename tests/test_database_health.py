"""config/postgresql: the health check before a request's first query costs no round trip
while the connection is quiet, and still replaces a connection the server has dropped."""

from __future__ import annotations

import tempfile
import time

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import close_old_connections, connection
from django.test import Client

from accounts.services import token_issue
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


def test_a_quiet_connection_is_usable_without_a_round_trip() -> None:
    _backend_pid()
    assert connection.health_check_enabled
    with tempfile.TemporaryFile() as trace:
        # libpq's own trace of the protocol: every message the client sends or receives.
        connection.connection.pgconn.trace(trace.fileno())
        try:
            assert connection.is_usable()
        finally:
            connection.connection.pgconn.untrace()
        trace.seek(0)
        assert trace.read() == b""
    with tempfile.TemporaryFile() as trace:
        connection.connection.pgconn.trace(trace.fileno())
        try:
            _backend_pid()
        finally:
            connection.connection.pgconn.untrace()
        trace.seek(0)
        assert b"pg_backend_pid" in trace.read()  # the trace does see a statement


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
