"""`colour-control`, the official heuristic (also the one for basic-plus)."""

from __future__ import annotations

import pytest

from engine import Variant
from tests.engine.decks import stacked
from tests.games.bots.checks import ask, checked_matches, run, win_shares


@pytest.mark.parametrize(
    ("rules", "pendings"),
    [("official", {"play", "drawn", "challenge"}), ("basic-plus", {"play"})],
)
def test_it_answers_every_pending_with_a_legal_command(rules, pendings):
    # (It names the colour with its plays: a `color` pending comes from a flipped wild, below.)
    spec = {"rules": rules, "options": {"target": 200}}
    heuristic, _ = checked_matches(spec, ["colour-control", "random"], 4, range(10))
    assert pendings <= set(heuristic.answered)
    assert sum(heuristic.answered.values()) > 200


@pytest.mark.parametrize("rules", ["official", "basic-plus"])
def test_on_a_flipped_wild_it_names_the_colour_it_holds_most(rules):
    variant = Variant.from_spec({"rules": rules, "options": {"hand_size": 3}})
    deck = stacked([["blue-1", "green-2", "green-3"], ["red-1", "red-2", "red-3"]], flip="wild")
    anchor = {"dealer": 1} if rules == "official" else {"first": 0}
    state = variant.replay(variant.start(2, deck=deck, **anchor))
    assert state.pending["type"] == "color"
    assert ask(variant, state, 0, "colour-control") == {
        "type": "choose-color",
        "seat": 0,
        "color": "green",
    }


def official(hands, flip, **options):
    variant = Variant.from_spec({"rules": "official", "options": options})
    seats = len(hands)
    state = variant.replay(variant.start(seats, deck=stacked(hands, flip), dealer=seats - 1))
    return variant, state


def test_it_matches_by_rank_to_turn_the_colour_to_the_one_it_holds_most():
    variant, state = official(
        [
            ["red-9", "blue-3", "blue-7", "blue-8", "blue-1"],
            ["green-1", "green-2", "green-3", "green-4", "green-5"],
        ],
        flip="red-3",
        hand_size=5,
    )
    assert ask(variant, state, 0, "colour-control")["card"] == "blue-3"
    assert ask(variant, state, 0, "greedy")["card"] == "red-9"  # greedy sheds points instead


def test_it_keeps_a_wild_while_a_coloured_card_plays_and_names_its_colour_when_stuck():
    hands = [["wild", "red-2", "green-4", "green-5"], ["yellow-1", "yellow-2", "blue-1", "blue-2"]]
    variant, state = official(hands, flip="red-7", hand_size=4)
    assert ask(variant, state, 0, "colour-control")["card"] == "red-2"
    hands[0][1] = "blue-4"
    variant, state = official(hands, flip="red-7", hand_size=4)
    assert ask(variant, state, 0, "colour-control") == {
        "type": "play",
        "seat": 0,
        "card": "wild",
        "color": "green",
        "uno": False,
    }


@pytest.mark.parametrize(("hand_size", "answer"), [(7, "challenge"), (3, "accept")])
def test_it_challenges_a_wild_draw4_from_a_big_hand_and_accepts_one_from_a_small_hand(
    hand_size, answer
):
    offender = ["wild-draw4"] + ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6"][
        : hand_size - 1
    ]
    other = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6", "blue-7"][:hand_size]
    variant, state = official([offender, other], flip="red-9", hand_size=hand_size)
    state = run(
        variant,
        state,
        {"type": "play", "seat": 0, "card": "wild-draw4", "color": "blue", "uno": False},
    )
    assert ask(variant, state, 1, "colour-control") == {"type": answer, "seat": 1}


def test_it_calls_uno_with_its_play_and_catches_a_seat_that_did_not():
    variant, state = official(
        [["red-1", "red-2"], ["blue-1", "blue-2"], ["green-1", "green-2"]],
        flip="red-5",
        hand_size=2,
    )
    assert ask(variant, state, 0, "colour-control")["uno"] is True
    state = run(variant, state, {"type": "play", "seat": 0, "card": "red-2", "uno": False})
    assert ask(variant, state, 2, "colour-control") == {"type": "catch", "seat": 2, "target": 0}
    assert ask(variant, state, 0, "colour-control") == {"type": "call-uno", "seat": 0}


@pytest.mark.parametrize("rules", ["official", "basic-plus"])
def test_it_beats_random_legal_clearly(rules):
    spec = {"rules": rules, "options": {"target": 150}}
    shares = win_shares(spec, ["colour-control", "random"], seats=2, matches=30, seed=7)
    assert shares["colour-control"] >= 0.8
