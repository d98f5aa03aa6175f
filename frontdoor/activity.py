"""The front door's note that a signed-in person is on the site (clocks/presence.py `active`):
any page or API request of theirs, but the health checks, the metrics, static files and a page's
own polls (`_background`). Written
at most every GAMES_SITE_WRITE_SECONDS per session (or token user) in this process, and the row
at most that often per person whatever the processes: the other requests cost nothing here, not
even the session's read. While a person is on the site no turn email goes to them
(clocks/deadlines.py); their turns wait under the bell and in the lobby."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

from clocks import presence
from games.actors import is_person

log = logging.getLogger(__name__)

# Probes and files, not a person's doing.
_NOT_ACTIVITY = ("/health", "/api/health", "/metrics", "/static/")


def _background(request: HttpRequest) -> bool:
    """A page's own poll, not the person: a GET by htmx (the board's every second) or by a
    script's fetch (the lobby's refresh, the chat's), which a browser marks `Sec-Fetch-Mode`
    other than `navigate`. A tab left open while its person is away polls on: counted, it
    would hold their turn emails for good. A navigation, a form sent and an API call count."""
    if request.method not in ("GET", "HEAD") or request.path.startswith("/api/"):
        return False
    mode = request.headers.get("Sec-Fetch-Mode")
    return "HX-Request" in request.headers or (mode is not None and mode != "navigate")


class ActivityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(_NOT_ACTIVITY) or _background(request):
            return response
        try:
            session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
            if session:
                presence.active_now_and_then(
                    f"session:{session}",
                    lambda: request.user.pk if is_person(request.user) else None,
                )
            else:
                # No session: anonymous, or a token the API authenticated during the view (DRF
                # puts its user on the request); reading it loads nothing.
                user = getattr(request, "user", None)
                if is_person(user):
                    presence.active_now_and_then(f"user:{user.pk}", lambda: user.pk)
        except DatabaseError:
            # The answer stands: a note that was not written only means a turn email may come.
            log.warning("the activity of a request was not recorded", exc_info=True)
        return response
