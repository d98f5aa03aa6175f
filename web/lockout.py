"""What a person sees when too many attempts are refused: a sign-in locked out by django-axes
(AXES_LOCKOUT_CALLABLE), or a sign-up or command past its rate (frontdoor/throttles.py). A page with
429 and Retry-After that says when to try again; JSON in the API's error shape for a caller that
asks for JSON.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone

STATUS = 429


def wants_json(request: HttpRequest) -> bool:
    """A script (the API's paths, an Accept naming JSON, XMLHttpRequest), not a browser page."""
    accept = request.headers.get("Accept", "")
    return (
        request.path.startswith("/api/")
        or ("application/json" in accept and "text/html" not in accept)
        or request.headers.get("X-Requested-With") == "XMLHttpRequest"
    )


def _wait_text(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minutes"


def too_many(
    request: HttpRequest, *, code: str, heading: str, message: str, wait: datetime.timedelta
) -> HttpResponse:
    """429: `message`, and when to try again (after `wait`)."""
    seconds = max(1, math.ceil(wait.total_seconds()))
    until = timezone.now() + datetime.timedelta(seconds=seconds)
    text = f"{message} Try again in {_wait_text(seconds)}."
    response: HttpResponse
    if wants_json(request):
        response = JsonResponse({"code": code, "message": text}, status=STATUS)
    else:
        context = {
            "code": code,
            "heading": heading,
            "message": message,
            "until": until,
            "wait_text": _wait_text(seconds),
        }
        response = render(request, "throttled.html", context, status=STATUS)
    response["Retry-After"] = str(seconds)
    return response


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """Axes's lockout response. Axes calls this with three arguments, and again with two if it
    raises TypeError, so nothing here may raise one. The wait is the whole cool-off: axes counts
    it from the attempt that got here."""
    wait = get_cool_off(request) or datetime.timedelta(minutes=15)
    return too_many(
        request,
        code="locked-out",
        heading="Signing in is locked for a while",
        message=(
            "Too many wrong passwords in a row for this username from your address, so signing "
            "in to it from here is paused."
        ),
        wait=wait,
    )
