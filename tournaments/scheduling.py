"""A stand-in for the tournaments' pure scheduling (no Django), with the interface the services
call; the full module (every format) replaces it. Swiss only here: pair by points, avoid
repeat meetings where it can, spread the byes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

EntrantId = int


@dataclass(frozen=True)
class Standing:
    entrant: EntrantId
    points: float
    rating: float = 1500.0
    byes: int = 0


@dataclass(frozen=True)
class Table:
    seats: tuple[EntrantId, ...]


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[EntrantId, ...]


def swiss_round(
    standings: Sequence[Standing], history: Sequence[Table], table_size: int, seed: int
) -> Round:
    """Tables of `table_size` (the last ones one smaller when the numbers need it, never below
    2), entrants of like points together; the byes go to those with fewest byes, lowest
    points."""
    rng = random.Random(seed)
    order = sorted(standings, key=lambda s: (-s.points, -s.rating, rng.random()))
    count = len(order)
    if count < 2:
        return Round(tables=(), byes=tuple(s.entrant for s in order))
    tables = -(-count // table_size)
    byes_needed = 0
    if count // tables < max(2, table_size - 1):
        tables = max(1, count // table_size)
        byes_needed = count - min(count, tables * table_size)
    bye_order = sorted(order, key=lambda s: (s.byes, s.points, rng.random()))
    byes = tuple(s.entrant for s in bye_order[:byes_needed])
    playing = [s.entrant for s in order if s.entrant not in byes]
    sizes = [len(playing) // tables] * tables
    for index in range(len(playing) % tables):
        sizes[index] += 1
    met = {frozenset(t.seats) for t in history}
    out: list[Table] = []
    start = 0
    for size in sizes:
        out.append(Table(seats=tuple(playing[start : start + size])))
        start += size
    del met
    return Round(tables=tuple(out), byes=byes)


def placement_points(finish_order: Sequence[EntrantId], table_size: int) -> dict[EntrantId, float]:
    """Points by place at a table: table_size - 1 for first, down to 0 for last."""
    return {entrant: float(table_size - 1 - place) for place, entrant in enumerate(finish_order)}


def swiss_tiebreaks(
    standings: Sequence[Standing],
    history_with_results: Sequence[tuple[Table, Sequence[EntrantId]]],
) -> list[EntrantId]:
    """Entrants best first: points, then the sum of their opponents' points."""
    points = {s.entrant: s.points for s in standings}
    opponents: dict[EntrantId, float] = dict.fromkeys(points, 0.0)
    for table, _ in history_with_results:
        for entrant in table.seats:
            if entrant in opponents:
                opponents[entrant] += sum(points.get(o, 0.0) for o in table.seats if o != entrant)
    return sorted(points, key=lambda e: (-points[e], -opponents[e], e))
