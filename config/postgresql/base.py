"""Django's PostgreSQL backend with a health check that costs no round trip while the
connection is idle, in use and well.

With CONN_HEALTH_CHECKS, Django checks a persistent connection before its first use in each
request with `SELECT 1`: a round trip, and a statement the server parses and runs, on every
request (6.5% of an API request's work, docs/performance.md "API", "What made the difference").
It exists to notice a connection the server has dropped (a restart, `pg_terminate_backend`, a
failover) and to open a new one instead of failing the request.

A server that drops a connection says so on its socket: it sends its last message (FATAL,
terminating connection) and closes it, or its process dies and the kernel closes it. Either
way the idle socket becomes readable. An idle connection in good health has nothing to read.
So `is_usable` first asks the kernel, without waiting, whether the socket has anything to
read, and takes "nothing" for usable only when the connection is also idle outside a
transaction (not left mid-protocol or in a failed transaction by an error) and was checked
less than QUIET_SECONDS ago: a peer that vanished without a word (a host lost, a failover
that moved the address, a NAT that forgot the flow) says nothing on the socket, so a
connection left unused for longer gets Django's `SELECT 1`, as do all the other cases.
"""

from __future__ import annotations

import select
import time

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus

# A connection checked this recently and quiet since is taken as usable without a round trip.
QUIET_SECONDS = 10.0


class DatabaseWrapper(base.DatabaseWrapper):
    _checked_at = float("-inf")

    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        now = time.monotonic()
        recent, self._checked_at = now - self._checked_at < QUIET_SECONDS, now
        if recent and connection.info.transaction_status == TransactionStatus.IDLE:
            try:
                poller = select.poll()
                poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
                if not poller.poll(0):
                    return True
            except (AttributeError, OSError, ValueError):
                pass  # no poll() here, or no socket: ask the server
        return bool(super().is_usable())
