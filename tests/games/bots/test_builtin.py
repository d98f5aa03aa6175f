"""The built-in strategies: always a legal move in turn, never a costly one out of turn."""

from __future__ import annotations

import random

import pytest

from bots.strategies import STRATEGIES, find_strategy
from bots.strategies.builtin import greedy
from engine import Variant
from tests.engine.decks import stacked

SPECS = [
    {"rules": "official"},
    {"rules": "basic-plus"},
    {"rules": "official", "precognitive": {"lane": 2, "sight": "blind"}},
]


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@pytest.mark.parametrize(
    "spec", SPECS, ids=lambda s: s["rules"] + ("+p" if "precognitive" in s else "")
)
def test_each_bot_answers_every_turn_with_one_of_its_legal_commands(name, spec):
    variant, bot, rng = Variant.from_spec(spec), find_strategy(name), random.Random(3)
    state = variant.replay(variant.start(3, seed=11))
    for _ in range(300):
        if state.status != "playing":
            break
        seat = state.to_act[0]
        legal = variant.legal_commands(state, seat)
        command = bot(variant.view(state, seat), legal, rng)
        # A precommit may be any ordered choice the engine accepts (it lists only some of them
        # for big hands); `decide` below checks it.
        assert command in legal or command["type"] == "precommit"
        state = variant.replay(variant.decide(state, command), state)


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_out_of_turn_a_bot_never_makes_a_catch_that_would_fail(name):
    variant, bot = Variant.from_spec({"rules": "basic-plus"}), find_strategy(name)
    state = variant.replay(variant.start(3, seed=5))
    idle = next(s for s in range(3) if s not in state.to_act)
    legal = variant.legal_commands(state, idle)
    assert any(c["type"] == "catch" for c in legal)  # basic-plus: legal, but costs 3 cards
    for seed in range(20):
        assert bot(variant.view(state, idle), legal, random.Random(seed)) is None


def test_greedy_calls_uno_and_sheds_its_highest_card():
    variant = Variant.from_spec({"rules": "official", "options": {"hand_size": 2}})
    deck = stacked([["red-3", "red-skip"], ["blue-1", "blue-2"]], flip="red-5", first=0)
    state = variant.replay(variant.start(2, deck=deck, dealer=1))
    command = greedy(variant.view(state, 0), variant.legal_commands(state, 0), random.Random(0))
    assert command == {"type": "play", "seat": 0, "card": "red-skip", "uno": True}


def test_greedy_names_the_colour_it_holds_most_of():
    variant = Variant.from_spec({"rules": "official", "options": {"hand_size": 4}})
    deck = stacked(
        [["wild", "green-1", "green-2", "blue-9"], ["red-1", "red-2", "red-3", "red-4"]],
        flip="yellow-5",
        first=0,
    )
    state = variant.replay(variant.start(2, deck=deck, dealer=1))
    command = greedy(variant.view(state, 0), variant.legal_commands(state, 0), random.Random(0))
    assert command["card"] == "wild" and command["color"] == "green"


def test_an_unknown_strategy_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown bot 'genius'; known: random, greedy"):
        find_strategy("genius")
