"""games/placings.py `won_by_forfeit`: a match is won by forfeit when it has a winner and every
other seat was forfeited (the forfeits left one seat playing); one played on after a forfeit,
or one with no winner, was not."""

from __future__ import annotations

from games.placings import won_by_forfeit


def test_only_a_winner_every_other_seat_forfeited_to_won_by_forfeit():
    assert won_by_forfeit(0, [1], 2)
    assert won_by_forfeit(2, [0, 1, 3], 4)
    assert not won_by_forfeit(0, [], 2)  # played out
    assert not won_by_forfeit(0, [2], 3)  # seat 1 played on to the end: won at the table
    assert not won_by_forfeit(None, [0, 1], 2)  # everyone forfeited: nobody won
    assert not won_by_forfeit(1, [1], 2)  # a forfeited seat never wins
