#!/usr/bin/env python3
"""How close each tournament format's schedule gets, on 8 to 200 entrants at tables of 2 to 6:
the tables of docs/tournaments.md ("How close the schedules get").

Each format is played through tournaments/scheduling.py with simulated results: every entrant
has a hidden strength, and a table finishes in the order of strength plus noise (from the
seed), so scores spread as in a real event. Pure Python; no database.

Usage (from the repository root):

    PYTHONPATH=. python3 bench/tournament_schedules.py [--seed S] [--entrants 8,16] [--sizes 2,3]

Per format, a markdown table (rows: entrants; columns: tables of k):

- Swiss, ceil(log2 n) rounds: repeated meetings (a pair's every meeting after its first, and
  in brackets the fewest any schedule of those rounds must have, by counting) / seat balance
  (the largest, over entrants, of the most minus the fewest times at one of the k seats) /
  byes (the most minus the fewest byes; `-` when nobody sat out).
- Knockout: rounds to the final's end with the best half of each table advancing (one at
  tables of two and three) / byes of the first round.
- Arena: 4n/k games, a random table finishing at a time and its entrants seated again with
  those waiting: games seating exactly the table one of its entrants last played, of all
  games / entrants left waiting after a seating, on average / seat balance.
- Duplicate, ceil(log2 n) rounds: repeated meetings / byes.

The last line: the time all of it took, and the machine's load.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

import _repo_first  # noqa: F401  # first: the repository before bench/ on sys.path

from tournaments.scheduling import (  # noqa: E402
    Standing,
    Table,
    arena_tables,
    duplicate_round,
    knockout_bracket,
    knockout_next,
    meetings,
    seat_counts,
    swiss_round,
)
from tournaments.scoring import placement_points  # noqa: E402

ENTRANTS = (8, 16, 32, 64, 128, 200)
SIZES = (2, 3, 4, 5, 6)


def finish(table: Table, strength: Sequence[float], rng: random.Random) -> list[int]:
    return sorted(table.seats, key=lambda e: -(strength[e] + rng.gauss(0, 1)))


def repeats(history: Sequence[Table]) -> int:
    return sum(c - 1 for c in meetings(history).values())


def repeat_bound(history: Sequence[Table], n: int) -> int:
    """Fewest repeated meetings any schedule of these table sizes must have: an entrant at
    tables of s meets s-1 others, and only n-1 others exist."""
    met: Counter[int] = Counter()
    for table in history:
        for e in table.seats:
            met[e] += len(table.seats) - 1
    return -(-sum(max(0, m - (n - 1)) for m in met.values()) // 2)


def balance(history: Sequence[Table], k: int) -> int:
    counts = seat_counts(history)
    return max(max(c[s] for s in range(k)) - min(c[s] for s in range(k)) for c in counts.values())


def spread(byes: Counter[int], n: int) -> str:
    if not byes:
        return "-"
    values = [byes[e] for e in range(n)]
    return str(max(values) - min(values))


def swiss(n: int, k: int, seed: int) -> str:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(n)]
    points = dict.fromkeys(range(n), 0.0)
    byes: Counter[int] = Counter()
    history: list[Table] = []
    rounds = math.ceil(math.log2(n))
    for r in range(rounds):
        standings = [Standing(e, points[e], byes=byes[e]) for e in range(n)]
        round_ = swiss_round(standings, history, k, seed + r)
        for table in round_.tables:
            for e, p in placement_points(finish(table, strength, rng), k).items():
                points[e] += p
        byes.update(round_.byes)
        history += round_.tables
    return (
        f"{repeats(history)} ({repeat_bound(history, n)}) / {balance(history, k)} / "
        f"{spread(byes, n)}"
    )


def knockout(n: int, k: int, seed: int) -> str:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(n)]
    advance = max(1, k // 2) if k > 3 else 1
    seeds = sorted(range(n), key=lambda e: -strength[e])
    round_ = knockout_bracket(seeds, k, advance)
    first_byes = len(round_.byes)
    rounds = 1
    while True:
        results = [(t, finish(t, strength, rng)) for t in round_.tables]
        following = knockout_next(results, k, advance, byes=round_.byes)
        if following is None:
            return f"{rounds} / {first_byes}"
        round_ = following
        rounds += 1


def arena(n: int, k: int, seed: int) -> str:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(n)]
    points = dict.fromkeys(range(n), 0.0)
    last: dict[int, frozenset[int]] = {}
    waiting = list(range(n))
    playing: list[Table] = []
    history: list[Table] = []
    again = waited = 0
    for _ in range(4 * n // k):
        tables, rest = arena_tables(
            [Standing(e, points[e]) for e in waiting], k, history, playing=len(playing)
        )
        for table in tables:
            seats = frozenset(table.seats)
            again += any(last.get(e) == seats for e in seats)
            for e in seats:
                last[e] = seats
        playing += tables
        history += tables
        waited += len(rest)
        if not playing:
            break
        done = playing.pop(rng.randrange(len(playing)))
        order = finish(done, strength, rng)
        for e, p in placement_points(order, k).items():
            points[e] += p
        waiting = list(rest) + order
    return f"{again} of {len(history)} / {waited / max(1, 4 * n // k):.1f} / {balance(history, k)}"


def duplicate(n: int, k: int, seed: int) -> str:
    if n < 2 * k:
        return "too few"  # duplicate_round's `too-few-for-duplicate`: under two tables
    byes: Counter[int] = Counter()
    history: list[Table] = []
    rounds = math.ceil(math.log2(n))
    for r in range(rounds):
        round_ = duplicate_round(list(range(n)), k, seed + r, history=history, byes_so_far=byes)
        byes.update(round_.byes)
        history += round_.tables
    return f"{repeats(history)} ({repeat_bound(history, n)}) / {spread(byes, n)}"


FORMATS: dict[str, tuple[str, Callable[[int, int, int], str]]] = {
    "Swiss": ("repeated meetings (bound) / seat balance / byes spread", swiss),
    "Knockout": ("rounds / first-round byes", knockout),
    "Arena": ("the same table again, of games / waiting per finish / seat balance", arena),
    "Duplicate": ("repeated meetings (bound) / byes spread", duplicate),
}


def report(entrants: Sequence[int], sizes: Sequence[int], seed: int) -> str:
    out = []
    for name, (legend, run) in FORMATS.items():
        out.append(f"{name}: {legend}\n")
        out.append("| entrants | " + " | ".join(f"tables of {k}" for k in sizes) + " |")
        out.append("| ---: | " + " | ".join(":---:" for _ in sizes) + " |")
        for n in entrants:
            cells = [run(n, k, seed) for k in sizes]
            out.append(f"| {n} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--entrants", default=",".join(map(str, ENTRANTS)))
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    args = parser.parse_args(argv)
    entrants = [int(n) for n in args.entrants.split(",")]
    sizes = [int(k) for k in args.sizes.split(",")]
    started = time.perf_counter()
    sys.stdout.write(report(entrants, sizes, args.seed))
    elapsed = time.perf_counter() - started
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"tournament schedules: {elapsed:.1f} s (load {load} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
