"""Rate limits on commands and sign-ups, counted in Django's cache (CACHE_URL: Redis shared by
every web process; without it each process counts alone). DRF's throttles, as api/owners.py's
BotChangesThrottle: past the rate a request is refused before its view runs, so it changes
nothing; the API answers 429 `{"code": "throttled", "message": ...}` (api/errors.py), the web
pages (web/accounts.py, web/play.py) a page that says when to try again.

The commands' throttles run on every command, so they count in a sliding window of two fixed
windows (`WindowThrottle`): one round trip to Redis, one command (a script), where DRF's own
keeps a list of every request's time and reads and writes it whole (two round trips, and up to
the rate's count of timestamps pickled each way).

The rates are settings (README.md): API_PERSON_COMMANDS_RATE, API_BOT_COMMANDS_RATE, SIGNUP_RATE.

While the cache cannot be reached (Redis restarting; docker-compose.yml puts the cache on the
broker's Redis), a throttle cannot count. The commands' throttles then let the request through
uncounted: a command must not fail because its brake is down (docs/reliability.md), and only
signed-in people and bots with a token send them. Sign-ups (anonymous, where the count per
address is the only brake) and bot changes (api/owners.py; each starts validation matches, which
need the broker, on the same Redis, anyway) fail closed: the error goes on to
api/unavailable.py's 503. Either way the request is counted in uno_throttle_cache_down_total
(games/metrics.py) and logged, at most once a minute per throttle and process.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

from games.metrics import THROTTLE_CACHE_DOWN, THROTTLE_DECISIONS
from games.models import Bot
from games.redis_scripts import kept_script

log = logging.getLogger(__name__)

# The errors of a cache that is down (redis-py's; BusyLoadingError, a Redis still loading its
# data after a restart, is a ConnectionError), the same as api/unavailable.py's.
CACHE_DOWN = (RedisConnectionError, RedisTimeoutError)
# Seconds between two log lines about one throttle's cache being down, in one process.
LOG_EVERY = 60.0
_logged_at: dict[str, float] = {}
LET_THROUGH, REFUSED = THROTTLE_DECISIONS


def cache_down(scope: str, error: Exception, decision: str) -> None:
    """Count and log a request whose `scope` throttle found its cache down, and the `decision`
    taken (THROTTLE_DECISIONS)."""
    THROTTLE_CACHE_DOWN.labels(scope=scope, decision=decision).inc()
    now = time.monotonic()
    if now - _logged_at.get(scope, -LOG_EVERY) >= LOG_EVERY:
        _logged_at[scope] = now
        log.warning("rate limit %s cannot reach its cache (%r): %s", scope, error, decision)


class FailClosedThrottle(SimpleRateThrottle):
    """A DRF throttle that refuses while its cache is down: the cache's error goes on to
    api/unavailable.py's 503, counted and logged here."""

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except CACHE_DOWN as error:
            cache_down(str(self.scope), error, REFUSED)
            raise


class WindowThrottle(SimpleRateThrottle):
    """A sliding-window count: the requests of the current fixed window plus the previous
    window's, weighted by how much of it still lies within the last `duration` seconds
    (the estimate Cloudflare's and nginx's limiters use). Refused requests are not counted, as
    DRF's throttles do not count them."""

    # Set by SimpleRateThrottle.__init__ from the rate (parse_rate), which every subclass here
    # gives; djangorestframework-stubs do not declare them.
    num_requests: int
    duration: int

    def allow_request(self, request: Any, view: Any) -> bool:
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window, into = divmod(self.now, self.duration)
        current = f"{self.key}:{int(window)}"
        try:
            count, previous = self._hit(current, f"{self.key}:{int(window) - 1}")
        except CACHE_DOWN as error:
            # Uncounted: a command goes on while its brake is down (the module's docstring).
            cache_down(str(self.scope), error, LET_THROUGH)
            return True
        # The previous window's requests, spread evenly, that are still within `duration`.
        self.previous, self.into = previous, into
        self.still = previous * (1 - into / self.duration)
        self.excess = self.still + count - self.num_requests
        if self.excess <= 0:
            return True
        try:
            self._unhit(current)
        except CACHE_DOWN:
            # Down since the count: the refusal stands, counted once too many in a window the
            # restart has most likely emptied anyway.
            pass
        return self.throttle_failure()

    def wait(self) -> float | None:
        """Seconds until the estimate is back under the rate: the previous window's weight
        fades as the window slides on; else the current window must end."""
        if self.previous and self.excess <= self.still:
            return self.excess * self.duration / self.previous
        return self.duration - self.into

    def _hit(self, current: str, previous: str) -> tuple[int, int]:
        """Count this request in `current`: (current's count, previous's count)."""
        cache = caches["default"]
        expires = 2 * self.duration
        if isinstance(cache, RedisCache):
            client = _client(cache)
            count, before = kept_script(client, "uno_count_script", _COUNT)(
                keys=[cache.make_and_validate_key(current), cache.make_and_validate_key(previous)],
                args=[expires],
                client=client,
            )
            return int(count), int(before or 0)
        cache.add(current, 0, expires)
        return cache.incr(current), int(cache.get(previous) or 0)

    def _unhit(self, current: str) -> None:
        cache = caches["default"]
        if isinstance(cache, RedisCache):
            _client(cache).decr(cache.make_and_validate_key(current))
        else:
            cache.decr(current)


def _client(cache: RedisCache) -> Any:
    """Django's own Redis client of the cache (its connection pool): the cache API has no
    script. Kept on the cache's client: Django builds a new one on every call (its headers'
    tables and parsers, a few percent of a command's Python).

    RedisCache._cache is Django's private attribute. Measured (docs/performance.md, "Django's
    private attributes"): a count through a pipeline 123 µs against 500 µs through the cache's
    API (add, incr, get: three round trips), and the script (`_COUNT`, games.redis_scripts)
    less again; the kept client 0.07 µs against 52 µs for get_client. tests/api/test_throttles.py
    pins what Django does: a new client at every get_client, and the script's keys and values
    the cache's own."""
    inner = cache._cache  # type: ignore[attr-defined]
    client = getattr(inner, "uno_write_client", None)
    if client is None:
        client = inner.uno_write_client = inner.get_client(write=True)
    return client


# The count in one command (EVALSHA): the current window's INCR and EXPIRE and the previous
# window's GET, where a pipeline of the three cost redis-py three commands' packing and parsing.
# A Redis that lost its scripts (a restart) is sent the script again by redis-py's Script.
_COUNT = """
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return {count, redis.call('GET', KEYS[2])}
"""


class PersonCommandThrottle(WindowThrottle):
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


class TableThrottle(WindowThrottle):
    """A person's changes to tables (open, join, leave, cancel, decline), the API's and the
    site's alike: API_TABLES_RATE."""

    scope = "tables"

    def get_rate(self) -> str:
        return str(settings.API_TABLES_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = request.user
        if not user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


class BotCommandThrottle(WindowThrottle):
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


class SignUpThrottle(FailClosedThrottle):
    """Accounts made from one address: SIGNUP_RATE. Refused (503) while the cache is down."""

    scope = "signups"

    def get_rate(self) -> str:
        return str(settings.SIGNUP_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def try_again_in(throttle: SimpleRateThrottle) -> int:
    """Whole seconds until `throttle`, which has just refused, lets a request through."""
    return max(1, math.ceil(throttle.wait() or 1))


class BotChangesThrottle(FailClosedThrottle, UserRateThrottle):
    """Registering a bot, changing how it plays and asking for its validation each start
    validation matches on our workers: API_BOT_CHANGES_RATE per user (429 `throttled` past it;
    503 while the cache is down, frontdoor/throttles.py)."""

    scope = "bot-changes"

    def get_rate(self) -> str:
        return settings.API_BOT_CHANGES_RATE


# Every throttle's series exists from the start at 0 (BotChangesThrottle is
# "bot-changes").
for _scope in (PersonCommandThrottle.scope, BotCommandThrottle.scope, TableThrottle.scope):
    THROTTLE_CACHE_DOWN.labels(scope=_scope, decision=LET_THROUGH)
for _scope in (SignUpThrottle.scope, "bot-changes"):
    THROTTLE_CACHE_DOWN.labels(scope=_scope, decision=REFUSED)
