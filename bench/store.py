#!/usr/bin/env python3
"""Event store benchmark: games.appends against the fairest raw insert, on one PostgreSQL.

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno python3 bench/store.py [--appends N]

It creates a scratch database next to DATABASE_URL's (`<name>_bench_<pid>`), migrates it, runs,
and drops it again, so it never touches the real data. It prints:

    (a) the baseline: one INSERT of one row per call, in autocommit (one statement, one round
        trip, one commit), into a scratch table of the events table's shape: the same columns,
        keys, indexes and constraints, and its foreign keys if it has any;
    (b) single-event appends through appends.append (conditional version update, floor, global
        position, insert, commit: one prepared statement, one round trip too);
    (c) 1 writer, then 4 concurrent writers on different games, each a process of its own with
        its own connection, as the service's writers are (gunicorn's and Celery's worker
        processes): threads of one process would share one interpreter lock, and measure it;
    (d) appends of 100 events at once, in events/s (and, for information, what event_reads.head()
        costs a projection);
    (e) loading a 2,000-event match from a real simulated game (and, for information,
        replaying it);

then `writers: X` = (c) 4 writers / 1 writer, and as its last line `ratio: X` = (b) / (a).
Targets: ratio >= 0.8, writers >= 1.6 (and, as before, (d) >= 15,000 events/s, (e) <= 20 ms).
Every figure is the median of its rounds, and (a)/(b) and the two sides of (c) run in
alternating rounds, so that drift (other load, disk caches) hits both alike. Exit status 2
when DATABASE_URL is not a PostgreSQL URL.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
EXIT_NOT_READY = 2
WRITERS = 4
BULK = 100
MATCH_EVENTS = 2000

# A typical event: a card played.
EVENT: dict[str, Any] = {
    "type": "card-played",
    "seat": 1,
    "card": "red-7",
    "color": None,
    "source": "hand",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=2400, help="single appends per side")
    parser.add_argument("--rounds", type=int, default=12, help="alternating (a)/(b) rounds")
    args = parser.parse_args()

    return on_scratch_database("bench/store.py", "bench", lambda raw: run(args, raw))


def on_scratch_database(script: str, suffix: str, measure: Any) -> int:
    """`measure(raw)` on a scratch database beside DATABASE_URL's (`<name>_<suffix>_<pid>`,
    dropped at the end), DATABASE_URL pointing at it and `raw` a psycopg connection to it in
    autocommit; EXIT_NOT_READY when DATABASE_URL is not PostgreSQL."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print(f"{script} needs DATABASE_URL=postgres://… (a PostgreSQL to measure against)")
        return EXIT_NOT_READY

    import dj_database_url
    import psycopg

    settings = dj_database_url.parse(url)
    scratch = f"{settings['NAME']}_{suffix}_{os.getpid()}"
    admin = psycopg.connect(_conninfo(settings, settings["NAME"]), autocommit=True)
    admin.execute(f'CREATE DATABASE "{scratch}"')
    try:
        os.environ["DATABASE_URL"] = _url(settings, scratch)
        return int(measure(psycopg.connect(_conninfo(settings, scratch), autocommit=True)))
    finally:
        from django.db import connections

        connections.close_all()
        admin.execute(f'DROP DATABASE "{scratch}" WITH (FORCE)')
        admin.close()


def _conninfo(settings: dict[str, Any], name: str) -> str:
    import psycopg.conninfo

    return psycopg.conninfo.make_conninfo(
        dbname=name,
        user=settings.get("USER") or None,
        password=settings.get("PASSWORD") or None,
        host=settings.get("HOST") or None,
        port=settings.get("PORT") or None,
    )


def _url(settings: dict[str, Any], name: str) -> str:
    auth = settings.get("USER") or ""
    if settings.get("PASSWORD"):
        auth += f":{settings['PASSWORD']}"
    host = settings.get("HOST") or "localhost"
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    return f"postgres://{auth}{'@' if auth else ''}{host}{port}/{name}"


def setup_django() -> None:
    """Django on DATABASE_URL, with the store alone: the games app subscribes the workers'
    listeners (bot dispatch, turn clocks), which run their own queries after each commit;
    bench/pipeline.py measures the whole pipeline with them."""
    sys.path.insert(0, str(REPO_ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    import django

    django.setup()
    from games import appends

    appends._listeners.clear()


def run(args: argparse.Namespace, raw: Any) -> int:
    setup_django()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    baseline, appends = Baseline(raw), Appends()
    per_round = max(1, args.appends // args.rounds)
    baseline.measure(20)
    appends.measure(20)  # warm-up: connections, prepared plans, caches
    a_rates, b_rates = [], []
    for _ in range(args.rounds):
        a_rates.append(per_round / baseline.measure(per_round))
        b_rates.append(per_round / appends.measure(per_round))
    a, b = statistics.median(a_rates), statistics.median(b_rates)
    print(f"(a) baseline: one INSERT in autocommit, one row:  {a:,.0f} inserts/s")
    print(f"(b) appends.append, one event per append:        {b:,.0f} appends/s")
    one_rates, many_rates = [], []
    writers = Writers()
    try:
        for _ in range(3):
            one_rates.append(writers.rate(1, per_round * 2))
            many_rates.append(writers.rate(WRITERS, per_round * 2))
    finally:
        writers.close()
    one, many = statistics.median(one_rates), statistics.median(many_rates)
    print(f"(c) 1 writer:                                    {one:,.0f} appends/s")
    print(f"    {WRITERS} concurrent writers, different games:      {many:,.0f} appends/s in all")
    d = statistics.median(bulk_appends(max(20, per_round // 2)) for _ in range(3))
    print(f"(d) appends.append, {BULK} events per append:       {d:,.0f} events/s")
    head_us = head_cost()
    print(f"    event_reads.head(), for information:         {head_us:.0f} µs")
    load_ms, replay_ms = load_a_match()
    print(f"(e) load a {MATCH_EVENTS:,}-event match:                   {load_ms:.1f} ms")
    print(f"    (replaying it, for information:              {replay_ms:.1f} ms)")
    print(f"writers: {many / one:.2f}")
    print(f"ratio: {b / a:.2f}")
    raw.close()
    return 0


class Baseline:
    """The floor: the least a durable one-row append can cost on this PostgreSQL. One INSERT
    statement in autocommit (so one round trip and one commit, as appends.append), into a copy
    of the events table with its indexes, constraints and foreign keys."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        raw.execute("CREATE TABLE bench_baseline (LIKE games_gameevent INCLUDING ALL)")
        # LIKE copies no foreign keys: add the events table's own, if it has any.
        for (definition,) in raw.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = 'games_gameevent'::regclass AND contype = 'f'"
        ).fetchall():
            raw.execute(f"ALTER TABLE bench_baseline ADD {definition}")
        self.game = new_game()
        self.position = 0
        self.data = json.dumps({k: v for k, v in EVENT.items() if k != "type"})

    def measure(self, count: int) -> float:
        execute = self.raw.execute
        started = time.perf_counter()
        for _ in range(count):
            self.position += 1
            execute(
                "INSERT INTO bench_baseline (global_position, game_id, version, type, "
                "schema_version, data, visibility, actor, command_id, recorded_at) "
                "VALUES (%s, %s, %s, %s, 1, %s, 'public', 'bench', %s, now())",
                (
                    self.position,
                    self.game,
                    self.position,
                    EVENT["type"],
                    self.data,
                    uuid.uuid4().hex,
                ),
            )
        return time.perf_counter() - started


def new_game() -> int:
    from games.models import Game

    return Game.objects.create(variant={"rules": "official"}, seat_count=2).pk


class Appends:
    """Our path: what every command pays to be recorded."""

    def __init__(self, game: int | None = None) -> None:
        from games.models import Game

        self.game = new_game() if game is None else game
        self.version = Game.objects.values_list("version", flat=True).get(pk=self.game)

    def measure(self, count: int) -> float:
        from games import appends

        started = time.perf_counter()
        for _ in range(count):
            appends.append(
                game_id=self.game,
                events=[EVENT],
                expected_version=self.version,
                command_id=uuid.uuid4().hex,
                actor="user:1",
            )
            self.version += 1
        return time.perf_counter() - started


class Writers:
    """WRITERS processes, each with its own connection and game, started once (spawned: a fresh
    interpreter, nothing of this process's connections) and kept for every round of (c)."""

    def __init__(self) -> None:
        from django.db import connections

        games = [new_game() for _ in range(WRITERS)]
        connections.close_all()
        spawn = multiprocessing.get_context("spawn")
        self.pipes = []
        self.processes = []
        for game in games:
            ours, theirs = spawn.Pipe()
            process = spawn.Process(target=writer, args=(game, theirs), daemon=True)
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)
        for pipe in self.pipes:
            assert pipe.recv() == "ready"  # Django set up, connected, its statement prepared

    def rate(self, writers: int, each: int) -> float:
        """Appends/s of the first `writers` processes, `each` appends apiece, from the moment
        they are told to go until the last one is done."""
        pipes = self.pipes[:writers]
        started = time.perf_counter()
        for pipe in pipes:
            pipe.send(each)
        for pipe in pipes:
            assert pipe.recv() == "done"
        return writers * each / (time.perf_counter() - started)

    def close(self) -> None:
        for pipe in self.pipes:
            pipe.send(None)
        for process in self.processes:
            process.join(timeout=30)


def writer(game: int, pipe: Any) -> None:
    """One writer process: single-event appends to its own game, as many as it is told."""
    setup_django()
    appends = Appends(game)
    appends.measure(20)  # this process's connection and prepared statement
    pipe.send("ready")
    while (each := pipe.recv()) is not None:
        appends.measure(each)
        pipe.send("done")


def bulk_appends(count: int) -> float:
    from games import appends

    game, events = new_game(), [EVENT] * BULK
    started = time.perf_counter()
    for i in range(count):
        appends.append(
            game_id=game,
            events=events,
            expected_version=i * BULK,
            command_id=uuid.uuid4().hex,
        )
    return count * BULK / (time.perf_counter() - started)


def head_cost() -> float:
    """Median µs of event_reads.head(): what a projection pays to learn how far it may read."""
    from games import event_reads

    times = []
    for _ in range(200):
        started = time.perf_counter()
        event_reads.head()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def load_a_match() -> tuple[float, float]:
    """Median ms to load, and to replay, the first 2,000 events of a real simulated match."""
    from bots.simulation import play_match
    from bots.strategies import find_strategy
    from engine import Variant
    from games import appends, event_reads

    variant = Variant.from_spec({"rules": "official", "options": {"target": 500}})
    bots = [find_strategy("random")] * 4
    seed = 0
    while len(log := play_match(variant, bots, seed=seed).events) < MATCH_EVENTS:
        seed += 1
    log = log[:MATCH_EVENTS]
    game = new_game()
    for start in range(0, MATCH_EVENTS, BULK):
        appends.append(game_id=game, events=log[start : start + BULK], expected_version=start)
    loads, replays = [], []
    for _ in range(15):
        started = time.perf_counter()
        loaded = event_reads.load(game)
        loads.append(time.perf_counter() - started)
        started = time.perf_counter()
        variant.replay(loaded)
        replays.append(time.perf_counter() - started)
    assert loaded == log
    return statistics.median(loads) * 1000, statistics.median(replays) * 1000


if __name__ == "__main__":
    sys.exit(main())
