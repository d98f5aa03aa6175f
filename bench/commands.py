#!/usr/bin/env python3
"""Commands and views at any match length: one person's command and one view, 100, 1,000 and
10,000 events into a match, with snapshots (games/snapshots.py) and without.

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno REDIS_URL=redis://127.0.0.1:6379/0 \\
        python3 bench/commands.py [--samples N] [--rounds R]

It creates a scratch database next to DATABASE_URL's (`<name>_commands_<pid>`), migrates it,
runs, and drops it again; the tasks the commands send (turn clocks) go to a queue of their own
on REDIS_URL, purged at the end. Each round builds, for each length and for each side, a fresh
four-person match (target 100,000 points: it never ends) whose log is played by the greedy bot
in-process and appended through append_decided in runs of about 500 events. Then, with
a side's three matches built, a person loads a game (`game_view`, timed: the view) and
sends the greedy bot's command for their seat (`game_command`, timed: the command, its
on-commit listener included), N times for each match, the lengths taken in turn (100, 1,000,
10,000, 100, ...), so that a moment of the others' load falls on every length alike; after an
untimed warm-up match of each side. The sides run in alternating order within each round:

    before  the same code with snapshots switched off (every load folds the whole log);
    after   with snapshots: loads start from the newest snapshot. The match is first loaded
            once (untimed), which keeps a snapshot at its length (a multiple of EVERY), as the
            players' loads would have; the timed loads then fold the events since, 0 to about
            EVERY as in any match, and one of them keeps the next snapshot.

It prints, per length and side, the median (the median of the rounds' medians) and the p95 of
all samples, in milliseconds, the load (`uptime`) with each round, then `view ratio: Y` and, as
its last line, `ratio: X` = the command's 10,000-event median / its 100-event median with
snapshots. Target: X <= 1.5. Exit status 2 when DATABASE_URL is not a PostgreSQL URL.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
EXIT_NOT_READY = 2
LENGTHS = (100, 1_000, 10_000)
SIDES = ("before", "after")
SEATS = 4
CHUNK = 500
SPEC = {"rules": "official", "options": {"target": 100_000}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=25, help="view+command pairs per match")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the median is of these)")
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("bench/commands.py needs DATABASE_URL=postgres://… (and REDIS_URL=redis://…)")
        return EXIT_NOT_READY
    if not os.environ.get("REDIS_URL"):
        print("note: no REDIS_URL: tasks run in-process, inside the timed commands")

    sys.path.insert(0, str(REPO_ROOT))
    import dj_database_url
    import psycopg

    from bench.store import _conninfo, _url

    settings = dj_database_url.parse(url)
    scratch = f"{settings['NAME']}_commands_{os.getpid()}"
    admin = psycopg.connect(_conninfo(settings, settings["NAME"]), autocommit=True)
    admin.execute(f'CREATE DATABASE "{scratch}"')
    os.environ["DATABASE_URL"] = _url(settings, scratch)
    # No worker reads this queue: the turn clocks' tasks are sent, as a request sends them.
    os.environ["CELERY_QUEUE"] = f"commands-{uuid.uuid4().hex[:12]}"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        return run(args)
    finally:
        from django.db import connections

        connections.close_all()
        admin.execute(f'DROP DATABASE "{scratch}" WITH (FORCE)')
        admin.close()
        if os.environ.get("REDIS_URL"):
            from config.celery import app

            app.control.purge()


def run(args: argparse.Namespace) -> int:
    from django.conf import settings

    from games import snapshots

    # A process's own newest states (games/recent.py) would answer these loads from memory: off,
    # so that each load is what a process that has not seen the game pays (the log, a snapshot).
    settings.RECENT_STATES = 0

    # (kind, side, length) -> per-round lists of milliseconds
    samples: dict[tuple[str, str, int], list[list[float]]] = defaultdict(list)
    print(f"snapshots every {snapshots.EVERY} events; {args.samples} samples per match")
    # Untimed: the first commands of a process pay for connections, plans and caches.
    for side in SIDES:
        measure(LENGTHS[:1], side, args.samples, seed=0)
    for round_ in range(1, args.rounds + 1):
        # Both orders alternate between rounds, so that drift (others' load) hits all alike.
        sides = SIDES if round_ % 2 else SIDES[::-1]
        for side in sides:
            lengths = LENGTHS if round_ % 2 else LENGTHS[::-1]
            for length, (views, commands) in measure(lengths, side, args.samples, round_).items():
                samples["view", side, length].append(views)
                samples["command", side, length].append(commands)
        print(f"round {round_} done ({' then '.join(sides)}, the lengths in turn); load {_load()}")

    def median(kind: str, side: str, length: int) -> float:
        return statistics.median(statistics.median(r) for r in samples[kind, side, length])

    def p95(kind: str, side: str, length: int) -> float:
        pooled = sorted(ms for r in samples[kind, side, length] for ms in r)
        return pooled[min(len(pooled) - 1, round(0.95 * (len(pooled) - 1)))]

    print("\nms, median / p95      command before   command after    view before      view after")
    for length in LENGTHS:
        cells = [
            f"{median(kind, side, length):6.1f} / {p95(kind, side, length):6.1f}"
            for kind in ("command", "view")
            for side in SIDES
        ]
        print(f"{length:>6,} events        " + "  ".join(cells))
    print("medians of each round, ms:")
    for length in LENGTHS:
        for kind in ("command", "view"):
            rounds = "  ".join(
                f"{side} "
                + " ".join(f"{statistics.median(r):.1f}" for r in samples[kind, side, length])
                for side in SIDES
            )
            print(f"  {length:>6,} events, {kind:<7}  {rounds}")
    for kind in ("command", "view"):
        before = median(kind, "before", LENGTHS[-1]) / median(kind, "before", LENGTHS[0])
        after = median(kind, "after", LENGTHS[-1]) / median(kind, "after", LENGTHS[0])
        print(f"{kind}: 10,000 / 100 events: {before:.2f} before, {after:.2f} after")
    view = median("view", "after", LENGTHS[-1]) / median("view", "after", LENGTHS[0])
    print(f"view ratio: {view:.2f}")
    ratio = median("command", "after", LENGTHS[-1]) / median("command", "after", LENGTHS[0])
    print(f"ratio: {ratio:.2f}")
    return 0


def measure(
    lengths: tuple[int, ...], side: str, count: int, seed: int
) -> dict[int, tuple[list[float], list[float]]]:
    """A fresh match of each length; `count` times, for each match in turn, a person's view then
    their command. Returns each length's view and command times."""
    from bots.strategies import find_strategy
    from games.commands import game_command
    from games.models import Game
    from games.repository import repository
    from games.visibility import game_view

    matches = {length: build(length, seed) for length in lengths}
    greedy = find_strategy("greedy")
    rng = random.Random(seed)
    times: dict[int, tuple[list[float], list[float]]] = {length: ([], []) for length in lengths}
    with snapshots_switched(on=side == "after"):
        if side == "after":
            # Untimed: the snapshot at each length, as the players' loads would have kept it.
            for game, _ in matches.values():
                repository.state(game)
        for _ in range(count):
            for length, (game, people) in matches.items():
                views, commands = times[length]
                seat = Game.objects.values_list("to_act", flat=True).get(pk=game.pk)[0]
                person = people[seat]
                start = time.perf_counter()
                view = game_view(game_id=game.pk, viewer=person)
                views.append((time.perf_counter() - start) * 1000)
                command = greedy(view, view["legal"], rng)
                start = time.perf_counter()
                game_command(
                    game_id=game.pk,
                    actor=person,
                    command=command,
                    expected_version=view["version"],
                    command_id=uuid.uuid4().hex,
                )
                commands.append((time.perf_counter() - start) * 1000)
    return times


def build(length: int, seed: int) -> tuple[Any, list[Any]]:
    """A four-person match with about `length` events (a person to act), played by the greedy
    bot in-process and appended in runs of about CHUNK events."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from bots.driver import next_command, step
    from bots.strategies import find_strategy
    from games.commands import append_decided
    from games.creation import SeatSpec, game_create
    from games.repository import repository

    people = [
        get_user_model().objects.create_user(username=f"p{uuid.uuid4().hex[:12]}")
        for _ in range(SEATS)
    ]
    game = game_create(
        variant_spec=SPEC, seats=[SeatSpec(user=person) for person in people], seed=seed
    )
    variant, state, version = repository.state(game)
    strategies = dict.fromkeys(range(SEATS), find_strategy("greedy"))
    rng = random.Random(seed)
    run: list[dict[str, Any]] = []
    while version + len(run) < length:
        command = next_command(variant, state, strategies, rng)
        assert isinstance(command, dict), command
        events, state = step(variant, state, command)
        run += events
        if len(run) >= CHUNK or version + len(run) >= length:
            append_decided(game, variant, state, run, version, None, "system")
            version += len(run)
            run = []
    game.refresh_from_db()
    # As in a match whose early events were written long ago: the table vacuumed and analysed,
    # not still being processed by autovacuum while the timed commands run.
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) games_gameevent")
    return game, people


@contextmanager
def snapshots_switched(*, on: bool) -> Iterator[None]:
    """Snapshots as they are (on), or none read and none written (off: the code before)."""
    from games import snapshots

    if on:
        yield
        return
    newest, keep = snapshots.newest, snapshots.keep
    snapshots.newest, snapshots.keep = _no_snapshot, _not_kept
    try:
        yield
    finally:
        snapshots.newest, snapshots.keep = newest, keep


def _no_snapshot(*args: Any, **kwargs: Any) -> None:
    return None


_not_kept: Callable[..., None] = _no_snapshot


def _load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
