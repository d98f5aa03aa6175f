"""The service's health figures read as they are asked for: whether the database answers, the
broker and its workers (GET /api/health, api/views.py), each projection's lag, and the depth of
Celery's queue in Redis. GET /api/health, GET /metrics (api/metrics.py) and the staff dashboard
(staff/figures.py) all read them here, so they never disagree.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

import redis
from celery import current_app as celery_app
from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone
from kombu.exceptions import KombuError

from games import projections
from games.models import GameEvent, ProjectionCheckpoint

log = logging.getLogger(__name__)

EAGER = "eager"
DATABASE_UNAVAILABLE = "database-unavailable"
BROKER_UNAVAILABLE = "broker-unavailable"
NO_WORKERS = "no-workers"

MESSAGES = {
    DATABASE_UNAVAILABLE: "The database does not answer.",
    BROKER_UNAVAILABLE: "The task broker does not answer.",
    NO_WORKERS: "No task worker answered a ping.",
}


@dataclass
class Tasks:
    """What the health check found of the task queue."""

    broker: str
    workers: int | None = None
    problem: str | None = None
    # The workers that answered the ping, by name (Celery's hostnames, "celery@host").
    names: list[str] = field(default_factory=list)


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return False
    return True


def check_tasks() -> Tasks:
    """Connect to Celery's broker and ping the workers, each bounded by HEALTH_TIMEOUT (the
    staff dashboard asks the same: staff/figures.py).

    Reads the Celery app's configuration as it is now (tests and tools change it at run time),
    and uses a connection of its own rather than the app's pool.
    """
    conf = celery_app.conf
    if conf.task_always_eager:
        return Tasks(broker=EAGER)
    timeout = settings.HEALTH_TIMEOUT
    # socket_*: redis-py's, so that a broker that accepts connections but never answers cannot
    # hold the request (kombu's connect_timeout covers AMQP).
    options = {"socket_connect_timeout": timeout, "socket_timeout": timeout}
    with celery_app.connection_for_write(
        connect_timeout=timeout, transport_options=options
    ) as broker:
        errors: tuple[type[BaseException], ...] = (
            KombuError, OSError, *broker.connection_errors, *broker.channel_errors,
        )  # fmt: skip
        # The transport's kind (`redis`), whichever class of it settings name (config/broker.py).
        transport = str(broker.transport.driver_type)
        try:
            # max_retries=0: one attempt; kombu would otherwise sleep and retry.
            # kombu takes seconds as a float; kombu-stubs say int.
            broker.ensure_connection(max_retries=0, timeout=timeout)  # type: ignore[arg-type]
            replies = celery_app.control.ping(timeout=timeout, connection=broker)
        except errors as error:
            log.warning("the broker (%s) failed the workers' ping: %s", transport, error)
            return Tasks(broker=transport, problem=BROKER_UNAVAILABLE)
    # A list (None only when no reply is asked for).
    names = sorted(name for reply in replies or () for name in reply)
    return Tasks(
        broker=transport,
        workers=len(names),
        problem=None if names else NO_WORKERS,
        names=names,
    )


# What a Redis that does not answer raises: redis-py's errors, and the socket's own.
BROKER_ERRORS = (redis.RedisError, OSError)


@dataclass(frozen=True, slots=True)
class ProjectionLag:
    name: str
    position: int
    head: int
    # When the checkpoint last moved (None: the projection never ran).
    updated_at: datetime | None
    # How long the oldest event the projection has not applied has waited (0 when caught up).
    seconds: float

    @property
    def lag(self) -> int:
        """Events committed that the projection has not applied yet."""
        return self.head - self.position


def projection_lags(now: datetime | None = None) -> list[ProjectionLag]:
    """Each projection's checkpoint against the head of the log (games.projections.status), and
    in seconds the age of the first event it has not applied: the first one after its
    checkpoint, which need not be the next position (an append that rolled back leaves a gap,
    docs/event-store.md). Three queries and one indexed lookup per lagging projection; the lag
    in events counts such gaps too, so it can read a little high."""
    now = now or timezone.now()
    statuses = projections.status()
    updated = dict(ProjectionCheckpoint.objects.values_list("name", "updated_at"))
    waiting: dict[str, datetime | None] = {
        s.name: GameEvent.objects.filter(
            global_position__gt=s.position, global_position__lte=s.head
        )
        .order_by("global_position")
        .values_list("recorded_at", flat=True)
        .first()
        for s in statuses
        if s.lag > 0
    }
    lags = []
    for status in statuses:
        first = waiting.get(status.name)
        seconds = max(0.0, (now - first).total_seconds()) if first is not None else 0.0
        lags.append(
            ProjectionLag(
                status.name, status.position, status.head, updated.get(status.name), seconds
            )
        )
    return lags


def redis_client(url: str) -> redis.Redis:
    """A client of the Redis at `url` whose every wait is bounded by HEALTH_TIMEOUT: a figure of
    a broker that does not answer costs one timeout, not redis-py's default of none."""
    timeout = settings.HEALTH_TIMEOUT
    return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)


def queue_depth(url: str, queue: str) -> int:
    """The tasks waiting in `queue` on the Redis broker at `url`: LLEN of its list (kombu's Redis
    transport keeps each queue as a list named after it). Raises one of BROKER_ERRORS when
    Redis does not answer within HEALTH_TIMEOUT."""
    with redis_client(url) as client:
        return cast(int, client.llen(queue))
