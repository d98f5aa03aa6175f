"""Django's PostgreSQL backend with a health check that costs no round trip while the
connection is idle and well.

With CONN_HEALTH_CHECKS, Django checks a persistent connection before its first use in each
request with `SELECT 1`: a round trip, and a statement the server parses and runs, on every
request (about a tenth of an API request's work, docs/performance.md "API"). It exists to
notice a connection the server has dropped (a restart, `pg_terminate_backend`, a failover) and
to open a new one instead of failing the request.

A server that drops a connection says so on its socket: it sends its last message (FATAL,
terminating connection) and closes it, or its process dies and the kernel closes it. Either
way the idle socket becomes readable. An idle connection in good health has nothing to read.
So `is_usable` first asks the kernel, without waiting, whether the socket has anything to
read: nothing means usable, with no round trip; anything (or a socket psycopg already knows is
closed) falls back to Django's `SELECT 1`, which reads it and decides.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None:
            return False
        if connection.closed or connection.broken:
            return False
        try:
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
            quiet = not poller.poll(0)
        except (OSError, ValueError):
            quiet = False
        return quiet or bool(super().is_usable())
