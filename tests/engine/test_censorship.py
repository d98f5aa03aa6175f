"""`censorship` (docs/rules.md "censorship"): the dealer rules on every submitted card.

Unless a test says otherwise: four seats, seat 0 deals (the censor), so seat 1 is dealt first and
submits first, and the flipped card is `red-5`.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine import DECK, IllegalCommand, Variant
from tests.engine.decks import stacked
from tests.engine.table import Table, filled, of_type, types

COLORS = ["red", "yellow", "green", "blue"]
VIEWERS = [None, 0, 1, 2, 3]


def game(
    hands: list[list[str]],
    flip: str = "red-5",
    draw: list[str] | None = None,
    *,
    dealer: int = 0,
    seed: int = 1,
    **options: Any,
) -> Table:
    """A censorship game dealt from a stacked deck; `hand_size` is the size of the hands."""
    variant = Variant.from_spec(
        {"rules": "censorship", "options": {"hand_size": len(hands[0]), **options}}
    )
    seats = len(hands)
    deck = stacked(hands, flip, draw, first=(dealer + 1) % seats)
    return Table(variant, variant.start(seats, deck=deck, dealer=dealer, seed=seed))


def submit(t: Table, seat: int, card: str, color: str | None = None, uno: bool = False) -> list:
    fields: dict[str, Any] = {"card": card, "uno": uno}
    if color is not None:
        fields["color"] = color
    return t.do("submit", seat, **fields)


def submits(seat: int, card: str, uno: bool = False) -> list[dict[str, Any]]:
    """The legal `submit` commands of `seat` for `card` (one per colour for a black card)."""
    base = {"type": "submit", "seat": seat, "card": card, "uno": uno}
    if card.startswith("wild"):
        return [{**base, "color": c} for c in COLORS]
    return [base]


def ruling(dealer: int, submitter: int) -> dict[str, Any]:
    return {"type": "ruling", "seat": dealer, "submitter": submitter}


def of_kind(t: Table, seat: int, kind: str) -> list[dict[str, Any]]:
    return [c for c in t.legal(seat) if c["type"] == kind]


def conserved(t: Table) -> None:
    """Every one of the 108 cards is somewhere: hands, piles or the pending submission."""
    state = t.state
    submission = state.extra.get("submission")
    cards = [c for hand in state.hands for c in hand] + state.draw + state.discard
    if submission is not None:
        cards.append(submission["card"])
    assert Counter(cards) == Counter(DECK)


def shows(view_or_event: dict[str, Any], card: str) -> bool:
    """Whether `card` appears anywhere in a view or event."""
    return f'"{card}"' in json.dumps(view_or_event)


# ------------------------------------------------------------------------- options and seats


def test_censorship_defaults():
    """Defaults: `hand_size` 7, `scoring` winner-takes, `target` 500, `uno_penalty` 4,
    `dealer_draws` true.
    """
    assert Variant.from_spec({"rules": "censorship"}).spec == {
        "rules": "censorship",
        "options": {
            "hand_size": 7,
            "scoring": "winner-takes",
            "target": 500,
            "uno_penalty": 4,
            "dealer_draws": True,
        },
    }
    off = Variant.from_spec({"rules": "censorship", "options": {"dealer_draws": False}})
    assert off.spec["options"]["dealer_draws"] is False
    with pytest.raises(ValueError, match="dealer_draws"):
        Variant.from_spec({"rules": "censorship", "options": {"dealer_draws": "no"}})


@pytest.mark.parametrize("seats", [3, 10])
def test_censorship_is_played_by_3_to_10_seats(seats):
    """It needs 3–10 seats."""
    t = game(filled(seats, 7, {}, ["red-5"]))
    view = t.view()
    assert (view["seats"], view["hand_sizes"], view["dealer"]) == (seats, [7] * seats, 0)
    assert view["pending"] == {"type": "submit", "seat": 1}


@pytest.mark.parametrize("seats", [2, 11])
def test_censorship_refuses_2_or_11_seats(seats):
    """It needs 3–10 seats."""
    v = Variant.from_spec({"rules": "censorship", "options": {"hand_size": 1}})
    with pytest.raises(ValueError, match="3 to 10 seats"):
        v.start(seats, seed=1, dealer=0)


# ---------------------------------------------------------------------- direction and set-up


def test_play_starts_left_of_the_dealer_and_goes_clockwise():
    """Play starts clockwise (…left wins…); play starts left of the dealer."""
    t = game(
        [
            ["red-2", "blue-1", "green-1"],
            ["red-3", "blue-2", "green-2"],
            ["red-4", "blue-3", "green-3"],
            ["red-1", "blue-4", "green-4"],
        ],
        dealer=2,
    )
    assert t.view()["direction"] == "clockwise"
    for seat, card in [(3, "red-1"), (0, "red-2"), (1, "red-3")]:
        assert (t.to_act(), t.view()["pending"]) == ([seat], {"type": "submit", "seat": seat})
        submit(t, seat, card)
        assert (t.to_act(), t.view()["pending"]) == ([2], ruling(2, seat))
        t.do("approve", 2)
    assert (t.to_act(), t.view()["pending"]) == ([2], {"type": "play", "seat": 2})
    t.do("play", 2, card="red-4", uno=False)
    assert (t.to_act(), t.view()["pending"]) == ([3], {"type": "submit", "seat": 3})


def test_a_played_reverse_turns_play_as_in_official():
    """A flipped or played `reverse` turns it as in `official`."""
    t = game(
        [
            ["red-1", "green-1", "green-2"],
            ["red-reverse", "blue-1", "blue-2"],
            ["yellow-1", "yellow-2", "yellow-3"],
            ["red-3", "green-3", "green-4"],
        ]
    )
    submit(t, 1, "red-reverse")
    events = t.do("approve", 0)
    assert types(events) == ["card-played", "direction-changed", "prompted"]
    assert t.view()["direction"] == "counter-clockwise"
    assert t.view()["pending"] == {"type": "play", "seat": 0}
    t.do("play", 0, card="red-1", uno=False)
    assert t.view()["pending"] == {"type": "submit", "seat": 3}


# Four seats, seat 1 deals: seat 2 is left of the dealer, then 3, then 0.
FOUR = [
    ["green-1", "green-2"],
    ["green-3", "green-4"],
    ["green-6", "green-7"],
    ["green-8", "green-9"],
]


def test_set_up_deals_hand_size_cards_from_the_left_of_the_dealer_and_flips_one():
    """Set-up as `official`; play starts left of the dealer."""
    t = game(FOUR, dealer=1)
    assert [t.hand(s) for s in range(4)] == FOUR
    view = t.view()
    assert (view["top"], view["color"], view["dealer"], view["draw_pile"]) == (
        "red-5",
        "red",
        1,
        108 - 9,
    )
    assert (t.to_act(), view["pending"]) == ([2], {"type": "submit", "seat": 2})
    conserved(t)


def test_a_flipped_skip_skips_the_seat_left_of_the_dealer():
    """Set-up as `official` (a flipped `skip` skips the seat left of the dealer)."""
    t = game(FOUR, "red-skip", dealer=1)
    assert (t.to_act(), t.view()["pending"]) == ([3], {"type": "submit", "seat": 3})
    assert t.view()["hand_sizes"] == [2, 2, 2, 2]


def test_a_flipped_draw2_makes_the_seat_left_of_the_dealer_draw_2_and_lose_its_turn():
    """Set-up as `official` (a flipped `draw2` makes that seat draw 2 and lose its turn)."""
    t = game(FOUR, "red-draw2", ["blue-1", "blue-2"], dealer=1)
    assert t.hand(2) == ["green-6", "green-7", "blue-1", "blue-2"]
    assert (t.to_act(), t.view()["pending"]) == ([3], {"type": "submit", "seat": 3})


def test_a_flipped_reverse_makes_the_dealer_play_first_counter_clockwise():
    """A flipped `reverse` turns it as in `official` (the dealer plays first, counter-clockwise)."""
    t = game(FOUR, "red-reverse", ["green-5"], dealer=1)
    assert t.view()["direction"] == "counter-clockwise"
    assert (t.to_act(), t.view()["pending"]) == ([1], {"type": "play", "seat": 1})
    t.do("draw", 1)  # the dealer holds no matching card: green-5 cannot be played either
    assert (t.to_act(), t.view()["pending"]) == ([0], {"type": "submit", "seat": 0})


def test_a_flipped_wild_lets_the_seat_left_of_the_dealer_name_the_colour_then_submit():
    """Set-up as `official` (a flipped `wild`: the seat left of the dealer names the colour, then
    takes its turn).
    """
    t = game(FOUR, "wild", dealer=1)
    assert (t.to_act(), t.view()["pending"]) == ([2], {"type": "color", "seat": 2, "after": "turn"})
    t.do("choose-color", 2, color="green")
    assert t.view()["color"] == "green"
    assert (t.to_act(), t.view()["pending"]) == ([2], {"type": "submit", "seat": 2})


def test_a_flipped_wild_draw4_goes_back_and_the_next_card_is_flipped():
    """Set-up as `official` (a flipped `wild-draw4` goes back into the draw pile, the next card is
    flipped).
    """
    t = game(FOUR, "wild-draw4", ["red-5"], dealer=1)
    assert [e["card"] for e in of_type(t.events, "card-flipped")] == ["wild-draw4", "red-5"]
    assert len(of_type(t.events, "card-reinserted")) == 1
    assert (t.view()["top"], t.to_act()) == ("red-5", [2])
    conserved(t)


def test_the_dealer_role_moves_one_seat_left_every_hand():
    """One seat is the dealer (the censor) for the hand; the role moves one seat left every hand."""
    hands = [["green-3"], ["red-1"], ["blue-2"]]
    t = game(hands)
    submit(t, 1, "red-1")
    t.do("approve", 0)
    assert t.view()["status"] == "hand-over"
    for dealer in (1, 2, 0):
        left = (dealer + 1) % 3
        hands = [["green-3"], ["blue-2"], ["yellow-4"]]
        hands[left] = ["red-1"]
        deck = stacked(hands, "red-5", first=left)
        t.do("next-hand", deck=deck)
        view = t.view()
        assert (view["dealer"], t.to_act(), view["pending"]) == (
            dealer,
            [left],
            {"type": "submit", "seat": left},
        )
        submit(t, left, "red-1")
        assert t.view()["pending"] == ruling(dealer, left)
        t.do("approve", dealer)
        assert t.view()["last_hand"]["winner"] == left
    assert t.replayed() == t.state


# --------------------------------------------------------------------- the dealer's own turn

# The dealer (seat 0) plays first after a flipped reverse; play then goes to seat 3.
OTHERS = [
    ["yellow-6", "yellow-7", "yellow-8"],
    ["blue-6", "blue-7", "blue-8"],
    ["green-6", "green-7", "green-8"],
]


def dealer_first(dealer_hand: list[str], draw: list[str] | None = None, **options: Any) -> Table:
    """Four seats after a flipped `red-reverse`: the dealer, seat 0, has the first turn."""
    size = len(dealer_hand)
    return game([dealer_hand, *(h[:size] for h in OTHERS)], "red-reverse", draw, **options)


def test_the_dealer_plays_a_matching_card_on_its_own_turn():
    """The dealer's own turn: play a matching card."""
    t = dealer_first(["red-1", "blue-2", "green-3"])
    assert t.view()["pending"] == {"type": "play", "seat": 0}
    assert t.legal(0) == [{"type": "play", "seat": 0, "card": "red-1", "uno": False}]
    t.reject("card-does-not-match", "play", 0, card="blue-2", uno=False)
    t.reject("must-play", "draw", 0)
    t.do("play", 0, card="red-1", uno=False)
    assert (t.view()["top"], t.to_act()) == ("red-1", [3])
    assert t.view()["pending"] == {"type": "submit", "seat": 3}


def test_a_dealer_with_no_matching_card_draws_one_and_must_play_it_if_playable():
    """If it has none it draws one and must play it if it is playable (its next command must be
    that `play`; `pass` is rejected).
    """
    t = dealer_first(["blue-1", "green-2", "yellow-3"], ["red-7"])
    assert t.legal(0) == [{"type": "draw", "seat": 0}]
    t.reject("card-does-not-match", "play", 0, card="blue-1", uno=False)
    events = t.do("draw", 0)
    assert events[0] == {"type": "cards-drawn", "seat": 0, "cards": ["red-7"], "reason": "draw"}
    assert t.view(0)["pending"] == {"type": "drawn", "seat": 0, "card": "red-7"}
    assert t.legal(0) == [{"type": "play", "seat": 0, "card": "red-7", "uno": False}]
    t.reject("must-play-drawn-card", "pass", 0)
    t.reject("must-play-drawn-card", "play", 0, card="blue-1", uno=False)
    t.reject("unexpected-command", "draw", 0)
    t.do("play", 0, card="red-7", uno=False)
    assert (t.view()["top"], t.to_act()) == ("red-7", [3])
    assert t.hand(0) == ["blue-1", "green-2", "yellow-3"]


def test_a_dealer_whose_drawn_card_is_not_playable_passes_its_turn():
    """If it has none it draws one …, else the turn passes."""
    t = dealer_first(["blue-1", "green-2", "yellow-3"], ["yellow-7"])
    events = t.do("draw", 0)
    assert types(events) == ["cards-drawn", "prompted"]
    assert t.hand(0) == ["blue-1", "green-2", "yellow-3", "yellow-7"]
    assert (t.to_act(), t.view()["pending"]) == ([3], {"type": "submit", "seat": 3})


# Three seats: seats 1 and 2 submit red cards; then the dealer, holding no red, 1 or 4, has a turn.
NO_MATCH = [
    ["blue-1", "green-2", "yellow-3"],
    ["red-1", "green-6", "green-7"],
    ["red-4", "yellow-6", "yellow-7"],
]


@pytest.mark.parametrize("dealer_draws", [True, False])
def test_with_dealer_draws_false_a_dealer_with_no_matching_card_does_not_draw(dealer_draws):
    """(With `dealer_draws` false a dealer with no matching card does not draw: its turn passes by
    itself.)
    """
    t = game(NO_MATCH, dealer_draws=dealer_draws)
    submit(t, 1, "red-1")
    t.do("approve", 0)
    submit(t, 2, "red-4")
    draw_pile = t.view()["draw_pile"]
    events = t.do("approve", 0)
    if dealer_draws:
        assert types(events) == ["card-played", "prompted"]
        assert (t.to_act(), t.view()["pending"]) == ([0], {"type": "play", "seat": 0})
        assert t.legal(0) == [{"type": "draw", "seat": 0}]
    else:
        assert types(events) == ["card-played", "turn-passed", "prompted"]
        assert events[1] == {"type": "turn-passed", "seat": 0}
        assert (t.to_act(), t.view()["pending"]) == ([1], {"type": "submit", "seat": 1})
        assert t.hand(0) == NO_MATCH[0]
        assert t.view()["draw_pile"] == draw_pile


def test_with_dealer_draws_false_a_dealer_with_a_matching_card_still_plays():
    """With `dealer_draws` false a dealer with no matching card does not draw (one with a matching
    card plays as usual).
    """
    t = dealer_first(["red-1", "blue-2", "green-3"], dealer_draws=False)
    assert t.legal(0) == [{"type": "play", "seat": 0, "card": "red-1", "uno": False}]


def test_with_dealer_draws_false_a_flipped_reverse_passes_a_dealer_with_nothing_to_play():
    """With `dealer_draws` false … its turn passes by itself."""
    t = dealer_first(["blue-1", "green-2", "yellow-3"], dealer_draws=False)
    assert of_type(t.events, "turn-passed") == [{"type": "turn-passed", "seat": 0}]
    assert (t.to_act(), t.view()["pending"]) == ([3], {"type": "submit", "seat": 3})


# ------------------------------------------------------------------------ the standard seats

# Seat 1 submits first; the dealer's hand is given per test.
GREENS = ["green-1", "green-2", "green-3"]
YELLOWS = ["yellow-1", "yellow-2", "yellow-3"]
BLUES = ["blue-6", "blue-7", "blue-8"]


def four(dealer: list[str], seat1: list[str], draw: list[str] | None = None, **options) -> Table:
    """Four seats: the dealer's and seat 1's hands given; seats 2 and 3 hold yellows and blues."""
    size = len(seat1)
    return game([dealer, seat1, YELLOWS[:size], BLUES[:size]], "red-5", draw, **options)


def test_a_standard_seat_cannot_play_or_draw_it_must_submit():
    """A standard seat cannot `play` or `draw` on its turn: it must `submit`."""
    t = four(GREENS, ["red-1", "wild", "blue-2"])
    assert t.view(1)["pending"] == {"type": "submit", "seat": 1}
    t.reject("must-submit", "play", 1, card="red-1", uno=False)
    t.reject("must-submit", "draw", 1)
    t.reject("unexpected-command", "pass", 1)
    assert t.legal(1) == [*submits(1, "red-1"), *submits(1, "wild"), *submits(1, "blue-2")]


@pytest.mark.parametrize("card", ["red-1", "blue-2"])
def test_a_standard_seat_submits_one_card_face_down_legal_or_not(card):
    """A standard seat's turn: it `submit`s one card face down to the dealer, legal or not."""
    t = four(["red-7", "green-2", "green-3"], ["red-1", "blue-2", "blue-3"])
    events = submit(t, 1, card)
    assert events == [
        {
            "type": "card-submitted",
            "seat": 1,
            "dealer": 0,
            "card": card,
            "color": None,
            "uno": False,
        },
        {"type": "prompted", "to_act": [0], "pending": ruling(0, 1)},
    ]
    assert (t.to_act(), t.view()["pending"]) == ([0], ruling(0, 1))
    conserved(t)


def test_a_black_card_is_submitted_with_its_colour_named():
    """It `submit`s one card … (naming a colour if it is black)."""
    t = four(GREENS, ["red-1", "wild", "blue-2"])
    t.reject("bad-color", "submit", 1, card="wild", uno=False)
    t.reject("bad-color", "submit", 1, card="red-1", color="red", uno=False)
    events = submit(t, 1, "wild", color="blue")
    assert (events[0]["card"], events[0]["color"]) == ("wild", "blue")
    t.do("approve", 0)
    assert (t.view()["top"], t.view()["color"]) == ("wild", "blue")
    assert t.to_act() == [2]


@pytest.mark.parametrize("size", [2, 3])
def test_the_uno_call_goes_with_the_second_to_last_card(size):
    """It `submit`s one card … (with the uno call if it is its second-to-last card)."""
    t = four(GREENS[:size], ["red-1", "blue-2", "blue-3"][:size])
    if size == 3:
        t.reject("uno-not-due", "submit", 1, card="red-1", uno=True)
        assert t.legal(1) == [*submits(1, "red-1"), *submits(1, "blue-2"), *submits(1, "blue-3")]
    else:
        assert t.legal(1) == [*submits(1, "red-1"), *submits(1, "red-1", True)] + [
            *submits(1, "blue-2"),
            *submits(1, "blue-2", True),
        ]
        events = submit(t, 1, "red-1", uno=True)
        assert types(events) == ["card-submitted", "uno-called", "prompted"]
        assert t.view()["uncalled"] == []


@pytest.mark.parametrize("ruled", ["approve", "substitute"])
def test_submitting_the_last_card_goes_out_whatever_the_ruling(ruled):
    """Submitting its last card is going out, whatever the ruling (approved, or kept by the
    dealer).
    """
    t = game([["red-2"], ["red-1"], ["green-3"]])
    submit(t, 1, "red-1")
    if ruled == "approve":
        events = t.do("approve", 0)
        assert types(events) == ["card-played", "hand-ended"]
        left, gained = [["red-2"], [], ["green-3"]], 5
    else:
        events = t.do("substitute", 0, card="red-2")
        assert types(events) == ["card-played", "submission-kept", "hand-ended"]
        left, gained = [["red-1"], [], ["green-3"]], 4
    ended = events[-1]
    assert (ended["winner"], ended["cards_left"], ended["gained"]) == (1, left, [0, gained, 0])
    view = t.view()
    assert (view["status"], view["pending"], view["scores"]) == (
        "hand-over",
        {"type": "next-hand"},
        [0, gained, 0],
    )


def test_an_illegal_last_card_kept_by_the_dealer_goes_out_too():
    """Submitting its last card is going out, whatever the ruling (… kept by the dealer)."""
    t = game([["red-2"], ["blue-1"], ["green-3"]])
    submit(t, 1, "blue-1")
    events = t.do("substitute", 0, card="red-2")
    assert events[-1]["type"] == "hand-ended"
    assert (events[-1]["winner"], events[-1]["cards_left"][0]) == (1, ["blue-1"])


def test_a_returned_last_card_leaves_the_submitter_holding_cards_and_playing_on():
    """(Engine decision) When nothing is legal and the dealer returns a card, the submitter holds
    cards again and plays on.
    """
    t = game([["green-2"], ["blue-1"], ["yellow-3"]], draw=["yellow-9"])
    submit(t, 1, "blue-1")
    t.do("return", 0, card="green-2")
    assert t.hand(1) == ["green-2", "yellow-9"]
    assert t.hand(0) == ["blue-1"]
    assert (t.view()["status"], t.to_act()) == ("playing", [2])


def test_uno_true_on_a_submission_that_goes_out_is_ignored():
    """`uno: true` on a play (or a censorship `submit`) … on a play that goes out it is ignored."""
    t = game([["red-2"], ["red-1"], ["green-3"]])
    events = submit(t, 1, "red-1", uno=True)
    assert types(events) == ["card-submitted", "prompted"]
    assert t.do("approve", 0)[-1]["type"] == "hand-ended"


# ------------------------------------------------------------------------------- the ruling


def test_a_legal_submission_may_be_approved_and_is_played():
    """If the submitted card … is legal, the dealer must play a legal card: `approve` (the submitted
    card is played).
    """
    t = four(["red-7", "green-2", "green-3"], ["red-1", "blue-2", "blue-3"])
    submit(t, 1, "red-1")
    assert t.legal(0) == [
        {"type": "approve", "seat": 0},
        {"type": "substitute", "seat": 0, "card": "red-7"},
    ]
    t.reject("must-play", "return", 0, card="green-2")
    events = t.do("approve", 0)
    assert events[0] == {
        "type": "card-played",
        "seat": 1,
        "card": "red-1",
        "color": None,
        "source": "submission",
    }
    assert (t.view()["top"], t.view()["submission"]) == ("red-1", None)
    assert (t.hand(0), t.hand(1)) == (["red-7", "green-2", "green-3"], ["blue-2", "blue-3"])
    assert (t.to_act(), t.view()["pending"]) == ([2], {"type": "submit", "seat": 2})
    conserved(t)


def test_the_dealer_may_substitute_a_legal_card_and_keeps_the_submitted_card():
    """… or `substitute` a legal card of its own (the submitted card goes into the dealer's
    hand).
    """
    t = four(["red-7", "green-2", "green-3"], ["red-1", "blue-2", "blue-3"])
    submit(t, 1, "red-1")
    events = t.do("substitute", 0, card="red-7")
    assert events[:2] == [
        {
            "type": "card-played",
            "seat": 0,
            "card": "red-7",
            "color": None,
            "source": "hand",
            "for": 1,
        },
        {"type": "submission-kept", "seat": 1, "dealer": 0, "card": "red-1"},
    ]
    assert (t.view()["top"], t.view()["submission"]) == ("red-7", None)
    assert (t.hand(0), t.hand(1)) == (["green-2", "green-3", "red-1"], ["blue-2", "blue-3"])
    assert (t.to_act(), t.view()["pending"]) == ([2], {"type": "submit", "seat": 2})
    conserved(t)


def test_an_illegal_submission_forces_a_substitution():
    """An illegal submission forces a substitution."""
    t = four(["red-7", "green-2", "green-3"], ["red-1", "blue-2", "blue-3"])
    submit(t, 1, "blue-2")
    assert t.legal(0) == [{"type": "substitute", "seat": 0, "card": "red-7"}]
    t.reject("illegal-submission", "approve", 0)
    t.reject("must-play", "return", 0, card="green-2")
    t.do("substitute", 0, card="red-7")
    assert t.view()["top"] == "red-7"
    assert t.hand(0) == ["green-2", "green-3", "blue-2"]


def test_the_dealer_substitutes_only_a_legal_card_of_its_own():
    """… `substitute` a legal card of its own."""
    t = four(["red-7", "green-2", "green-3"], ["red-1", "blue-2", "blue-3"])
    submit(t, 1, "red-1")
    t.reject("card-does-not-match", "substitute", 0, card="green-2")
    t.reject("card-not-in-hand", "substitute", 0, card="red-9")
    t.reject("card-not-in-hand", "substitute", 0, card="red-1")  # the submission is not its own
    t.reject("bad-color", "substitute", 0, card="red-7", color="red")
    t.reject("not-your-turn", "approve", 2)


# The dealer holds nothing legal on red-5, and seat 1 submits an illegal blue-2.
NOTHING_DEALER = ["green-1", "green-3", "yellow-4"]
NOTHING_SEAT1 = ["blue-2", "blue-3", "blue-4"]


def test_when_nothing_is_legal_the_dealer_returns_a_card_and_the_submitter_draws_one():
    """If neither is legal, the submitted card goes into the dealer's hand, the dealer `return`s any
    one card of its hand to the submitter, and the submitter draws one; … otherwise the turn ends.
    """
    t = four(NOTHING_DEALER, NOTHING_SEAT1, ["yellow-9"])
    submit(t, 1, "blue-2")
    assert t.legal(0) == [
        {"type": "return", "seat": 0, "card": c} for c in [*NOTHING_DEALER, "blue-2"]
    ]
    t.reject("illegal-submission", "approve", 0)
    t.reject("card-does-not-match", "substitute", 0, card="green-1")
    t.reject("card-not-in-hand", "return", 0, card="red-9")
    events = t.do("return", 0, card="yellow-4")
    assert events == [
        {
            "type": "card-returned",
            "seat": 1,
            "dealer": 0,
            "card": "yellow-4",
            "submitted": "blue-2",
        },
        {"type": "cards-drawn", "seat": 1, "cards": ["yellow-9"], "reason": "censored"},
        {"type": "prompted", "to_act": [2], "pending": {"type": "submit", "seat": 2}},
    ]
    assert t.hand(0) == ["green-1", "green-3", "blue-2"]
    assert t.hand(1) == ["blue-3", "blue-4", "yellow-4", "yellow-9"]
    assert (t.view()["top"], t.view()["submission"]) == ("red-5", None)
    conserved(t)


def test_the_dealer_may_return_the_just_submitted_card():
    """The dealer `return`s any one card of its hand (the just-submitted card included)."""
    t = four(NOTHING_DEALER, NOTHING_SEAT1, ["yellow-9"])
    submit(t, 1, "blue-2")
    t.do("return", 0, card="blue-2")
    assert t.hand(0) == NOTHING_DEALER
    assert t.hand(1) == ["blue-3", "blue-4", "blue-2", "yellow-9"]
    assert t.to_act() == [2]


@pytest.mark.parametrize("submitted", ["red-1", "blue-2"])
def test_return_is_rejected_when_something_is_legal(submitted):
    """If the submitted card or any card in the dealer's hand is legal, the dealer must play a
    legal card.
    """
    dealer = NOTHING_DEALER if submitted == "red-1" else ["red-7", "green-3", "yellow-4"]
    t = four(dealer, ["red-1", "blue-2", "blue-3"])
    submit(t, 1, submitted)
    assert of_kind(t, 0, "return") == []
    t.reject("must-play", "return", 0, card="green-3")
    t.reject("must-play", "return", 0, card=submitted)


def test_a_legal_drawn_card_may_be_submitted_once_more_with_the_same_ruling():
    """If that drawn card is legal the submitter may submit it once more (same ruling)."""
    t = four(NOTHING_DEALER, NOTHING_SEAT1, ["red-9"])
    submit(t, 1, "blue-2")
    events = t.do("return", 0, card="yellow-4")
    assert events[-1]["pending"] == {"type": "resubmit", "seat": 1, "card": "red-9"}
    assert t.to_act() == [1]
    assert t.legal(1) == [*submits(1, "red-9"), {"type": "pass", "seat": 1}]
    t.reject("must-play-drawn-card", "submit", 1, card="blue-3", uno=False)
    t.reject("must-submit", "play", 1, card="red-9", uno=False)
    t.reject("must-submit", "draw", 1)
    submit(t, 1, "red-9")
    assert (t.to_act(), t.view()["pending"]) == ([0], ruling(0, 1))
    assert t.legal(0) == [{"type": "approve", "seat": 0}]
    t.reject("must-play", "return", 0, card="green-1")
    t.do("approve", 0)
    assert t.view()["top"] == "red-9"
    assert t.hand(1) == ["blue-3", "blue-4", "yellow-4"]
    assert (t.to_act(), t.view()["pending"]) == ([2], {"type": "submit", "seat": 2})
    conserved(t)


def test_a_legal_drawn_card_may_be_kept_with_a_pass():
    """If that drawn card is legal the submitter may submit it once more … or `pass`."""
    t = four(NOTHING_DEALER, NOTHING_SEAT1, ["red-9"])
    submit(t, 1, "blue-2")
    t.do("return", 0, card="yellow-4")
    t.do("pass", 1)
    assert t.hand(1) == ["blue-3", "blue-4", "yellow-4", "red-9"]
    assert (t.view()["top"], t.to_act()) == ("red-5", [2])


def test_the_submitted_card_is_out_of_the_submitters_hand_and_not_yet_in_the_dealers():
    """The submitted card leaves the submitter's hand when it is submitted; while the ruling is
    pending it is with the dealer but not yet in the dealer's hand.
    """
    t = four(["red-7", "green-2", "green-3"], ["red-1", "blue-2", "blue-3"])
    submit(t, 1, "blue-2")
    assert t.hand(1) == ["red-1", "blue-3"]
    assert t.hand(0) == ["red-7", "green-2", "green-3"]
    assert t.view()["hand_sizes"] == [3, 2, 3, 3]
    assert t.view(0)["submission"] == {"seat": 1, "card": "blue-2", "color": None}
    conserved(t)


def test_the_dealers_wild_draw4_is_judged_without_the_pending_submission():
    """It does not count when judging the dealer's own `wild-draw4`."""
    t = four(["wild-draw4", "blue-1", "green-1"], ["red-1", "blue-2", "blue-3"])
    submit(t, 1, "red-1")
    assert of_kind(t, 0, "substitute") == [
        {"type": "substitute", "seat": 0, "card": "wild-draw4", "color": c} for c in COLORS
    ]
    t.do("substitute", 0, card="wild-draw4", color="blue")
    assert t.hand(0) == ["blue-1", "green-1", "red-1"]
    assert (t.view()["top"], t.view()["color"]) == ("wild-draw4", "blue")
    assert t.view()["hand_sizes"] == [3, 2, 7, 3]
    assert t.to_act() == [3]


# -------------------------------------------------------------------- the card's resolution

# (card, colour named, seat 2's cards after, to_act, pending, direction)
RESOLUTIONS = [
    ("red-skip", None, 3, [3], {"type": "submit", "seat": 3}, "clockwise"),
    ("red-draw2", None, 5, [3], {"type": "submit", "seat": 3}, "clockwise"),
    ("red-reverse", None, 3, [0], {"type": "play", "seat": 0}, "counter-clockwise"),
    ("wild-draw4", "green", 7, [3], {"type": "submit", "seat": 3}, "clockwise"),
    ("wild", "green", 3, [2], {"type": "submit", "seat": 2}, "clockwise"),
    ("red-1", None, 3, [2], {"type": "submit", "seat": 2}, "clockwise"),
]


@pytest.mark.parametrize("ruled", ["approve", "substitute"])
@pytest.mark.parametrize(("card", "color", "cards2", "to_act", "pending", "direction"), RESOLUTIONS)
def test_the_card_played_resolves_as_if_the_submitter_had_played_it(
    ruled, card, color, cards2, to_act, pending, direction
):
    """The card played resolves as if the submitter had played it."""
    if ruled == "approve":
        t = four(["green-1", "green-2", "green-3"], [card, "blue-1", "blue-2"])
        submit(t, 1, card, color=color)
        t.do("approve", 0)
    else:
        t = four([card, "green-1", "green-2"], ["blue-1", "blue-2", "blue-3"])
        submit(t, 1, "blue-1")
        t.do("substitute", 0, card=card, **({"color": color} if color else {}))
    view = t.view()
    assert (view["top"], view["color"]) == (card, color or "red")
    assert (view["hand_sizes"], view["to_act"]) == ([3, 2, cards2, 3], to_act)
    assert (view["pending"], view["direction"]) == (pending, direction)
    conserved(t)


def test_a_last_submitted_draw2_still_makes_the_seat_after_the_submitter_draw():
    """The card played resolves as if the submitter had played it (a last `draw2` still makes the
    next seat draw).
    """
    t = game([["green-2"], ["red-draw2"], ["green-3"]], draw=["blue-1", "blue-2"])
    submit(t, 1, "red-draw2")
    events = t.do("approve", 0)
    assert types(events) == ["card-played", "cards-drawn", "hand-ended"]
    assert events[-1]["cards_left"] == [["green-2"], [], ["green-3", "blue-1", "blue-2"]]


@pytest.mark.parametrize(("held", "legal"), [("red-9", False), ("blue-9", True)])
def test_a_submitted_wild_draw4_is_legal_only_if_the_submitter_holds_no_card_of_the_colour(
    held, legal
):
    """`wild-draw4` is legal only for a player holding no card of the current colour (no
    bluffing)."""
    t = four(NOTHING_DEALER, ["wild-draw4", held, "blue-2"])
    submit(t, 1, "wild-draw4", color="blue")
    if legal:
        assert t.legal(0) == [{"type": "approve", "seat": 0}]
        t.do("approve", 0)
        assert (t.view()["top"], t.view()["color"]) == ("wild-draw4", "blue")
    else:
        assert t.legal(0) == [
            {"type": "return", "seat": 0, "card": c} for c in [*NOTHING_DEALER, "wild-draw4"]
        ]
        t.reject("illegal-submission", "approve", 0)


@pytest.mark.parametrize(("held", "legal"), [("red-9", False), ("blue-9", True)])
def test_a_substituted_wild_draw4_is_legal_only_if_the_dealer_holds_no_card_of_the_colour(
    held, legal
):
    """`wild-draw4` is legal only for a player holding no card of the current colour."""
    t = four(["wild-draw4", held, "green-2"], ["blue-1", "blue-2", "blue-3"])
    submit(t, 1, "blue-1")
    offered = {c["card"] for c in of_kind(t, 0, "substitute")}
    if legal:
        assert offered == {"wild-draw4"}
        t.do("substitute", 0, card="wild-draw4", color="green")
        assert t.view()["color"] == "green"
    else:
        assert offered == {"red-9"}
        t.reject("card-does-not-match", "substitute", 0, card="wild-draw4", color="green")


@pytest.mark.parametrize(("held", "legal"), [("red-9", False), ("blue-9", True)])
def test_the_dealers_own_wild_draw4_is_legal_only_if_it_holds_no_card_of_the_colour(held, legal):
    """`wild-draw4` is legal only for a player holding no card of the current colour."""
    t = dealer_first(["wild-draw4", held, "green-2"])
    offered = {c["card"] for c in of_kind(t, 0, "play")}
    if legal:
        assert offered == {"wild-draw4"}
        t.do("play", 0, card="wild-draw4", color="green", uno=False)
        assert t.view()["color"] == "green"
    else:
        assert offered == {"red-9"}
        t.reject("card-does-not-match", "play", 0, card="wild-draw4", color="green", uno=False)


def test_a_wild_draw4_makes_the_next_seat_draw_4_at_once_with_no_challenge():
    """No challenge; the next seat draws 4 at once."""
    t = four(GREENS, ["wild-draw4", "blue-1", "blue-2"], ["blue-3", "blue-4", "blue-5", "green-5"])
    submit(t, 1, "wild-draw4", color="yellow")
    events = t.do("approve", 0)
    assert types(events) == ["card-played", "cards-drawn", "prompted"]
    assert events[1] == {
        "type": "cards-drawn",
        "seat": 2,
        "cards": ["blue-3", "blue-4", "blue-5", "green-5"],
        "reason": "wild-draw4",
    }
    assert (t.to_act(), t.view()["pending"]) == ([3], {"type": "submit", "seat": 3})
    assert t.legal(2) == []
    t.reject("unknown-command", "challenge", 2)
    t.reject("unknown-command", "accept", 2)


def test_the_dealer_names_the_colour_of_a_black_card_it_substitutes():
    """The dealer names the colour of a black card it substitutes."""
    t = four(["wild", "green-1", "green-2"], ["blue-1", "blue-2", "blue-3"])
    submit(t, 1, "blue-1")
    assert t.legal(0) == [
        {"type": "substitute", "seat": 0, "card": "wild", "color": c} for c in COLORS
    ]
    t.reject("bad-color", "substitute", 0, card="wild")
    events = t.do("substitute", 0, card="wild", color="yellow")
    assert (events[0]["card"], events[0]["color"]) == ("wild", "yellow")
    assert (t.view()["top"], t.view()["color"]) == ("wild", "yellow")
    assert t.to_act() == [2]


# ------------------------------------------------------------------------------------- uno


def uno_table() -> Table:
    """Two cards each: seat 1's first submission is its second-to-last card; the dealer holds a
    legal red-4; seat 1 draws the greens if caught.
    """
    return four(
        ["red-4", "green-4"], ["red-1", "blue-1"], ["green-5", "green-6", "green-7", "green-8"]
    )


def test_the_uno_call_goes_with_the_submission_that_leaves_one_card():
    """The submitter's uno call goes with the submission that leaves it one card."""
    t = uno_table()
    events = submit(t, 1, "red-1", uno=True)
    assert types(events) == ["card-submitted", "uno-called", "prompted"]
    assert t.view()["uncalled"] == []
    assert of_kind(t, 2, "catch") == []
    t.reject("not-catchable", "catch", 2, target=1)


@pytest.mark.parametrize("catcher", [0, 2, 3])
def test_the_submitter_can_be_caught_from_the_submission_for_4_cards(catcher):
    """It can be caught from the submission until the next turn begins (`uno_penalty` 4)."""
    t = uno_table()
    events = submit(t, 1, "red-1")
    assert types(events) == ["card-submitted", "uno-owed", "prompted"]
    assert t.view()["uncalled"] == [1]
    assert {"type": "catch", "seat": catcher, "target": 1} in t.legal(catcher)
    assert {"type": "call-uno", "seat": 1} in t.legal(1)
    events = t.do("catch", catcher, target=1)
    assert types(events) == ["uno-caught", "cards-drawn"]
    assert t.hand(1) == ["blue-1", "green-5", "green-6", "green-7", "green-8"]
    assert t.view()["pending"] == ruling(0, 1)
    t.do("approve", 0)
    assert (t.view()["top"], t.view()["hand_sizes"][1]) == ("red-1", 5)


@pytest.mark.parametrize("when", ["pending", "ruled"])
def test_the_submitter_may_call_uno_before_the_next_turn_begins(when):
    """… or by `call-uno` before the next turn begins."""
    t = uno_table()
    submit(t, 1, "red-1")
    if when == "ruled":
        t.do("approve", 0)
    assert t.do("call-uno", 1) == [{"type": "uno-called", "seat": 1}]
    assert t.view()["uncalled"] == []
    t.reject("not-catchable", "catch", 3, target=1)


@pytest.mark.parametrize("ruled", ["approve", "substitute"])
def test_the_dealers_ruling_does_not_close_the_catch_window(ruled):
    """It can be caught from the submission until the next turn begins (a censorship dealer's
    ruling does not close it).
    """
    t = uno_table()
    submit(t, 1, "red-1")
    events = t.do(ruled, 0, **({"card": "red-4"} if ruled == "substitute" else {}))
    assert "uno-expired" not in types(events)
    assert t.view()["uncalled"] == [1]
    t.do("catch", 3, target=1)
    assert t.view()["hand_sizes"][1] == 5


def test_the_next_seats_submit_closes_the_catch_window():
    """It can be caught from the submission until the next turn begins."""
    t = uno_table()
    submit(t, 1, "red-1")
    t.do("approve", 0)
    events = submit(t, 2, "yellow-1", uno=True)
    assert events[0] == {"type": "uno-expired", "seats": [1]}
    assert t.view()["uncalled"] == []
    t.reject("not-catchable", "catch", 3, target=1)
    t.reject("uno-not-owed", "call-uno", 1)


def test_the_dealers_own_turn_closes_the_catch_window():
    """It can be caught from the submission until the next turn begins (the dealer's own turn)."""
    t = four(["red-4", "green-4"], ["red-reverse", "blue-1"])
    submit(t, 1, "red-reverse")
    t.do("approve", 0)
    assert (t.view()["pending"], t.view()["uncalled"]) == ({"type": "play", "seat": 0}, [1])
    events = t.do("play", 0, card="red-4", uno=False)
    assert events[0] == {"type": "uno-expired", "seats": [1]}
    t.reject("not-catchable", "catch", 3, target=1)


def test_the_dealer_never_has_to_call_uno():
    """The dealer never has to call uno."""
    t = dealer_first(["red-1", "red-2"])
    events = t.do("play", 0, card="red-1", uno=False)
    assert types(events) == ["card-played", "prompted"]
    assert (t.hand(0), t.view()["uncalled"]) == (["red-2"], [])
    assert of_kind(t, 3, "catch") == []
    t.reject("not-catchable", "catch", 3, target=0)
    t.reject("uno-not-owed", "call-uno", 0)


def test_a_dealer_that_calls_uno_anyway_draws_no_penalty():
    """The dealer never has to call uno (a `uno: true` on its play is not a penalised false call:
    penalties for false calls exist only in `basic-plus`).
    """
    t = dealer_first(["red-1", "red-2"])
    play = {"type": "play", "seat": 0, "card": "red-1", "uno": True}
    try:
        events = t.variant.decide(t.state, play)
    except IllegalCommand as error:
        t.reject_raw(error.code, play)
        assert play not in t.legal(0)
    else:
        assert "uno-penalized" not in types(events)
        assert "cards-drawn" not in types(events)


# ------------------------------------------------------------------------------ visibility


def test_the_submitted_card_is_seen_by_the_submitter_and_the_dealer_alone():
    """The submitted card is seen by the submitter and the dealer alone."""
    t = four(["red-7", "green-2", "green-3"], ["wild", "blue-2", "blue-3"])
    (submitted, _prompted) = submit(t, 1, "wild", color="green")
    for viewer in VIEWERS:
        seen = viewer in (0, 1)
        view = t.view(viewer)
        assert view["submission"] == {
            "seat": 1,
            "card": "wild" if seen else None,
            "color": "green" if seen else None,
        }
        event = t.variant.view_event(submitted, viewer)
        assert (event["card"], event["color"]) == (("wild", "green") if seen else (None, None))
        assert (event["seat"], event["dealer"], event["uno"]) == (1, 0, False)
        if not seen:
            assert not shows(view, "wild")
        if viewer is not None:
            assert "wild" not in view["hand"]


def test_a_substitution_shows_the_played_card_to_everyone_but_not_the_kept_one():
    """The submitted card is seen by the submitter and the dealer alone (also once kept)."""
    t = four(["red-7", "green-2", "green-3"], ["wild", "blue-2", "blue-3"])
    submit(t, 1, "wild", color="green")
    played, kept = t.do("substitute", 0, card="red-7")[:2]
    assert t.hand(0) == ["green-2", "green-3", "wild"]
    for viewer in VIEWERS:
        seen = viewer in (0, 1)
        assert t.variant.view_event(played, viewer) == played
        assert t.variant.view_event(kept, viewer)["card"] == ("wild" if seen else None)
        if not seen:
            assert not shows(t.view(viewer), "wild")
    assert t.view(2)["hand_sizes"][0] == 3


def test_the_returned_card_is_seen_by_the_submitter_and_the_dealer_alone():
    """The submitted card is seen by the submitter and the dealer alone; the returned card
    likewise.
    """
    t = four(NOTHING_DEALER, NOTHING_SEAT1, ["yellow-9"])
    submit(t, 1, "blue-2")
    returned, drawn, _prompted = t.do("return", 0, card="yellow-4")
    for viewer in VIEWERS:
        seen = viewer in (0, 1)
        event = t.variant.view_event(returned, viewer)
        assert (event["card"], event["submitted"]) == (
            ("yellow-4", "blue-2") if seen else (None, None)
        )
        assert t.variant.view_event(drawn, viewer)["cards"] == (
            ["yellow-9"] if viewer == 1 else [None]
        )
        view = t.view(viewer)
        if not seen:
            assert not shows(view, "yellow-4")
            assert not shows(view, "blue-2")
        if viewer != 1:
            assert not shows(view, "yellow-9")
    assert "yellow-4" in t.hand(1)
    assert "blue-2" in t.hand(0)


def test_the_card_drawn_after_a_return_is_seen_by_the_submitter_alone():
    """Nothing in a view reveals a card that the viewer may not see (the submitter's draw after a
    return, offered for resubmission).
    """
    t = four(NOTHING_DEALER, NOTHING_SEAT1, ["red-9"])
    submit(t, 1, "blue-2")
    prompted = t.do("return", 0, card="yellow-4")[-1]
    assert t.view(1)["pending"] == {"type": "resubmit", "seat": 1, "card": "red-9"}
    for viewer in [None, 0, 2, 3]:
        assert t.variant.view_event(prompted, viewer)["pending"]["card"] is None
        assert not shows(t.view(viewer), "red-9")


def test_a_seat_whose_last_card_is_with_the_dealer_cannot_be_caught():
    """It can be caught from the submission until the next turn begins (a seat that holds no card
    owes no uno call: its last card is with the dealer, and submitting it is going out).
    """
    t = game(
        [["blue-2", "green-2"], ["red-skip", "red-1"], ["yellow-1", "yellow-2"]],
        dealer_draws=False,
    )
    t.do("submit", 1, card="red-skip", uno=False)
    t.do("approve", 0)  # seat 2 is skipped; the dealer cannot play and passes: seat 1 again
    assert t.view(None)["uncalled"] == [1] and t.state.to_act == (1,)
    t.do("submit", 1, card="red-1", uno=False)
    assert t.view(None)["uncalled"] == []
    t.reject("not-catchable", "catch", 2, target=1)
    t.do("approve", 0)
    assert t.state.status == "match-over" or t.view(None)["last_hand"]["winner"] == 1
