"""Every family, and the precognitive modifier, analysed on a short match; and no sample of
a seat's deals depends on a card it could not see."""

from __future__ import annotations

import random

import pytest

from analysis.evaluate import analyse_match
from analysis.sampling import Knowledge, determinize, hidden_cards
from engine import Variant
from tests.analysis.helpers import finish
from tests.engine.decks import stacked

SHORT = {"target": 1, "hand_size": 3}
FAMILIES = [
    ({"rules": "official", "options": SHORT}, 4),
    ({"rules": "basic-plus", "options": SHORT}, 4),
    ({"rules": "newno", "options": SHORT}, 4),
    ({"rules": "censorship", "options": SHORT}, 4),
    ({"rules": "official", "options": SHORT, "precognitive": {"lane": 1, "sight": "sighted"}}, 3),
    ({"rules": "basic-plus", "options": SHORT, "precognitive": {"lane": 1, "sight": "blind"}}, 3),
    (
        {"rules": "official", "options": SHORT, "precognitive": {"lane": 1, "sight": "telepathic"}},
        3,
    ),
]


@pytest.mark.parametrize(("spec", "seats"), FAMILIES, ids=lambda v: str(v))
def test_every_family_is_analysed(spec, seats):
    variant = Variant.from_spec(spec)
    events = finish(variant, variant.start(seats, seed=8), seed=3)
    analysis = analyse_match(variant.spec, events, seed=2, playouts=2)
    assert analysis.seats == seats and analysis.hands
    assert analysis.decisions, "a whole hand has decisions with a choice"
    for decision in analysis.decisions:
        assert decision.cost >= 0
        assert decision.chosen in decision.options and decision.best in decision.options
        assert 0 <= decision.chosen.win_chance <= 1
    for hand in analysis.hands:
        for _, chances in hand.chances:
            assert len(chances) == seats and all(0 <= c <= 1 for c in chances)
    final = variant.replay(events)
    assert [s.score for s in analysis.summaries] == final.scores
    for summary in analysis.summaries:
        mine = [d.cost for d in analysis.decisions if d.seat == summary.seat]
        assert summary.decisions == len(mine)
        assert summary.decision_cost == pytest.approx(sum(mine), abs=0.01)


# Seat 1 sees its own hand and the red-3; seat 0's hand and the draw pile are hidden from it.
# The second deal swaps seat 0's blue-9 with the draw pile's top card, a yellow-4.
HANDS = [["blue-9", "green-7"], ["red-5", "red-6"]]


def two_deals() -> tuple[Variant, list[dict], list[dict]]:
    variant = Variant.from_spec({"rules": "official", "options": {"hand_size": 2, "target": 1}})
    one = stacked(HANDS, flip="red-3", draw=["yellow-4"], first=1)
    other_hands = [["yellow-4", "green-7"], HANDS[1]]
    two = stacked(other_hands, flip="red-3", draw=["blue-9"], first=1)
    return (
        variant,
        variant.start(2, seed=1, deck=one, dealer=0),
        variant.start(2, seed=1, deck=two, dealer=0),
    )


def test_a_seats_samples_never_depend_on_cards_it_could_not_see():
    variant, one, two = two_deals()
    states = [variant.replay(events) for events in (one, two)]
    assert states[0].hands[0] != states[1].hands[0]
    known = Knowledge(2, variant.ruleset.lane_visible)
    pools = [hidden_cards(s, 1, known.of(1), variant.ruleset.lane_visible) for s in states]
    assert pools[0] == pools[1]
    for k in range(20):
        samples = [
            determinize(s, 1, known.of(1), variant.ruleset.lane_visible, random.Random(k), f"s{k}")
            for s in states
        ]
        assert samples[0].hands == samples[1].hands
        assert samples[0].draw == samples[1].draw
        assert samples[0].hands[1] == HANDS[1]
    # Seat 0, who holds the swapped card, does see the difference.
    pools = [hidden_cards(s, 0, known.of(0), variant.ruleset.lane_visible) for s in states]
    assert pools[0] != pools[1]


def test_the_analysis_of_a_decision_is_the_same_whatever_the_hidden_cards():
    variant, one, two = two_deals()
    command = {"type": "play", "seat": 1, "card": "red-5", "uno": True}
    found = []
    for events in (one, two):
        state = variant.replay(events)
        log = events + variant.decide(state, command)
        analysis = analyse_match(variant.spec, log, seed=4, playouts=8, seats=[1])
        found.append(analysis.decisions[0])
    assert found[0] == found[1]


def test_a_challenge_shows_the_challenger_the_offenders_hand():
    variant = Variant.from_spec({"rules": "official", "options": {"hand_size": 3}})
    hands = [["blue-9", "green-7", "red-1"], ["wild-draw4", "red-6", "blue-2"]]
    deck = stacked(hands, flip="red-3", first=1)
    events = variant.start(2, seed=1, deck=deck, dealer=0)
    state = variant.replay(events)
    known = Knowledge(2, variant.ruleset.lane_visible)
    for command in (
        {"type": "play", "seat": 1, "card": "wild-draw4", "color": "blue", "uno": False},
        {"type": "challenge", "seat": 0},
    ):
        for event in variant.decide(state, command):
            known.see(event, state)
            state = variant.replay([event], state)
    # Seat 1 held red-6, a card of the colour in play: guilty, it drew four, but seat 0 saw
    # the two cards it held when challenged.
    assert sorted(known.of(0)[1]) == ["blue-2", "red-6"]
    assert known.of(1)[0] == []
