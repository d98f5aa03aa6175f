"""A secret shown once, post/redirect/get: a new bot's token or secret (web/bots.py) and a new
personal API token's key (web/accounts.py). The POST that makes it puts it in the cache for at
most SECONDS under a random handle, puts only the handle in the person's session, and redirects
to the page that shows it; that page takes the handle out of the session and the secret out of
the cache as it draws it, so a reload (or Back) finds nothing and says so, and never posts the
form again. The secret is in no URL, no log and no session row: a redirect never followed (a
closed tab) leaves it in the cache until its time runs out, then nowhere. One a kind (the next
replaces it). With several web processes the cache must be shared (CACHE_URL, as the rate
limits need it; docs/operations.md).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest

SECONDS = 600


def _key(kind: str) -> str:
    return f"{kind}.shown-once"


def _cached(handle: str) -> str:
    return f"shown-once:{handle}"


def keep(request: HttpRequest, kind: str, pk: int, **values: Any) -> None:
    """Keep `values` for the page that shows the `kind` row `pk` once."""
    before = request.session.get(_key(kind))
    if isinstance(before, dict) and isinstance(before.get("handle"), str):
        cache.delete(_cached(before["handle"]))
    handle = secrets.token_urlsafe(18)
    cache.set(_cached(handle), values, SECONDS)
    request.session[_key(kind)] = {"pk": pk, "handle": handle}


def take(request: HttpRequest, kind: str, pk: int) -> dict[str, Any] | None:
    """What was kept for the `kind` row `pk`, taken out of the session and the cache; None if
    nothing is (shown already), or its time ran out."""
    kept = request.session.get(_key(kind))
    if not isinstance(kept, dict) or kept.get("pk") != pk:
        return None
    del request.session[_key(kind)]
    handle = kept.get("handle")
    if not isinstance(handle, str):
        return None
    values: dict[str, Any] | None = cache.get(_cached(handle))
    cache.delete(_cached(handle))
    return values
