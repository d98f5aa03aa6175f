"""The service's health figures read as they are asked for: each projection's lag, and the
depth of Celery's queue in Redis. GET /metrics (api/metrics.py) and the staff dashboard
(staff/figures.py) both read them here, so the two never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

import redis
from django.conf import settings
from django.utils import timezone

from games import projections
from games.models import GameEvent, ProjectionCheckpoint

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
