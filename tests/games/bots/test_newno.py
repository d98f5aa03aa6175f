"""`stacker`, the newno heuristic: stacks, jump-ins, 7s and 0s."""

from __future__ import annotations

import pytest

from bots.strategies import STRATEGIES
from engine import Variant
from tests.engine.decks import stacked
from tests.games.bots.checks import ask, checked_matches, run, win_shares


@pytest.mark.parametrize("seats", [2, 4])
def test_it_answers_every_pending_with_a_legal_command(seats):
    spec = {"rules": "newno", "options": {"target": 150}}
    bots = checked_matches(spec, ["stacker", "random", "greedy"], seats, range(6))
    expected = {"play", "stack", "drawn"} | ({"first-play", "second-play"} if seats == 4 else set())
    heuristic = bots[0]
    assert expected <= set(heuristic.answered)
    assert sum(heuristic.answered.values()) > 200
    if seats == 4:
        assert heuristic.jump_ins > 0
        for bot in bots[1:]:  # random-legal and greedy too
            assert expected <= set(bot.answered) and bot.jump_ins > 0


def newno(hands, flip):
    variant = Variant.from_spec({"rules": "newno", "options": {"hand_size": len(hands[0])}})
    seats = len(hands)
    deck = stacked(hands, flip)
    return variant, variant.replay(variant.start(seats, deck=deck, dealer=seats - 1))


def play(seat, card, **extra):
    return {"type": "play", "seat": seat, "card": card, "uno": False, **extra}


def test_facing_a_stack_it_stacks_and_without_one_it_lets_the_other_neighbour_decide():
    variant, state = newno(
        [
            ["red-draw2", "red-1", "red-2"],
            ["blue-draw2", "green-1", "green-2"],
            ["yellow-1", "yellow-2", "yellow-3"],
        ],
        flip="red-5",
    )
    state = run(variant, state, play(0, "red-draw2"))
    assert state.pending["type"] == "stack" and sorted(state.to_act) == [1, 2]
    assert ask(variant, state, 1, "stacker") == play(1, "blue-draw2")
    assert ask(variant, state, 2, "stacker") is None
    state = run(variant, state, {"type": "close-window"})  # the Youngest Rule: seat 1
    assert ask(variant, state, 1, "stacker") == play(1, "blue-draw2")


def test_it_jumps_in_with_an_identical_card():
    variant, state = newno(
        [
            ["red-5", "red-6", "blue-1"],
            ["red-6", "green-1", "green-2"],
            ["yellow-1", "yellow-2", "yellow-3"],
        ],
        flip="red-9",
    )
    state = run(variant, state, play(0, "red-5"), play(1, "red-6"))
    assert state.to_act == (2,) and state.pending["jump"]["card"] == "red-6"
    assert ask(variant, state, 0, "stacker") == play(0, "red-6", uno=True)  # its last but one


def swap_table(seven="red-7"):
    """Seat 0 ends up with 7 cards against seat 1's 3 and seat 2's 4, on its turn."""
    variant, state = newno(
        [
            [seven, "red-1", "blue-5", "blue-6", "green-4"],
            ["red-draw2", "red-2", "yellow-1", "yellow-2", "yellow-3"],
            ["red-3", "green-1", "green-2", "green-3", "blue-1"],
        ],
        flip="red-9",
    )
    return variant, state


def test_it_swaps_hands_with_a_7_only_with_a_seat_that_holds_fewer_cards():
    variant, state = swap_table()
    # At the open start every seat holds 5: a 7 would only give its 4 cards for 5.
    assert ask(variant, state, 0, "stacker")["card"] != "red-7"
    state = run(
        variant,
        state,
        play(1, "red-draw2"),
        {"type": "accept", "seat": 0},
        play(2, "red-3"),
        play(1, "red-2"),
    )
    assert state.to_act == (0,) and [len(h) for h in state.hands] == [7, 3, 4]
    assert ask(variant, state, 0, "stacker") == play(0, "red-7", target=1)
    # A 7 played without a target: the swap goes to the seat holding fewest cards too.
    state = run(variant, state, play(0, "red-7"))
    assert ask(variant, state, 0, "stacker") == {"type": "swap", "seat": 0, "target": 1}


def test_it_plays_a_0_when_the_hand_it_receives_is_smaller():
    variant, state = swap_table(seven="red-0")
    state = run(
        variant,
        state,
        play(1, "red-draw2"),
        {"type": "accept", "seat": 0},
        play(2, "red-3"),
        play(1, "red-2"),
    )
    # Counter-clockwise, hands pass from seat 1 (3 cards) to seat 0.
    assert state.direction == -1
    assert ask(variant, state, 0, "stacker") == play(0, "red-0")


def test_it_names_a_colour_it_was_asked_for():
    variant, state = newno(
        [
            ["wild", "green-1", "green-2"],
            ["red-1", "red-2", "red-3"],
            ["blue-1", "blue-2", "blue-3"],
        ],
        flip="red-9",
    )
    state = run(variant, state, {"type": "play", "seat": 0, "card": "wild"})
    assert ask(variant, state, 0, "stacker") == {
        "type": "choose-color",
        "seat": 0,
        "color": "green",
    }


def test_as_a_7_jumper_holding_fewest_cards_it_swaps_two_other_seats():
    variant, state = newno(
        [
            ["red-6", "red-7", "blue-1", "blue-2"],
            ["green-1", "green-2", "green-3", "green-4"],
            ["red-draw2", "yellow-1", "yellow-2", "yellow-3"],
            ["red-7", "red-1", "red-2", "red-3"],
        ],
        flip="red-9",
    )
    state = run(
        variant,
        state,
        play(2, "red-draw2"),
        {"type": "accept", "seat": 1},  # seat 1 holds 6; direction 2 -> 1, counter-clockwise
        play(0, "red-6"),
        play(3, "red-7"),  # no target: seat 3 will send `swap`
        play(0, "red-7"),  # seat 0 jumps in before seat 3 names its target
        {"type": "swap", "seat": 3, "target": 2},
    )
    assert state.pending["type"] == "swap" and state.pending["jumper_of"] == 3
    assert [len(h) for h in state.hands] == [2, 6, 3, 3]
    # It holds fewest: the biggest hand goes to a seat holding 3 instead.
    assert ask(variant, state, 0, "stacker") == {
        "type": "swap",
        "seat": 0,
        "target": 1,
        "other": 2,
    }


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_strategy_answers_a_colour_a_swap_and_a_jumper_swap_legally(name):
    variant, state = newno(
        [["wild", "red-7", "green-2"], ["red-1", "red-2", "red-3"], ["blue-1", "blue-2", "red-7"]],
        flip="red-9",
    )
    colour = run(variant, state, {"type": "play", "seat": 0, "card": "wild"})
    assert ask(variant, colour, 0, name) in variant.legal_commands(colour, 0)
    state = run(variant, state, play(1, "red-1"), play(0, "red-7"))  # 1 -> 0: counter-clockwise
    assert state.pending["type"] == "swap"
    assert ask(variant, state, 0, name) in variant.legal_commands(state, 0)
    state = run(variant, state, play(2, "red-7"), {"type": "swap", "seat": 0, "target": 1})
    assert state.pending.get("jumper_of") == 0
    assert ask(variant, state, 2, name) in variant.legal_commands(state, 2)


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_out_of_turn_no_strategy_makes_a_challenge_that_costs_it_cards(name):
    variant, state = newno(
        [
            ["red-5", "red-1", "blue-1"],
            ["red-6", "green-1", "green-2"],
            ["red-2", "blue-2", "blue-3"],
        ],
        flip="red-9",
    )
    state = run(variant, state, play(0, "red-5"), play(1, "red-6"))
    legal = variant.legal_commands(state, 0)
    assert any(c["type"] == "catch" for c in legal)  # newno: legal, but costs 2 cards
    for seed in range(20):
        assert ask(variant, state, 0, name, seed) is None


def test_it_beats_random_legal_clearly():
    spec = {"rules": "newno", "options": {"target": 150}}
    shares = win_shares(spec, ["stacker", "random"], seats=2, matches=30, seed=5)
    assert shares["stacker"] >= 0.8
