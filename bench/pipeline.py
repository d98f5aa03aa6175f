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
import collections
import json
import os
import re
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
EXIT_NOT_READY = 2
SPEC = {"rules": "official", "options": {"target": 500}}
BOTS = ["colour-control", "greedy", "colour-control", "greedy"]
# The profile's main lines: frames of ours and the libraries' doors, by inclusive share.
PROFILE_FRAMES = (
    "advance_game (games/tasks.py)",
    "advance_game (games/turns.py)",
    "play (games/driver.py)",
    "step (games/driver.py)",
    "_ask (games/driver.py)",
    "Variant.view (games/engine/variant.py)",
    "Variant.legal_commands (games/engine/variant.py)",
    "Variant.decide (games/engine/variant.py)",
    "load_state (games/services.py)",
    "append_decided (games/services.py)",
    "visibility (games/services.py)",
    "append (games/store.py)",
    "_write_postgresql (games/store.py)",
    "dumps (json/__init__.py)",
    "after_append (games/dispatch.py)",
    "QuerySet.get (django/db/models/query.py)",
    "BaseDatabaseWrapper.connect (django/db/backends/base/base.py)",
    "close_old_connections (django/db/__init__.py)",
    "Connection.wait (psycopg/connection.py)",
    "Task.apply_async (celery/app/task.py)",
    "build_tracer.<locals>.trace_task (celery/app/trace.py)",
    "Hub.create_loop (kombu/asynchronous/hub.py)",
)


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
        return _serve_timed_worker(Path(sys.argv[2]), sys.argv[3:])
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
        _track_functions(superuser, scratch)
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

    from games.models import Game
    from games.services import SeatSpec, game_create

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
    from games.bots import find_strategy
    from games.engine import Variant
    from games.simulation import play_match

    variant = Variant.from_spec(SPEC)
    bots = [find_strategy(name) for name in BOTS]
    started, cpu = time.perf_counter(), time.process_time()
    for seed in range(matches):
        play_match(variant, bots, seed=seed, keep_events=False)
    cpu = time.process_time() - cpu
    return matches / (time.perf_counter() - started), 1000 * cpu / matches


def _track_functions(superuser: str, scratch: str) -> None:
    import psycopg

    try:
        with psycopg.connect(superuser, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE \"{scratch}\" SET track_functions = 'all'")
    except psycopg.Error as error:
        print(f"no function timings: {error}")


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
    before = _database_counters()
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
    after = _database_counters()
    lines = [
        f"profiled run, 1 worker process: {rate:.1f} matches/s ({events} events); load {_load()}"
    ]
    lines += profile_lines(raw)
    lines += sql_lines(sql_stats, matches)
    lines += database_lines(before, after, matches, seconds)
    lines += explain_append(superuser)
    (out / "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"profile written to {out}")


def profile_lines(raw: Path) -> list[str]:
    """The worker's busy time: each frame of PROFILE_FRAMES and the top self-time functions,
    as shares of the worker child's samples (idle included: waiting on the database counts)."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    if not raw.exists():
        return ["py-spy wrote no profile"]
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [_frame(frame) for frame in stack.split(";")]
        # Only the pool's child (billiard's workloop), which runs the tasks.
        if not any(frame.startswith("Worker.workloop") for frame in frames):
            continue
        total += int(count)
        for frame in set(frames):
            inclusive[frame] += int(count)
        own[frames[-1]] += int(count)
    if not total:
        return ["py-spy: no samples of the worker's task process"]
    task = inclusive["build_tracer.<locals>.trace_task (celery/app/trace.py)"]
    lines = [f"py-spy, the task process: {total} samples, {100 * task / total:.0f}% in tasks"]
    lines += [f"  {100 * inclusive[f] / total:5.1f}%  {f}" for f in PROFILE_FRAMES if inclusive[f]]
    lines.append("  self time, top 12:")
    lines += [f"  {100 * n / total:5.1f}%  {f}" for f, n in own.most_common(12)]
    return lines


def _frame(frame: str) -> str:
    """`name (path:line)` -> `name (short path)`."""
    match = re.match(r"^(.*) \((.*?)(?::\d+)?\)$", frame)
    if match is None:
        return frame
    name, path = match.groups()
    path = path.split("site-packages/")[-1].replace(str(REPO_ROOT) + "/", "")
    path = re.sub(r"^.*/lib/python3\.\d+/", "", path)
    return f"{name} ({path})"


def sql_lines(stats: Path, matches: int) -> list[str]:
    if not stats.exists():
        return ["no SQL timings from the worker"]
    found = json.loads(stats.read_text())
    total = sum(seconds for _, seconds in found.values())
    lines = [f"SQL in the worker (timed around execute): {1000 * total / matches:.1f} ms per match"]
    ranked = sorted(found.items(), key=lambda item: -item[1][1])[:8]
    for sql, (calls, seconds) in ranked:
        lines.append(
            f"  {1000 * seconds / matches:6.2f} ms/match  {calls / matches:5.1f} calls/match  "
            f"{1000 * seconds / calls:6.2f} ms each  {sql}"
        )
    return lines


def _database_counters() -> dict[str, Any]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT xact_commit, tup_inserted, tup_fetched, blks_hit, blks_read, active_time "
            "FROM pg_stat_database WHERE datname = current_database()"
        )
        names = ["commits", "inserted", "fetched", "hits", "reads", "active_ms"]
        counters = dict(zip(names, cursor.fetchone(), strict=True))
        cursor.execute("SELECT funcname, calls, total_time, self_time FROM pg_stat_user_functions")
        counters["functions"] = {name: (calls, t, s) for name, calls, t, s in cursor.fetchall()}
    return counters


def database_lines(
    before: dict[str, Any], after: dict[str, Any], matches: int, seconds: float
) -> list[str]:
    # The statistics collector reports a backend's counts when its transaction ends (and at
    # most every 500 ms): read after the workers stopped, they are complete.
    delta = {k: after[k] - before[k] for k in after if k != "functions"}
    lines = [
        "the database (pg_stat_database, this run): "
        f"{delta['commits'] / matches:.1f} commits/match, "
        f"{delta['inserted'] / matches:,.0f} rows inserted/match, "
        f"active {delta['active_ms'] / matches:.1f} ms/match "
        f"({100 * delta['active_ms'] / 1000 / seconds:.0f}% of the run's wall time)"
    ]
    for name, (calls, total, own) in sorted(after["functions"].items()):
        was = before["functions"].get(name, (0, 0.0, 0.0))
        n = calls - was[0]
        if n:
            lines.append(
                f"  {name}: {n / matches:.1f} calls/match, {(total - was[1]) / n:.2f} ms each "
                f"({(own - was[2]) / n:.2f} ms in its own code)"
            )
    return lines


def explain_append(superuser: str) -> list[str]:
    """One match's append (a whole match decided in this process) as the database runs it:
    auto_explain's nested plans and trigger times, sent to this client as notices. Constraints
    are checked at once, so that deferred foreign-key triggers, which run at commit, show in the
    plan. The append's statement is taken from the store and run in a transaction rolled back,
    on a connection of `superuser` (LOAD 'auto_explain' is a superuser's)."""
    import random

    import psycopg
    from django.db import connection

    from games import services
    from games.bots import find_strategy
    from games.driver import play
    from games.services import SeatSpec, game_create

    seats = [SeatSpec(bot=name) for name in BOTS]
    game = game_create(variant_spec=SPEC, seats=seats, seed=-1)
    variant, state, version = services.load_state(game)
    strategies = {n: find_strategy(name) for n, name in enumerate(BOTS)}
    decided = play(variant, state, strategies, random.Random(0), limit=100_000)
    taken: list[tuple[str, Any]] = []

    def take(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if "games_append" not in sql:
            return execute(sql, params, many, context)
        taken.append((sql, params))
        raise _Taken

    try:
        with connection.execute_wrapper(take):
            services.append_decided(
                game, variant, decided.state, decided.events, version, None, "bench"
            )
    except _Taken:
        pass
    if not taken:
        return ["the store made no games_append call: no plan to show"]
    notices: list[str] = []
    try:
        with psycopg.connect(superuser) as admin:
            admin.add_notice_handler(lambda notice: notices.append(notice.message_primary))
            admin.execute("LOAD 'auto_explain'")
            for setting in (
                "auto_explain.log_min_duration = 0", "auto_explain.log_analyze = on",
                "auto_explain.log_nested_statements = on", "auto_explain.log_timing = on",
                "auto_explain.log_triggers = on", "auto_explain.log_level = notice",
                "client_min_messages = notice",
            ):  # fmt: skip
                admin.execute(f"SET LOCAL {setting}")
            admin.execute("SET CONSTRAINTS ALL IMMEDIATE")
            started = time.perf_counter()
            admin.execute(*taken[0])
            elapsed = time.perf_counter() - started
            admin.rollback()
    except psycopg.Error as error:
        return [f"no plan of the append ({superuser!r} could not run auto_explain: {error})"]
    lines = [f"one append of {len(decided.events)} events: {1000 * elapsed:.1f} ms, its plans:"]
    # Foreign-key checks are one statement per row: summed, not listed.
    checks = [_duration(notice) for notice in notices if "FOR KEY SHARE" in notice]
    if checks:
        lines.append(f"  {len(checks)} foreign-key checks (one per row): {sum(checks):.1f} ms")
    for notice in notices:
        if "FOR KEY SHARE" in notice:
            continue
        for line in notice.splitlines():
            if re.search(r"duration|Insert on|Update on|Trigger|Query Text", line):
                lines.append("  " + line.strip()[:110])
    return lines


class _Taken(Exception):
    pass


def _duration(notice: str) -> float:
    match = re.search(r"duration: ([0-9.]+) ms", notice)
    return float(match.group(1)) if match else 0.0


# The profiled worker --------------------------------------------------------------------------


def _serve_timed_worker(stats: Path, argv: list[str]) -> int:
    """A worker (`celery worker` with `argv`) whose task processes time every SQL statement and
    write the totals to `stats`."""
    sys.path.insert(0, str(REPO_ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from celery.signals import task_postrun, worker_process_init, worker_process_shutdown

    from config import celery_app

    timings: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])

    def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            found = timings[" ".join(sql.split())[:90]]
            found[0] += 1
            found[1] += time.perf_counter() - started

    def install(**_: Any) -> None:
        from django.db import connection

        connection.execute_wrappers.append(timed)

    def dump(**_: Any) -> None:
        stats.write_text(json.dumps(timings))

    calls = iter(range(1 << 62))

    def maybe_dump(**_: Any) -> None:
        if next(calls) % 20 == 0:
            dump()

    worker_process_init.connect(install, weak=False)
    task_postrun.connect(maybe_dump, weak=False)
    worker_process_shutdown.connect(dump, weak=False)
    celery_app.worker_main(["worker", *argv])
    return 0


if __name__ == "__main__":
    sys.exit(main())
