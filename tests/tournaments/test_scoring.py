"""tournaments.scoring: placement points as a season's (a short table worth the same per seat),
a bye's points, the arena's streak bonus, duplicate scores against the field's mean for the
same cards, and the Swiss table's published tiebreaks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.scheduling import default_points
from tournaments.scheduling import Standing, Table, TournamentError
from tournaments.scoring import (
    SWISS_TIEBREAKS,
    arena_leaderboard,
    arena_points,
    bye_points,
    duplicate_scores,
    placement_points,
    swiss_table,
    swiss_tiebreaks,
)


def test_placement_points_are_a_seasons():
    assert placement_points([7, 3, 5, 1], 4) == {7: 4.0, 3: 2.0, 5: 1.0, 1: 0.0}
    assert placement_points([2, 1], 2) == {2: 1.0, 1: 0.0}


@settings(max_examples=50, deadline=None)
@given(st.integers(3, 6))
def test_a_short_table_is_worth_the_same_per_seat(k):
    short = placement_points(list(range(k - 1)), k)
    full = default_points(k)
    assert sum(short.values()) / (k - 1) == pytest.approx(sum(full) / k)
    values = [short[p] for p in range(k - 1)]
    assert values == sorted(values, reverse=True) and values[0] > values[-1]


def test_a_short_table_of_three_at_four():
    assert placement_points([9, 8, 7], 4) == {9: 3.5, 8: 1.5, 7: 0.25}


def test_a_bye_scores_the_mean_seat():
    assert bye_points(4) == 1.75
    assert bye_points(2) == 0.5


def test_the_arena_doubles_a_streak_after_two_wins():
    # Tables of two: a win is 1; the third win in a row and later ones are 2, until a loss.
    assert arena_points([1, 1, 1, 1, 2, 1, 1, 1]) == 1 + 1 + 2 + 2 + 0 + 1 + 1 + 2
    # Tables of four: 4/2/1/0; a second place ends the streak and scores its plain 2.
    assert arena_points([1, 1, 1, 2, 1], table_size=4) == 4 + 4 + 8 + 2 + 4
    assert arena_points([]) == 0
    with pytest.raises(TournamentError) as error:
        arena_points([3], table_size=2)
    assert error.value.code == "invalid-place"


def test_the_arena_leaderboard():
    board = arena_leaderboard({1: [1, 1, 1], 2: [1, 2, 1, 1, 2], 3: [2, 2], 4: [2, 2, 2]})
    # 1: 1 + 1 + 2 = 4 on a streak; 2: 3 points; 3 and 4: nothing, 4 in more games.
    assert [(line.entrant, line.points, line.rank) for line in board] == [
        (1, 4, 1),
        (2, 3, 2),
        (3, 0, 3),
        (4, 0, 4),
    ]
    assert board[0].on_streak and not board[1].on_streak
    assert [line.rank for line in arena_leaderboard({5: [1], 6: [1]})] == [1, 1]


def test_duplicate_scores_compare_with_the_same_cards():
    results = {
        (0, 0): {1: 10, 2: 30, 3: 20},  # seat 0 of deal 0: mean 20
        (0, 1): {4: 5, 5: 5},  # the same score: nothing gained
        (1, 0): {1: 0},  # held by one entrant only
    }
    assert duplicate_scores(results) == {1: -10.0, 2: 10.0, 3: 0.0, 4: 0.0, 5: 0.0}


@settings(max_examples=50, deadline=None)
@given(
    st.dictionaries(
        st.tuples(st.integers(0, 3), st.integers(0, 5)),
        st.dictionaries(st.integers(0, 20), st.integers(-500, 500), min_size=1),
        max_size=12,
    )
)
def test_duplicate_scores_sum_to_nothing(results):
    """Luck cancels: every set of cards gives away exactly what it takes."""
    assert sum(duplicate_scores(results).values()) == pytest.approx(0, abs=1e-6)


def test_swiss_tiebreaks_in_the_published_order():
    # 1 and 2 are level on points; 1 met stronger opponents.
    standings = [
        Standing(1, 4.0, scored=10),
        Standing(2, 4.0, scored=50),
        Standing(3, 6.0),
        Standing(4, 0.0),
        Standing(5, 1.0),
        Standing(6, 1.0),
    ]
    history = [
        (Table((1, 3)), [3, 1]),
        (Table((2, 4)), [2, 4]),
    ]
    assert swiss_tiebreaks(standings, history) == [3, 1, 2, 5, 6, 4]
    lines = {line.entrant: line for line in swiss_table(standings, history)}
    assert lines[1].opponents == 6.0 and lines[2].opponents == 0.0
    # 5 and 6: nothing tells them apart, the place is shared.
    assert lines[5].rank == lines[6].rank == 4 and lines[5].shared and lines[6].shared
    assert len(SWISS_TIEBREAKS) == 5


def test_points_scored_break_a_tie_of_points_opponents_and_wins():
    standings = [Standing(1, 2.0, scored=10), Standing(2, 2.0, scored=50)]
    assert swiss_tiebreaks(standings, []) == [2, 1]


def test_a_withdrawn_opponent_counts_with_what_it_earned():
    standings = [Standing(1, 1.0), Standing(2, 1.0)]
    history = [(Table((1, 9)), [1, 9]), (Table((2, 8)), [8, 2])]
    lines = {line.entrant: line for line in swiss_table(standings, history)}
    assert lines[1].opponents == 0.0 and lines[2].opponents == 1.0
    # At a tournament of tables of four, 8 won a short table of two: 3 of the four's points.
    lines = {line.entrant: line for line in swiss_table(standings, history, table_size=4)}
    assert lines[2].opponents == 3.0
