"""The front door's note of a visit, for the ladders' rest (league/rest.py): where
LEAGUE_LADDER_REST_SECONDS is set (`make run`), every request but the health checks and the
metrics records that someone is at the site, at most every LEAGUE_VISIT_WRITE_SECONDS per
process (a page's live poll comes once a second). Where it is not set (production), nothing
is written."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from league import rest

# Probes, not people: a load balancer's health check or Prometheus would keep the ladders awake.
_NOT_VISITS = ("/health", "/api/health", "/metrics", "/static/")


class VisitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # When this process last wrote the visit (a monotonic clock); None: not yet.
        self.written: float | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.LEAGUE_LADDER_REST_SECONDS > 0 and not request.path.startswith(_NOT_VISITS):
            now = time.monotonic()
            if self.written is None or now - self.written >= settings.LEAGUE_VISIT_WRITE_SECONDS:
                rest.note_visit()
                self.written = now
        return response
