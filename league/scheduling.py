"""The fixtures of a club league season: who sits at which table, in which seat, each round.

Pure Python, no Django (the `engine-is-pure` contract of .importlinter): the league's services
turn a `Schedule` into games. docs/leagues.md ("Fixtures") explains the method and shows the
spreads it reaches (`spread_report`, also `python -m league.scheduling`).

Members are numbered 0..n-1; a table is a tuple of members in seat order (seat 0 acts first).
Each round seats as many full tables of `table_size` as fit; the other `n mod table_size`
members sit out (a bye). Who sits together comes from a design where the numbers have one
(league/designs.py: the circle method for tables of two, affine planes, Kirkman triple
systems) and from a seeded search otherwise (league/fixture_search.py); seats are assigned
afterwards. The same arguments give the same schedule, byte for byte: the search runs a fixed
number of steps with integer costs and `random.Random(seed)`, never a clock.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from league.designs import Design, packing, resolvable
from league.fixture_search import Grouping, _search, _spread_bound

MIN_TABLE_SIZE = 2
# A competition seats 2..10 (league.models.Competition).
MAX_TABLE_SIZE = 10

Table = tuple[int, ...]


class ScheduleError(ValueError):
    """A season that cannot be drawn as asked: `too-few-members` (fewer than one table),
    `invalid-table-size` (outside 2..10), `invalid-rounds` (fewer than one)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Schedule:
    """A drawn season. `rounds[r]` are the tables of round r, `byes[r]` who sits it out."""

    members: int
    table_size: int
    rounds: tuple[tuple[Table, ...], ...]
    byes: tuple[tuple[int, ...], ...]

    @property
    def meetings(self) -> dict[tuple[int, int], int]:
        """Times each pair (a < b) shared a table; every pair is present, 0 if never."""
        counts = dict.fromkeys(combinations(range(self.members), 2), 0)
        for tables in self.rounds:
            for table in tables:
                for pair in combinations(sorted(table), 2):
                    counts[pair] += 1
        return counts

    @property
    def spread(self) -> int:
        """Most minus fewest meetings over all pairs: 0 when every pair met equally often."""
        counts = self.meetings.values()
        return max(counts) - min(counts)

    @property
    def matches(self) -> tuple[int, ...]:
        """Games played by each member."""
        return tuple(sum(row) for row in self.seat_counts)

    @property
    def seat_counts(self) -> tuple[tuple[int, ...], ...]:
        """`seat_counts[m][s]`: the times member m sat at seat s."""
        counts = [[0] * self.table_size for _ in range(self.members)]
        for tables in self.rounds:
            for table in tables:
                for seat, member in enumerate(table):
                    counts[member][seat] += 1
        return tuple(tuple(row) for row in counts)

    @property
    def seat_balance(self) -> int:
        """The largest difference, for one member, between the seat they sat at most and the
        seat they sat at least. 0: every member sat every seat equally often (possible only
        when each member's games are a multiple of the table size; otherwise the best is 1)."""
        return max(max(row) - min(row) for row in self.seat_counts)

    @property
    def first_seat_spread(self) -> int:
        """Most minus fewest times any member sat first to act (seat 0)."""
        firsts = [row[0] for row in self.seat_counts]
        return max(firsts) - min(firsts)


def default_points(table_size: int) -> list[int]:
    """League points by place: halving down to 1, then 0 for last (4 seats: 4/2/1/0). A
    season's default (league/seasons.py), a tournament's placement points
    (tournaments/scoring.py)."""
    return [2 ** (table_size - 2 - place) for place in range(table_size - 1)] + [0]


def default_rounds(members: int, table_size: int) -> int:
    """The rounds a season needs for every pair to meet at least once if the tables allowed it:
    the pairs divided by the pairs seated per round, rounded up. Tables of two: n-1 rounds for
    an even n, n for an odd n (a bye each round)."""
    _check(members, table_size)
    per_round = (members // table_size) * comb(table_size, 2)
    return -(-comb(members, 2) // per_round)


def meeting_season(*, members: int, table_size: int, seed: int = 0) -> Schedule:
    """The season a blank rounds setting draws: the fewest rounds at which the draw for `seed`
    seats every pair together at least once. It starts from the most the counting allows
    (`default_rounds`, and the games each member needs to sit with the n-1 others, k-1 at a
    time, byes shared out) and adds a round while some pair never met (the search aims at even
    meetings, not at covering every pair: 6 at tables of 3 need 5 rounds, not 3)."""
    _check(members, table_size)
    needed = -(-(members - 1) // (table_size - 1))
    seated = (members // table_size) * table_size
    low = max(default_rounds(members, table_size), -(-needed * members // seated))
    most = max(low, comb(members, 2))

    def covering(rounds: int) -> Schedule | None:
        drawn = schedule(members=members, table_size=table_size, rounds=rounds, seed=seed)
        return drawn if min(drawn.meetings.values()) >= 1 or rounds >= most else None

    # A draw costs its rounds: a few draws found by doubling, then halving the gap, rather than
    # one draw a round (a large division's start took seconds).
    found = covering(low)
    if found is not None:
        return found
    high = min(low * 2, most)
    while (found := covering(high)) is None:
        low, high = high, min(high * 2, most)
    while high - low > 1:
        middle = (low + high) // 2
        drawn = covering(middle)
        if drawn is None:
            low = middle
        else:
            high, found = middle, drawn
    return found


def schedule(
    *, members: int, table_size: int, rounds: int | None = None, seed: int = 0
) -> Schedule:
    """Draw a season of `rounds` rounds (`default_rounds` when None) for `members` members at
    tables of `table_size`. `seed` picks one of the many equally good draws. Raises
    ScheduleError for a season that cannot be drawn."""
    _check(members, table_size)
    if rounds is None:
        rounds = default_rounds(members, table_size)
    if rounds < 1:
        raise ScheduleError("invalid-rounds", f"a season has at least one round, not {rounds}")
    rng = random.Random(seed)
    design = resolvable(members, table_size)
    if design is not None:
        design = _relabelled(design, members, rng, shuffle=table_size > 2)
        grouping = [design[r % len(design)] for r in range(rounds)]
        leg = len(design) if table_size == 2 else None
    else:
        start = packing(members, table_size)
        if start is not None:
            start = _relabelled(start, members, rng, shuffle=True)
        grouping = _search(members, table_size, rounds, rng, start or [])
        leg = None
    seated = _seat(grouping, members, table_size, leg)
    return Schedule(
        members=members,
        table_size=table_size,
        rounds=tuple(tuple(sorted(tables)) for tables in seated),
        byes=tuple(_byes(tables, members) for tables in seated),
    )


def _relabelled(design: Design, members: int, rng: random.Random, *, shuffle: bool) -> Design:
    """Any relabelling of a design is the design again: the seed picks one, and (`shuffle`)
    the order of its rounds, so which of them a short season uses."""
    label = list(range(members))
    rng.shuffle(label)
    if shuffle:
        design = list(design)
        rng.shuffle(design)
    return [[[label[m] for m in table] for table in tables] for tables in design]


def _check(members: int, table_size: int) -> None:
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise ScheduleError(
            "invalid-table-size",
            f"a table seats {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} members, not {table_size}",
        )
    if members < table_size:
        raise ScheduleError(
            "too-few-members",
            f"{members} members cannot fill a table of {table_size}",
        )


def _byes(tables: Sequence[Table], members: int) -> tuple[int, ...]:
    seated = {m for table in tables for m in table}
    return tuple(m for m in range(members) if m not in seated)


# Seats -------------------------------------------------------------------------------------


def _seat(grouping: Grouping, members: int, table_size: int, leg: int | None) -> list[list[Table]]:
    """Seat orders in which every member sits each seat equally often, to within one.

    Cut each member's games into runs of `table_size` (in the order played) and colour the
    bipartite graph of tables and runs, an edge per member at a table, with `table_size`
    colours, the seats: no two edges at a table or at a run share a colour (an equitable
    edge colouring, de Werra; König's alternating paths). A table then has every seat once,
    and a member sits each seat once per full run.

    With `leg` (tables of two, a round robin repeated) a member's game in a leg is paired with
    the same game in the next leg instead, so the second leg swaps the first's seats.
    """
    k = table_size
    tables = [table for round_tables in grouping for table in round_tables]
    round_of = [r for r, round_tables in enumerate(grouping) for _ in round_tables]
    games: list[list[int]] = [[] for _ in range(members)]
    for index, table in enumerate(tables):
        for m in table:
            games[m].append(index)

    run_of: dict[tuple[int, int], int] = {}  # (table, member) -> run vertex
    vertex = len(tables)
    for m in range(members):
        single = []
        paired: dict[tuple[int, int], list[int]] = {}
        for index in games[m]:
            r = round_of[index]
            if leg is not None and r < len(grouping) // (2 * leg) * 2 * leg:
                paired.setdefault((r // (2 * leg), r % leg), []).append(index)
            else:
                single.append(index)
        runs = list(paired.values()) + [single[i : i + k] for i in range(0, len(single), k)]
        for run in runs:
            for index in run:
                run_of[index, m] = vertex
            vertex += 1

    # at[v][c]: the vertex joined to v by the edge of colour c, -1 if none
    at = [[-1] * k for _ in range(vertex)]
    for index, table in enumerate(tables):
        for m in table:
            u, v = index, run_of[index, m]
            a = at[u].index(-1)
            b = at[v].index(-1)
            if at[v][a] != -1:
                # Swap a and b along the path from v that alternates them; it cannot reach u
                # (u has no edge of colour a), and afterwards v has none either.
                path = [v]
                colour = a
                while at[path[-1]][colour] != -1:
                    path.append(at[path[-1]][colour])
                    colour = b if colour == a else a
                for i in range(len(path) - 1):
                    old = a if i % 2 == 0 else b
                    at[path[i]][old] = at[path[i + 1]][old] = -1
                for i in range(len(path) - 1):
                    new = b if i % 2 == 0 else a
                    at[path[i]][new], at[path[i + 1]][new] = path[i + 1], path[i]
            at[u][a], at[v][a] = v, u

    seated: list[list[Table]] = [[] for _ in grouping]
    for index, table in enumerate(tables):
        order = [0] * k
        for m in table:
            order[at[index].index(run_of[index, m])] = m
        seated[round_of[index]].append(tuple(order))
    return seated


# The report of docs/leagues.md -------------------------------------------------------------


def spread_report(members: range = range(4, 25), table_sizes: range = range(2, 7)) -> str:
    """The markdown table of docs/leagues.md: for each number of members and table size, at
    the default rounds and seed 0, `spread / seat balance / first-seat spread`."""
    lines = [
        "| members | " + " | ".join(f"tables of {k}" for k in table_sizes) + " |",
        "| ---: | " + " | ".join(":---:" for _ in table_sizes) + " |",
    ]
    for n in members:
        cells = []
        for k in table_sizes:
            if n < k:
                cells.append("—")
                continue
            season = schedule(members=n, table_size=k)
            mark = "" if season.spread == spread_bound(season) else "*"
            cells.append(
                f"{season.spread}{mark} / {season.seat_balance} / {season.first_seat_spread}"
            )
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def spread_bound(season: Schedule) -> int:
    """A lower bound of the spread for the season's numbers and match counts, by counting
    alone: the pairs' mean; each member's seats shared among n-1 others; and a second round
    meets some pair twice when too few sat the first one out to part its tables. Not always
    reachable: it knows little of how tables overlap."""
    seated = sum(comb(len(table), 2) for tables in season.rounds for table in tables)
    return _spread_bound(
        season.members, season.table_size, len(season.rounds), seated, season.matches
    )


if __name__ == "__main__":
    sys.stdout.write(spread_report())
