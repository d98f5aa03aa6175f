"""GET /metrics (api/metrics.py, games/metrics.py): who may scrape, the text format, and that each
metric moves with the real thing it counts: game commands, appends, projections, the Celery
queue in Redis, webhook calls to a bot on loopback, a worker's own exporter."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from bots.remote import webhook
from config import celery_app
from games import metrics, projections
from games.commands import game_command
from games.errors import Conflict
from tests.games.factories import bot_move, make_game, play_turn

pytestmark = pytest.mark.django_db

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]

PUBLIC = "93.184.216.34"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def private_scrapers(settings):
    """Scrape as a Prometheus on a private network the site trusts (METRICS_ALLOW_PRIVATE); the
    tests of who may scrape set what they test."""
    settings.METRICS_ALLOW_PRIVATE = True


def parse(text: str) -> Samples:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client, **extra) -> Samples:
    response = client.get("/metrics", **extra)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    return parse(response.content.decode())


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_the_endpoint_answers_in_the_prometheus_text_format(client):
    response = client.get("/metrics")

    assert response.status_code == 200
    families = {f.name: f for f in text_string_to_metric_families(response.content.decode())}
    assert families["uno_commands"].type == "counter"
    assert families["uno_append_seconds"].type == "histogram"
    assert families["uno_webhook_seconds"].type == "histogram"
    assert families["uno_webhook_calls"].type == "counter"
    assert families["uno_projection_lag_events"].type == "gauge"
    assert families["uno_projection_lag_seconds"].type == "gauge"
    assert "process_resident_memory_bytes" in families
    # Every outcome is there from the start, at 0 in a fresh process or more.
    outcomes = {s.labels["outcome"] for s in families["uno_commands"].samples}
    assert outcomes == set(metrics.COMMAND_OUTCOMES)


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "172.18.0.5", "::1"])
def test_loopback_and_private_callers_may_scrape_where_allowed(client, address):
    assert client.get("/metrics", REMOTE_ADDR=address).status_code == 200


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "::1"])
def test_without_debug_or_the_allowance_private_callers_need_the_token(client, settings, address):
    # A proxy that adds no forwarding header makes every outside caller look like this.
    settings.DEBUG = False
    settings.METRICS_ALLOW_PRIVATE = False
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR=address).status_code == 404

    settings.METRICS_TOKEN = "s3cret-token"
    assert client.get("/metrics", REMOTE_ADDR=address).status_code == 404
    bearer = {"HTTP_AUTHORIZATION": "Bearer s3cret-token"}
    assert client.get("/metrics", REMOTE_ADDR=address, **bearer).status_code == 200


def test_with_debug_a_private_caller_may_scrape_without_the_token(client, settings):
    settings.DEBUG = True
    settings.METRICS_ALLOW_PRIVATE = False
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR=PUBLIC).status_code == 404
    forwarded = {"HTTP_X_FORWARDED_FOR": PUBLIC}
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1", **forwarded).status_code == 404


def test_a_public_caller_without_the_token_gets_a_404(client, settings):
    settings.METRICS_TOKEN = "s3cret-token"

    assert client.get("/metrics", REMOTE_ADDR=PUBLIC).status_code == 404
    wrong = {"HTTP_AUTHORIZATION": "Bearer not-it"}
    assert client.get("/metrics", REMOTE_ADDR=PUBLIC, **wrong).status_code == 404


def test_a_request_forwarded_by_a_proxy_is_not_trusted_for_its_address(client):
    # The proxy connects from loopback; the caller behind it may be anyone.
    forwarded = {"HTTP_X_FORWARDED_FOR": PUBLIC}
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1", **forwarded).status_code == 404


def test_the_token_opens_it_from_anywhere(client, settings):
    settings.METRICS_TOKEN = "s3cret-token"
    bearer = {"HTTP_AUTHORIZATION": "Bearer s3cret-token"}

    samples = scrape(client, REMOTE_ADDR=PUBLIC, HTTP_X_FORWARDED_FOR=PUBLIC, **bearer)

    assert ("uno_commands_total", frozenset({("outcome", "applied")})) in samples


def test_without_a_token_setting_no_bearer_opens_it(client, settings):
    settings.METRICS_TOKEN = ""
    bearer = {"HTTP_AUTHORIZATION": "Bearer "}
    assert client.get("/metrics", REMOTE_ADDR=PUBLIC, **bearer).status_code == 404


def test_a_game_command_moves_its_outcome_by_one_and_counts_one_append(client):
    game = make_game()
    actor, command, version = bot_move(game.pk, random.Random(1))
    before = scrape(client)

    game_command(
        game_id=game.pk, actor=actor, command=command, expected_version=version, command_id="c1"
    )
    after = scrape(client)

    for outcome in metrics.COMMAND_OUTCOMES:
        moved = value(after, "uno_commands_total", outcome=outcome) - value(
            before, "uno_commands_total", outcome=outcome
        )
        assert moved == (1 if outcome == "applied" else 0), outcome
    assert value(after, "uno_append_seconds_count") - value(before, "uno_append_seconds_count") == 1
    assert value(after, "uno_append_seconds_sum") > value(before, "uno_append_seconds_sum")
    assert value(after, "uno_events_appended_total") > value(before, "uno_events_appended_total")

    # The same command id again: repeated, and no append. A stale version: a conflict.
    game_command(
        game_id=game.pk, actor=actor, command=command, expected_version=version, command_id="c1"
    )
    with pytest.raises(Conflict):
        game_command(game_id=game.pk, actor=actor, command=command, expected_version=version)
    last = scrape(client)
    assert (
        value(last, "uno_commands_total", outcome="repeated")
        - value(after, "uno_commands_total", outcome="repeated")
        == 1
    )
    assert (
        value(last, "uno_commands_total", outcome="conflict")
        - value(after, "uno_commands_total", outcome="conflict")
        == 1
    )
    assert value(last, "uno_append_seconds_count") == value(after, "uno_append_seconds_count")


def test_projection_lag_gauges_are_the_projections_status(client):
    game = make_game(spec={"rules": "official"})
    rng = random.Random(3)
    for _ in range(5):
        play_turn(game.pk, rng)
    # One projection caught up, the others behind.
    projections.run("game-summaries")

    samples = scrape(client)

    statuses = projections.status()
    assert {s.name for s in statuses} >= {"game-summaries"}
    for status in statuses:
        assert value(samples, "uno_projection_lag_events", projection=status.name) == status.lag
        seconds = value(samples, "uno_projection_lag_seconds", projection=status.name)
        assert seconds > 0 if status.lag else seconds == 0, status
    assert any(s.lag for s in statuses)
    assert value(samples, "uno_metrics_source_up", source="database") == 1


@pytest.fixture
def test_queue(redis_url, settings) -> Iterator[str]:
    name = "uno-metrics-test-queue"
    settings.REDIS_URL = redis_url
    settings.CELERY_TASK_DEFAULT_QUEUE = name
    with redis.Redis.from_url(redis_url) as client:
        client.delete(name)
        yield name
        client.delete(name)


def test_queue_depth_is_the_length_of_the_celery_queue_in_redis(client, redis_url, test_queue):
    assert value(scrape(client), "uno_queue_depth", queue=test_queue) == 0
    with celery_app.connection_for_write(redis_url) as connection:
        for _ in range(3):
            celery_app.send_task(
                "games.tasks.reconcile_games", queue=test_queue, connection=connection
            )

    samples = scrape(client)

    assert value(samples, "uno_queue_depth", queue=test_queue) == 3
    assert value(samples, "uno_metrics_source_up", source="broker") == 1


def test_a_broker_that_does_not_answer_costs_its_gauge_not_the_scrape(client, settings):
    # Nothing listens on port 1: the connection is refused at once.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    samples = scrape(client)

    assert value(samples, "uno_metrics_source_up", source="broker") == 0
    assert not any(name == "uno_queue_depth" for name, _ in samples)
    assert value(samples, "uno_metrics_source_up", source="database") == 1


def test_without_redis_there_is_no_queue_gauge(client, settings):
    settings.REDIS_URL = ""

    samples = scrape(client)

    assert not any(name == "uno_queue_depth" for name, _ in samples)
    assert ("uno_metrics_source_up", frozenset({("source", "broker")})) not in samples


def _payload() -> dict:
    legal = [{"type": "draw", "seat": 0}]
    return {"game": 1, "seat": 0, "version": 1, "view": {"hand": []}, "legal": legal}


def test_webhook_calls_are_timed_and_counted_by_outcome(client, fake):
    before = scrape(client)

    assert webhook.ask(url=fake.url, secret="s", payload=_payload(), timeout=1.0).outcome == "ok"
    fake.mode = "error"
    assert webhook.ask(url=fake.url, secret="s", payload=_payload(), timeout=1.0).outcome == "error"
    fake.mode, fake.delay = "slow", 0.5
    timed_out = webhook.ask(url=fake.url, secret="s", payload=_payload(), timeout=0.2)
    assert timed_out.outcome == "timeout"
    after = scrape(client)

    for outcome in metrics.WEBHOOK_OUTCOMES:
        moved = value(after, "uno_webhook_calls_total", outcome=outcome) - value(
            before, "uno_webhook_calls_total", outcome=outcome
        )
        assert moved == 1, outcome
    count = "uno_webhook_seconds_count"
    assert value(after, count) - value(before, count) == 3
    # The timeout alone took 0.2 s.
    assert value(after, "uno_webhook_seconds_sum") - value(before, "uno_webhook_seconds_sum") >= 0.2
    # ... and it fell in the bucket up to 0.25 s, not the one up to 0.1 s.
    le = "uno_webhook_seconds_bucket"
    fast = value(after, le, le="0.1") - value(before, le, le="0.1")
    assert value(after, le, le="0.25") - value(before, le, le="0.25") == fast + 1


def test_a_worker_serves_the_same_metrics_on_its_own_port():
    server = metrics.serve(0, addr="127.0.0.1")
    try:
        url = f"http://127.0.0.1:{server.server_port}/metrics"
        with urllib.request.urlopen(url, timeout=5) as response:
            samples = parse(response.read().decode())
    finally:
        server.shutdown()
        server.server_close()

    assert ("uno_commands_total", frozenset({("outcome", "applied")})) in samples


def test_with_a_multiprocess_directory_every_process_counts_into_one_sum(tmp_path):
    # As under gunicorn: separate processes count, and whichever answers the scrape adds them up.
    environment = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")}
    count = "from games import metrics; metrics.COMMANDS.labels(outcome='applied').inc(2)"
    for _ in range(2):
        subprocess.run([sys.executable, "-c", count], env=environment, check=True, cwd=ROOT)
    show = (
        "from prometheus_client import generate_latest; from games import metrics; "
        "print(generate_latest(metrics.exposed()).decode())"
    )
    shown = subprocess.run(
        [sys.executable, "-c", show], env=environment, check=True, cwd=ROOT,
        capture_output=True, text=True,
    )  # fmt: skip

    samples = parse(shown.stdout)
    assert value(samples, "uno_commands_total", outcome="applied") == 4
    assert "process_resident_memory_bytes" in {name for name, _ in samples}
