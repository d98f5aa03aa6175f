"""GET /api/health with a real task queue: the broker unreachable (a closed loopback port), a
broker that accepts but never answers, one whose connections hang, Redis without workers,
Redis with a real worker.
tests/test_site.py has the eager and database cases."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest

from config import celery_app
from tests.games.workers import Worker, on_test_database, sending_to, wait_for

# No Redis listens on port 1 of the loopback: connecting is refused at once.
CLOSED_PORT = "redis://127.0.0.1:1/0"


@contextmanager
def broker_at(url: str) -> Iterator[None]:
    """Tasks go to the broker at `url` (not eager) for the duration."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.broker_url
    conf.task_always_eager, conf.broker_url = False, url
    try:
        yield
    finally:
        conf.task_always_eager, conf.broker_url = saved


@pytest.fixture(autouse=True)
def quick_health(settings):
    settings.HEALTH_TIMEOUT = 0.5


def timed_health(client) -> tuple[int, dict, float]:
    started = time.monotonic()
    response = client.get("/api/health")
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json(), time.monotonic() - started


@pytest.mark.django_db
def test_a_broker_that_refuses_connections_is_unavailable(client):
    with broker_at(CLOSED_PORT):
        status, body, seconds = timed_health(client)

    assert status == 503
    assert body == {
        "status": "unavailable",
        "code": "broker-unavailable",
        "message": "The task broker does not answer.",
        "database": body["database"],
        "broker": "redis",
        "workers": None,
    }
    assert seconds < 3


@pytest.mark.django_db
def test_a_broker_that_never_answers_does_not_hold_the_check(client):
    with socket.socket() as silent:
        # Connections complete in the kernel's backlog; nothing ever reads or answers them.
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        with broker_at(f"redis://127.0.0.1:{port}/0"):
            status, body, seconds = timed_health(client)

    assert (status, body["code"], body["workers"]) == (503, "broker-unavailable", None)
    assert seconds < 3


@pytest.mark.django_db
def test_a_broker_whose_connections_hang_does_not_hold_the_check(client):
    with socket.socket() as full:
        # A listener whose accept queue is full: Linux drops further SYNs, so a connect hangs
        # as it does towards a host that is down or behind a firewall.
        full.bind(("127.0.0.1", 0))
        full.listen(0)
        port = full.getsockname()[1]
        with ExitStack() as stack:
            for _ in range(4):
                waiting = stack.enter_context(socket.socket())
                waiting.settimeout(0.3)
                try:
                    waiting.connect(("127.0.0.1", port))
                except TimeoutError:
                    break
            else:
                pytest.skip("this kernel does not let a full listener hang connections")
            with broker_at(f"redis://127.0.0.1:{port}/0"):
                status, body, seconds = timed_health(client)

    assert (status, body["code"], body["workers"]) == (503, "broker-unavailable", None)
    assert seconds < 3


@pytest.mark.django_db
def test_redis_without_workers_is_unavailable(client, redis_url):
    with broker_at(redis_url):
        status, body, seconds = timed_health(client)

    assert status == 503
    assert body == {
        "status": "unavailable",
        "code": "no-workers",
        "message": "No task worker answered a ping.",
        "database": body["database"],
        "broker": "redis",
        "workers": 0,
    }
    assert seconds < 3


@pytest.mark.django_db
def test_redis_with_a_worker_is_ok(client, redis_url):
    if not on_test_database():
        pytest.skip("the worker process needs the PostgreSQL test database")
    with sending_to(Worker(redis_url)) as worker:
        worker.start()
        wait_for(lambda: celery_app.control.ping(timeout=0.5), 60, worker.output)

        status, body, seconds = timed_health(client)

    assert status == 200, body
    assert body["status"] == "ok" and "code" not in body
    assert body["database"] == "postgresql" and body["broker"] == "redis"
    assert body["workers"] >= 1
    assert seconds < 3
