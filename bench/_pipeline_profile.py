"""bench/pipeline.py --profile: reading a profiled run (py-spy's samples, the SQL a worker
timed, the database's counters, one append under auto_explain) and the timed worker it runs.
Not a benchmark of its own: bench/run skips files that start with an underscore."""

from __future__ import annotations

import collections
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]

# The profile's main lines: frames of ours and the libraries' doors, by inclusive share.
PROFILE_FRAMES = (
    "advance_game (games/tasks.py)",
    "advance_game (bots/turns.py)",
    "play (bots/driver.py)",
    "step (bots/driver.py)",
    "_ask (bots/driver.py)",
    "Variant.view (engine/variant.py)",
    "Variant.legal_commands (engine/variant.py)",
    "Variant.decide (engine/variant.py)",
    "state (games/repository.py)",
    "append_decided (games/commands.py)",
    "visibility (games/visibility.py)",
    "append (games/appends.py)",
    "_write_postgresql (games/appends.py)",
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


def track_functions(superuser: str, scratch: str) -> None:
    import psycopg

    try:
        with psycopg.connect(superuser, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE \"{scratch}\" SET track_functions = 'all'")
    except psycopg.Error as error:
        print(f"no function timings: {error}")


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


def database_counters() -> dict[str, Any]:
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


def explain_append(superuser: str, spec: dict[str, Any], bots: list[str]) -> list[str]:
    """One match's append (a whole match decided in this process) as the database runs it:
    auto_explain's nested plans and trigger times, sent to this client as notices. Constraints
    are checked at once, so that deferred foreign-key triggers, which run at commit, show in the
    plan. The append's statement is taken from the store and run in a transaction rolled back,
    on a connection of `superuser` (LOAD 'auto_explain' is a superuser's)."""
    import random

    import psycopg
    from django.db import connection

    from bots.driver import play
    from bots.strategies import find_strategy
    from games.commands import append_decided
    from games.creation import SeatSpec, game_create
    from games.repository import repository

    seats = [SeatSpec(bot=name) for name in bots]
    game = game_create(variant_spec=spec, seats=seats, seed=-1)
    variant, state, version = repository.state(game)
    strategies = {n: find_strategy(name) for n, name in enumerate(bots)}
    decided = play(variant, state, strategies, random.Random(0), limit=100_000)
    taken: list[tuple[str, Any]] = []

    def take(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if "games_append" not in sql:
            return execute(sql, params, many, context)
        taken.append((sql, params))
        raise _Taken

    try:
        with connection.execute_wrapper(take):
            append_decided(game, variant, decided.state, decided.events, version, None, "bench")
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


def serve_timed_worker(stats: Path, argv: list[str]) -> int:
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
