"""Who sits at which table in a tournament's rounds: Swiss, knockout cups, arenas, duplicate
events. docs/tournaments.md explains each format's rules and shows how close they get
(bench/tournament_schedules.py).

Pure Python, no Django (the `engine-is-pure` contract of .importlinter), like the league's
fixtures (league/scheduling.py): the tournament app turns a `Round` into games. Entrants are
ids (any ints); a table is a tuple of entrants in seat order (seat 0 acts first). The same
arguments give the same round: ties are drawn with `random.Random(seed)` (or a fixed order
where a function takes no seed), never a clock.

How the formats fill tables when the entrants are not a multiple of the table size k:

- Swiss: tables of k and k-1 (as few of k-1 as possible) and no bye; byes only where that is
  impossible (tables of two, and a few small fields such as 5 at tables of 4), as few as
  possible, to whoever has had the fewest byes.
- Knockout: full tables and byes to the best seeds (the bracket's rule, `knockout_bracket`).
- Arena: full tables only; whoever does not fit keeps waiting for the next table to finish.
- Duplicate: full tables only (every table plays the same cards, so every table has the same
  seats); the rest sit out, whoever has had the fewest byes first.

Fewer than k entrants play at one table of them all.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from league.scheduling import ScheduleError
from tournaments.grouping import _Grouper

EntrantId = int

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 6
MAX_ENTRANTS = 1000


class TournamentError(ScheduleError):
    """A round that cannot be drawn as asked (`code`, `message`): `invalid-table-size` (outside
    2..6), `too-few-entrants` (fewer than two), `too-many-entrants`, `duplicate-entrant` (an
    entrant listed twice), `invalid-advance` (a knockout table advances 1..k-1),
    `invalid-results` (a knockout table's finishing order is not its seats), `invalid-place`
    (a place outside the table), `too-few-for-duplicate` (a duplicate round below two full
    tables)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's place in a tournament so far: its points, its rating (to seed and to seat
    an arena by), the byes it has had, and its points scored in the games (card points;
    higher is better: a tiebreak)."""

    entrant: EntrantId
    points: float
    rating: float = 1500.0
    byes: int = 0
    scored: float = 0.0


@dataclass(frozen=True, slots=True)
class Table:
    """The entrants of one table in seat order (seat 0 acts first)."""

    seats: tuple[EntrantId, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """The tables of a round and who sits it out; each table plays one game."""

    tables: tuple[Table, ...]
    byes: tuple[EntrantId, ...]

    @property
    def entrants(self) -> tuple[EntrantId, ...]:
        """Everyone of the round, seated or not."""
        return tuple(e for table in self.tables for e in table.seats) + self.byes


# Checks ---------------------------------------------------------------------------------


def check_table_size(table_size: int) -> None:
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise TournamentError(
            "invalid-table-size",
            f"a table seats {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} entrants, not {table_size}",
        )


def _check_field(entrants: Sequence[EntrantId], table_size: int) -> None:
    check_table_size(table_size)
    if len(entrants) < 2:
        raise TournamentError(
            "too-few-entrants", f"a round needs two entrants or more, not {len(entrants)}"
        )
    if len(entrants) > MAX_ENTRANTS:
        raise TournamentError("too-many-entrants", f"a round seats at most {MAX_ENTRANTS} entrants")
    repeated = sorted(e for e, n in Counter(entrants).items() if n > 1)
    if repeated:
        raise TournamentError("duplicate-entrant", f"entrants listed twice: {repeated}")


def table_sizes(entrants: int, table_size: int, *, short_tables: bool) -> tuple[list[int], int]:
    """The sizes of a round's tables, largest first, and how many sit out. With
    `short_tables`, tables of k and k-1 (the fewest of k-1) while that seats everyone, else
    the fewest byes; without, full tables and the rest sit out. Fewer than k: one table."""
    k = table_size
    if entrants <= k:
        return [entrants], 0
    if short_tables and k >= 3:
        for byes in range(k):
            seated = entrants - byes
            for short in range(k):
                full, rest = divmod(seated - short * (k - 1), k)
                if full >= 0 and rest == 0:
                    return [k] * full + [k - 1] * short, byes
    return [k] * (entrants // k), entrants % k


def meetings(history: Iterable[Table]) -> Counter[tuple[EntrantId, EntrantId]]:
    """Times each pair (a < b) shared a table in `history`."""
    met: Counter[tuple[EntrantId, EntrantId]] = Counter()
    for table in history:
        for a, b in combinations(sorted(table.seats), 2):
            met[a, b] += 1
    return met


def seat_counts(history: Iterable[Table]) -> dict[EntrantId, Counter[int]]:
    """Times each entrant sat at each seat in `history`."""
    counts: dict[EntrantId, Counter[int]] = {}
    for table in history:
        for seat, entrant in enumerate(table.seats):
            counts.setdefault(entrant, Counter())[seat] += 1
    return counts


def _pick_byes(
    candidates: Sequence[EntrantId],
    count: int,
    byes_so_far: Mapping[EntrantId, int],
    weakest: Mapping[EntrantId, tuple[float, ...]],
    rng: random.Random,
) -> list[EntrantId]:
    """The `count` entrants who sit out: the fewest byes so far, then the weakest (the lowest
    `weakest` key), then a draw."""
    draw = {e: rng.random() for e in candidates}
    order = sorted(candidates, key=lambda e: (byes_so_far.get(e, 0), weakest.get(e, ()), draw[e]))
    return order[:count]


# Seats and ranks ------------------------------------------------------------------------


def _seat(
    group: Sequence[EntrantId],
    counts: Mapping[EntrantId, Counter[int]],
    full: int,
    rng: random.Random,
) -> Table:
    """The seat order in which the table's entrants have sat least at their seats before (the
    sum over them of their past times at the seat given; a dynamic programme over who is
    seated), ties drawn: seats rotate fairly."""
    players = list(group)
    rng.shuffle(players)
    k = len(players)
    # cost[i][s]: a seat the player has sat at d times more than at its least used seat (of
    # the full table's seats) costs 8**d, so one player three seats over costs more than
    # many one over.
    cost_at = []
    for p in players:
        past = counts.get(p, Counter())
        least = min(past[s] for s in range(full))
        cost_at.append([8 ** (past[s] - least) for s in range(k)])
    # best[mask]: (cost, order) of seating the players of mask at seats 0..popcount-1.
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for mask in sorted(range(1 << k), key=lambda m: bin(m).count("1")):
        if mask not in best:
            continue
        cost, order = best[mask]
        seat = len(order)
        for i in range(k):
            if not mask & (1 << i):
                added = cost_at[i][seat]
                key = mask | (1 << i)
                if key not in best or cost + added < best[key][0]:
                    best[key] = (cost + added, (*order, i))
    return Table(tuple(players[i] for i in best[(1 << k) - 1][1]))


def _ranks(keys: Mapping[EntrantId, tuple[float, ...]]) -> dict[EntrantId, int]:
    """Competition ranks by the keys (lower first): equal keys share a rank."""
    ordered = sorted(keys, key=lambda e: keys[e])
    ranks: dict[EntrantId, int] = {}
    for position, e in enumerate(ordered):
        before = ordered[position - 1] if position else None
        ranks[e] = ranks[before] if before is not None and keys[before] == keys[e] else position
    return ranks


# Swiss ----------------------------------------------------------------------------------


def swiss_round(
    standings: Sequence[Standing], history: Sequence[Table], table_size: int, seed: int
) -> Round:
    """The next round of a Swiss tournament for the entrants of `standings` (those still in:
    a late entrant is in with its points, a withdrawn one is left out), given every table
    played so far (`history`, seat order as played).

    Tables of k and k-1 (`table_sizes`); byes, where unavoidable, to the fewest byes so far,
    then the lowest points and rating. The tables seat first whoever has met least (no pair
    twice while a round without one exists; exhaustive for small fields, a local search for
    larger), then entrants of similar points (ranked by points: a pair costs the distance of
    their ranks), then few clashes of seats (two who both sat one seat least). Seats rotate:
    each table is ordered so its entrants sit where they have sat least."""
    entrants = [s.entrant for s in standings]
    _check_field(entrants, table_size)
    rng = random.Random(seed)
    sizes, bye_count = table_sizes(len(entrants), table_size, short_tables=True)
    byes = _pick_byes(
        entrants,
        bye_count,
        {s.entrant: s.byes for s in standings},
        {s.entrant: (s.points, s.rating) for s in standings},
        rng,
    )
    playing = [s for s in standings if s.entrant not in byes]
    rank = _ranks({s.entrant: (-s.points,) for s in playing})
    counts = seat_counts(history)
    groups = _Grouper(
        [s.entrant for s in playing],
        sizes,
        meetings(history),
        rank,
        rng,
        seats=(counts, table_size),
    ).group()
    tables = [_seat(group, counts, table_size, rng) for group in groups]
    return Round(tables=tuple(tables), byes=tuple(sorted(byes)))


# Knockout -------------------------------------------------------------------------------


def _check_advance(table_size: int, advance: int) -> None:
    check_table_size(table_size)
    if not 1 <= advance < table_size:
        raise TournamentError(
            "invalid-advance",
            f"a table of {table_size} advances 1 to {table_size - 1}, not {advance}",
        )


def bracket_sizes(table_size: int, advance: int, entrants: int) -> list[int]:
    """The field's size round by round, down to the final: after the first round, every
    round's field is a bracket size. Bracket sizes: the final's table (k), and the most
    entrants that become the bracket size below in one round of full tables (m advancing from
    each) and byes: B' = (B // m) * k + B % m."""
    k, m = table_size, advance
    brackets = [k]
    while brackets[-1] < entrants:
        b = brackets[-1]
        brackets.append((b // m) * k + b % m)
    sizes = [entrants]
    for b in reversed(brackets[:-1]):
        if b < sizes[-1]:
            sizes.append(b)
    return sizes


def _knockout_round(order: Sequence[EntrantId], table_size: int, advance: int) -> Round:
    """One round for a field in seed order (best first): a final (one table) when it fits;
    else tables that bring the field down to the next bracket size (full tables; when that
    overshoots, tables one seat short, down to m+1, the later tables first), byes to the
    best seeds, and the others dealt to the tables like cards (snake order: 1 to T, then T to
    1), so every table has a mix of strong and weak seeds."""
    k, m, n = table_size, advance, len(order)
    if n <= k:
        return Round(tables=(Table(tuple(order)),), byes=())
    target = bracket_sizes(k, m, n)[1]
    cut = n - target  # entrants to knock out: a table of s knocks out s - m
    count = -(-cut // (k - m))
    sizes = [k] * count
    over = count * (k - m) - cut
    i = count - 1
    while over:
        sizes[i] -= 1
        over -= 1
        i = i - 1 if i > 0 else count - 1
    seated = sum(sizes)
    byes = list(order[: n - seated])
    tables: list[list[EntrantId]] = [[] for _ in sizes]
    forward, t = True, 0
    for entrant in order[n - seated :]:
        while len(tables[t]) == sizes[t]:
            t, forward = _snake(t, forward, len(sizes))
        tables[t].append(entrant)
        t, forward = _snake(t, forward, len(sizes))
    return Round(tables=tuple(Table(tuple(t)) for t in tables), byes=tuple(byes))


def _snake(t: int, forward: bool, count: int) -> tuple[int, bool]:
    if forward:
        return (t + 1, True) if t + 1 < count else (t, False)
    return (t - 1, False) if t > 0 else (t, True)


def knockout_bracket(seeds: Sequence[EntrantId], table_size: int, advance: int) -> Round:
    """The first round of a knockout cup for `seeds` in seed order (best first: by rating, or
    a drawn order): `advance` of each table go through (`knockout_next`). Seats follow the
    seeds (the best seed of a table sits first)."""
    _check_field(seeds, table_size)
    _check_advance(table_size, advance)
    return _knockout_round(seeds, table_size, advance)


def knockout_seeds(
    standings: Sequence[Standing], seed: int, *, drawn: bool = False
) -> list[EntrantId]:
    """The seed order of a cup (best first): by rating, highest first, equal ratings drawn;
    or, `drawn`, a draw of the whole field (`random.Random(seed)`)."""
    rng = random.Random(seed)
    draw = {s.entrant: rng.random() for s in standings}
    if drawn:
        return sorted(draw, key=lambda e: (draw[e], e))
    return [s.entrant for s in sorted(standings, key=lambda s: (-s.rating, draw[s.entrant]))]


def knockout_next(
    results: Sequence[tuple[Table, Sequence[EntrantId]]],
    table_size: int,
    advance: int,
    byes: Sequence[EntrantId] = (),
) -> Round | None:
    """The next round of a knockout cup from the last one's `results` (each table, in the
    round's order, with its finishing order: `finishing_order` decides a tie) and its `byes`
    (in seed order; a one-seat table `(Table((e,)), (e,))` in the results counts as a bye
    too). None when the last round was the final: its finishing order is the result.

    The field is seeded again: the byes first, then every table's winners (in table order),
    then every table's seconds, ..., the best `advance` of each table."""
    _check_advance(table_size, advance)
    if len(results) == 1 and not byes and len(results[0][0].seats) > 1:
        _check_results(results)
        return None
    _check_results(results)
    through = list(byes) + [t.seats[0] for t, _ in results if len(t.seats) == 1]
    played = [(t, order) for t, order in results if len(t.seats) > 1]
    for place in range(advance):
        through += [order[place] for _, order in played if place < len(order)]
    _check_field(through, table_size)
    return _knockout_round(through, table_size, advance)


def _check_results(results: Sequence[tuple[Table, Sequence[EntrantId]]]) -> None:
    for table, order in results:
        if sorted(order) != sorted(table.seats):
            raise TournamentError(
                "invalid-results",
                f"the finishing order {list(order)} is not the table {list(table.seats)}",
            )


def finishing_order(places: Mapping[EntrantId, int], seeds: Sequence[EntrantId]) -> list[EntrantId]:
    """A knockout table's finishing order from the game's places (1 = first); the tie rule:
    entrants sharing a place are ordered by their seed (the better seed, earlier in `seeds`,
    goes first), so a tie at the cut sends the better seed through."""
    position = {e: i for i, e in enumerate(seeds)}
    return sorted(places, key=lambda e: (places[e], position.get(e, len(position)), e))


def knockout_rounds(entrants: int, table_size: int, advance: int) -> int:
    """The rounds a knockout cup of `entrants` plays, the final included."""
    return len(bracket_sizes(table_size, advance, entrants))


# Arena ----------------------------------------------------------------------------------


def arena_tables(
    waiting: Sequence[Standing],
    table_size: int,
    history: Sequence[Table],
    *,
    playing: int = 0,
) -> tuple[tuple[Table, ...], tuple[EntrantId, ...]]:
    """Tables to seat now from the entrants `waiting` (in the order they began to wait:
    longest first; a paused entrant is simply not waiting), and who keeps waiting.

    Only full tables: the last to arrive who do not make a full table keep waiting (next
    time they wait longest). The seated are grouped like a Swiss round: first whoever has
    met least (over `history`, every table of the arena so far, in order), then similar
    points, then similar ratings; seats rotate. While `playing` tables are still in play, a
    table that would seat again exactly the entrants of one of its entrant's last game is not
    seated: they wait for the next table to finish, which brings others to mix with."""
    entrants = [s.entrant for s in waiting]
    check_table_size(table_size)
    repeated = sorted(e for e, n in Counter(entrants).items() if n > 1)
    if repeated:
        raise TournamentError("duplicate-entrant", f"entrants listed twice: {repeated}")
    tables_now = len(waiting) // table_size
    if tables_now == 0:
        return (), tuple(entrants)
    seated = list(waiting[: tables_now * table_size])
    rank = _ranks({s.entrant: (-s.points, -s.rating) for s in seated})
    rng = random.Random(_arena_seed(entrants))
    counts = seat_counts(history)
    groups = _Grouper(
        [s.entrant for s in seated],
        [table_size] * tables_now,
        meetings(history),
        rank,
        rng,
        seats=(counts, table_size),
    ).group()
    last: dict[EntrantId, frozenset[EntrantId]] = {}
    for table in history:
        for e in table.seats:
            last[e] = frozenset(table.seats)
    if playing > 0:
        groups = [g for g in groups if not any(last.get(e) == frozenset(g) for e in g)]
    sitting = {e for g in groups for e in g}
    tables = tuple(_seat(group, counts, table_size, rng) for group in groups)
    return tables, tuple(e for e in entrants if e not in sitting)


def _arena_seed(entrants: Sequence[EntrantId]) -> int:
    """Ties of an arena are drawn from who is waiting (it takes no seed): the same waiting
    list, the same tables."""
    seed = 0
    for e in entrants:
        seed = (seed * 1_000_003 + e) % (1 << 61)
    return seed


# Duplicate ------------------------------------------------------------------------------


DUPLICATE_TABLES = 2
"""A duplicate round needs this many tables at least: a seat is scored against those who held
the same deal-seat at the round's other tables, and a lone table has nobody to compare with."""


def duplicate_round(
    entrants: Sequence[EntrantId],
    table_size: int,
    seed: int,
    *,
    history: Sequence[Table] = (),
    byes_so_far: Mapping[EntrantId, int] | None = None,
) -> Round:
    """A round of a duplicate event: full tables of k, every table dealt the round's one deal
    and playing it once; the rest sit out (fewest `byes_so_far` first, then a draw). Seat s
    of every table holds the same cards (its deal-seat), so an entrant is scored against
    everyone who held its deal-seat at the round's other tables (tournaments/scoring.py
    `duplicate_scores`). Who sits together: those who met least in `history`, then a draw;
    where they sit: each at the seat it has held least in `history` (`_seat`, as a Swiss
    round seats), so deal-seats spread over the rounds. Raises `too-few-for-duplicate` below
    DUPLICATE_TABLES full tables (2k entrants)."""
    _check_field(entrants, table_size)
    if len(entrants) < DUPLICATE_TABLES * table_size:
        raise TournamentError(
            "too-few-for-duplicate",
            f"a duplicate round needs {DUPLICATE_TABLES * table_size} entrants (two tables of "
            f"{table_size}) to compare the deal's seats; there are {len(entrants)}",
        )
    rng = random.Random(seed)
    sizes, bye_count = table_sizes(len(entrants), table_size, short_tables=False)
    byes = _pick_byes(entrants, bye_count, byes_so_far or {}, {}, rng)
    playing = [e for e in entrants if e not in byes]
    groups = _Grouper(playing, sizes, meetings(history), {}, rng).group()
    counts = seat_counts(history)
    tables = tuple(_seat(group, counts, table_size, rng) for group in groups)
    return Round(tables=tables, byes=tuple(sorted(byes)))
