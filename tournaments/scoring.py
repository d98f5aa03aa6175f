"""A tournament's points: placement points per table (a season's), a bye's, the arena's points
per game with its streak bonus, duplicate scoring (each seat against everyone who held the
same cards) and the published tiebreaks of a Swiss tournament. docs/tournaments.md.

Pure Python, no Django (the `engine-is-pure` contract of .importlinter).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from league.scheduling import default_points
from tournaments.scheduling import (
    MIN_TABLE_SIZE,
    EntrantId,
    Standing,
    Table,
    TournamentError,
    check_table_size,
)

# Arena: after this many wins in a row, every game scores double until one is not won.
STREAK_WINS = 2
STREAK_FACTOR = 2

SWISS_TIEBREAKS = (
    "tournament points",
    "opponents' scores: for each table played, the mean of the opponents' points, summed",
    "wins (first places)",
    "points scored in the games",
    "otherwise the place is shared (listed by entrant number)",
)


def placement_points(finish_order: Sequence[EntrantId], table_size: int) -> dict[EntrantId, float]:
    """Points by place at one table, as a season's default (league.scheduling.default_points:
    halving down to 1, then 0 for last; 4 seats: 4/2/1/0). A short table (k-1 seats in a
    Swiss round) stretches the full table's points over its places so a seat is worth the
    same on average: place p of m takes the full places' points over the share [p/m,
    (p+1)/m) of the places, times m (4 seats played by 3: 3.5/1.5/0.25)."""
    check_table_size(table_size)
    m = len(finish_order)
    if not 1 <= m <= table_size or len(set(finish_order)) != m:
        raise TournamentError(
            "invalid-place",
            f"a table of {table_size} has 1 to {table_size} different entrants, not "
            f"{list(finish_order)}",
        )
    full = default_points(table_size)
    if m == table_size:
        return {e: float(full[p]) for p, e in enumerate(finish_order)}
    points: dict[EntrantId, float] = {}
    for p, e in enumerate(finish_order):
        lo, hi = Fraction(p, m), Fraction(p + 1, m)
        share = Fraction(0)
        for q, value in enumerate(full):
            overlap = min(hi, Fraction(q + 1, table_size)) - max(lo, Fraction(q, table_size))
            if overlap > 0:
                share += overlap * value
        points[e] = float(share * m)
    return points


def bye_points(table_size: int) -> float:
    """What a bye scores: the mean of a table's points (4 seats: 7/4)."""
    check_table_size(table_size)
    full = default_points(table_size)
    return sum(full) / len(full)


def arena_points(finishes_in_order: Sequence[int], table_size: int = 2) -> int:
    """An arena entrant's points from the places (1 = first) of its games, in the order
    played. A game scores its place's points (league.scheduling.default_points: at tables of
    two a win 1, at four 4/2/1/0); after STREAK_WINS wins in a row the entrant is on a
    streak, and every game on it scores STREAK_FACTOR times, until a game that is not won
    (which scores its plain points and ends the streak)."""
    check_table_size(table_size)
    full = default_points(table_size)
    total = wins = 0
    for place in finishes_in_order:
        if not 1 <= place <= table_size:
            raise TournamentError(
                "invalid-place", f"a place at a table of {table_size} is 1 to {table_size}"
            )
        streak = wins >= STREAK_WINS
        won = place == 1
        total += full[place - 1] * (STREAK_FACTOR if streak and won else 1)
        wins = wins + 1 if won else 0
    return total


@dataclass(frozen=True, slots=True)
class ArenaLine:
    """An entrant's line of an arena's leaderboard."""

    entrant: EntrantId
    points: int
    wins: int
    games: int
    # A streak running now (the next win scores double).
    on_streak: bool
    rank: int


def arena_leaderboard(
    finishes: Mapping[EntrantId, Sequence[int]], table_size: int = 2
) -> list[ArenaLine]:
    """The live leaderboard of an arena from every entrant's places in the order played:
    `arena_points`, then wins, then fewer games (the same points in fewer games), then the
    place is shared (listed by entrant number)."""
    lines = []
    for entrant, places in finishes.items():
        wins = sum(1 for p in places if p == 1)
        tail = 0
        for p in reversed(places):
            if p != 1:
                break
            tail += 1
        points = arena_points(places, table_size)
        lines.append((entrant, points, wins, len(places), tail >= STREAK_WINS))

    def key(line: tuple[EntrantId, int, int, int, bool]) -> tuple[int, int, int]:
        return (-line[1], -line[2], line[3])

    lines.sort(key=lambda line: (key(line), line[0]))
    board: list[ArenaLine] = []
    for position, line in enumerate(lines):
        same = bool(board) and key(lines[position - 1]) == key(line)
        rank = board[-1].rank if same else position + 1
        board.append(ArenaLine(line[0], line[1], line[2], line[3], line[4], rank))
    return board


def duplicate_scores(
    results: Mapping[tuple[int, int], Mapping[EntrantId, int]],
) -> dict[EntrantId, float]:
    """Duplicate scoring: `results[(deal, seat)]` holds the score (higher is better: negate
    penalty points first) of everyone who played that seat of that deal. Each score is
    compared with the mean of all the scores of those cards; an entrant's total is the sum
    of its differences. Cards held by one entrant only compare with nobody (0)."""
    totals: dict[EntrantId, float] = {}
    for key in sorted(results):
        scores = results[key]
        if not scores:
            continue
        mean = sum(scores.values()) / len(scores)
        for entrant in sorted(scores):
            totals[entrant] = totals.get(entrant, 0.0) + scores[entrant] - mean
    return totals


@dataclass(frozen=True, slots=True)
class SwissLine:
    """An entrant's line of a Swiss table with the tiebreaks' values (SWISS_TIEBREAKS)."""

    entrant: EntrantId
    points: float
    opponents: float
    wins: int
    scored: float
    rank: int
    shared: bool


def swiss_table(
    standings: Sequence[Standing],
    history_with_results: Sequence[tuple[Table, Sequence[EntrantId]]],
    table_size: int | None = None,
) -> list[SwissLine]:
    """The ranked table of a Swiss tournament by SWISS_TIEBREAKS. `history_with_results`:
    every table played with its finishing order. An opponent no longer in the standings
    (withdrawn) counts with the placement points it earned at these tables (at the
    tournament's `table_size`; None: the largest table played)."""
    points = {s.entrant: s.points for s in standings}
    k = table_size or max((len(t.seats) for t, _ in history_with_results), default=2)
    earned: dict[EntrantId, float] = {}
    for table, order in history_with_results:
        if sorted(order) != sorted(table.seats):
            raise TournamentError(
                "invalid-results",
                f"the finishing order {list(order)} is not the table {list(table.seats)}",
            )
        for e, p in placement_points(order, max(k, MIN_TABLE_SIZE)).items():
            earned[e] = earned.get(e, 0.0) + p
    opponents = dict.fromkeys(points, 0.0)
    wins = dict.fromkeys(points, 0)
    for table, order in history_with_results:
        for e in table.seats:
            if e not in points or len(table.seats) < 2:
                continue
            others = [points.get(o, earned.get(o, 0.0)) for o in table.seats if o != e]
            opponents[e] += sum(others) / len(others)
        if order and order[0] in wins:
            wins[order[0]] += 1
    scored = {s.entrant: s.scored for s in standings}

    def key(e: EntrantId) -> tuple[float, float, int, float]:
        return (-points[e], -round(opponents[e], 9), -wins[e], -scored[e])

    ordered = sorted(points, key=lambda e: (key(e), e))
    lines: list[SwissLine] = []
    for position, e in enumerate(ordered):
        before = ordered[position - 1] if position else None
        same = before is not None and key(before) == key(e)
        rank = lines[-1].rank if same else position + 1
        line = SwissLine(e, points[e], opponents[e], wins[e], scored[e], rank, same)
        if same:
            previous = lines[-1]
            lines[-1] = SwissLine(
                previous.entrant,
                previous.points,
                previous.opponents,
                previous.wins,
                previous.scored,
                previous.rank,
                True,
            )
        lines.append(line)
    return lines


def swiss_tiebreaks(
    standings: Sequence[Standing],
    history_with_results: Sequence[tuple[Table, Sequence[EntrantId]]],
    table_size: int | None = None,
) -> list[EntrantId]:
    """The entrants in the order of the published tiebreaks (`swiss_table`)."""
    return [line.entrant for line in swiss_table(standings, history_with_results, table_size)]
