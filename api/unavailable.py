"""A clear 503 while a part of the service is down, instead of a 500 page.

When the database refuses or drops connections (a restart, a failover, a full pool) or the
broker cannot be reached, a request fails through no fault of the client and will succeed
again shortly: it is told so, `503 {"code": "unavailable", "message": ...}` with Retry-After
under /api/ (a short page elsewhere), and the error is logged as a warning, not as a bug.
Commands are safe to retry with the same command id (docs/api.md), so a client that got a 503
sends the same command again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

# The errors of a part that is down, not of the request: the database's connection errors
# (psycopg's are wrapped as these two by Django), and the broker's (kombu's, redis-py's).
UNAVAILABLE = (
    OperationalError,
    InterfaceError,
    BrokerError,
    RedisConnectionError,
    RedisTimeoutError,
)
CODE = "unavailable"
MESSAGE = "A part of the service is briefly down; try again in a few seconds."
# Seconds a client should wait before trying again: a restart or failover takes about that.
RETRY_AFTER = "5"


class UnavailableMiddleware:
    """Turns UNAVAILABLE raised by a view into a 503. DRF's exception handler (api/errors.py)
    leaves these to Django, so API views end here too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, UNAVAILABLE):
            return None
        log.warning("503 for %s %s: %r", request.method, request.path, exception)
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse({"code": CODE, "message": MESSAGE}, status=503)
        else:
            response = HttpResponse(MESSAGE, status=503, content_type="text/plain")
        response["Retry-After"] = RETRY_AFTER
        return response
