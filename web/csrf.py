"""CSRF_FAILURE_VIEW: a request refused by Django's CSRF check (a form's POST without the
`csrftoken` cookie or its token). A browser keeps Django's 403 page; a caller that asks for JSON
(web/lockout.py `wants_json`: a script signing in with curl) gets 403 `csrf-failed` in the API's
error shape, and a message that says how to send the token (docs/bots-api.md, the sign-in
recipe)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import csrf

from web.lockout import wants_json

CODE = "csrf-failed"
HOW = (
    "Fetch the form first (GET /accounts/login/, or the page you post to) to get the "
    "csrftoken cookie, then send that cookie back with its value as the X-CSRFToken header "
    "or the csrfmiddlewaretoken form field; over HTTPS, send a Referer of the site too."
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403: JSON `csrf-failed` for a script, Django's own page for a browser."""
    if not wants_json(request):
        return csrf.csrf_failure(request, reason)
    # Django's reason names what was missing or wrong ("CSRF cookie not set."), never a token.
    said = f" ({reason.rstrip('.')})" if reason else ""
    message = f"The request was refused by the CSRF check{said}. {HOW}"
    return JsonResponse({"code": CODE, "message": message}, status=403)
