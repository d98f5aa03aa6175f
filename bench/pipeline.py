#!/usr/bin/env python3
"""Pipeline benchmark: complete 4-bot official 500-point matches through Redis, one Celery
worker and PostgreSQL, the way production plays them.

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno REDIS_URL=redis://127.0.0.1:6379/0 \\
        python3 bench/pipeline.py [--matches N]

It creates a scratch database next to DATABASE_URL's (`<name>_pipeline_<pid>`), migrates it,
starts `celery -A config worker --pool=solo` on a queue of its own, creates N games (each
creation's append dispatches advance_game on commit), waits for every match to end, and drops
the database. It prints the events per second and, as its last line, `matches/s: X` (from the
first creation to the last match's end). Target X >= 5. Exit status 2 when PostgreSQL or Redis
is not configured.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
EXIT_NOT_READY = 2
SPEC = {"rules": "official", "options": {"target": 500}}
BOTS = ["colour-control", "greedy", "colour-control", "greedy"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=50, help="matches to play")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for them")
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")) or not os.environ.get("REDIS_URL"):
        print("bench/pipeline.py needs DATABASE_URL=postgres://… and REDIS_URL=redis://…")
        return EXIT_NOT_READY

    sys.path.insert(0, str(REPO_ROOT))
    import dj_database_url
    import psycopg

    from bench.store import _conninfo, _url

    settings = dj_database_url.parse(url)
    scratch = f"{settings['NAME']}_pipeline_{os.getpid()}"
    admin = psycopg.connect(_conninfo(settings, settings["NAME"]), autocommit=True)
    admin.execute(f'CREATE DATABASE "{scratch}"')
    os.environ["DATABASE_URL"] = _url(settings, scratch)
    # The worker and this process must agree on the queue; no other worker reads it.
    os.environ["CELERY_QUEUE"] = f"pipeline-{uuid.uuid4().hex[:12]}"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    worker = None
    try:
        worker = _migrate_and_start_worker()
        return run(args)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        admin.execute(f'DROP DATABASE "{scratch}" WITH (FORCE)')
        admin.close()


def _migrate_and_start_worker() -> subprocess.Popen[bytes]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
        "--loglevel=WARNING", "-Q", os.environ["CELERY_QUEUE"], "--without-heartbeat",
        "--without-gossip", "--without-mingle",
    ]  # fmt: skip
    # The worker's own output goes to a file, so that `matches/s:` stays the last line.
    log = tempfile.NamedTemporaryFile(prefix="uno-pipeline-worker-", suffix=".log", delete=False)
    print(f"worker log: {log.name}")
    worker = subprocess.Popen(command, cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT)
    _wait_until_ready()
    return worker


def _wait_until_ready() -> None:
    from config import celery_app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if celery_app.control.ping(timeout=0.5):
            return
    raise SystemExit("the worker did not answer within 60 s")


def run(args: argparse.Namespace) -> int:
    from games.models import Game
    from games.services import SeatSpec, game_create

    seats = [SeatSpec(bot=name) for name in BOTS]
    started = time.perf_counter()
    ids: list[Any] = [
        game_create(variant_spec=SPEC, seats=seats, seed=seed).pk for seed in range(args.matches)
    ]
    deadline = time.monotonic() + args.timeout
    playing = Game.objects.filter(pk__in=ids).exclude(status=Game.Status.MATCH_OVER)
    while playing.exists():
        if time.monotonic() > deadline:
            print(f"{playing.count()} of {args.matches} matches still playing after the timeout")
            return 1
        time.sleep(0.02)
    elapsed = time.perf_counter() - started
    events = sum(Game.objects.filter(pk__in=ids).values_list("version", flat=True))
    print(f"matches: {args.matches}, events: {events}, seconds: {elapsed:.2f}")
    print(f"events/s: {events / elapsed:,.0f}")
    print(f"matches/s: {args.matches / elapsed:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
