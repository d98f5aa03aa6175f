"""The webhook client: ask a bot's URL for one decision, signed, within a time limit.

The exchange itself is bots/remote/wire.py (pure Python, shared with the standalone runner
bots/arena.py); this module adds the server's settings (BOTS_ALLOW_LOOPBACK_URLS,
BOTS_WEBHOOK_MAX_ANSWER) and its metrics, and is what the workers call.

The worker POSTs `{"game", "variant", "seat", "version", "view", "legal", "deadline"}` as JSON;
the body is signed with HMAC-SHA256 under the bot's secret and sent as `X-Uno-Signature:
sha256=<hex>`. The bot answers 200 with a command as JSON. A connection error (refused, reset
before an answer) is retried once while time remains; nothing else is. Redirects are not
followed (a 3xx is an error). The URL guard (check_url) resolves the host once and refuses it if
any of its addresses is not global unicast: private, link-local, CGNAT, unique-local, multicast,
reserved, an IPv6 tunnel to IPv4, or loopback (127.0.0.0/8, ::1), which BOTS_ALLOW_LOOPBACK_URLS
alone lets through for tests and local work; the call then connects to those checked addresses
only, never resolving again (a host that answers a public address when checked and a private one
when called gets nowhere), with the Host header, TLS's SNI and the certificate check still for
the host name. This module knows nothing of games or the database: it returns an `Answer` and
bots/remote/webhook_turns.py decides what it means.

The time limit is one deadline for the whole exchange (connecting, the TLS handshake, sending,
the status line, headers and body, the retry included), not a timeout for each socket
operation: a bot that trickles its answer a byte at a time would otherwise hold a worker for as
long as it likes. So the exchange runs on http.client with sockets we connect ourselves, each
operation given only the time left, and the body is read in bounded pieces up to
BOTS_WEBHOOK_MAX_ANSWER + 1 bytes. Resolving the host name (check_url, once a call) is bounded
by the deadline too: the standard library's getaddrinfo takes no timeout, so it runs in a thread
of its own and the call stops waiting for it when the time is up (a timeout; the thread ends
when the resolver gives up). The addresses it finds are checked as any others.

A call is two steps, `begin` (resolve and check the host, the deadline started) and `send` (the
POST), so that the caller can do something just before the request goes out: `ask(...,
before_send=...)` runs it between them, and an exception it raises stops the call with nothing
sent (bots/remote/webhook_turns.py renews the game's lease there).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from bots.remote import wire
from bots.remote.wire import (
    ERROR,
    LOOPBACK_SETTING,
    OK,
    SIGNATURE_HEADER,
    TIMEOUT,
    Address,
    Answer,
    Call,
    RefusedURL,
    address_refusal,
    sign,
    verify,
)
from games import metrics

__all__ = [
    "ERROR",
    "LOOPBACK_SETTING",
    "OK",
    "SIGNATURE_HEADER",
    "TIMEOUT",
    "Address",
    "Answer",
    "Call",
    "RefusedURL",
    "address_refusal",
    "ask",
    "begin",
    "check_url",
    "send",
    "sign",
    "verify",
]


def _allow_loopback() -> bool:
    return bool(getattr(settings, LOOPBACK_SETTING, False))


def check_url(url: str, *, timeout: float | None = None) -> list[Address]:
    """wire.check_url under the server's BOTS_ALLOW_LOOPBACK_URLS."""
    return wire.check_url(url, timeout=timeout, allow_loopback=_allow_loopback())


def begin(url: str, *, timeout: float) -> Call:
    """Start a call of `url` with `timeout` seconds in all: resolve and check its host within
    them. Sends nothing; `send` does."""
    return wire.begin(url, timeout=timeout, allow_loopback=_allow_loopback())


def send(call: Call, *, secret: str, payload: dict[str, Any]) -> Answer:
    """POST `payload` for the call `begin` started and return the bot's answer, by its
    deadline."""
    answer = wire.post(call, secret=secret, payload=payload)
    # Timed here, not from answer.latency: a refused URL's answer carries no latency.
    metrics.WEBHOOK_SECONDS.observe(time.monotonic() - call.started)
    metrics.WEBHOOK_CALLS.labels(outcome=answer.outcome).inc()
    return answer


def ask(
    *,
    url: str,
    secret: str,
    payload: dict[str, Any],
    timeout: float,
    before_send: Callable[[], object] | None = None,
) -> Answer:
    """POST `payload` to `url` and return the bot's answer, within `timeout` seconds in all.
    `before_send` runs once the host is resolved, just before the request goes out; an
    exception it raises ends the call with nothing sent (and is raised to the caller)."""
    call = begin(url, timeout=timeout)
    if call.answer is None and before_send is not None:
        before_send()
    return send(call, secret=secret, payload=payload)
