"""GET /metrics: the service's metrics in Prometheus's text format, for scrapers only.

The counters and histograms of games/metrics.py (summed over every process when
PROMETHEUS_MULTIPROC_DIR is set), the process's own process_* metrics, and gauges computed as the
scrape runs: the projections' lag and the Celery queue's depth (games/health.py, the figures the
staff dashboard shows too). docs/operations.md lists them.

Who may scrape: a caller presenting `Authorization: Bearer <METRICS_TOKEN>`; and with DEBUG or
METRICS_ALLOW_PRIVATE on, one connected directly from a loopback or private address (no proxy
header: behind a proxy every request would come from its private address). Anyone else gets the
site's 404, as for a page that is not there.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Iterator

from django.conf import settings
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_PLAIN_0_0_4, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from games import health, metrics

log = logging.getLogger(__name__)

# Headers a reverse proxy adds: their presence means REMOTE_ADDR is the proxy's, not the caller's.
FORWARDING_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP")


def may_scrape(request: HttpRequest) -> bool:
    """The token, from anywhere; without it, where DEBUG or METRICS_ALLOW_PRIVATE allows, a
    direct caller on loopback or a private address."""
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        if hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return True
    # A proxy that adds no forwarding header makes every outside caller look private: in
    # production the address alone opens nothing unless the operator says it may.
    if not (settings.DEBUG or settings.METRICS_ALLOW_PRIVATE):
        return False
    if any(header in request.headers for header in FORWARDING_HEADERS):
        return False
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_private


class ScrapeTime(Collector):
    """Gauges read from the database and the broker at each scrape, a few cheap queries each.
    A source that does not answer costs its gauges, never the scrape: uno_metrics_source_up says
    which answered."""

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily(
            "uno_metrics_source_up",
            "1 if the source of this scrape's gauges answered (database, broker), else 0.",
            labels=["source"],
        )
        try:
            lags = health.projection_lags()
        except DatabaseError as error:
            log.warning("metrics: the database does not answer: %s", error)
            up.add_metric(["database"], 0)
        else:
            up.add_metric(["database"], 1)
            events = GaugeMetricFamily(
                "uno_projection_lag_events",
                "Events committed that the projection has not applied yet.",
                labels=["projection"],
            )
            seconds = GaugeMetricFamily(
                "uno_projection_lag_seconds",
                "Age of the oldest event the projection has not applied yet (0 when caught up).",
                labels=["projection"],
            )
            for lag in lags:
                events.add_metric([lag.name], lag.lag)
                seconds.add_metric([lag.name], lag.seconds)
            yield events
            yield seconds
        if settings.REDIS_URL:
            queue = settings.CELERY_TASK_DEFAULT_QUEUE
            try:
                depth = health.queue_depth(settings.REDIS_URL, queue)
            except health.BROKER_ERRORS as error:
                log.warning("metrics: the broker does not answer: %s", error)
                up.add_metric(["broker"], 0)
            else:
                up.add_metric(["broker"], 1)
                family = GaugeMetricFamily(
                    "uno_queue_depth",
                    "Celery tasks waiting in the broker's queue (Redis LLEN).",
                    labels=["queue"],
                )
                family.add_metric([queue], depth)
                yield family
        yield up


# The scrape-time gauges, apart from games.metrics' registry: in multiprocess mode that one only
# reads files, and these must be computed by the process that answers.
_SCRAPE_TIME = CollectorRegistry(auto_describe=False)
_SCRAPE_TIME.register(ScrapeTime())


def scrape(request: HttpRequest) -> HttpResponse:
    """GET /metrics for whoever may_scrape; a 404 for anyone else."""
    if not may_scrape(request):
        raise Http404("no such page")
    body = generate_latest(metrics.exposed()) + generate_latest(_SCRAPE_TIME)
    # 0.0.4, the text format every Prometheus reads; our names need none of 1.0.0's escaping, so
    # the body is the same in both.
    return HttpResponse(body, content_type=CONTENT_TYPE_PLAIN_0_0_4)
