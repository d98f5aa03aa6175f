#!/usr/bin/env python3
"""Pipeline benchmark: complete 4-bot official 500-point matches through Redis, Celery workers
and PostgreSQL, the way production plays them, with 1 and with 2 worker processes.

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno REDIS_URL=redis://127.0.0.1:6379/0 \\
        python3 bench/pipeline.py [--matches N] [--rounds 3] [--workers 1,2] [--profile DIR] \\
            [--baseline TREE] [--pools prefork,solo]

It creates a scratch database next to DATABASE_URL's (`<name>_pipeline_<pid>`) and migrates it
once. Each round then runs, one after the other (interleaved, so a change in the machine's load
falls on every configuration alike), one run per worker count: it starts `celery -A config
worker --pool=prefork --concurrency=W` (W worker processes, as production's default pool) on a
queue of its own, creates N games in one transaction (each creation's append dispatches its
first task when that commits), waits for every match to end and stops the worker. A run's rate
is N / (the commit to the last match's end). It prints every run with the load average, the
median of the rounds for each worker count, the same matches played in this process by the
driver alone (no database, no broker: the engine and the bots, the ceiling of one process),
and as its last line `matches/s: X`, the median rate with the most worker processes. Target
X >= 20 on the 2-core machine. `--baseline TREE` also runs the workers of another checkout
(the code before a change), interleaved with this one's in every round, and prints the ratios;
`--pools prefork,solo` compares W solo workers (each its own process, as containers scaled out
one process each would run) with the prefork worker.

`--profile DIR` adds one run with one worker process under py-spy (requirements-bench.txt):
the profile's raw samples and its main lines in DIR, the worker's SQL statements timed
in-process (count, total and mean per statement), the database's own counters for the run
(pg_stat_database, pg_stat_user_functions) and one append's nested plan with its trigger times
(auto_explain, sent to this client as notices). pg_stat_statements needs
shared_preload_libraries and a restart of the cluster; these need neither. The scratch database
is dropped at the end. Exit status 2 when PostgreSQL or Redis is not configured.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
# This script's own folder is first on sys.path: its --profile half sits beside it.
sys.path.insert(1, str(REPO_ROOT))
from bench import _pipeline_profile as profiling  # noqa: E402

EXIT_NOT_READY = 2
SPEC = {"rules": "official", "options": {"target": 500}}
BOTS = ["colour-control", "greedy", "colour-control", "greedy"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=60, help="matches per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each worker count")
    parser.add_argument("--workers", default="1,2", help="worker process counts, e.g. 1,2")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for a run")
    parser.add_argument(
        "--pools",
        default="prefork",
        help="prefork (one worker, W children), solo (W workers), or both: prefork,solo",
    )
    parser.add_argument("--profile", metavar="DIR", help="add a profiled run; write it here")
    parser.add_argument(
        "--baseline",
        metavar="TREE",
        help="also run the workers of the code in TREE (e.g. `git worktree add TREE <commit>`), "
        "interleaved with this tree's; its schema must work on this tree's migrations",
    )
    if sys.argv[1:2] == ["--serve"]:
        # The profiled run's worker (profile_run starts it): `--serve STATS <worker arguments>`.
        return profiling.serve_timed_worker(Path(sys.argv[2]), sys.argv[3:])
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
    # Function timings for the profile's database view (this database only).
    # Superuser-only settings and auto_explain, for the profile's database view: the role of
    # PIPELINE_SUPERUSER (default postgres), if it can log in; else the profile goes without.
    superuser = _conninfo(
        {**settings, "USER": os.environ.get("PIPELINE_SUPERUSER", "postgres"), "PASSWORD": ""},
        scratch,
    )
    if args.profile:
        profiling.track_functions(superuser, scratch)
    os.environ["DATABASE_URL"] = _url(settings, scratch)
    # The workers and this process must agree on the queue; no other worker reads it.
    os.environ["CELERY_QUEUE"] = f"pipeline-{uuid.uuid4().hex[:12]}"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        return run(args, superuser)
    finally:
        _purge_queue()
        from django.db import connections

        connections.close_all()
        admin.execute(f'DROP DATABASE "{scratch}" WITH (FORCE)')
        admin.close()


def run(args: argparse.Namespace, superuser: str) -> int:
    counts = [int(count) for count in args.workers.split(",")]
    pools = args.pools.split(",")
    trees = {"": REPO_ROOT}
    if args.baseline:
        trees["baseline "] = Path(args.baseline).resolve()
    # The setups of each round, in order: the first one is the one the last line reports.
    setups = {
        f"{t}{p} " if len(pools) > 1 else t: (tree, p) for p in pools for t, tree in trees.items()
    }
    rates: dict[tuple[str, int], list[float]] = {(s, n): [] for s in setups for n in counts}
    first_seed = 0
    for round_ in range(1, args.rounds + 1):
        for count in counts:
            for label, (tree, pool) in setups.items():
                run_ = timed_run(count, args.matches, first_seed, args.timeout, tree, pool)
                rates[label, count].append(run_.rate)
                print(
                    f"round {round_}, {label}{count} worker process(es): {run_.rate:.1f} "
                    f"matches/s, {run_.events / run_.seconds:,.0f} events/s; per match: "
                    f"workers' CPU {run_.cpu_ms:.0f} ms, database active {run_.db_ms:.0f} ms; "
                    f"load {_load()}"
                )
            first_seed += args.matches
    if args.profile:
        profile_run(Path(args.profile), args.matches, first_seed, args.timeout, superuser)
    alone, cpu_ms = in_process(args.matches)
    print(
        f"in this process, the driver alone (no database, no broker): {alone:.1f} matches/s, "
        f"CPU {cpu_ms:.0f} ms per match"
    )
    median = {key: statistics.median(found) for key, found in rates.items()}
    for (label, count), found in rates.items():
        each = ", ".join(f"{rate:.1f}" for rate in found)
        print(f"{label}{count} worker process(es): median {median[label, count]:.1f} ({each})")
    first = next(iter(setups))
    for label in list(setups)[1:]:
        for count in counts:
            ratio = median[first, count] / median[label, count]
            print(f"{first}{count} / {label}{count}: {ratio:.2f}x")
    low, high = min(counts), max(counts)
    if low != high:
        ratio = median[first, high] / median[first, low]
        print(f"{first}{high} worker processes / {low}: {ratio:.2f}x")
    print(f"matches/s: {median[first, high]:.1f}")
    return 0


@dataclass(frozen=True)
class Run:
    """One timed run: matches/s, events written, seconds, and per match the CPU time of the
    worker processes and the database's active time (less sensitive to others' load than the
    rate, which waits whenever the 2 cores are taken)."""

    rate: float
    events: int
    seconds: float
    cpu_ms: float
    db_ms: float


def timed_run(
    workers: int,
    matches: int,
    first_seed: int,
    timeout: float,
    cwd: Path = REPO_ROOT,
    pool: str = "prefork",
) -> Run:
    """Start `workers` worker processes (of the code in `cwd`) and play `matches` matches
    through them."""
    worker = start_worker(workers, cwd=cwd, pool=pool)
    db = _database_active()
    try:
        cpu = sum(_tree_cpu(process.pid) for process in worker)
        rate, events, seconds = play_matches(matches, first_seed, timeout)
        cpu = sum(_tree_cpu(process.pid) for process in worker) - cpu
    finally:
        stop(worker)
    # After the workers stopped: a backend reports its counts at most once a second, and all of
    # them when it ends.
    db = _database_active() - db
    return Run(rate, events, seconds, 1000 * cpu / matches, db / matches)


def _tree_cpu(pid: int) -> float:
    """CPU seconds (user and system) the process and its descendants have used (Linux /proc;
    0 elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pending = [pid]
    while pending:
        found = pending.pop()
        try:
            fields = Path(f"/proc/{found}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
            for task in Path(f"/proc/{found}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, ValueError, IndexError):
            continue
    return total


def _database_active() -> float:
    """Milliseconds the scratch database's backends have spent running statements."""
    from django.db import connection

    with connection.cursor() as cursor:
        # The statistics a backend reports are cached for the rest of a transaction: none here.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT active_time FROM pg_stat_database WHERE datname = current_database()"
        )
        return float(cursor.fetchone()[0])


def start_worker(
    workers: int, command: list[str] | None = None, cwd: Path = REPO_ROOT, pool: str = "prefork"
) -> list[subprocess.Popen[bytes]]:
    """`workers` worker processes: one prefork worker of that concurrency (a parent that hands
    tasks to its children), or that many solo workers (each runs its own tasks)."""
    command = command or [sys.executable, "-m", "celery", "-A", "config", "worker"]
    if pool == "prefork":
        options = [["--pool=prefork", f"--concurrency={workers}"]]
    elif pool == "solo":
        options = [["--pool=solo"]] * workers
    else:
        raise SystemExit(f"--pools: prefork or solo, not {pool!r}")
    started = []
    for option in options:
        full = command + option + [
            "--loglevel=WARNING", "-Q", os.environ["CELERY_QUEUE"],
            "-n", f"pipeline-{uuid.uuid4().hex[:8]}@%h",
            "--without-heartbeat", "--without-gossip", "--without-mingle",
        ]  # fmt: skip
        # The worker's output goes to a file, so that `matches/s:` stays the last line.
        log = tempfile.NamedTemporaryFile(
            prefix="uno-pipeline-worker-", suffix=".log", delete=False
        )
        started.append(subprocess.Popen(full, cwd=cwd, stdout=log, stderr=subprocess.STDOUT))
    _wait_until_ready(started)
    return started


def stop(worker: list[subprocess.Popen[bytes]]) -> None:
    for process in worker:
        process.terminate()
    for process in worker:
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_ready(worker: list[subprocess.Popen[bytes]]) -> None:
    from config import celery_app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if any(process.poll() is not None for process in worker):
            stop(worker)
            raise SystemExit("a worker stopped at its start (its log: /tmp/uno-pipeline-worker-*)")
        if len(celery_app.control.ping(timeout=0.5)) >= len(worker):
            return
    stop(worker)
    raise SystemExit("the workers did not answer within 60 s")


def play_matches(matches: int, first_seed: int, timeout: float) -> tuple[float, int, float]:
    """Create the games in one transaction and time from its commit, which sends their first
    tasks, to the last match's end: the workers' rate, not this process's game creation (about
    30 ms each, which would share the 2 cores with the workers)."""
    from django.db import transaction

    from games.creation import SeatSpec, game_create
    from games.models import Game

    seats = [SeatSpec(bot=name) for name in BOTS]
    committed: list[float] = []
    with transaction.atomic():
        # The first of the commit's callbacks: the games' dispatches follow it.
        transaction.on_commit(lambda: committed.append(time.perf_counter()))
        ids: list[Any] = [
            game_create(variant_spec=SPEC, seats=seats, seed=seed).pk
            for seed in range(first_seed, first_seed + matches)
        ]
    deadline = time.monotonic() + timeout
    playing = Game.objects.filter(pk__in=ids).exclude(status=Game.Status.MATCH_OVER)
    while playing.exists():
        if time.monotonic() > deadline:
            raise SystemExit(
                f"{playing.count()} of {matches} matches still playing after {timeout} s"
            )
        time.sleep(0.05)
    seconds = time.perf_counter() - committed[0]
    events = sum(Game.objects.filter(pk__in=ids).values_list("version", flat=True))
    return matches / seconds, events, seconds


def in_process(matches: int) -> tuple[float, float]:
    """The same kind of matches played by the driver in this process, no database or broker:
    matches/s and CPU milliseconds per match."""
    from bots.simulation import play_match
    from bots.strategies import find_strategy
    from engine import Variant

    variant = Variant.from_spec(SPEC)
    bots = [find_strategy(name) for name in BOTS]
    started, cpu = time.perf_counter(), time.process_time()
    for seed in range(matches):
        play_match(variant, bots, seed=seed, keep_events=False)
    cpu = time.process_time() - cpu
    return matches / (time.perf_counter() - started), 1000 * cpu / matches


def _purge_queue() -> None:
    """Delete the bench's queue with what is left on it (the profile's unplayed game's first
    task)."""
    from config import celery_app

    try:
        with celery_app.connection_for_write() as connection:
            connection.default_channel.queue_delete(os.environ["CELERY_QUEUE"])
    except Exception as error:  # whatever it is, the scratch database is dropped after this
        print(f"the queue {os.environ['CELERY_QUEUE']} was not deleted: {error}")


def _load() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


# The profiled run ---------------------------------------------------------------------------


def profile_run(out: Path, matches: int, first_seed: int, timeout: float, superuser: str) -> None:
    """One run with one worker process under py-spy, its SQL timed in the worker, and the
    database's own counters around it; prints the main lines and writes them to `out`."""
    py_spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if py_spy is None:
        print("--profile needs py-spy: pip install -r requirements-bench.txt")
        return
    out.mkdir(parents=True, exist_ok=True)
    sql_stats = out / "sql.json"
    raw = out / "py-spy.raw"
    before = profiling.database_counters()
    command = [sys.executable, str(Path(__file__).resolve()), "--serve", str(sql_stats)]
    worker = start_worker(1, command)
    spy = subprocess.Popen(
        [py_spy, "record", "--subprocesses", "--idle", "--format", "raw", "--rate", "250",
         "--pid", str(worker[0].pid), "--output", str(raw)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        time.sleep(1)  # py-spy attaches
        rate, events, seconds = play_matches(matches, first_seed, timeout)
    finally:
        stop(worker)
        spy.wait(timeout=60)
    after = profiling.database_counters()
    lines = [
        f"profiled run, 1 worker process: {rate:.1f} matches/s ({events} events); load {_load()}"
    ]
    lines += profiling.profile_lines(raw)
    lines += profiling.sql_lines(sql_stats, matches)
    lines += profiling.database_lines(before, after, matches, seconds)
    lines += profiling.explain_append(superuser, SPEC, BOTS)
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"profile written to {out}")


if __name__ == "__main__":
    sys.exit(main())
