"""A secret shown once, post/redirect/get: a new bot's token or secret (web/bots.py) and a new
personal API token's key (web/accounts.py). The POST that makes it keeps it here, in the
person's session, and redirects to the page that shows it; that page takes it out as it draws
it, so a reload (or Back) finds nothing and says so, and never posts the form again. Never in a
URL or a log; kept at most SECONDS (a page never drawn: the person went elsewhere), one a kind
(the next replaces it). The session is Django's database session (config/settings.py sets no
other engine): a signed-cookie session would send the secret in a cookie.
"""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest

SECONDS = 600


def _key(kind: str) -> str:
    return f"{kind}.shown-once"


def keep(request: HttpRequest, kind: str, pk: int, **values: Any) -> None:
    """Keep `values` for the page that shows the `kind` row `pk` once."""
    request.session[_key(kind)] = {"pk": pk, "at": time.time(), **values}


def take(request: HttpRequest, kind: str, pk: int) -> dict[str, Any] | None:
    """What was kept for the `kind` row `pk`, taken out of the session; None if nothing is
    (shown already), or it was kept too long ago."""
    kept = request.session.get(_key(kind))
    if not isinstance(kept, dict) or kept.get("pk") != pk:
        return None
    del request.session[_key(kind)]
    if time.time() - float(kept.get("at", 0)) > SECONDS:
        return None
    return kept
