"""The webhook client: ask a bot's URL for one decision, signed, within a time limit.

The worker POSTs `{"game", "seat", "version", "view", "legal", "deadline"}` as JSON; the body is
signed with HMAC-SHA256 under the bot's secret and sent as `X-Uno-Signature: sha256=<hex>`. The
bot answers 200 with a command as JSON. A connection error (refused, reset before an answer) is
retried once while time remains; nothing else is. Redirects are not followed, and a URL whose
host resolves to a private, loopback or link-local address is refused unless
BOTS_ALLOW_PRIVATE_URLS is on. This module knows nothing of games or the database: it returns an
`Answer` and games/remote_bots.py decides what it means.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

SIGNATURE_HEADER = "X-Uno-Signature"

# Outcomes of one call.
OK = "ok"
TIMEOUT = "timeout"
ERROR = "error"


class RefusedURL(ValueError):
    """A URL the server will not call: not http(s), no host, or a private address."""

    code = "refused-url"


@dataclass(frozen=True, slots=True)
class Answer:
    outcome: str
    # The decoded JSON answer when the outcome is OK (not yet checked against the rules).
    command: Any = None
    latency: float = 0.0
    # Why the call failed, for the bot's owner.
    detail: str = ""


def sign(secret: str, body: bytes) -> str:
    """The value of the signature header for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, header: str) -> bool:
    """What a bot does with the header (documented in docs/workers.md)."""
    return hmac.compare_digest(sign(secret, body), header)


def check_url(url: str) -> None:
    """Raise RefusedURL unless the server may call `url`."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RefusedURL(f"{url!r} is not an http(s) URL with a host")
    if settings.BOTS_ALLOW_PRIVATE_URLS:
        return
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise RefusedURL(f"cannot resolve {parts.hostname!r}: {error}") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not address.is_global or address.is_multicast:
            raise RefusedURL(
                f"{parts.hostname!r} resolves to {address}, a private, loopback or link-local "
                "address (allowed only with BOTS_ALLOW_PRIVATE_URLS)"
            )


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A redirect could lead anywhere, a private address included: a 3xx is an error.
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def ask(*, url: str, secret: str, payload: dict[str, Any], timeout: float) -> Answer:
    """POST `payload` to `url` and return the bot's answer, within `timeout` seconds in all."""
    body = json.dumps(payload, separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "uno-league-worker",
        SIGNATURE_HEADER: sign(secret, body),
    }
    started = time.monotonic()
    try:
        check_url(url)
    except RefusedURL as error:
        return Answer(ERROR, detail=str(error))
    for attempt in (1, 2):
        left = timeout - (time.monotonic() - started)
        if left <= 0:
            return Answer(TIMEOUT, latency=time.monotonic() - started, detail="no time left")
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with _opener.open(request, timeout=left) as response:
                raw = response.read(settings.BOTS_WEBHOOK_MAX_ANSWER + 1)
            break
        except TimeoutError:
            return Answer(TIMEOUT, latency=time.monotonic() - started, detail="no answer in time")
        except urllib.error.HTTPError as error:
            return Answer(ERROR, latency=time.monotonic() - started, detail=f"HTTP {error.code}")
        except (urllib.error.URLError, ConnectionError, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, TimeoutError):
                return Answer(TIMEOUT, latency=time.monotonic() - started, detail="no answer")
            if attempt == 1 and isinstance(reason, ConnectionError):
                continue
            return Answer(ERROR, latency=time.monotonic() - started, detail=f"{reason}")
    latency = time.monotonic() - started
    if latency > timeout:
        return Answer(TIMEOUT, latency=latency, detail=f"answered after {latency:.2f} s")
    if len(raw) > settings.BOTS_WEBHOOK_MAX_ANSWER:
        return Answer(ERROR, latency=latency, detail="the answer is too long")
    try:
        command = json.loads(raw)
    except ValueError:
        return Answer(ERROR, latency=latency, detail="the answer is not JSON")
    return Answer(OK, command=command, latency=latency)
