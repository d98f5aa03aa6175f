#!/usr/bin/env python3
"""Rebuild benchmark: every projection rebuilt from the log, the old way and the partitioned
way through real Celery workers (issue 33, item 5).

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno REDIS_URL=redis://127.0.0.1:6379/0 \
        PYTHONPATH=. python3 bench/rebuild.py [--events 200000] [--partitions 4] [--keep] \
        [--reuse NAME]

It fills a scratch database beside DATABASE_URL's (`<name>_rebuild_<pid>`, dropped at the end
unless `--keep`) with bench/pages.py's fill (`world` and `fill` of bench/_pages_fill.py: the
long match, people's games, club seasons, the three bot ladders, every game played to its end
in-process by the project's own code, the projections caught up after each unit) to `--events`
events. Then it times, on the same log:

- the baseline: games.projections.rebuild of every projection, one after the other, in this
  process (what `manage.py projections rebuild` did before issue 33: every event read, one
  transaction a projection);
- games/rebuilds.py's rebuild of every projection through `--workers 1` and then 2 real
  `celery worker --pool=solo` processes on REDIS_URL (a queue of its own): `--partitions` game
  ranges for each projection folded by stream, one task for each of the others, each task's
  progress in its partition row; the time is from `start` to the run's last partition done.

After each it checks that the read models are those the fill's catch-up runs wrote (a digest of
every read-model table), prints events/s (the log's events over the seconds) and the ratio to
the baseline, and ends with `rebuild ratio with 2 processes: R` (target on this machine: R >= 5).
Exit status 2 when DATABASE_URL is not PostgreSQL or REDIS_URL is not set.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(REPO_ROOT))
from bench.api import _conninfo, _database_url  # noqa: E402

EXIT_NOT_READY = 2
PREFIX = "rebuild"
# Seconds a rebuild through the workers may take before the bench gives up.
TIMEOUT = 3600


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=200_000, help="events in the log")
    parser.add_argument("--partitions", type=int, default=4, help="game ranges a projection")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--reuse", metavar="NAME", help="fill on and measure this database")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not url.startswith(("postgres://", "postgresql://")) or not redis_url:
        print("bench/rebuild.py needs DATABASE_URL=postgres://… and REDIS_URL=redis://…")
        return EXIT_NOT_READY
    import dj_database_url
    import psycopg

    parts = dj_database_url.parse(url)
    scratch = args.reuse or f"{parts['NAME']}_{PREFIX}_{os.getpid()}"
    admin = psycopg.connect(_conninfo(parts, "postgres"), autocommit=True)
    if not args.reuse:
        admin.execute(f'CREATE DATABASE "{scratch}"')
    print(f"database: {scratch}")
    # The fill runs in-process (no broker: every game plays to its end on commit, as under
    # `make run`); the workers get REDIS_URL back.
    env = {
        k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CACHE_URL", "CELERY_QUEUE")
    }
    env.update(
        DATABASE_URL=_database_url(parts, scratch),
        SECRET_KEY=os.environ.get("SECRET_KEY", "bench-only-not-secret"),
        DEBUG="",
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        LEAGUE_LADDER_SETS_PER_DAY="0",
        LEAGUE_LADDER_REST_SECONDS="0",
    )
    dropped = not (args.keep or args.reuse)
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=REPO_ROOT, env=env, check=True,
        )  # fmt: skip
        os.environ.clear()
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        logging.disable(logging.INFO)
        return run(args, env, redis_url)
    finally:
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if dropped:
            admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        else:
            print(f"kept the database {scratch} (--reuse {scratch} measures it again)")
        admin.close()


def run(args: argparse.Namespace, env: dict[str, str], redis_url: str) -> int:
    from bench._pages_fill import events, fill, world
    from games import rebuilds, tasks
    from games.models import RebuildRun

    # A run a bench stopped mid-way left in a reused database: finished here, in this process.
    for left in RebuildRun.objects.exclude(state=rebuilds.DONE).values_list("pk", flat=True):
        rebuilds.resume(left)
        rebuilds.fold_run(left)
    fill(args.events, args.events, world())
    # The catch-up's read models (the fill ran it after each unit): what every rebuild must give.
    tasks.run_projections()
    size = events()
    expected = digest()
    print(f"log: {size:,} events; load {_load()}")

    baseline = timed_baseline()
    check(expected, "the baseline")
    print(f"baseline (one process, every event): {baseline:.1f} s, {size / baseline:,.0f} events/s")
    rates = {}
    for workers in (1, 2):
        seconds = timed_workers(workers, args.partitions, env, redis_url)
        check(expected, f"{workers} worker processes")
        rates[workers] = baseline / seconds
        print(
            f"{workers} worker process{'es' if workers > 1 else ''}, {args.partitions} "
            f"partitions: {seconds:.1f} s, {size / seconds:,.0f} events/s, "
            f"x{rates[workers]:.2f} the baseline; load {_load()}"
        )
    print(f"rebuild ratio with 1 process: {rates[1]:.2f}")
    print(f"rebuild ratio with 2 processes: {rates[2]:.2f}")
    return 0


def timed_baseline() -> float:
    from games import projections

    started = time.perf_counter()
    for name in sorted(projections.PROJECTIONS):
        projections.rebuild(name)
    return time.perf_counter() - started


def timed_workers(workers: int, partitions: int, env: dict[str, str], redis_url: str) -> float:
    from config import celery_app
    from games import rebuilds, tasks
    from games.models import RebuildRun

    queue = f"bench-rebuild-{uuid.uuid4().hex[:8]}"
    logs = Path(tempfile.gettempdir())
    worker_env = {**env, "REDIS_URL": redis_url, "CELERY_QUEUE": queue}
    processes = []
    for number in range(workers):
        with (logs / f"{queue}-{number}.log").open("ab") as out:
            processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "config",
                        "worker",
                        "--pool=solo",
                        "--loglevel=INFO",
                        "-Q",
                        queue,
                        "--without-heartbeat",
                        "--without-gossip",
                        "--without-mingle",
                        "-n",
                        f"{queue}-{number}@%h",
                    ],
                    cwd=REPO_ROOT,
                    env=worker_env,
                    stdout=out,
                    stderr=out,
                )  # fmt: skip
            )
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.broker_url, conf.task_default_queue
    conf.task_always_eager, conf.broker_url, conf.task_default_queue = False, redis_url, queue
    # The fill may have made the app's connection and producer pools on the in-process broker
    # (memory://): tasks sent through them would never reach the workers.
    _forget_pools(celery_app)
    try:
        # The workers are up when they say they are ready (a minute or more on a loaded
        # machine): their start is not the rebuild's time.
        deadline = time.monotonic() + 600
        while not all(
            "ready." in (logs / f"{queue}-{number}.log").read_text(errors="replace")
            for number in range(workers)
        ):
            if time.monotonic() > deadline:
                raise SystemExit(f"the workers did not start; logs: {logs}/{queue}-*.log")
            time.sleep(0.2)
        started = time.perf_counter()
        rebuild_run = tasks.start_rebuild(partitions=partitions)
        # The run's state alone, 20 times a second: one small query (the whole progress, read
        # as often, took a share of the two cores from the workers it times).
        state = RebuildRun.objects.filter(pk=rebuild_run.pk).values_list("state", flat=True)
        while state.get() == rebuilds.RUNNING:
            if time.perf_counter() - started > TIMEOUT:
                raise SystemExit(f"the rebuild took over {TIMEOUT} s; logs: {logs}/{queue}-*.log")
            time.sleep(0.05)
        seconds = time.perf_counter() - started
        progress = rebuilds.progress(rebuild_run.pk)
        if progress.state != rebuilds.DONE:
            raise SystemExit(f"the rebuild {progress.state}: {progress.error}")
        return seconds
    finally:
        conf.task_always_eager, conf.broker_url, conf.task_default_queue = saved
        _forget_pools(celery_app)
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)


def _forget_pools(app: Any) -> None:
    """Drop the app's broker connection and producer pools (and kombu's registry of them),
    made anew from its configuration at the next send, as after a fork."""
    from kombu import pools

    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


def digest() -> dict[str, str]:
    """A digest of every read-model table, its rows in key order without surrogate keys."""
    from games import projections

    found = {}
    for projection in projections.PROJECTIONS.values():
        for table in projection.tables:
            rows = table._default_manager.order_by(*_order(table)).values()
            text = repr([{k: v for k, v in row.items() if k != "id"} for row in rows])
            found[table.__name__] = hashlib.sha256(text.encode()).hexdigest()
    return found


def _order(table: Any) -> list[str]:
    names = [field.attname for field in table._meta.concrete_fields if field.attname != "id"]
    return names


def check(expected: dict[str, str], what: str) -> None:
    found = digest()
    wrong = sorted(name for name in expected if found.get(name) != expected[name])
    if wrong:
        raise SystemExit(f"after {what}, these read models differ from the catch-up's: {wrong}")


def _load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
