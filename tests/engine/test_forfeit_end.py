"""docs/rules.md "What the service adds": forfeits that leave at most one seat playing end the
match where it stands (engine/scoring.py `forfeit_end`), mid-hand too."""

from __future__ import annotations

from engine import MATCH_OVER, PLAYING
from engine.scoring import forfeit_end
from tests.engine.table import official

HANDS = [["red-1", "blue-2"], ["green-3", "yellow-4"]]


def test_the_last_seat_playing_wins_and_the_forfeited_seat_is_placed_last_mid_hand():
    t = official(HANDS, "red-5")
    assert t.state.status == PLAYING and t.to_act()

    (ended,) = forfeit_end(t.state, {0})
    t.state = t.variant.replay([ended], t.state)

    assert ended == {"type": "match-ended", "winner": 1, "places": [2, 1], "scores": [0, 0]}
    view = t.view(1)
    assert (view["status"], view["winner"], view["places"]) == (MATCH_OVER, 1, [2, 1])
    # Nobody is asked to move in a match that is over.
    assert t.to_act() == [] and t.legal(0) == [] and t.legal(1) == []


def test_two_seats_still_playing_go_on_and_a_match_over_is_not_ended_twice():
    t = official([["red-1"], ["green-3"], ["blue-2"]], "red-5")
    assert forfeit_end(t.state, {0}) == []
    (ended,) = forfeit_end(t.state, {0, 2})
    assert (ended["winner"], ended["places"]) == (1, [2, 1, 2])
    t.state = t.variant.replay([ended], t.state)
    assert forfeit_end(t.state, {0, 1, 2}) == []


def test_every_seat_forfeited_shares_first_place_and_nobody_wins():
    t = official(HANDS, "red-5")
    (ended,) = forfeit_end(t.state, {0, 1})
    assert (ended["winner"], ended["places"]) == (None, [1, 1])
