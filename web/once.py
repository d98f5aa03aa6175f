"""A form that creates something is acted on once, however often it is sent (a double tap on a
phone sends it twice, as does a reload of the POST or Back and the button again).

Each such form carries a one-time token, `{% once_field %}` (a builtin tag: config/settings.py
TEMPLATES), a fresh random one each time the form is drawn. The view is wrapped in `@once`: the
first POST of a signed-in person with a token claims it in the cache (an atomic `add`, so two
POSTs that arrive together cannot both win), runs the view, and keeps where its redirect went
for SECONDS. Any later POST with the same token and the same fields answers with that same
redirect, to the game, table, club, post or shown-once page the first made, and makes nothing;
one that arrives while the first still runs waits for it (up to WAIT_SECONDS, then the 409 page
`sent-twice`). A first POST that did not redirect (the form again, with its errors) frees the
token, so the corrected form sends as new. The claim is keyed on the person, the token and the
posted fields (minus the CSRF token), so two forms drawn on one page (the quick starts), or a
form changed after Back, are two submissions. A POST without a token (the API's scripts, an old
page) is acted on as before. With several web processes the cache must be shared (CACHE_URL,
as the rate limits need it; docs/operations.md).

static/once.js (every page, templates/base.html) also disables a form's submit buttons while its
POST is in flight, so that most second taps are never sent.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Any

from django import template
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.safestring import SafeString

FIELD = "once"
SECONDS = 600
WAIT_SECONDS = 10.0
_PENDING = "pending"
_SKIPPED = frozenset({FIELD, "csrfmiddlewaretoken"})

register = template.Library()


@register.simple_tag
def once_field() -> SafeString:
    """The form's one-time token, a hidden field."""
    return format_html(
        '<input type="hidden" name="{}" value="{}">', FIELD, secrets.token_urlsafe(18)
    )


def _key(request: HttpRequest, token: str) -> str:
    digest = hashlib.sha256()
    for part in (str(request.user.pk), token):
        digest.update(part.encode() + b"\0")
    for name in sorted(set(request.POST) - _SKIPPED):
        for value in request.POST.getlist(name):
            digest.update(f"{name}={value}".encode() + b"\0")
    return f"once:{digest.hexdigest()}"


def _again(request: HttpRequest, key: str) -> HttpResponse | None:
    """The answer to a token claimed already: the first POST's redirect, once it has one; None
    if the first let it go (it drew the form again), for this one to claim."""
    deadline = time.monotonic() + WAIT_SECONDS
    while (kept := cache.get(key)) == _PENDING:
        if time.monotonic() >= deadline:
            return _busy(request)
        time.sleep(0.05)
    return None if kept is None else HttpResponseRedirect(kept)


def _busy(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "sent_twice.html",
        {
            "message": "this form was sent twice and the first is not done: "
            "look for what it made before sending it again",
            "code": "sent-twice",
        },
        status=409,
    )


View = Callable[..., HttpResponse]


def once(view: View) -> View:
    """Act on a form's token once (the module's docstring)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        token = request.POST.get(FIELD, "") if request.method == "POST" else ""
        if not token or len(token) > 64 or not request.user.is_authenticated:
            return view(request, *args, **kwargs)
        key = _key(request, token)
        while not cache.add(key, _PENDING, SECONDS):
            if (answer := _again(request, key)) is not None:
                return answer
        try:
            response = view(request, *args, **kwargs)
        except BaseException:
            cache.delete(key)
            raise
        if isinstance(response, HttpResponseRedirect):
            cache.set(key, response["Location"], SECONDS)
        else:
            cache.delete(key)
        return response

    return wrapped
