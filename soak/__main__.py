"""`make soak`: the service under load and faults, with nothing lost and no hidden card served.

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno python -m soak [--games N] [--minutes M]

Everything on loopback: a fresh database beside DATABASE_URL's (`<name>_soak_<pid>`, dropped at
the end), its own redis-server on a free port, gunicorn (2 workers), Celery workers and beat.
docs/reliability.md says what is promised and checked. Prints its figures; the last line is
`lost: N`, and the exit status is 0 only when every check passed (1 otherwise, 2 when
PostgreSQL is not configured).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import django

from soak import infra

# The settings are read once, by django.setup(): the soak's database and Redis are named now
# and made in main().
PLAN = infra.Plan.choose()
os.environ.update(PLAN.env())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.db import connections  # noqa: E402 (after setup, as below)

from soak import checks, harness, leaks  # noqa: E402 (they import models: after setup)

EXIT_NOT_READY = 2


def arguments(argv: list[str] | None) -> harness.Options:
    parser = argparse.ArgumentParser(prog="python -m soak", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--minutes", type=float, default=5, help="minutes of play (5)")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes (2)")
    parser.add_argument(
        "--faults",
        default=",".join(harness.FAULTS),
        help="faults to inject, comma-separated, from: " + ", ".join(harness.FAULTS),
    )
    parser.add_argument(
        "--settle", type=float, default=90, help="seconds at most for the workers to settle"
    )
    parser.add_argument(
        "--pause", type=float, default=3.0, help="a person waits up to this between looks (s)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    args = parser.parse_args(argv)
    faults = [name for name in args.faults.split(",") if name]
    unknown = set(faults) - set(harness.FAULTS)
    if unknown:
        parser.error(f"unknown faults: {sorted(unknown)}")
    global KEEP
    KEEP = args.keep
    return harness.Options(
        games=args.games, minutes=args.minutes, workers=args.workers, faults=faults,
        settle=args.settle, seed=args.seed, pause=args.pause,
    )  # fmt: skip


KEEP = False


def main(argv: list[str] | None = None) -> int:
    options = arguments(argv)
    if not PLAN.ready:
        print("python -m soak needs DATABASE_URL=postgres://… (a fresh database is made beside)")
        return EXIT_NOT_READY
    started = time.monotonic()
    logs = PLAN.logs
    database = infra.Database(PLAN.base_url, PLAN.database)
    env = infra.child_env(PLAN)
    redis = infra.Redis(PLAN.redis_port, env, logs)
    soak = harness.Soak(PLAN, options, log=lambda line: print(line, flush=True))
    # Workers print turn emails on the console (DEBUG's backend), which the soak reads back.
    worker_env = infra.child_env(PLAN, DEBUG="1")
    web = infra.Gunicorn(env, logs)
    beat = infra.celery_beat(env, logs)
    processes: list[infra.Process] = [redis, web, beat]
    try:
        database.create()
        redis.start()
        database.migrate(env)
        print(f"soak: migrated at {time.monotonic() - started:.0f} s", flush=True)
        soak.workers = [
            infra.celery_worker(f"soak-{n + 1}", worker_env, logs) for n in range(options.workers)
        ]
        for worker in soak.workers:
            worker.start()
        beat.start()
        web.start()
        print(f"soak: up at {time.monotonic() - started:.0f} s: {PLAN.database} on PostgreSQL, "
              f"redis-server :{redis.port}, gunicorn {web.url}, {options.workers} workers; "
              f"logs in {logs}", flush=True)  # fmt: skip
        harness.set_up(soak, web.url)
        harness.play(soak, web.url, redis, database)
        print(f"soak: play over at {time.monotonic() - started:.0f} s; settling", flush=True)
        notes = harness.settle(soak, beat)
        print(f"soak: settled at {time.monotonic() - started:.0f} s; checking", flush=True)
        for worker in soak.workers:
            worker.stop()
        web.stop()
        for hook in soak.webhooks.values():
            hook.close()
        found = leaks.check_all(soak.record.payloads, soak.record.feeds, harness.emails(soak))
        result = checks.run_all(soak.game_ids, soak.record.accepted, soak.record.unanswered)
        result.failures += notes
        server_errors = {k: v for k, v in soak.record.errors.items()
                         if k.startswith("5") and not k.startswith("503 unavailable")}  # fmt: skip
        if server_errors:
            result.fail(f"answers that are not a clear 503 with a code: {server_errors}")
        for line in harness.report(soak, result, found, time.monotonic() - started):
            print(line)
        ok = not result.failures and not found.failures
        print(f"lost: {result.lost}")
        return 0 if ok and result.lost == 0 else 1
    finally:
        for process in [*soak.workers, *processes]:
            process.stop(timeout=10)
        for hook in soak.webhooks.values():
            hook.over.set()
        connections.close_all()
        if not KEEP:
            database.drop()


if __name__ == "__main__":
    sys.exit(main())
