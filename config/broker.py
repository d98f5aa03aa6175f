"""Celery's Redis transport, with one Redis client per channel instead of one per call.

kombu's Redis channel builds a new `redis.Redis` for every synchronous call it makes: each task
published (`delay`), each queue size asked. Building one fills its table of response callbacks,
about 170 entries, and cost 130 of the 580 µs of CPU a `delay` took (docs/performance.md, "API",
"What made the difference"). A person's command through the API publishes one task
(games/dispatch.py), and so do the workers' dispatches. A `redis.Redis` is safe to share: each
command takes a connection from the channel's pool and gives it back. This transport keeps one
client per channel, and makes it anew when the channel's pool changes (kombu drops its pools
when a channel closes or its connection is lost).

settings.py names it as CELERY_BROKER_TRANSPORT for a redis:// broker (a rediss:// one keeps
kombu's own, which turns TLS on by its name).
"""

from __future__ import annotations

from typing import Any

import redis
from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    _kept_client: Any = None

    # _create_client and _disconnect_pools are kombu's Redis channel's own (private) hooks, which
    # kombu-stubs (celery-types) do not declare; tests/test_broker.py pins what they do.
    def _create_client(self, asynchronous: bool = False) -> Any:
        if self.connection.client is None:
            # The connection this channel belonged to is gone (kombu 5.7 closes a channel,
            # restoring its unacknowledged messages, after the broker was lost and the
            # connection released): kombu's own client would fail on its address with an
            # AttributeError, which a Celery worker takes as unrecoverable and dies of. A
            # connection error instead is one the worker ignores while closing, and it
            # reconnects (the soak's redis-restart; tests/test_broker.py). The messages stay
            # in the broker's unacked index, restored by the next worker to look.
            raise redis.exceptions.ConnectionError("the broker connection was closed")
        if asynchronous:
            return super()._create_client(asynchronous=True)  # type: ignore[misc]
        pool = self.pool
        client = self._kept_client
        if client is None or client.connection_pool is not pool:
            client = self._kept_client = super()._create_client()  # type: ignore[misc]
        return client

    def _disconnect_pools(self) -> None:
        # The kept client goes with the pool it holds (a channel closed, a connection lost).
        self._kept_client = None
        super()._disconnect_pools()  # type: ignore[misc]


class Transport(kombu_redis.Transport):
    Channel = Channel
