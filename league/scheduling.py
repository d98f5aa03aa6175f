"""The fixtures of a club league season: who sits at which table, in which seat, each round.

Pure Python, no Django (the `engine-is-pure` contract of .importlinter): the league's services
turn a `Schedule` into games. docs/leagues.md ("Fixtures") explains the method and shows the
spreads it reaches (`spread_report`, also `python -m league.scheduling`).

Members are numbered 0..n-1; a table is a tuple of members in seat order (seat 0 acts first).
Each round seats as many full tables of `table_size` as fit; the other `n mod table_size`
members sit out (a bye). Who sits together comes from a design where the numbers have one
(league/designs.py: the circle method for tables of two, affine planes, Kirkman triple
systems) and from a seeded search otherwise; seats are assigned afterwards. The same arguments
give the same schedule, byte for byte: the search runs a fixed number of steps with integer
costs and `random.Random(seed)`, never a clock.
"""

from __future__ import annotations

import copy
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from engine.dealing import below
from league.designs import Design, packing, resolvable

MIN_TABLE_SIZE = 2
# A competition seats 2..10 (league.models.Competition).
MAX_TABLE_SIZE = 10
# Steps of the search per season; enough for every table of docs/leagues.md to settle (a few
# thousand usually suffice, the rest buys evener counts below the spread).
SEARCH_STEPS = 8_000
# Swaps weighed by the tabu search of one band (`_Golfers.repair`), and steps without a new
# best before it kicks. A band that cannot be reached costs the whole budget, and most cannot;
# "no pair meets twice" in a short season (what tournaments ask first) gets eight times as many.
REPAIR_MOVES = 25_000
STALL = 300

Table = tuple[int, ...]
Grouping = list[list[list[int]]]  # rounds of tables of members, seats not yet assigned
Seat = tuple[int, int]  # (table, seat) of a member in a round of a Grouping


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


# The search --------------------------------------------------------------------------------


def _search(
    members: int, table_size: int, rounds: int, rng: random.Random, start: Design
) -> Grouping:
    """The social golfer problem, in two phases.

    First threshold accepting towards the mean (`_Golfers.improve`): a pair that met c times
    costs (c - mean)^4, which pulls both ends of the meeting counts in. Then, while the spread
    is above what counting allows (`spread_bound`), towards a narrower band [lo, lo + width]:
    a pair costs 4 * (its distance outside the band)^2 + c^2, by threshold accepting again
    and, if pairs are still outside, by a tabu search on those pairs (`_Golfers.repair`).
    The fourth power alone misses narrower spreads that need many pairs at one end (12
    members at tables of 6: three meetings for a few pairs beat some pairs never meeting).
    """
    golfers = _Golfers(members, table_size, rounds, rng)
    pairs = comb(members, 2)
    seated = rounds * (members // table_size) * comb(table_size, 2)
    golfers.use([(pairs * c - seated) ** 4 * 64 // pairs**4 for c in range(rounds + 2)])
    golfers.seat_greedily(start)
    golfers.improve(threshold=64)
    best = golfers
    games = [rounds - len(golfers.bye_rounds[m]) for m in range(members)]
    bound = _spread_bound(members, table_size, rounds, seated, games)
    for width in range(golfers.spread() - 1, bound - 1, -1):
        found = None
        # The bands of this width that hold the mean.
        for lo in range(max(0, -(-seated // pairs) - width), seated // pairs + 1):
            golfers = best.copy()
            golfers.use(
                [4 * max(0, lo - c, c - lo - width) ** 2 + c * c for c in range(rounds + 2)]
            )
            golfers.improve(threshold=4)
            if golfers.spread() > width:
                short = (lo, width) == (0, 1) and seated < pairs
                moves = REPAIR_MOVES * (8 if short else 1)
                golfers.repair(lo=lo, hi=lo + width, moves=moves)
            if golfers.spread() <= width:
                found = golfers
                break
        if found is None:
            break
        best = found
    return best.grouping


class _Golfers:
    """A grouping being searched: its tables, its byes, and the meeting counts and their cost
    (a cost per pair by its count, `use`) kept up to date by every move."""

    def __init__(self, members: int, table_size: int, rounds: int, rng: random.Random) -> None:
        self.n, self.k, self.rounds, self.rng = members, table_size, rounds, rng
        self.tables_per_round, self.sitting_out = divmod(members, table_size)
        # Byes in turn along a shuffled order: counts differ by at most one, and are equal
        # when rounds * sitting_out is a multiple of n. The moves keep every member's count.
        order = list(range(members))
        rng.shuffle(order)
        b = self.sitting_out
        self.byes = [[order[(r * b + i) % members] for i in range(b)] for r in range(rounds)]
        self.bye_rounds = [{r for r in range(rounds) if m in self.byes[r]} for m in range(members)]
        self.met = [[0] * members for _ in range(members)]
        self.grouping: Grouping = []
        self.use([0] * (rounds + 2))

    def copy(self) -> _Golfers:
        other = copy.copy(self)
        other.byes = [list(byes) for byes in self.byes]
        other.bye_rounds = [set(rounds) for rounds in self.bye_rounds]
        other.met = [list(row) for row in self.met]
        other.grouping = [[list(table) for table in tables] for tables in self.grouping]
        return other

    def use(self, cost_of: list[int]) -> None:
        """Cost a pair by `cost_of[times met]`; `up[c]`, `down[c]`: the change of one more, of
        one fewer meeting."""
        self.cost_of = cost_of
        self.up = [cost_of[c + 1] - cost_of[c] for c in range(self.rounds + 1)]
        self.down = [0] + [cost_of[c - 1] - cost_of[c] for c in range(1, self.rounds + 1)]

    def cost(self) -> int:
        return sum(self.cost_of[self.met[a][b]] for a, b in combinations(range(self.n), 2))

    def spread(self) -> int:
        counts = [self.met[a][b] for a, b in combinations(range(self.n), 2)]
        return max(counts) - min(counts)

    def seat_greedily(self, start: Design) -> None:
        """The rounds of `start` (a packing: no byes), then each round each member in random
        order to the open table where they add the least cost (the first of equals)."""
        met, up = self.met, self.up
        for r in range(self.rounds):
            playing = [m for m in range(self.n) if m not in self.byes[r]]
            self.rng.shuffle(playing)
            tables: list[list[int]] = [[] for _ in range(self.tables_per_round)]
            if r < len(start):
                tables, playing = [list(table) for table in start[r]], []
            for m in playing:
                row = met[m]
                best, least = tables[0], -1
                for table in tables:
                    if len(table) < self.k:
                        added = sum(up[row[other]] for other in table)
                        if least < 0 or added < least:
                            best, least = table, added
                best.append(m)
            for table in tables:
                for a, b in combinations(table, 2):
                    met[a][b] += 1
                    met[b][a] += 1
            self.grouping.append(tables)

    def swap_change(self, a_table: list[int], x: int, b_table: list[int], y: int) -> int:
        """The change of cost if x (at a_table) and y (at b_table) changed places. The pairs
        the two moves touch are distinct, so the changes add up."""
        up, down = self.up, self.down
        row_x, row_y = self.met[x], self.met[y]
        change = 0
        for other in a_table:
            if other != x:
                change += down[row_x[other]] + up[row_y[other]]
        for other in b_table:
            if other != y:
                change += down[row_y[other]] + up[row_x[other]]
        return change

    def replace(self, table: list[int], seat: int, new: int) -> int:
        """Seat `new` in place of table[seat]; return the change of cost."""
        met, up, down = self.met, self.up, self.down
        old = table[seat]
        row_old, row_new = met[old], met[new]
        change = 0
        for other in table:
            if other != old:
                change += down[row_old[other]] + up[row_new[other]]
                row_old[other] -= 1
                met[other][old] -= 1
                row_new[other] += 1
                met[other][new] += 1
        table[seat] = new
        return change

    def improve(self, *, threshold: int) -> None:
        """SEARCH_STEPS random moves: swap two members between tables of a round, or a bye
        with a player (and back in another round, so bye counts stay). A move is taken when
        it raises the cost by at most a threshold that falls to nothing over the steps."""
        rounds, rng, k = self.rounds, self.rng, self.k
        # Draws with engine.dealing's `below`, randrange spelled out: randrange's argument
        # checks and calls were most of the search's time.
        getrandbits = rng.getrandbits
        tables_per_round, sitting_out = self.tables_per_round, self.sitting_out
        byes, bye_rounds, grouping = self.byes, self.bye_rounds, self.grouping
        # Every pair at the mean, rounded either way: nothing left to improve.
        pairs = comb(self.n, 2)
        base, extra = divmod(rounds * tables_per_round * comb(k, 2), pairs)
        ideal = (pairs - extra) * self.cost_of[base] + extra * self.cost_of[base + 1]
        cost = self.cost()
        for step in range(SEARCH_STEPS):
            if cost <= ideal:
                break
            limit = threshold * (SEARCH_STEPS - step) // SEARCH_STEPS
            r = below(getrandbits, rounds)
            tables = grouping[r]
            if sitting_out and (tables_per_round == 1 or below(getrandbits, 5) == 0):
                # x plays in round r instead of y, and y for x in a round where y sat out and
                # x played.
                i = below(getrandbits, sitting_out)
                x = byes[r][i]
                table = tables[below(getrandbits, tables_per_round)]
                seat = below(getrandbits, k)
                y = table[seat]
                elsewhere = sorted(bye_rounds[y] - bye_rounds[x])
                if not elsewhere:
                    continue
                r2 = rng.choice(elsewhere)
                table2 = next(t for t in grouping[r2] if x in t)
                seat2 = table2.index(x)
                change = self.replace(table, seat, x) + self.replace(table2, seat2, y)
                if change <= limit:
                    cost += change
                    byes[r][i] = y
                    byes[r2][byes[r2].index(y)] = x
                    bye_rounds[x] = (bye_rounds[x] - {r}) | {r2}
                    bye_rounds[y] = (bye_rounds[y] - {r2}) | {r}
                else:
                    self.replace(table2, seat2, x)
                    self.replace(table, seat, y)
            elif tables_per_round > 1:
                i = below(getrandbits, tables_per_round)
                j = below(getrandbits, tables_per_round - 1)
                j += j >= i
                a_table, b_table = tables[i], tables[j]
                a_seat, b_seat = below(getrandbits, k), below(getrandbits, k)
                x, y = a_table[a_seat], b_table[b_seat]
                change = self.swap_change(a_table, x, b_table, y)
                if change <= limit:
                    self.replace(a_table, a_seat, y)
                    self.replace(b_table, b_seat, x)
                    cost += change

    def repair(self, *, lo: int, hi: int, moves: int) -> None:
        """Tabu search on the pairs outside [lo, hi] (after Dotu and Van Hentenryck's social
        golfers). Each step weighs swapping a member of such a pair, in a round where moving
        them can help (a sample of 8 of those), with every member of another table; takes the
        best swap not recently made, or any swap that beats the best cost so far. After
        STALL steps without a new best, a kick: a few random swaps. Until no pair is outside,
        or `moves` swaps have been weighed."""
        if self.tables_per_round == 1:
            return
        n, rounds, rng, met, grouping = self.n, self.rounds, self.rng, self.met, self.grouping
        cost = best = self.cost()
        where: list[dict[int, Seat]] = [
            {m: (i, seat) for i, table in enumerate(tables) for seat, m in enumerate(table)}
            for tables in grouping
        ]
        tabu: dict[tuple[int, int, int], int] = {}
        weighed = step = stalled = 0
        while weighed < moves:
            step += 1
            # (round, member): met someone at the table too often, or someone at another
            # table of the round too seldom.
            stuck = [
                (r, m)
                for r, tables in enumerate(grouping)
                for table in tables
                for a, b in combinations(table, 2)
                if met[a][b] > hi
                for m in (a, b)
            ]
            stuck += [
                (r, m)
                for a, b in combinations(range(n), 2)
                if met[a][b] < lo
                for r in range(rounds)
                if a in where[r] and b in where[r]
                for m in (a, b)
            ]
            if not stuck:
                return
            if stalled > STALL:
                stalled = 0
                for _ in range(4):
                    r = rng.randrange(rounds)
                    i, j = rng.sample(range(self.tables_per_round), 2)
                    cost += self.swap(r, i, rng.randrange(self.k), j, rng.randrange(self.k), where)
                continue
            candidates: list[tuple[int, int, int, int, int]] = []
            least = 0
            for r, x in rng.sample(stuck, min(8, len(stuck))):
                i, x_seat = where[r][x]
                a_table = grouping[r][i]
                for j, b_table in enumerate(grouping[r]):
                    if j == i:
                        continue
                    for y_seat, y in enumerate(b_table):
                        change = self.swap_change(a_table, x, b_table, y)
                        weighed += 1
                        if tabu.get((r, x, y), 0) > step and cost + change >= best:
                            continue
                        if not candidates or change < least:
                            candidates, least = [(r, i, x_seat, j, y_seat)], change
                        elif change == least:
                            candidates.append((r, i, x_seat, j, y_seat))
            if not candidates:
                continue
            r, i, x_seat, j, y_seat = rng.choice(candidates)
            x, y = grouping[r][i][x_seat], grouping[r][j][y_seat]
            cost += self.swap(r, i, x_seat, j, y_seat, where)
            tabu[r, x, y] = tabu[r, y, x] = step + rng.randint(4, 20)
            if cost < best:
                best, stalled = cost, 0
            else:
                stalled += 1

    def swap(
        self, r: int, i: int, a_seat: int, j: int, b_seat: int, where: list[dict[int, Seat]]
    ) -> int:
        """Swap the members at (table i, a_seat) and (table j, b_seat) of round r; return
        the change of cost."""
        a_table, b_table = self.grouping[r][i], self.grouping[r][j]
        x, y = a_table[a_seat], b_table[b_seat]
        change = self.replace(a_table, a_seat, y) + self.replace(b_table, b_seat, x)
        where[r][x], where[r][y] = (j, b_seat), (i, a_seat)
        return change


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


def _spread_bound(
    members: int, table_size: int, rounds: int, seated: int, games: Sequence[int]
) -> int:
    pairs = comb(members, 2)
    tables, sitting_out = divmod(members, table_size)
    shared = [(table_size - 1) * g for g in games]
    most = max([-(-seated // pairs)] + [-(-s // (members - 1)) for s in shared])
    # A round's tables hold at most one player from each table of the round before without a
    # second meeting, so need table_size - tables seats each from those who sat that round out.
    if rounds > 1 and tables * (table_size - tables) > sitting_out:
        most = max(most, 2)
    fewest = min([seated // pairs] + [s // (members - 1) for s in shared])
    return most - fewest


if __name__ == "__main__":
    sys.stdout.write(spread_report())
