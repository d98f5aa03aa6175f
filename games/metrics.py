"""The service's metrics for machines (Prometheus), defined once for every process.

The store, the services and the webhook client count into these; `/metrics` (api/metrics.py)
exposes them with the gauges computed at scrape time, and a Celery worker may expose its own on
METRICS_WORKER_PORT (config/celery.py). docs/operations.md lists them and what to alert on.

This module sits in the lowest layer (.importlinter) so that games.appends and bots.remote.webhook
may import it: it imports prometheus_client and nothing of Django or of the project, which also
lets config/celery.py import it before Django is set up.

Several processes (gunicorn's workers, Celery's pool) each count their own: with
PROMETHEUS_MULTIPROC_DIR set, prometheus_client keeps every process's values in files there and
`exposed()` sums them all; unset, each process exposes its own, in the default registry.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar
from wsgiref.simple_server import WSGIServer

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
    start_http_server,
)
from prometheus_client.multiprocess import MultiProcessCollector

MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if MULTIPROCESS_DIR:
    # prometheus_client opens its files there as the first metric below is made; a missing
    # directory would stop every process at import.
    os.makedirs(MULTIPROCESS_DIR, exist_ok=True)

# The *_created series (a counter's creation time) mean nothing to our alerts, and multiprocess
# mode has none: both modes expose the same series.
disable_created_metrics()  # type: ignore[no-untyped-call]  # unannotated in prometheus_client

# uno_commands_total's outcomes: games.commands.game_command's result or refusal.
APPLIED = "applied"
REPEATED = "repeated"
COMMAND_OUTCOMES = (
    APPLIED, REPEATED, "conflict", "illegal", "forbidden", "not-found", "invalid", "error",
)  # fmt: skip

COMMANDS = Counter(
    "uno_commands",
    "Commands run by games.commands.game_command (people, pull and webhook bots, the system), "
    "by outcome.",
    ["outcome"],
)
APPEND_SECONDS = Histogram(
    "uno_append_seconds",
    "Seconds games.appends.append spent writing one append (refused ones included).",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
EVENTS_APPENDED = Counter("uno_events_appended", "Events written by games.appends.append.")
# bots.remote.webhook's outcomes (OK, TIMEOUT, ERROR there).
WEBHOOK_OUTCOMES = ("ok", "timeout", "error")
WEBHOOK_SECONDS = Histogram(
    "uno_webhook_seconds",
    "Seconds one call of bots.remote.webhook.ask took (the retry included), whatever its outcome.",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
WEBHOOK_CALLS = Counter(
    "uno_webhook_calls", "Calls of bots.remote.webhook.ask, by outcome.", ["outcome"]
)

# frontdoor/throttles.py: requests whose rate limit could not be counted because the cache
# (CACHE_URL) was down, by the throttle's scope and what was done: commands are let through
# uncounted, sign-ups and bot changes refused with a 503 (docs/reliability.md).
THROTTLE_DECISIONS = ("let-through", "refused")
THROTTLE_CACHE_DOWN = Counter(
    "uno_throttle_cache_down",
    "Requests whose rate limit could not be counted because its cache was down, by throttle "
    "scope and decision (let-through or refused).",
    ["scope", "decision"],
)

# Every outcome's series exists from the start at 0, so a rate over it is defined before the
# first conflict or timeout.
for _outcome in COMMAND_OUTCOMES:
    COMMANDS.labels(outcome=_outcome)
for _outcome in WEBHOOK_OUTCOMES:
    WEBHOOK_CALLS.labels(outcome=_outcome)

P = ParamSpec("P")
R = TypeVar("R")


def counted_commands(
    refusal: Callable[[Exception], str],
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Count every call of the decorated command function in uno_commands_total: `repeated` when
    its result says so, `applied` otherwise, `refusal(error)` when it raises."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @wraps(function)
        def counted(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                result = function(*args, **kwargs)
            except Exception as error:
                COMMANDS.labels(outcome=refusal(error)).inc()
                raise
            repeated = getattr(result, "repeated", False)
            COMMANDS.labels(outcome=REPEATED if repeated else APPLIED).inc()
            return result

        return counted

    return decorate


def exposed() -> CollectorRegistry:
    """What this process exposes of the metrics above, and its own process_* metrics."""
    if not MULTIPROCESS_DIR:
        # The default registry: these metrics and the process, platform and gc collectors.
        return REGISTRY
    return _multiprocess()


_registries: list[CollectorRegistry] = []


def _multiprocess() -> CollectorRegistry:
    # Made once: MultiProcessCollector reads the files afresh at every collect.
    if not _registries:
        registry = CollectorRegistry()
        # Unannotated in prometheus_client, which is otherwise typed.
        MultiProcessCollector(registry, path=MULTIPROCESS_DIR)  # type: ignore[no-untyped-call]
        # The answering process's own CPU, memory and file descriptors (the files hold none).
        ProcessCollector(registry=registry)
        _registries.append(registry)
    return _registries[0]


def serve(port: int, addr: str = "0.0.0.0") -> WSGIServer:
    """Serve `exposed()` over HTTP on `port` from a daemon thread (a Celery worker's metrics);
    returns the server (`server_port`, `shutdown()`)."""
    server, _ = start_http_server(port, addr=addr, registry=exposed())
    return server
