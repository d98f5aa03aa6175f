"""`censor`, the censorship heuristic: a censor's rulings and a submitter's choices."""

from __future__ import annotations

import pytest

from engine import Variant
from tests.engine.decks import stacked
from tests.games.bots.checks import ask, checked_matches, run, win_shares


def test_it_answers_every_pending_with_a_legal_command():
    spec = {"rules": "censorship", "options": {"target": 200}}
    bots = checked_matches(spec, ["censor", "random", "greedy"], 4, range(6))
    heuristic = bots[0]
    assert {"submit", "ruling", "resubmit", "play", "drawn"} <= set(heuristic.answered)
    assert sum(heuristic.answered.values()) > 300
    for bot in bots[1:]:  # random-legal and greedy too
        assert {"submit", "ruling", "resubmit", "play"} <= set(bot.answered)


def censorship(hands, flip):
    """Seat 2 deals (the censor); seat 0 submits first."""
    variant = Variant.from_spec({"rules": "censorship", "options": {"hand_size": len(hands[0])}})
    deck = stacked(hands, flip)
    return variant, variant.replay(variant.start(3, deck=deck, dealer=2))


def submit(seat, card, **extra):
    return {"type": "submit", "seat": seat, "card": card, "uno": False, **extra}


FILLER = ["green-1", "green-2", "yellow-1", "yellow-2", "green-3"]


@pytest.mark.parametrize(
    ("hand", "card"),
    [
        # The dealer holds 7 cards: it surely has a legal one and must substitute, so the
        # highest card goes, legal or not.
        (["red-9", "blue-1", *FILLER], "red-9"),
        # The dealer holds 2: an illegal card would likely come back, with a card drawn.
        (["red-9", "blue-1"], "blue-1"),
    ],
)
def test_as_a_submitter_it_dumps_its_highest_card_unless_the_dealer_may_hold_nothing_legal(
    hand, card
):
    others = [["yellow-4", "yellow-5", "yellow-6", "yellow-7", "yellow-8", "yellow-9", "red-1"]]
    dealer = ["green-4", "green-5", "green-6", "green-7", "green-8", "green-9", "red-2"]
    size = len(hand)
    variant, state = censorship([hand, others[0][:size], dealer[:size]], flip="blue-5")
    assert state.pending == {"type": "submit", "seat": 0}
    command = ask(variant, state, 0, "censor")
    assert command["type"] == "submit" and command["card"] == card
    assert command["uno"] is (size == 2)


def test_as_the_censor_it_plays_its_own_high_card_for_a_low_submission():
    variant, state = censorship(
        [
            ["blue-1", "red-1", "red-2"],
            ["yellow-1", "yellow-2", "yellow-3"],
            ["blue-9", "green-2", "green-3"],
        ],
        flip="blue-5",
    )
    state = run(variant, state, submit(0, "blue-1"))
    assert state.pending == {"type": "ruling", "seat": 2, "submitter": 0}
    assert ask(variant, state, 2, "censor") == {"type": "substitute", "seat": 2, "card": "blue-9"}


def test_as_the_censor_it_never_plays_a_draw2_against_itself():
    # Seat 1 submits; the seat after it is the dealer, whom a draw2 would hit.
    variant, state = censorship(
        [
            ["blue-1", "red-1", "red-2"],
            ["blue-3", "yellow-2", "yellow-3"],
            ["blue-draw2", "blue-7", "green-3"],
        ],
        flip="blue-5",
    )
    state = run(
        variant,
        state,
        submit(0, "blue-1"),
        {"type": "approve", "seat": 2},
        submit(1, "blue-3"),
    )
    draw2 = {"type": "substitute", "seat": 2, "card": "blue-draw2"}
    assert ask(variant, state, 2, "greedy") == draw2  # greedy sheds its highest card
    assert ask(variant, state, 2, "censor") == {"type": "approve", "seat": 2}


def test_as_the_censor_with_nothing_legal_it_returns_its_highest_coloured_card():
    variant, state = censorship(
        [
            ["red-1", "red-2", "red-3"],
            ["yellow-1", "yellow-2", "yellow-3"],
            ["green-9", "yellow-4", "green-2"],
        ],
        flip="blue-5",
    )
    state = run(variant, state, submit(0, "red-1"))
    assert ask(variant, state, 2, "censor") == {"type": "return", "seat": 2, "card": "green-9"}


def test_it_beats_random_legal_clearly():
    spec = {"rules": "censorship", "options": {"target": 150}}
    shares = win_shares(spec, ["censor", "random"], seats=4, matches=40, seed=9)
    assert shares["censor"] >= 0.7
