"""`make soak`: the service under load and faults, with nothing lost and no hidden card served.

    python -m soak [--games N] [--minutes M]

Everything on loopback: its own PostgreSQL cluster (initdb'd into a temporary directory, on a
free port, removed at the end; migrated by an owner role, used by a non-superuser app role),
its own redis-server, gunicorn (2 workers), Celery workers and beat. docs/reliability.md says
what is promised and checked. Prints its figures; the last line is `lost: N`, and the exit
status is 0 only when every check passed (1 otherwise, 2 when PostgreSQL's initdb and pg_ctl
are not found: SOAK_PG_BIN names their directory).
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
        "--settle",
        type=float,
        default=120,
        help="seconds at most for each phase of the workers' settling (120)",
    )
    parser.add_argument(
        "--pause", type=float, default=3.0, help="a person waits up to this between looks (s)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep", action="store_true", help="keep the cluster's directory (stopped) at the end"
    )
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


def migrate_as_owner() -> None:
    """`migrate` as the owner role, naming the app role: after it, games/roles.py grants that
    role what the service needs on every table and no more. In this process, whose Django is set
    up already (a `manage.py migrate` child would import it all again), on a connection of the
    owner's, closed after; without the system checks (the soak tests none of them, and
    tests/test_deploy_settings.py runs `check --deploy` on these settings)."""
    from django.conf import settings
    from django.core.management import call_command

    database = connections["default"]
    saved = database.settings_dict["USER"], database.settings_dict["PASSWORD"]
    saved_role = settings.DATABASE_APP_ROLE
    database.close()
    database.settings_dict["USER"] = infra.OWNER_ROLE
    database.settings_dict["PASSWORD"] = PLAN.passwords[infra.OWNER_ROLE]
    settings.DATABASE_APP_ROLE = infra.APP_ROLE
    try:
        call_command("migrate", interactive=False, verbosity=0, skip_checks=True)
    finally:
        database.close()
        database.settings_dict["USER"], database.settings_dict["PASSWORD"] = saved
        settings.DATABASE_APP_ROLE = saved_role


def main(argv: list[str] | None = None) -> int:
    options = arguments(argv)
    if PLAN.pg_bin is None:
        # Never the shared cluster instead: the soak restarts its PostgreSQL.
        print(
            "python -m soak needs PostgreSQL's initdb and pg_ctl (it runs a cluster of its own, "
            f"which it restarts): none in SOAK_PG_BIN, {infra.PG_BIN_GLOB} or on the PATH"
        )
        return EXIT_NOT_READY
    started = time.monotonic()
    logs = PLAN.logs
    cluster = PLAN.cluster()
    env = infra.child_env(PLAN)
    redis = infra.Redis(PLAN.redis_port, env, logs)
    soak = harness.Soak(PLAN, options, log=lambda line: print(line, flush=True))
    web = infra.Gunicorn(env, logs)
    beat = infra.celery_beat(env, logs)
    processes: list[infra.Process] = [redis, web, beat]
    try:
        cluster.init()
        cluster.start()
        cluster.create()
        redis.start()
        migrate_as_owner()
        infra.collect_static(env)
        print(f"soak: migrated at {time.monotonic() - started:.0f} s", flush=True)
        soak.workers = [
            infra.celery_worker(f"soak-{n + 1}", env, logs) for n in range(options.workers)
        ]
        for worker in soak.workers:
            worker.start()
        beat.start()
        web.start()
        print(f"soak: up at {time.monotonic() - started:.0f} s: PostgreSQL {cluster.bindir} "
              f"on :{cluster.port} (data in {cluster.root}), redis-server :{redis.port}, "
              f"gunicorn {web.url}, {options.workers} workers; logs in {logs}",
              flush=True)  # fmt: skip
        harness.set_up(soak, web.url)
        harness.play(soak, web.url, redis, cluster)
        print(f"soak: play over at {time.monotonic() - started:.0f} s; settling", flush=True)
        notes = harness.settle(soak, beat)
        print(f"soak: settled at {time.monotonic() - started:.0f} s; checking", flush=True)
        for worker in soak.workers:
            worker.stop()
        web.stop()
        for hook in soak.webhooks.values():
            hook.close()
        found = leaks.check_all(
            soak.record.payloads, soak.record.feeds, soak.record.pages, harness.emails(soak)
        )
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
        cluster.destroy(keep=KEEP)
        if KEEP:
            print(f"soak: the cluster's directory is kept in {cluster.root}")


if __name__ == "__main__":
    sys.exit(main())
