"""Rate limits on commands and sign-ups, counted in Django's cache (CACHE_URL: Redis shared by
every web process; without it each process counts alone). DRF's throttles, as api/owners.py's
BotChangesThrottle: past the rate a request is refused before its view runs, so it changes
nothing; the API answers 429 `{"code": "throttled", "message": ...}` (api/errors.py), the web
pages (web/accounts.py, web/play.py) a page that says when to try again.

The rates are settings (README.md): API_PERSON_COMMANDS_RATE, API_BOT_COMMANDS_RATE, SIGNUP_RATE.
"""

from __future__ import annotations

import ipaddress
import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle

from games.models import Bot


class PersonCommandThrottle(SimpleRateThrottle):
    """A person's game commands, the API's and the play page's alike (one count per person):
    API_PERSON_COMMANDS_RATE."""

    scope = "person-commands"

    def get_rate(self) -> str:
        return str(settings.API_PERSON_COMMANDS_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = request.user
        if not user.is_authenticated:
            # Refused by authentication anyway; nothing to count.
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


class BotCommandThrottle(SimpleRateThrottle):
    """A pull bot's commands, over all its games: API_BOT_COMMANDS_RATE."""

    scope = "bot-commands"

    def get_rate(self) -> str:
        return str(settings.API_BOT_COMMANDS_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        bot = getattr(request, "auth", None)
        if not isinstance(bot, Bot):
            return None
        return self.cache_format % {"scope": self.scope, "ident": bot.pk}


def client_address(request: HttpRequest) -> str:
    """Who is asking, for limits per address: REMOTE_ADDR, never X-Forwarded-For (anyone can
    write that header, and DRF's own get_ident trusts it unless NUM_PROXIES is set). An IPv6
    client counts by its /64, which one subscriber usually has whole."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    try:
        address = ipaddress.ip_address(remote)
    except ValueError:
        return remote
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


class SignUpThrottle(SimpleRateThrottle):
    """Accounts made from one address: SIGNUP_RATE."""

    scope = "signups"

    def get_rate(self) -> str:
        return str(settings.SIGNUP_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def try_again_in(throttle: SimpleRateThrottle) -> int:
    """Whole seconds until `throttle`, which has just refused, lets a request through."""
    return max(1, math.ceil(throttle.wait() or 1))
