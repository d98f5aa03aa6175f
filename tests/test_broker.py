"""config/broker.py: Celery's Redis transport keeps one Redis client per channel, and every task
sent still reaches the queue (docs/performance.md, "API", "What made the difference")."""

from __future__ import annotations

import uuid

import pytest
import redis
from kombu.common import ignore_errors

from config.broker import Transport
from config.celery import app


def test_tasks_sent_share_one_client_and_all_reach_the_queue(redis_url):
    queue = f"test-broker-{uuid.uuid4().hex[:8]}"
    with app.connection_for_write(redis_url) as connection:
        assert isinstance(connection.transport, Transport)
        channel = connection.default_channel
        clients = []
        with connection.Producer(channel) as producer:
            for n in range(3):
                app.send_task(
                    "games.tasks.dispatch_append", args=[n], queue=queue, producer=producer
                )
                with channel.conn_or_acquire() as client:
                    clients.append(client)
        assert len({id(client) for client in clients}) == 1
        with redis.Redis.from_url(redis_url) as direct:
            try:
                assert direct.llen(queue) == 3
            finally:
                direct.delete(queue)
                # The binding kombu made for the queue, in its exchange's set.
                for key in direct.scan_iter("_kombu.binding.*"):
                    for member in direct.smembers(key):
                        if queue.encode() in member:
                            direct.srem(key, member)
        # A channel that lost its pool (closed, or its connection lost) makes a new client on it.
        channel._disconnect_pools()
        assert channel._kept_client is None
        with channel.conn_or_acquire() as client:
            assert client is not clients[0]
            assert client.connection_pool is channel.pool
            assert client.ping()


def test_a_channel_closed_after_its_connection_is_gone_lets_the_worker_reconnect(redis_url):
    """A worker that lost its broker closes its connection's channel, which restores the
    messages it had taken but not acknowledged; when the connection was already released, the
    channel has no address left. That must be a connection error, which the worker's close
    ignores before it reconnects, not an AttributeError, which killed both of the soak's
    workers at its redis-restart and left every game waiting."""
    connection = app.connection_for_write(redis_url)
    channel = connection.default_channel
    channel.qos._delivered["a-tag"] = None  # a message taken and not acknowledged
    channel._disconnect_pools()
    connection.transport.client = None  # the connection released, as after the broker's loss

    try:
        with pytest.raises(redis.exceptions.ConnectionError):
            channel.qos.restore_unacked()
        assert isinstance(redis.exceptions.ConnectionError(), connection.connection_errors)
        ignore_errors(connection, channel.qos.restore_unacked)  # what the worker's close does
    finally:
        channel.qos._delivered.clear()  # nothing left for kombu's restore at exit
