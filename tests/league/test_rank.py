"""The tiebreaks of a division's table, in order: league points, wins, points scored,
head-to-head, then a shared place (league/standings.py `rank`)."""

from __future__ import annotations

from league.standings import StandingLine, rank


def line(entry: int, points: int, wins: int = 0, scored: int = 0) -> StandingLine:
    return StandingLine(
        entry=entry,
        name=f"p{entry}",
        kind="person",
        user_id=entry,
        league_points=points,
        wins=wins,
        points_scored=scored,
    )


def table(lines, ahead=None, **options):
    return [(ln.entry, ln.rank, ln.shared) for ln in rank(lines, ahead or {}, **options)]


def test_league_points_come_first():
    assert table([line(1, 3, wins=9), line(2, 7), line(3, 5)]) == [
        (2, 1, False),
        (3, 2, False),
        (1, 3, False),
    ]


def test_equal_points_are_split_by_wins():
    assert table([line(1, 6, wins=1), line(2, 6, wins=2)]) == [(2, 1, False), (1, 2, False)]


def test_equal_points_and_wins_are_split_by_points_scored():
    assert table([line(1, 6, 2, scored=300), line(2, 6, 2, scored=410)]) == [
        (2, 1, False),
        (1, 2, False),
    ]


def test_under_running_total_fewer_points_scored_is_better():
    lines = [line(1, 6, 2, scored=300), line(2, 6, 2, scored=410)]
    assert table(lines, low_points_win=True) == [(1, 1, False), (2, 2, False)]


def test_then_head_to_head_among_the_entrants_still_tied():
    lines = [line(1, 6, 2, 300), line(2, 6, 2, 300), line(3, 6, 2, 300), line(4, 9)]
    # 3 finished ahead of 1 twice and behind once; 2 ahead of 1 once; 4 (not tied) beat everyone.
    ahead = {(3, 1): 2, (1, 3): 1, (2, 1): 1, (4, 1): 5, (4, 2): 5, (4, 3): 5}
    ranked = rank(lines, ahead)
    # 3: +2 -1 against 1; 2: +1 against 1; 1: -3 +1. 2 and 3 share second place (+1 each),
    # listed by entry order; 4's wins over them count for nothing (4 was not tied).
    assert [(ln.entry, ln.rank, ln.shared, ln.head_to_head) for ln in ranked] == [
        (4, 1, False, 0),
        (2, 2, True, 1),
        (3, 2, True, 1),
        (1, 4, False, -2),
    ]


def test_head_to_head_decides_a_two_way_tie():
    ahead = {(2, 1): 2, (1, 2): 1}
    assert table([line(1, 6, 2, 300), line(2, 6, 2, 300)], ahead) == [
        (2, 1, False),
        (1, 2, False),
    ]


def test_entrants_equal_on_everything_share_the_place_listed_by_entry_order():
    lines = [line(5, 4), line(2, 4), line(9, 10)]
    assert table(lines) == [(9, 1, False), (2, 2, True), (5, 2, True)]


def test_nobody_played_yet_everyone_shares_first():
    assert table([line(1, 0), line(2, 0)]) == [(1, 1, True), (2, 1, True)]
