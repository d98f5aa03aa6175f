"""How a tournament round's field is split into tables: the search behind the Swiss rounds,
arenas and duplicate rounds of tournaments/scheduling.py (`_Grouper`). It minimises first the
repeated meetings, then the spread of rank at each table, then clashes of seats: exhaustively
where the field has few ways to split, else by local search and, while pairs still meet again,
a tabu search. Each table's seat order is tournaments/scheduling.py's (`_seat`).

Pure Python, no Django (the `engine-is-pure` contract of .importlinter).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from math import factorial

EntrantId = int  # an entrant's id, as in tournaments/scheduling.py

# A grouping with at most this many ways to split the field is searched exhaustively (the
# best there is); a larger one by local search (`_Grouper.search`).
EXACT_LIMIT = 4_000
# Swaps weighed by the tabu search of a round whose pairs still meet again (`_Grouper.repair`).
REPAIR_WEIGHS = 30_000

# A step of rank distance outweighs every clash of seats a swap can change.
RANK_WEIGHT = 64


class _Grouper:
    """Split `players` into tables of `sizes`, minimising first the repeated meetings (a
    pair that met c times before costs c*c), then the spread of `rank` at each table (a pair
    costs the difference of their ranks: the same score group together), then clashes of
    seats (`seats`: a pair who both have sat one seat, the same, less than any other; only
    one of them can have it)."""

    def __init__(
        self,
        players: Sequence[EntrantId],
        sizes: Sequence[int],
        met: Mapping[tuple[EntrantId, EntrantId], int],
        rank: Mapping[EntrantId, int],
        rng: random.Random,
        seats: tuple[Mapping[EntrantId, Counter[int]], int] | None = None,
    ) -> None:
        self.players = list(players)
        self.sizes = list(sizes)
        self.rng = rng
        n = len(players)
        self.rank = [rank.get(p, 0) for p in players]
        self.repeat = [[0] * n for _ in range(n)]
        self.distance = [[0] * n for _ in range(n)]
        wants: list[int | None] = [None] * n
        if seats is not None:
            counts, full = seats
            for i, p in enumerate(players):
                past = counts.get(p, Counter())
                least = min(past[s] for s in range(full))
                fewest = [s for s in range(full) if past[s] == least]
                wants[i] = fewest[0] if len(fewest) == 1 else None
        for i, a in enumerate(players):
            for j, b in enumerate(players):
                if i != j:
                    c = met.get((a, b) if a < b else (b, a), 0)
                    self.repeat[i][j] = c * c
                    clash = wants[i] is not None and wants[i] == wants[j]
                    self.distance[i][j] = RANK_WEIGHT * abs(self.rank[i] - self.rank[j]) + clash

    def cost(self, tables: Sequence[Sequence[int]]) -> tuple[int, int]:
        repeat = distance = 0
        for table in tables:
            for i, j in combinations(table, 2):
                repeat += self.repeat[i][j]
                distance += self.distance[i][j]
        return repeat, distance

    def group(self) -> list[list[EntrantId]]:
        if _partitions(self.sizes) <= EXACT_LIMIT:
            tables = self.exact()
        else:
            tables = self.search()
        return [[self.players[i] for i in table] for table in tables]

    # The exhaustive search, with a bound ----------------------------------------------------

    def exact(self) -> list[list[int]]:
        """Every split of the field (the table holding the first unseated player, for each
        size still open), pruned by the cost so far; the first best found."""
        order = sorted(range(len(self.players)), key=lambda i: (self.rank[i], self.rng.random()))
        best: list[tuple[tuple[int, int], list[list[int]]]] = []

        def extend(
            rest: list[int], sizes: Counter[int], tables: list[list[int]], cost: tuple[int, int]
        ) -> None:
            if best and cost >= best[0][0]:
                return
            if not rest:
                best[:] = [(cost, [list(t) for t in tables])]
                return
            first, others = rest[0], rest[1:]
            for size in sorted(sizes, reverse=True):
                if not sizes[size]:
                    continue
                sizes[size] -= 1
                for mates in combinations(others, size - 1):
                    table = [first, *mates]
                    added = self.cost([table])
                    left = [p for p in others if p not in mates]
                    tables.append(table)
                    extend(left, sizes, tables, (cost[0] + added[0], cost[1] + added[1]))
                    tables.pop()
                sizes[size] += 1

        extend(order, Counter(self.sizes), [], (0, 0))
        return best[0][1]

    # The local search -----------------------------------------------------------------------

    def search(self) -> list[list[int]]:
        """Tables cut from the players in rank order (ties in a random order), improved by
        swapping two players of different tables while that lowers the cost; while pairs meet
        again, a tabu search (`repair`), and improving again."""
        order = sorted(range(len(self.players)), key=lambda i: (self.rank[i], self.rng.random()))
        tables: list[list[int]] = []
        start = 0
        for size in self.sizes:
            tables.append(order[start : start + size])
            start += size
        self.climb(tables)
        if self.cost(tables)[0] and len(tables) > 1:
            tables = self.repair(tables)
            self.climb(tables)
        return tables

    def repair(self, tables: list[list[int]]) -> list[list[int]]:
        """A tabu search on the players who meet again (after Dotu and Van Hentenryck's
        social golfers, as league/fixture_search.py's repair): each step takes one of them and
        the best swap with a player of another table (by the cost: repeats, then spread),
        even a worse one, but not one that puts a player back at a table it left within the
        last few steps unless it beats the best so far; until the repeats are down to what
        counting says no split avoids, or REPAIR_WEIGHS swaps have been weighed. Returns the
        best tables seen."""
        rng = self.rng
        cost = self.cost(tables)
        best, best_cost = [list(t) for t in tables], cost
        tabu: dict[tuple[int, int], int] = {}
        weighed = step = 0
        # Repeats no split avoids: a player who has not met enough others to fill a table.
        n, smallest = len(self.players), min(self.sizes)
        forced = sum(
            max(0, smallest - 1 - sum(1 for j in range(n) if j != i and not self.repeat[i][j]))
            for i in range(n)
        )
        floor = -(-forced // 2)
        while weighed < REPAIR_WEIGHS and best_cost[0] > floor:
            step += 1
            stuck = [
                (ti, seat)
                for ti, table in enumerate(tables)
                for si, sj in combinations(range(len(table)), 2)
                if self.repeat[table[si]][table[sj]]
                for seat in (si, sj)
            ]
            ti, si = rng.choice(stuck)
            a = tables[ti]
            x = a[si]
            moves: list[tuple[int, int]] = []
            least = (0, 0)
            for tj, b in enumerate(tables):
                if tj == ti:
                    continue
                for sj, y in enumerate(b):
                    change = self.change(a, x, b, y)
                    weighed += 1
                    after = (cost[0] + change[0], cost[1] + change[1])
                    banned = tabu.get((x, tj), 0) > step or tabu.get((y, ti), 0) > step
                    if banned and after >= best_cost:
                        continue
                    if not moves or change < least:
                        moves, least = [(tj, sj)], change
                    elif change == least:
                        moves.append((tj, sj))
            if not moves:
                continue
            tj, sj = rng.choice(moves)
            b = tables[tj]
            y = b[sj]
            a[si], b[sj] = y, x
            cost = (cost[0] + least[0], cost[1] + least[1])
            tabu[x, ti] = tabu[y, tj] = step + rng.randint(3, 10)
            if cost < best_cost:
                best, best_cost = [list(t) for t in tables], cost
        return best

    def change(self, a: list[int], x: int, b: list[int], y: int) -> tuple[int, int]:
        """The change of cost if players x (of table a) and y (of table b) changed tables."""
        repeat, distance = self.repeat, self.distance
        dr = dd = 0
        for o in a:
            if o != x:
                dr += repeat[y][o] - repeat[x][o]
                dd += distance[y][o] - distance[x][o]
        for o in b:
            if o != y:
                dr += repeat[x][o] - repeat[y][o]
                dd += distance[x][o] - distance[y][o]
        return dr, dd

    def climb(self, tables: list[list[int]]) -> None:
        """Take every swap that lowers the cost (first the repeats, then the spread), pass
        after pass, until none does."""
        improved = True
        while improved:
            improved = False
            for ti in range(len(tables)):
                for tj in range(ti + 1, len(tables)):
                    a, b = tables[ti], tables[tj]
                    for si in range(len(a)):
                        for sj in range(len(b)):
                            if self.change(a, a[si], b, b[sj]) < (0, 0):
                                a[si], b[sj] = b[sj], a[si]
                                improved = True


def _partitions(sizes: Sequence[int]) -> int:
    """The ways to split sum(sizes) players into unlabelled tables of these sizes."""
    ways = factorial(sum(sizes))
    for size in sizes:
        ways //= factorial(size)
    for repeated in Counter(sizes).values():
        ways //= factorial(repeated)
    return ways
