"""`basic-plus` (docs/rules.md "basic-plus"): one test per rule sentence."""

from __future__ import annotations

import pytest

from engine import DECK, POINTS, Variant
from tests.engine.decks import stacked
from tests.engine.table import Table, basic_plus, of_type, types

BP = {"rules": "basic-plus"}

# Four seats of two cards, one colour per seat.
FOUR = [["red-1", "red-2"], ["blue-1", "blue-2"], ["green-1", "green-2"], ["yellow-1", "yellow-2"]]


def of(table: Table, kind: str) -> list[dict]:
    """The legal commands of the seat the game waits for, of one type."""
    seat = table.to_act()[0]
    return [c for c in table.legal(seat) if c["type"] == kind]


# ------------------------------------------------------------------------------ set-up


def test_defaults_are_hand_size_7_single_hand_and_uno_penalty_3():
    """Defaults: `hand_size` 7, `scoring` single-hand, `uno_penalty` 3."""
    variant = Variant.from_spec(BP)
    assert variant.spec["options"] == {
        "hand_size": 7,
        "scoring": "single-hand",
        "target": 500,
        "uno_penalty": 3,
    }


def test_every_seat_is_dealt_7_cards_by_default():
    """Defaults: `hand_size` 7."""
    variant = Variant.from_spec(BP)
    events = variant.start(4, seed=3, first=0)
    dealt = of_type(events, "hand-started")[0]
    assert dealt["hand_size"] == 7
    for seat in range(4):
        assert len(variant.view_event(dealt, seat)["cards"]) == 7


def test_there_is_no_dealer():
    """No dealer."""
    table = basic_plus(FOUR, "red-5", first=2)
    for viewer in [None, 0, 1, 2, 3]:
        assert table.view(viewer)["dealer"] is None
    assert of_type(table.events, "hand-started")[0]["dealer"] is None
    with pytest.raises(ValueError):
        Variant.from_spec(BP).start(4, seed=1, dealer=0)


def test_the_first_seat_is_chosen_at_random_from_the_seed():
    """The first seat is chosen at random (or given as `first`)."""
    variant = Variant.from_spec(BP)

    def first_of(seed: int) -> int:
        return of_type(variant.start(4, seed=seed), "hand-started")[0]["first"]

    firsts = [first_of(seed) for seed in range(40)]
    assert firsts == [first_of(seed) for seed in range(40)]  # reproducible from the seed
    assert set(firsts) == {0, 1, 2, 3}


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_the_first_seat_can_be_given_as_first(first):
    """The first seat is chosen at random (or given as `first`)."""
    variant = Variant.from_spec(BP)
    events = variant.start(4, seed=5, first=first)
    assert of_type(events, "hand-started")[0]["first"] == first
    with pytest.raises(ValueError):
        variant.start(4, seed=5, first=4)


def test_dealing_starts_with_the_first_seat():
    """Dealing: cards are dealt one at a time, clockwise, … (`basic-plus`: from the first seat)."""
    variant = Variant.from_spec({**BP, "options": {"hand_size": 2}})
    deck = list(DECK)  # red-0, red-1, red-1, red-2, red-2, red-3, red-3, …
    state = variant.replay(variant.start(3, deck=deck, first=1))
    hands = [variant.view(state, seat)["hand"] for seat in range(3)]
    assert hands == [[deck[2], deck[5]], [deck[0], deck[3]], [deck[1], deck[4]]]
    assert variant.view(state, None)["top"] == deck[6]


# ------------------------------------------------------------------------------ the flip


def test_a_flipped_skip_skips_the_first_seat():
    """The flipped card is resolved as if the seat on its right had just played it: `skip` …"""
    table = basic_plus(FOUR, "red-skip", first=1)
    view = table.view()
    assert view["to_act"] == [2]
    assert view["pending"] == {"type": "play", "seat": 2}
    assert view["hand_sizes"] == [2, 2, 2, 2]
    assert view["direction"] == "clockwise"


def test_a_flipped_draw2_makes_the_first_seat_draw_2_and_lose_its_turn():
    """`draw2` makes it draw 2 and lose its turn."""
    table = basic_plus(FOUR, "red-draw2", draw=["green-7", "green-8"], first=1)
    assert table.hand(1) == ["blue-1", "blue-2", "green-7", "green-8"]
    assert table.view()["hand_sizes"] == [2, 4, 2, 2]
    assert table.to_act() == [2]
    assert table.view()["color"] == "red"


@pytest.mark.parametrize(
    ("seats", "first", "expected"),
    [(4, 1, 3), (3, 1, 2), (3, 0, 1), (2, 1, 1), (2, 0, 0)],
)
def test_a_flipped_reverse_passes_the_turn_to_the_seat_right_of_the_seat_right_of_the_first(
    seats, first, expected
):
    """`reverse`: the turn passes … to the seat on *its* right (two seats: back to the first)."""
    table = basic_plus(FOUR[:seats], "red-reverse", first=first)
    view = table.view()
    assert view["direction"] == "counter-clockwise"
    assert view["to_act"] == [expected]
    assert view["pending"] == {"type": "play", "seat": expected}
    # Play goes on counter-clockwise from there.
    table.do("draw", expected)
    assert table.to_act() == [(expected - 1) % seats]


def test_a_flipped_number_card_lets_the_first_seat_play():
    """A number card lets the first seat play."""
    table = basic_plus(FOUR, "blue-5", first=2)
    view = table.view()
    assert view["to_act"] == [2]
    assert view["pending"] == {"type": "play", "seat": 2}
    assert (view["top"], view["color"]) == ("blue-5", "blue")
    assert view["hand_sizes"] == [2, 2, 2, 2]


def test_a_flipped_wild_lets_the_first_seat_name_the_colour_then_play():
    """For a black card the first seat names the colour (`choose-color`)."""
    table = basic_plus(FOUR, "wild", first=3)
    assert table.view()["pending"] == {"type": "color", "seat": 3, "after": "turn"}
    assert table.to_act() == [3]
    assert [c["color"] for c in of(table, "choose-color")] == ["red", "yellow", "green", "blue"]
    assert of(table, "play") == [] and of(table, "draw") == []
    table.reject("unexpected-command", "play", 3, card="yellow-1", uno=False)
    table.do("choose-color", 3, color="yellow")
    view = table.view()
    assert (view["top"], view["color"]) == ("wild", "yellow")
    assert view["to_act"] == [3]
    assert view["pending"] == {"type": "play", "seat": 3}
    assert view["hand_sizes"] == [2, 2, 2, 2]
    table.do("play", 3, card="yellow-1", uno=True)
    assert table.to_act() == [0]


def test_a_flipped_wild_draw4_lets_the_first_seat_name_the_colour_then_draw_4_and_lose_its_turn():
    """After a `wild-draw4` it then draws 4 and loses its turn."""
    draw = ["green-7", "green-8", "green-9", "blue-9"]
    table = basic_plus(FOUR, "wild-draw4", draw=draw, first=1)
    assert table.view()["pending"] == {"type": "color", "seat": 1, "after": "flip-draw4"}
    assert table.view()["hand_sizes"] == [2, 2, 2, 2]
    events = table.do("choose-color", 1, color="red")
    assert types(events) == ["color-chosen", "cards-drawn", "prompted"]
    assert table.hand(1) == ["blue-1", "blue-2", *draw]
    view = table.view()
    assert (view["top"], view["color"]) == ("wild-draw4", "red")
    assert view["to_act"] == [2]
    assert view["hand_sizes"] == [2, 6, 2, 2]


@pytest.mark.parametrize("flip", ["wild", "wild-draw4", "red-skip", "red-draw2", "red-reverse"])
def test_no_card_is_re_flipped(flip):
    """No card is re-flipped."""
    table = basic_plus(FOUR, flip, first=0)
    assert types(table.events).count("card-flipped") == 1
    assert "card-reinserted" not in types(table.events)
    view = table.view()
    assert view["top"] == flip
    assert view["discard_pile"] == 1


# ------------------------------------------------------------------------------ a turn


def test_a_turn_may_be_a_draw_even_with_a_playable_card():
    """A turn is exactly one of: play a matching card, or draw one card (always allowed)."""
    table = basic_plus([["red-1", "red-2"], ["blue-1", "blue-2"]], "red-5", draw=["blue-7"])
    legal = table.legal(0)
    assert {"type": "draw", "seat": 0} in legal
    assert {"type": "play", "seat": 0, "card": "red-1", "uno": False} in legal
    table.do("draw", 0)
    assert table.hand(0) == ["red-1", "red-2", "blue-7"]
    assert table.to_act() == [1]


def test_a_turn_may_be_a_play_of_a_matching_card_only():
    """A turn is exactly one of: play a matching card, or draw one card (always allowed)."""
    table = basic_plus([["red-1", "blue-2"], ["blue-1", "green-2"]], "red-5")
    assert {c["card"] for c in of(table, "play")} == {"red-1"}
    table.reject("card-does-not-match", "play", 0, card="blue-2", uno=False)
    table.do("play", 0, card="red-1", uno=False)
    assert table.view()["top"] == "red-1"
    assert table.to_act() == [1]


def test_there_is_no_play_after_drawing():
    """No play after drawing."""
    table = basic_plus([["red-1", "red-2"], ["blue-1", "blue-2"]], "red-5", draw=["red-9"])
    events = table.do("draw", 0)
    # The drawn red-9 is playable, but the turn is over at once.
    assert types(events) == ["cards-drawn", "prompted"]
    assert table.view()["pending"] == {"type": "play", "seat": 1}
    table.reject("not-your-turn", "play", 0, card="red-9", uno=False)
    assert all(c["type"] not in ("play", "pass") for c in table.legal(0))


def test_there_is_no_passing():
    """No passing."""
    table = basic_plus([["red-1", "red-2"], ["blue-1", "blue-2"]], "red-5", draw=["red-9"])
    assert all(c["type"] != "pass" for seat in (0, 1) for c in table.legal(seat))
    table.reject("unexpected-command", "pass", 0)
    table.do("draw", 0)
    table.reject("not-your-turn", "pass", 0)
    table.reject("unexpected-command", "pass", 1)


# ------------------------------------------------------------------------- black cards


def test_black_cards_may_always_be_played():
    """Black cards may always be played."""
    table = basic_plus([["red-1", "wild-draw4", "wild"], ["blue-1", "blue-2", "blue-3"]], "red-5")
    plays = of(table, "play")
    assert {(c["card"], c.get("color")) for c in plays} >= {
        ("wild-draw4", "green"),
        ("wild", "blue"),
        ("red-1", None),
    }
    table.do("play", 0, card="wild-draw4", color="green", uno=False)
    assert table.view()["color"] == "green"


@pytest.mark.parametrize("card", ["wild", "wild-draw4"])
def test_a_black_card_may_be_the_last_card(card):
    """Black cards may always be played, including as the last card."""
    table = basic_plus([["red-1", card], ["blue-1", "blue-2"]], "red-5", draw=["green-3"])
    table.do("play", 0, card="red-1", uno=True)
    table.do("draw", 1)
    assert {"type": "play", "seat": 0, "card": card, "uno": False} in table.legal(0)
    events = table.do("play", 0, card=card, uno=False)
    assert "hand-ended" in types(events)
    view = table.view()
    assert view["last_hand"]["winner"] == 0
    assert view["status"] == "match-over"
    assert view["winner"] == 0


def test_there_is_no_challenge_the_next_seat_draws_4_at_once():
    """There is no challenge."""
    table = basic_plus(
        [["red-1", "wild-draw4"], ["blue-1", "blue-2"], ["green-1", "green-2"]],
        "red-5",
        draw=["yellow-1", "yellow-2", "yellow-3", "yellow-4"],
    )
    # Seat 0 holds red-1 (the current colour): in official this wild-draw4 could be challenged.
    events = table.do("play", 0, card="wild-draw4", color="blue", uno=True)
    assert "challenge-resolved" not in types(events)
    assert of_type(events, "cards-drawn") == [
        {
            "type": "cards-drawn",
            "seat": 1,
            "cards": ["yellow-1", "yellow-2", "yellow-3", "yellow-4"],
            "reason": "wild-draw4",
        }
    ]
    view = table.view()
    assert view["to_act"] == [2]
    assert view["pending"] == {"type": "play", "seat": 2}
    assert view["hand_sizes"] == [1, 6, 2]
    assert all(c["type"] not in ("challenge", "accept") for s in range(3) for c in table.legal(s))
    table.reject("not-your-turn", "challenge", 1)
    table.reject("not-your-turn", "accept", 1)


@pytest.mark.parametrize(
    ("card", "drawn"),
    [("red-draw2", ["blue-8", "blue-9"]), ("wild-draw4", ["blue-6", "blue-7", "blue-8", "blue-9"])],
)
def test_a_last_draw_card_still_makes_the_next_seat_draw_and_counts_in_the_points(card, drawn):
    """A last `draw2` or `wild-draw4` still makes the next seat draw (it counts in the points)."""
    table = basic_plus(
        [["red-1", card], ["green-1", "green-2"], ["yellow-3", "yellow-4"]],
        "red-5",
        draw=["blue-0", "blue-1", *drawn],
    )
    table.do("play", 0, card="red-1", uno=True)
    table.do("draw", 1)  # blue-0
    table.do("draw", 2)  # blue-1
    events = table.do("play", 0, card=card, uno=False)
    ended = of_type(events, "hand-ended")[0]
    victim = ended["cards_left"][1]
    assert victim == ["green-1", "green-2", "blue-0", *drawn]
    assert ended["points"][1] == sum(POINTS[c] for c in victim)
    assert ended["gained"][0] == ended["points"][1] + ended["points"][2]
    assert table.view()["scores"][0] == ended["gained"][0]


# -------------------------------------------------------------------------------- uno

# Seat 0 goes down to one card with its first play; penalties come from the top of the pile.
UNO_HANDS = [["red-1", "red-2"], ["blue-1", "blue-2"], ["green-1", "green-2"]]
PENALTY = ["yellow-1", "yellow-2", "yellow-3"]


def down_to_one(uno: bool) -> Table:
    table = basic_plus(UNO_HANDS, "red-5", draw=PENALTY)
    table.do("play", 0, card="red-1", uno=uno)
    return table


def test_a_seat_with_exactly_one_card_may_call_uno_any_number_of_times():
    """Uno: a seat with exactly one card may `call-uno` any number of times."""
    table = down_to_one(uno=True)
    assert {"type": "call-uno", "seat": 0} in table.legal(0)
    for _ in range(3):
        events = table.do("call-uno", 0)
        assert events == [{"type": "uno-called", "seat": 0}]
    assert table.view()["hand_sizes"] == [1, 2, 2]
    assert table.view()["uncalled"] == []


def test_a_seat_that_went_down_to_one_without_calling_may_call_later():
    """Uno: a seat with exactly one card may `call-uno` any number of times."""
    table = down_to_one(uno=False)
    assert table.view()["uncalled"] == [0]
    table.do("draw", 1)
    assert table.do("call-uno", 0) == [{"type": "uno-called", "seat": 0}]
    assert table.view()["uncalled"] == []
    assert table.view()["hand_sizes"] == [1, 3, 2]


def test_any_seat_may_catch_a_seat_with_one_card_that_has_not_called_and_it_draws_3():
    """Any seat may `catch` a seat that holds one card and has not called: the target draws 3."""
    table = down_to_one(uno=False)
    assert table.view()["uncalled"] == [0]
    assert {"type": "catch", "seat": 2, "target": 0} in table.legal(2)
    events = table.do("catch", 2, target=0)  # seat 2 is not the seat whose turn it is
    assert events[0] == {"type": "uno-caught", "seat": 2, "target": 0}
    assert table.hand(0) == ["red-2", *PENALTY]
    assert table.view()["hand_sizes"] == [4, 2, 2]
    assert table.view()["uncalled"] == []
    assert table.to_act() == [1]


def test_a_seat_that_has_not_called_stays_catchable_after_the_next_turn():
    """Any seat may `catch` a seat … that has not called since it went down to one."""
    # docs/rules.md's basic-plus catch has no window: only a call (or more cards) ends it.
    table = down_to_one(uno=False)
    table.do("draw", 1)
    table.do("draw", 2)
    assert table.view()["uncalled"] == [0]
    table.do("catch", 1, target=0)
    assert table.view()["hand_sizes"] == [4, 3, 3]


def test_a_call_counts_only_until_the_seat_holds_more_than_one_card_again():
    """Any seat may `catch` a seat … that has not called since it went down to one."""
    table = basic_plus(UNO_HANDS[:2], "red-5", draw=["yellow-5", "green-9", "yellow-6", *PENALTY])
    table.do("play", 0, card="red-1", uno=True)  # called
    table.do("draw", 1)
    table.do("draw", 0)  # green-9: two cards again
    table.do("draw", 1)
    table.do("play", 0, card="red-2", uno=False)  # down to one again, without a call
    assert table.view()["uncalled"] == [0]
    assert table.do("catch", 1, target=0)[0] == {"type": "uno-caught", "seat": 1, "target": 0}
    assert table.hand(0) == ["green-9", *PENALTY]


def test_catching_a_seat_that_has_called_makes_the_catcher_draw_3():
    """A catch of a seat that is not catchable … makes the caller draw 3 (not a rejection)."""
    table = down_to_one(uno=True)
    assert {"type": "catch", "seat": 2, "target": 0} in table.legal(2)
    events = table.do("catch", 2, target=0)
    assert events[0] == {"type": "uno-penalized", "seat": 2, "reason": "wrong-catch"}
    assert table.hand(2) == ["green-1", "green-2", *PENALTY]
    assert table.view()["hand_sizes"] == [1, 2, 5]


def test_catching_a_seat_with_more_than_one_card_makes_the_catcher_draw_3():
    """A catch of a seat that is not catchable … makes the caller draw 3 (not a rejection)."""
    table = basic_plus(UNO_HANDS, "red-5", draw=PENALTY)
    assert {"type": "catch", "seat": 0, "target": 1} in table.legal(0)
    events = table.do("catch", 0, target=1)
    assert events[0] == {"type": "uno-penalized", "seat": 0, "reason": "wrong-catch"}
    assert table.hand(0) == ["red-1", "red-2", *PENALTY]
    assert table.view()["hand_sizes"] == [5, 2, 2]
    assert table.to_act() == [0]


def test_a_seat_cannot_catch_itself():
    """A catch … (basic_plus.py's decision: a seat catching itself is rejected, as in official)."""
    table = down_to_one(uno=False)
    table.reject("bad-target", "catch", 0, target=0)


def test_an_uno_call_by_a_seat_without_exactly_one_card_makes_it_draw_3():
    """An uno call by a seat without exactly one card makes the caller draw 3."""
    table = basic_plus(UNO_HANDS, "red-5", draw=PENALTY)
    assert {"type": "call-uno", "seat": 1} in table.legal(1)
    events = table.do("call-uno", 1)
    assert events[0] == {"type": "uno-penalized", "seat": 1, "reason": "false-call"}
    assert table.hand(1) == ["blue-1", "blue-2", *PENALTY]
    assert table.to_act() == [0]


def test_uno_true_on_a_play_that_leaves_more_than_one_card_is_a_false_call_costing_3():
    """`uno: true` on a play leaving more than one card: in `basic-plus` it costs the penalty."""
    table = basic_plus(
        [["red-1", "red-2", "red-3"], ["blue-1", "blue-2", "blue-3"]], "red-5", draw=PENALTY
    )
    events = table.do("play", 0, card="red-1", uno=True)
    assert types(events)[:3] == ["card-played", "uno-penalized", "cards-drawn"]
    assert events[1] == {"type": "uno-penalized", "seat": 0, "reason": "false-call"}
    assert table.hand(0) == ["red-2", "red-3", *PENALTY]
    assert table.view()["top"] == "red-1"
    assert table.to_act() == [1]


def test_uno_true_on_a_play_that_goes_out_is_ignored():
    """`uno: true` … on a play that goes out it is ignored."""
    table = down_to_one(uno=True)
    table.do("draw", 1)
    table.do("draw", 2)
    events = table.do("play", 0, card="red-2", uno=True)
    assert "uno-penalized" not in types(events)
    assert table.view()["last_hand"]["winner"] == 0


# ----------------------------------------------------------------- stacking, next hand


def test_there_is_no_stacking_on_a_draw2():
    """No stacking."""
    table = basic_plus(
        [["red-draw2", "red-1"], ["blue-draw2", "red-draw2"], ["green-1", "green-2"]],
        "red-5",
        draw=["yellow-1", "yellow-2"],
    )
    table.do("play", 0, card="red-draw2", uno=True)
    assert table.hand(1) == ["blue-draw2", "red-draw2", "yellow-1", "yellow-2"]
    assert table.to_act() == [2]
    assert all(c["type"] != "play" for c in table.legal(1))
    table.reject("not-your-turn", "play", 1, card="blue-draw2", uno=False)


def test_there_is_no_stacking_on_a_wild_draw4():
    """No stacking."""
    table = basic_plus(
        [["wild-draw4", "red-1"], ["wild-draw4", "blue-1"], ["green-1", "green-2"]],
        "red-5",
        draw=["yellow-1", "yellow-2", "yellow-3", "yellow-4"],
    )
    table.do("play", 0, card="wild-draw4", color="green", uno=True)
    assert table.view()["hand_sizes"] == [1, 6, 2]
    assert table.to_act() == [2]
    table.reject("not-your-turn", "play", 1, card="wild-draw4", color="red", uno=False)


def test_the_match_is_one_hand_by_default():
    """Defaults: `scoring` single-hand."""
    table = down_to_one(uno=True)
    table.do("draw", 1)
    table.do("draw", 2)
    events = table.do("play", 0, card="red-2", uno=False)
    assert types(events)[-2:] == ["hand-ended", "match-ended"]
    view = table.view()
    assert (view["status"], view["winner"]) == ("match-over", 0)
    assert table.legal(None) == []


@pytest.mark.parametrize("scoring", ["winner-takes", "running-total"])
def test_the_next_hand_starts_with_the_seat_left_of_the_previous_first_seat(scoring):
    """The next hand (not `single-hand`) starts with the seat left of the previous first seat."""
    table = basic_plus(
        [["blue-1"], ["red-1"], ["green-1"]], "red-5", first=1, scoring=scoring, target=1000
    )
    table.do("play", 1, card="red-1", uno=False)
    view = table.view()
    assert (view["status"], view["last_hand"]["winner"]) == ("hand-over", 1)
    assert table.legal(None) == [{"type": "next-hand"}]

    deck = stacked([["red-7"], ["yellow-7"], ["blue-7"]], "green-9", first=2)
    events = table.do("next-hand", deck=deck)
    started = of_type(events, "hand-started")[0]
    assert (started["hand"], started["first"], started["dealer"]) == (2, 2, None)
    assert [table.hand(s) for s in range(3)] == [["red-7"], ["yellow-7"], ["blue-7"]]
    assert table.state.hands[2] == [deck[0]]  # dealing starts with the new first seat
    assert table.to_act() == [2]
    assert table.view()["hand_number"] == 2


def test_the_hand_after_that_moves_one_seat_left_again_without_a_deck():
    """The next hand … starts with the seat left of the previous first seat."""
    table = basic_plus([["blue-1"], ["red-1"]], "red-5", first=1, scoring="winner-takes")
    table.do("play", 1, card="red-1", uno=False)
    started = of_type(table.do("next-hand"), "hand-started")[0]
    assert started["first"] == 0


# --------------------------------------------------------------------------- reverse


def test_a_reverse_with_two_seats_does_not_act_as_a_skip():
    """`reverse` with two players acts as `skip` (`official`, …): not in `basic-plus`."""
    table = basic_plus([["red-reverse", "red-1"], ["blue-1", "blue-2"]], "red-5")
    table.do("play", 0, card="red-reverse", uno=True)
    view = table.view()
    assert view["direction"] == "counter-clockwise"
    assert view["to_act"] == [1]
    assert view["pending"] == {"type": "play", "seat": 1}


def test_a_reverse_with_three_seats_turns_play_counter_clockwise():
    """Action cards: `reverse` – direction flips."""
    table = basic_plus(
        [["green-1", "green-2"], ["red-reverse", "red-1"], ["blue-1", "blue-2"]], "red-5", first=1
    )
    table.do("play", 1, card="red-reverse", uno=True)
    assert table.view()["direction"] == "counter-clockwise"
    assert table.to_act() == [0]
