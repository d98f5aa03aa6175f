"""tournaments.scheduling: every round seats each entrant once (at a table or on a bye), Swiss
rounds seat no pair twice while a round without one exists (checked against every split of
small fields) and rotate seats, byes go to whoever has had fewest, knockout brackets end in one
final, an arena never seats anyone twice, duplicate rounds seat two full tables at least and
rotate the deal's seats; the same arguments give the same round; bad arguments get a typed
error."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import grouping
from tournaments.scheduling import (
    Round,
    Standing,
    Table,
    TournamentError,
    arena_tables,
    bracket_sizes,
    duplicate_round,
    finishing_order,
    knockout_bracket,
    knockout_next,
    knockout_rounds,
    knockout_seeds,
    meetings,
    seat_counts,
    swiss_round,
    table_sizes,
)
from tournaments.scoring import placement_points

SETTINGS = settings(max_examples=50, deadline=None)
SLOW = settings(max_examples=400, deadline=None)


def assert_everyone_once(round_: Round, entrants: Sequence[int]) -> None:
    assert sorted(round_.entrants) == sorted(entrants)


def play_swiss(
    n: int, k: int, rounds: int, seed: int
) -> Iterator[tuple[Round, list[Standing], list[Table]]]:
    """A Swiss tournament of `rounds` rounds with random finishing orders: each round, with
    the standings and history it was drawn from."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(n), 0.0)
    byes: Counter[int] = Counter()
    history: list[Table] = []
    for r in range(rounds):
        standings = [Standing(e, points[e], byes=byes[e]) for e in range(n)]
        round_ = swiss_round(standings, history, k, seed + r)
        yield round_, standings, list(history)
        for table in round_.tables:
            order = list(table.seats)
            rng.shuffle(order)
            for e, p in placement_points(order, k).items():
                points[e] += p
        byes.update(round_.byes)
        history += round_.tables


def splits(players: Sequence[int], sizes: Counter[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat `players` at unlabelled tables of these sizes."""
    if not players:
        yield []
        return
    first, others = players[0], players[1:]
    for size in [s for s in sizes if sizes[s]]:
        for mates in combinations(others, size - 1):
            rest = [p for p in others if p not in mates]
            for more in splits(rest, sizes - Counter({size: 1})):
                yield [(first, *mates), *more]


def repeat_cost(tables: Sequence[Sequence[int]], met: Counter[tuple[int, int]]) -> int:
    return sum(met[min(a, b), max(a, b)] ** 2 for t in tables for a, b in combinations(t, 2))


@st.composite
def swiss_fields(draw: st.DrawFn, most: int = 40) -> tuple[int, int, int, int]:
    k = draw(st.integers(2, 6))
    n = draw(st.integers(2, most))
    return n, k, draw(st.integers(1, 2 * k + 1)), draw(st.integers(0, 2**31))


@SETTINGS
@given(swiss_fields())
def test_a_swiss_round_seats_everyone_once_at_tables_of_k_and_k_minus_one(field):
    n, k, rounds, seed = field
    for round_, _, _ in play_swiss(n, k, rounds, seed):
        assert_everyone_once(round_, range(n))
        sizes = sorted((len(t.seats) for t in round_.tables), reverse=True)
        expected, byes = table_sizes(n, k, short_tables=True)
        assert sizes == expected and len(round_.byes) == byes
        if n > k:
            assert set(sizes) <= {k, k - 1}
        if k >= 3 and n >= k * (k - 1):
            assert round_.byes == ()


def test_table_sizes_prefer_short_tables_to_byes():
    assert table_sizes(10, 4, short_tables=True) == ([4, 3, 3], 0)
    assert table_sizes(5, 4, short_tables=True) == ([4], 1)
    assert table_sizes(7, 2, short_tables=True) == ([2, 2, 2], 1)
    assert table_sizes(10, 4, short_tables=False) == ([4, 4], 2)
    assert table_sizes(3, 6, short_tables=True) == ([3], 0)


@SETTINGS
@given(swiss_fields(most=9))
def test_a_swiss_round_meets_as_few_pairs_again_as_any_split_can(field):
    """Small fields: the round's repeated meetings (a pair met c times before costs c*c) are
    the fewest of every split of the field at the round's table sizes, so no pair meets twice
    while a round without one exists."""
    n, k, rounds, seed = field
    for round_, _, history in play_swiss(n, k, rounds, seed):
        met = meetings(history)
        players = sorted(e for t in round_.tables for e in t.seats)
        sizes = Counter(len(t.seats) for t in round_.tables)
        best = min(repeat_cost(split, met) for split in splits(players, sizes))
        assert repeat_cost([t.seats for t in round_.tables], met) == best


@SETTINGS
@given(st.integers(2, 6), st.integers(0, 2**31), st.data())
def test_the_local_search_finds_a_round_without_repeats_when_one_exists(k, seed, data):
    """The local search (fields too large to try every split) against every split of a small
    field with a random history."""
    n = data.draw(st.integers(k + 1, min(12, 3 * k)))
    sizes, _ = table_sizes(n, k, short_tables=True)
    players = list(range(sum(sizes)))
    rng = random.Random(seed)
    history = [Table(tuple(rng.sample(players, k))) for _ in range(data.draw(st.integers(0, 4)))]
    met = meetings(history)
    best = min(repeat_cost(split, met) for split in splits(players, Counter(sizes)))
    grouper = grouping._Grouper(players, sizes, met, {}, random.Random(seed))
    tables = grouper.search()
    assert sorted(len(t) for t in tables) == sorted(sizes)
    if best == 0:
        assert repeat_cost([[players[i] for i in t] for t in tables], met) == 0


def test_similar_scores_sit_together_when_nobody_has_met():
    standings = [Standing(e, float(e // 4)) for e in range(16)]
    round_ = swiss_round(standings, [], 4, seed=3)
    assert sorted(sorted(t.seats) for t in round_.tables) == [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9, 10, 11],
        [12, 13, 14, 15],
    ]


def test_no_pair_meets_twice_in_a_large_field():
    for round_, _, history in play_swiss(64, 4, 5, seed=1):
        met = meetings([*history, *round_.tables])
        assert max(met.values()) == 1


@SETTINGS
@given(st.integers(1, 20).map(lambda h: 2 * h + 1), st.integers(2, 12), st.integers(0, 2**31))
def test_swiss_byes_go_to_those_with_fewest(n, rounds, seed):
    """Tables of two and an odd field: a bye each round; nobody has a second while another
    has none, and the bye goes to the lowest points among the fewest byes."""
    byes: Counter[int] = Counter()
    for round_, standings, _ in play_swiss(n, 2, rounds, seed):
        (bye,) = round_.byes
        fewest = min(s.byes for s in standings)
        eligible = [s for s in standings if s.byes == fewest]
        assert byes[bye] == fewest
        assert next(s for s in standings if s.entrant == bye).points == min(
            s.points for s in eligible
        )
        byes[bye] += 1
        counts = [byes[e] for e in range(n)]
        assert max(counts) - min(counts) <= 1


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 6), st.integers(2, 5), st.integers(0, 2**31))
def test_swiss_seats_rotate(k, tables, seed):
    """A full field over k rounds: each entrant's seat counts differ by at most two, and the
    first seat (first to act) goes round: nobody takes it a third time in k rounds."""
    n = k * tables
    history: list[Table] = []
    for round_, _, before in play_swiss(n, k, k, seed):
        history = [*before, *round_.tables]
    counts = seat_counts(history)
    for e in range(n):
        row = [counts[e][s] for s in range(k)]
        assert max(row) - min(row) <= 2
        assert row[0] <= 2


def test_late_entry_and_withdrawal_between_rounds():
    history = list(swiss_round([Standing(e, 0.0) for e in range(12)], [], 3, seed=0).tables)
    standings = [Standing(e, 1.0) for e in range(1, 12)] + [Standing(20, 0.0)]
    round_ = swiss_round(standings, history, 3, seed=1)
    assert_everyone_once(round_, [*range(1, 12), 20])


@SETTINGS
@given(swiss_fields(most=30))
def test_the_same_arguments_draw_the_same_round(field):
    n, k, _, seed = field
    standings = [Standing(e, float(e % 3)) for e in range(n)]
    assert swiss_round(standings, [], k, seed) == swiss_round(standings, [], k, seed)


# Knockout -------------------------------------------------------------------------------


@st.composite
def cups(draw: st.DrawFn) -> tuple[int, int, int, int]:
    k = draw(st.integers(2, 6))
    return draw(st.integers(2, 200)), k, draw(st.integers(1, k - 1)), draw(st.integers(0, 2**31))


def play_cup(n: int, k: int, m: int, seed: int) -> list[Round]:
    rng = random.Random(seed)
    round_ = knockout_bracket(list(range(n)), k, m)
    rounds = [round_]
    while True:
        results = []
        for table in round_.tables:
            order = list(table.seats)
            rng.shuffle(order)
            results.append((table, order))
        following = knockout_next(results, k, m, byes=round_.byes)
        if following is None:
            return rounds
        round_ = following
        rounds.append(round_)


@SETTINGS
@given(cups())
def test_a_knockout_ends_in_one_final_table(cup):
    n, k, m, seed = cup
    rounds = play_cup(n, k, m, seed)
    assert len(rounds) == knockout_rounds(n, k, m)
    final = rounds[-1]
    assert len(final.tables) == 1 and final.byes == ()
    assert 2 <= len(final.tables[0].seats) <= k
    assert [len(r.entrants) for r in rounds] == bracket_sizes(k, m, n)
    field = set(range(n))
    for before, after in zip(rounds, rounds[1:], strict=False):
        assert_everyone_once(before, sorted(field))
        assert all(m < len(t.seats) <= k for t in before.tables)
        # The byes and the best m of each table go through, nobody else.
        assert len(after.entrants) == len(before.byes) + m * len(before.tables)
        assert set(after.entrants) <= field
        field = set(after.entrants)


@SETTINGS
@given(cups())
def test_knockout_byes_go_to_the_best_seeds(cup):
    n, k, m, _ = cup
    first = knockout_bracket(list(range(n)), k, m)
    assert first.byes == tuple(range(len(first.byes)))
    # Snake seeding: the best seed at a table is never the worst of the tables' best seeds
    # by more than the number of tables.
    tops = sorted(min(t.seats) for t in first.tables)
    assert tops == list(range(len(first.byes), len(first.byes) + len(first.tables)))


def test_a_cup_of_ten_at_tables_of_four():
    first = knockout_bracket(list(range(10)), 4, 2)
    assert first == Round(tables=(Table((6, 7, 8, 9)),), byes=(0, 1, 2, 3, 4, 5))
    assert bracket_sizes(4, 2, 10) == [10, 8, 4]


def test_a_cup_is_seeded_by_rating_or_drawn():
    standings = [Standing(1, 0.0, rating=1400), Standing(2, 0.0, rating=1700)]
    standings += [Standing(3, 0.0, rating=1500), Standing(4, 0.0, rating=1500)]
    by_rating = knockout_seeds(standings, seed=0)
    assert by_rating[0] == 2 and by_rating[-1] == 1 and set(by_rating[1:3]) == {3, 4}
    drawn = {tuple(knockout_seeds(standings, seed=s, drawn=True)) for s in range(20)}
    assert len(drawn) > 1 and all(sorted(d) == [1, 2, 3, 4] for d in drawn)
    assert knockout_seeds(standings, seed=7, drawn=True) == knockout_seeds(
        standings, seed=7, drawn=True
    )


def test_a_tie_at_a_knockout_table_goes_to_the_better_seed():
    assert finishing_order({5: 1, 3: 2, 9: 2, 1: 4}, seeds=[1, 3, 5, 9]) == [5, 3, 9, 1]
    assert finishing_order({5: 1, 3: 2, 9: 2, 1: 4}, seeds=[9, 3, 5, 1]) == [5, 9, 3, 1]


def test_knockout_rejects_bad_arguments():
    with pytest.raises(TournamentError) as error:
        knockout_bracket([1, 2, 3], 3, 3)
    assert error.value.code == "invalid-advance"
    with pytest.raises(TournamentError) as error:
        knockout_next([(Table((1, 2, 3)), [1, 2, 4])], 3, 1)
    assert error.value.code == "invalid-results"
    with pytest.raises(TournamentError) as error:
        knockout_bracket([1, 2, 2], 3, 1)
    assert error.value.code == "duplicate-entrant"


# Arena ----------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(2, 6), st.integers(2, 60), st.integers(0, 2**31))
def test_an_arena_never_seats_anyone_twice(k, n, seed):
    """Tables finish at random; whoever finishes waits again and is seated with the
    waiting: nobody at two tables, nobody both waiting and seated, every table full."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(n), 0.0)
    waiting = list(range(n))
    playing: list[Table] = []
    history: list[Table] = []
    for _ in range(30):
        standings = [Standing(e, points[e]) for e in waiting]
        tables, waiting_now = arena_tables(standings, k, history, playing=len(playing))
        seated = [e for t in tables for e in t.seats]
        assert all(len(t.seats) == k for t in tables)
        assert sorted(seated + list(waiting_now)) == sorted(waiting)
        if not playing:
            assert len(waiting_now) < k
            # The last to arrive keep waiting.
            assert list(waiting_now) == waiting[len(waiting) - len(waiting_now) :]
        playing += tables
        history += tables
        everyone = [e for t in playing for e in t.seats] + list(waiting_now)
        assert sorted(everyone) == list(range(n))
        if not playing:
            break
        done = playing.pop(rng.randrange(len(playing)))
        order = list(done.seats)
        rng.shuffle(order)
        for e, p in placement_points(order, k).items():
            points[e] += p
        waiting = list(waiting_now) + order


def test_an_arena_seats_similar_points_together():
    waiting = [Standing(e, float(10 * (e % 2))) for e in range(8)]
    tables, rest = arena_tables(waiting, 4, [])
    assert rest == ()
    assert sorted(sorted(t.seats) for t in tables) == [[0, 2, 4, 6], [1, 3, 5, 7]]


def test_an_arena_does_not_seat_the_same_table_again_while_others_play():
    history = [Table((0, 1, 2)), Table((3, 4, 5))]
    waiting = [Standing(e, 0.0) for e in (0, 1, 2)]
    assert arena_tables(waiting, 3, history, playing=1) == ((), (0, 1, 2))
    # Nobody else is playing: nothing to wait for.
    tables, rest = arena_tables(waiting, 3, history)
    assert [sorted(t.seats) for t in tables] == [[0, 1, 2]] and rest == ()
    # A second table finished: the six are mixed.
    waiting = [Standing(e, 0.0) for e in range(6)]
    tables, rest = arena_tables(waiting, 3, history, playing=1)
    assert rest == () and all(len({e // 3 for e in t.seats}) == 2 for t in tables)


def test_an_arena_avoids_the_last_opponents():
    waiting = [Standing(e, 0.0) for e in range(4)]
    history = [Table((0, 1)), Table((2, 3))]
    tables, _ = arena_tables(waiting, 2, history)
    assert {frozenset(t.seats) for t in tables} in (
        {frozenset({0, 2}), frozenset({1, 3})},
        {frozenset({0, 3}), frozenset({1, 2})},
    )


# Duplicate ------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(2, 6), st.integers(2, 80), st.integers(0, 2**31))
def test_a_duplicate_round_seats_full_tables_of_the_one_deal(k, n, seed):
    """Two full tables at least (a deal-seat is compared across tables), byes for the rest."""
    if n < 2 * k:
        with pytest.raises(TournamentError) as error:
            duplicate_round(list(range(n)), k, seed)
        assert error.value.code == "too-few-for-duplicate"
        return
    round_ = duplicate_round(list(range(n)), k, seed)
    assert_everyone_once(round_, range(n))
    assert {len(t.seats) for t in round_.tables} == {k}
    assert len(round_.tables) >= 2
    assert len(round_.byes) == n % k


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 6), st.integers(2, 5), st.integers(0, 2**31))
def test_duplicate_deal_seats_rotate(k, tables, seed):
    """A full field over k rounds: each entrant's deal-seat counts differ by at most two, and
    nobody holds the first deal-seat a third time: the deal's seats go round."""
    n = k * tables
    history: list[Table] = []
    for r in range(k):
        history += duplicate_round(list(range(n)), k, seed + r, history=history).tables
    counts = seat_counts(history)
    for e in range(n):
        row = [counts[e][s] for s in range(k)]
        assert max(row) - min(row) <= 2
        assert row[0] <= 2


@SETTINGS
@given(st.integers(2, 6), st.integers(2, 24), st.integers(1, 8), st.integers(0, 2**31))
def test_duplicate_byes_are_fair(k, n, rounds, seed):
    byes: Counter[int] = Counter()
    history: list[Table] = []
    for r in range(rounds):
        if n < 2 * k:
            return
        round_ = duplicate_round(list(range(n)), k, seed + r, history=history, byes_so_far=byes)
        byes.update(round_.byes)
        history += round_.tables
        counts = [byes[e] for e in range(n)]
        assert max(counts) - min(counts) <= 1


def test_errors_are_typed():
    for call, code in [
        (lambda: swiss_round([Standing(1, 0.0)], [], 4, 0), "too-few-entrants"),
        (lambda: swiss_round([Standing(1, 0.0), Standing(2, 0.0)], [], 7, 0), "invalid-table-size"),
        (lambda: duplicate_round([1, 2, 1], 2, 0), "duplicate-entrant"),
        (lambda: arena_tables([Standing(1, 0.0)] * 2, 2, []), "duplicate-entrant"),
    ]:
        with pytest.raises(TournamentError) as error:
            call()
        assert error.value.code == code


@pytest.mark.slow
@SLOW
@given(swiss_fields(most=10))
def test_a_swiss_round_meets_as_few_pairs_again_as_any_split_can_many(field):
    test_a_swiss_round_meets_as_few_pairs_again_as_any_split_can.hypothesis.inner_test(field)


@pytest.mark.slow
@SLOW
@given(cups())
def test_a_knockout_ends_in_one_final_table_many(cup):
    test_a_knockout_ends_in_one_final_table.hypothesis.inner_test(cup)
