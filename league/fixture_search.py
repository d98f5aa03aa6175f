"""The search for a season's fixtures where no design fits (the social golfer problem): who
sits together each round, seats not yet assigned. league/scheduling.py's `schedule` runs it
(`_search`) when league/designs.py has no resolvable design for the numbers, from a packing
where one is known; docs/leagues.md ("Fixtures") explains the method.

Pure Python, no Django (the `engine-is-pure` contract of .importlinter). The same arguments
give the same grouping: a fixed number of steps with integer costs and the caller's
`random.Random`, never a clock.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from itertools import combinations
from math import comb

from engine.dealing import below
from league.designs import Design

# Steps of the search per season; enough for every table of docs/leagues.md to settle (a few
# thousand usually suffice, the rest buys evener counts below the spread).
SEARCH_STEPS = 8_000
# Swaps weighed by the tabu search of one band (`_Golfers.repair`), and steps without a new
# best before it kicks. A band that cannot be reached costs the whole budget, and most cannot;
# "no pair meets twice" in a short season (what tournaments ask first) gets eight times as many.
REPAIR_MOVES = 25_000
STALL = 300

Grouping = list[list[list[int]]]  # rounds of tables of members, seats not yet assigned
Seat = tuple[int, int]  # (table, seat) of a member in a round of a Grouping


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


def _spread_bound(
    members: int, table_size: int, rounds: int, seated: int, games: Sequence[int]
) -> int:
    """league/scheduling.py's `spread_bound` from the numbers alone: where `_search` stops
    narrowing the band."""
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
