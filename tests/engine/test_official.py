"""docs/rules.md "Table, turns and common rules" as they apply to `official`, and its "official".

Unless a test says otherwise: three seats, seat 0 deals, so seat 1 is dealt first and plays first.
"""

from __future__ import annotations

import pytest

from engine import DECK, Variant
from tests.engine.decks import stacked
from tests.engine.table import Table, filled, of_type, official, types

COLORS = ["red", "yellow", "green", "blue"]


def play(seat: int, card: str, **fields: object) -> dict[str, object]:
    return {"type": "play", "seat": seat, "card": card, "uno": False, **fields}


def plays(table: Table, seat: int) -> set[str]:
    """The cards `seat` may play now, by its legal commands."""
    return {c["card"] for c in table.legal(seat) if c["type"] == "play"}


# ------------------------------------------------------------------------------ common terms


def test_seats_sit_clockwise_and_a_hand_starts_clockwise():
    """Seats 0 … n-1 sit clockwise; "left" is the next seat clockwise; a hand starts clockwise."""
    t = official(
        [["red-1", "red-2"], ["red-3", "red-4"], ["red-6", "red-7"], ["red-8", "red-9"]],
        "red-5",
        dealer=2,
    )
    assert t.view()["direction"] == "clockwise"
    assert t.to_act() == [3]
    t.do("play", 3, card="red-8")
    assert t.to_act() == [0]
    t.do("play", 0, card="red-1")
    assert t.to_act() == [1]


def test_the_current_colour_is_the_colour_of_the_top_discard():
    """The current colour is the colour of the top discard."""
    t = official([["red-1", "red-2"], ["blue-5", "blue-7"], ["green-1", "green-2"]], "red-5")
    assert (t.view()["top"], t.view()["color"]) == ("red-5", "red")
    t.do("play", 1, card="blue-5")
    assert (t.view()["top"], t.view()["color"]) == ("blue-5", "blue")


def test_the_current_colour_is_the_colour_named_for_a_black_card():
    """The current colour is the colour named for a black card."""
    t = official([["red-1", "red-2"], ["wild", "blue-7"], ["green-1", "red-3"]], "red-5")
    t.do("play", 1, card="wild", color="green")
    assert (t.view()["top"], t.view()["color"]) == ("wild", "green")
    assert plays(t, 2) == {"green-1"}


@pytest.mark.parametrize(
    ("flip", "card", "ok"),
    [
        ("red-5", "red-9", True),  # the current colour
        ("red-skip", "red-3", True),
        ("red-5", "blue-5", True),  # the same number
        ("red-5", "blue-6", False),
        ("red-skip", "blue-skip", True),  # the same action
        ("red-reverse", "blue-reverse", True),
        ("red-draw2", "blue-draw2", True),
        ("red-skip", "blue-reverse", False),
        ("red-draw2", "blue-skip", False),
        ("red-reverse", "blue-draw2", False),
        ("red-5", "wild", True),  # black
        ("red-skip", "wild-draw4", True),
    ],
)
def test_a_card_matches_by_colour_by_rank_or_when_black(flip, card, ok):
    """A card matches when it has the current colour, or the same rank as the top, or is black."""
    # Two seats: seat 1 plays on a number card; after every action flip the dealer, seat 0, does.
    t = official([[card, "yellow-1"], [card, "yellow-2"]], flip)
    seat = t.to_act()[0]
    assert (card in plays(t, seat)) is ok
    color = "blue" if card.startswith("wild") else None
    if ok:
        t.do("play", seat, card=card, uno=False, **({"color": color} if color else {}))
        assert t.view()["top"] == card
    else:
        t.reject("card-does-not-match", "play", seat, card=card, uno=False)


def seven_full_hands(given: dict[int, list[str]], flip: str, draw: list[str]) -> Table:
    """Seven seats of 15 cards, seat 0 first: after the flip only `draw` is left to draw."""
    hands = filled(7, 15, given, [flip, *draw])
    return official(hands, flip, draw, dealer=6)


def reshuffled() -> tuple[Table, list[dict]]:
    """Seats 0–2 play on the flip, seats 3 and 4 draw the last two cards, seat 5 needs one more."""
    t = seven_full_hands({0: ["red-6"], 1: ["red-7"], 2: ["red-8"]}, "red-5", ["blue-1", "blue-2"])
    for seat, card in [(0, "red-6"), (1, "red-7"), (2, "red-8")]:
        t.do("play", seat, card=card, uno=False)
    t.do("draw", 3)
    t.do("draw", 4)
    assert t.view()["draw_pile"] == 0
    return t, t.do("draw", 5)


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_less_its_top_card():
    """When a draw is needed and the draw pile is empty, the discard pile except its top card is
    shuffled into a new draw pile.
    """
    t, events = reshuffled()
    assert types(events)[:2] == ["pile-reshuffled", "cards-drawn"]
    assert sorted(events[0]["order"]) == ["red-5", "red-6", "red-7"]
    view = t.view()
    assert (view["top"], view["discard_pile"], view["draw_pile"]) == ("red-8", 1, 2)
    assert view["hand_sizes"][5] == 16


def test_the_new_order_of_a_reshuffle_is_recorded_so_that_replays_are_exact():
    """The new order is recorded in an event so that replays are exact."""
    t, events = reshuffled()
    order = events[0]["order"]  # top card first
    assert events[1]["cards"] == order[:1]
    assert t.hand(5)[-1] == order[0]
    t.do("pass", 5)  # every card in the new pile is red: playable, kept
    t.do("draw", 6)
    assert t.hand(6)[-1] == order[1]
    assert t.replayed() == t.state
    # Players learn that a reshuffle happened, not the order.
    for seat in (5, None):
        assert t.variant.view_event(events[0], seat)["order"] == [None] * 3


def test_a_draw_with_no_card_left_anywhere_gets_fewer_cards():
    """If no card is left anywhere, the draw simply gets fewer cards."""
    t = seven_full_hands({0: ["wild-draw4"]}, "red-5", ["blue-1", "blue-2"])
    t.do("play", 0, card="wild-draw4", color="red", uno=False)
    events = t.do("accept", 1)
    drawn = [card for e in of_type(events, "cards-drawn") for card in e["cards"]]
    assert drawn == ["blue-1", "blue-2", "red-5"]  # three of the four
    assert t.view()["hand_sizes"][1] == 18
    assert (t.view()["draw_pile"], t.view()["discard_pile"]) == (0, 1)
    assert t.to_act() == [2]


def test_a_draw_that_finds_no_card_anywhere_ends_the_turn():
    """A draw that finds no card anywhere ends the turn."""
    t = seven_full_hands({}, "red-5", ["blue-1", "blue-2"])
    t.do("draw", 0)
    t.do("draw", 1)
    events = t.do("draw", 2)
    assert not [card for e in of_type(events, "cards-drawn") for card in e["cards"]]
    assert t.view()["hand_sizes"][2] == 15
    assert t.to_act() == [3]
    assert t.view()["pending"] == {"type": "play", "seat": 3}


def test_a_random_deal_is_recorded_as_the_resulting_deck_order():
    """Every shuffle is recorded as the resulting card order in an event."""
    v = Variant.from_spec({"rules": "official"})
    events = v.start(4, seed=7)
    assert v.start(4, seed=7) == events
    (hand,) = of_type(events, "hand-started")
    assert sorted(hand["deck"]) == sorted(DECK)
    again = v.start(4, deck=hand["deck"], dealer=hand["dealer"])
    assert v.replay(again).hands == v.replay(events).hands


def test_a_game_starts_from_a_stacked_deck_and_a_given_dealer():
    """A game can be started from a given deck order ("stacked deck") and a given dealer."""
    deck = stacked([["red-1"], ["red-2"], ["red-3"]], "red-5", first=2)
    v = Variant.from_spec({"rules": "official", "options": {"hand_size": 1}})
    events = v.start(3, deck=deck, dealer=1)
    (hand,) = of_type(events, "hand-started")
    assert (hand["deck"], hand["dealer"], hand["first"]) == (deck, 1, 2)
    state = v.replay(events)
    assert [v.view(state, s)["hand"] for s in range(3)] == [["red-1"], ["red-2"], ["red-3"]]


def test_cards_are_dealt_one_at_a_time_clockwise_from_the_left_of_the_dealer():
    """Cards are dealt one at a time, clockwise, starting with the seat left of the dealer; then the
    next card is flipped; the rest is the draw pile, in order.
    """
    deck = list(DECK)  # red-0, red-1, red-1, red-2, red-2, red-3, red-3, red-4, red-4, red-5, …
    v = Variant.from_spec({"rules": "official", "options": {"hand_size": 3}})
    t = Table(v, v.start(3, deck=deck, dealer=1))
    assert t.hand(2) == [deck[0], deck[3], deck[6]]
    assert t.hand(0) == [deck[1], deck[4], deck[7]]
    assert t.hand(1) == [deck[2], deck[5], deck[8]]
    assert t.view()["top"] == deck[9]
    assert t.view()["draw_pile"] == 108 - 10
    t.do("draw", 2)
    assert t.hand(2)[-1] == deck[10]


@pytest.mark.parametrize("flip", ["red-5", "red-draw2", "wild-draw4"])
def test_dealing_the_flip_and_its_effects_are_the_first_events_of_a_hand(flip):
    """Dealing, the flip and the flip's effects all happen inside `start`: the first events of a
    hand already contain them.
    """
    t = official([["red-1"], ["red-2"], ["red-3"]], flip, ["blue-3", "blue-4", "blue-5"])
    expected = {
        "red-5": ["card-flipped", "prompted"],
        "red-draw2": ["card-flipped", "cards-drawn", "prompted"],
        "wild-draw4": ["card-flipped", "card-reinserted", "card-flipped", "prompted"],
    }[flip]
    assert types(t.events) == ["match-started", "hand-started", *expected]
    assert t.view()["pending"]["type"] == "play"


@pytest.mark.parametrize("size", [1, 7, 15])
def test_hand_size_is_an_option_from_1_to_15(size):
    """`hand_size` is an option of every ruleset: 1–15."""
    v = Variant.from_spec({"rules": "official", "options": {"hand_size": size}})
    # The canonical deck order flips a number card for each of these sizes.
    state = v.replay(v.start(4, deck=list(DECK), dealer=0))
    assert v.view(state, None)["hand_sizes"] == [size] * 4


@pytest.mark.parametrize("size", [0, 16, "7", 7.0, True, None])
def test_hand_size_outside_1_to_15_is_refused(size):
    """`hand_size` is an option of every ruleset: 1–15."""
    with pytest.raises(ValueError, match="hand_size"):
        Variant.from_spec({"rules": "official", "options": {"hand_size": size}})


def test_hand_size_defaults_to_7():
    """`hand_size` … default 7."""
    v = Variant.from_spec({"rules": "official"})
    state = v.replay(v.start(3, deck=list(DECK), dealer=0))
    assert v.view(state, None)["hand_sizes"] == [7, 7, 7]


def test_a_drawn_card_that_cannot_be_played_ends_the_turn_at_once():
    """Drawing one card in a turn: if the drawn card cannot be played, the turn ends at once."""
    t = official(
        [["red-1", "red-2"], ["blue-1", "blue-2"], ["red-3", "red-4"]], "red-5", ["green-3"]
    )
    t.do("draw", 1)
    assert t.hand(1) == ["blue-1", "blue-2", "green-3"]
    assert t.to_act() == [2]
    assert t.view()["pending"] == {"type": "play", "seat": 2}


def test_a_playable_drawn_card_may_be_played_and_no_other_card():
    """If it can be played, the seat then either plays exactly that card …"""
    t = official([["red-1", "red-2"], ["red-9", "blue-2"], ["red-3", "red-4"]], "red-5", ["red-7"])
    t.do("draw", 1)
    assert t.to_act() == [1]
    assert t.view(1)["pending"] == {"type": "drawn", "seat": 1, "card": "red-7"}
    assert t.legal(1) == [play(1, "red-7"), {"type": "pass", "seat": 1}]
    t.reject("must-play-drawn-card", "play", 1, card="red-9", uno=False)
    t.reject("unexpected-command", "draw", 1)
    t.do("play", 1, card="red-7", uno=False)
    assert t.view()["top"] == "red-7"
    assert t.to_act() == [2]


def test_a_playable_drawn_card_may_be_kept_with_a_pass():
    """… or `pass`es."""
    t = official([["red-1", "red-2"], ["red-9", "blue-2"], ["red-3", "red-4"]], "red-5", ["red-7"])
    t.do("draw", 1)
    t.do("pass", 1)
    assert t.hand(1) == ["red-9", "blue-2", "red-7"]
    assert (t.view()["top"], t.to_act()) == ("red-5", [2])


def test_only_the_seat_that_drew_sees_which_card_it_may_play():
    """Nothing in a view reveals a card that the viewer may not see."""
    t = official([["red-1", "red-2"], ["red-9", "blue-2"], ["red-3", "red-4"]], "red-5", ["red-7"])
    events = t.do("draw", 1)
    hidden = {"type": "drawn", "seat": 1, "card": None}
    assert t.view(0)["pending"] == t.view(2)["pending"] == t.view(None)["pending"] == hidden
    for seat in (0, 2, None):
        assert [t.variant.view_event(e, seat) for e in events] == [
            {**events[0], "cards": [None]},
            {**events[1], "pending": hidden},
        ]


def test_to_act_lists_the_seat_whose_turn_it_is_and_out_of_turn_options_are_in_legal_commands():
    """`to_act` lists the seats whose move the game is waiting for; out-of-turn options (uno calls,
    catches) are not in `to_act`; they are in that seat's `legal_commands`.
    """
    t = official([["red-1", "red-2"], ["red-6", "red-7"], ["green-3", "red-9"]], "red-5")
    t.do("play", 1, card="red-6", uno=False)
    assert t.to_act() == [2]
    assert t.view()["uncalled"] == [1]
    assert t.legal(1) == [{"type": "call-uno", "seat": 1}]
    assert t.legal(0) == [{"type": "catch", "seat": 0, "target": 1}]
    assert t.legal(2) == [
        play(2, "red-9"),
        play(2, "red-9", uno=True),
        {"type": "draw", "seat": 2},
        {"type": "catch", "seat": 2, "target": 1},
    ]


def test_to_act_lists_the_seat_that_must_decide_on_a_challenge():
    """`to_act` lists … a seat that must decide on a pending draw or challenge."""
    t = official([["red-1", "red-2"], ["wild-draw4", "red-7"], ["green-3", "red-9"]], "red-5")
    t.do("play", 1, card="wild-draw4", color="blue", uno=False)
    assert t.to_act() == [2]
    assert t.view()["pending"] == {"type": "challenge", "seat": 2, "offender": 1}
    assert t.legal(2)[:2] == [{"type": "accept", "seat": 2}, {"type": "challenge", "seat": 2}]


# Seat 1 goes down to one card on its first play without calling uno.
UNO_HANDS = [["red-1", "red-2"], ["red-6", "red-7"], ["green-3", "red-9"]]


@pytest.mark.parametrize(
    "command", [{"type": "draw"}, {"type": "play", "card": "red-9", "uno": True}]
)
def test_the_catch_window_closes_when_the_next_seat_takes_its_turn(command):
    """Catch windows: the window against a seat that owes an uno call closes when the next turn
    begins, that is when a command is recorded from another seat that is in `to_act` because it
    is its turn.
    """
    t = official(UNO_HANDS, "red-5", ["blue-8"])
    t.do("play", 1, card="red-6", uno=False)
    events = t.do(command["type"], 2, **{k: v for k, v in command.items() if k != "type"})
    assert events[0] == {"type": "uno-expired", "seats": [1]}
    assert t.view()["uncalled"] == []
    t.reject("not-catchable", "catch", 0, target=1)


@pytest.mark.parametrize("decision", ["accept", "challenge"])
def test_the_catch_window_closes_when_the_seat_facing_a_challenge_decides(decision):
    """… or because it must decide on a pending draw or challenge."""
    t = official([["red-1", "red-2"], ["wild-draw4", "blue-7"], ["green-3", "red-9"]], "red-5")
    t.do("play", 1, card="wild-draw4", color="blue", uno=False)
    assert t.view()["uncalled"] == [1]
    events = t.do(decision, 2)
    assert events[0] == {"type": "uno-expired", "seats": [1]}
    assert t.view()["uncalled"] == []


def test_a_catch_or_call_from_the_next_seat_does_not_close_the_window():
    """Catch windows: out-of-turn commands (catches) are not the next turn."""
    t = official(UNO_HANDS, "red-5", ["blue-8", "blue-9"])
    t.do("play", 1, card="red-6", uno=False)
    events = t.do("catch", 2, target=1)
    assert types(events) == ["uno-caught", "cards-drawn"]
    assert t.hand(1) == ["red-7", "blue-8", "blue-9"]
    assert t.to_act() == [2]


def test_the_owing_seats_own_choose_color_does_not_close_its_window():
    """The owing seat's own commands (a `choose-color`) … do not close it."""
    t = official(
        [["red-1", "red-2"], ["wild", "blue-7"], ["green-3", "red-9"]],
        "red-5",
        ["blue-8", "blue-9"],
    )
    t.do("play", 1, card="wild", uno=False)
    assert t.view()["pending"] == {"type": "color", "seat": 1, "after": "play"}
    assert t.view()["uncalled"] == [1]
    events = t.do("choose-color", 1, color="blue")
    assert "uno-expired" not in types(events)
    assert t.view()["uncalled"] == [1]
    t.do("catch", 0, target=1)
    assert t.hand(1) == ["blue-7", "blue-8", "blue-9"]


def test_an_automatic_draw_penalty_does_not_close_the_window():
    """The window closes when the next turn begins: a `draw2` victim sends no command, so it stays
    open for the seat after.
    """
    t = official([["red-1", "red-2"], ["red-draw2", "blue-7"], ["green-3", "red-9"]], "red-5")
    t.do("play", 1, card="red-draw2", uno=False)
    assert (t.to_act(), t.view()["uncalled"]) == ([0], [1])
    t.do("catch", 2, target=1)
    assert t.view()["hand_sizes"] == [2, 3, 4]
    assert t.to_act() == [0]


def test_once_the_window_has_closed_the_call_is_no_longer_owed():
    """Once the window has closed the call is no longer owed."""
    t = official(UNO_HANDS, "red-5", ["blue-8"])
    t.do("play", 1, card="red-6", uno=False)
    t.do("play", 2, card="red-9", uno=True)
    assert t.legal(1) == []
    t.reject("uno-not-owed", "call-uno", 1)


def test_uno_true_on_a_play_that_leaves_more_than_one_card_is_rejected():
    """`uno: true` on a play that leaves the seat more than one card is rejected."""
    t = official(
        [["red-1", "red-2", "red-3"], ["red-6", "red-7", "red-8"], ["green-3", "red-9", "blue-1"]],
        "red-5",
    )
    t.reject("uno-not-due", "play", 1, card="red-6", uno=True)
    assert all(not c.get("uno") for c in t.legal(1))


def test_uno_true_on_a_play_that_goes_out_is_ignored():
    """`uno: true` … on a play that goes out it is ignored."""
    t = official([["red-1"], ["red-6"], ["green-3"]], "red-5")
    events = t.do("play", 1, card="red-6", uno=True)
    assert types(events) == ["card-played", "hand-ended"]
    assert t.view()["status"] == "hand-over"


def test_reverse_with_two_players_acts_as_skip():
    """`reverse` with two players acts as `skip` (`official`)."""
    t = official([["red-1", "red-2"], ["red-reverse", "red-7"]], "red-5")
    assert t.to_act() == [1]
    t.do("play", 1, card="red-reverse", uno=False)
    assert t.to_act() == [1]
    assert t.view()["pending"] == {"type": "play", "seat": 1}
    assert t.view()["direction"] == "counter-clockwise"


def test_a_draw_penalty_that_leaves_no_choice_is_applied_at_once():
    """A draw penalty that leaves the victim no choice (a plain `draw2`) is applied at once; the
    victim's turn is skipped without a command.
    """
    t = official(
        [
            ["red-1", "red-2", "red-3"],
            ["red-draw2", "red-7", "red-8"],
            ["green-3", "red-9", "green-4"],
        ],
        "red-5",
        ["blue-1", "blue-2"],
    )
    events = t.do("play", 1, card="red-draw2", uno=False)
    assert types(events) == ["card-played", "cards-drawn", "prompted"]
    assert events[1] == {
        "type": "cards-drawn",
        "seat": 2,
        "cards": ["blue-1", "blue-2"],
        "reason": "draw2",
    }
    assert all(2 not in e.get("to_act", ()) for e in events)
    assert t.to_act() == [0]


# ---------------------------------------------------------------------------------- official


def test_official_defaults():
    """Defaults: `hand_size` 7, `scoring` winner-takes, `target` 500, `uno_penalty` 2."""
    assert Variant.from_spec({"rules": "official"}).spec == {
        "rules": "official",
        "options": {"hand_size": 7, "scoring": "winner-takes", "target": 500, "uno_penalty": 2},
    }


# Four seats, seat 1 deals: seat 2 is left of the dealer, then 3, then 0.
FOUR = [
    ["green-1", "green-2"],
    ["green-3", "green-4"],
    ["green-6", "green-7"],
    ["green-8", "green-9"],
]


def test_a_flipped_number_card_lets_the_seat_left_of_the_dealer_play():
    """Start of a hand: deal `hand_size` cards to each seat, flip the top card."""
    t = official(FOUR, "red-5", dealer=1)
    assert (t.view()["top"], t.view()["color"], t.to_act()) == ("red-5", "red", [2])
    assert t.view()["hand_sizes"] == [2, 2, 2, 2]


def test_a_flipped_wild_draw4_goes_back_below_the_top_card_and_the_next_card_is_flipped():
    """A flipped `wild-draw4` is put back at a random place in the draw pile below its top card
    (recorded), and the next card is flipped.
    """
    t = official(FOUR, "wild-draw4", ["red-5", "blue-3"], dealer=1)
    reinserted = of_type(t.events, "card-reinserted")
    assert [e["card"] for e in reinserted] == ["wild-draw4"]
    assert [e["card"] for e in of_type(t.events, "card-flipped")] == ["wild-draw4", "red-5"]
    view = t.view()
    assert (view["top"], view["color"], view["discard_pile"], view["draw_pile"]) == (
        "red-5",
        "red",
        1,
        99,
    )
    # It went in below the card that was then on top, at the recorded place.
    position = reinserted[0]["position"]
    assert 1 <= position <= 99
    assert t.state.draw[-position] == "wild-draw4"
    assert t.to_act() == [2]


def test_the_place_of_a_reinserted_wild_draw4_is_random_and_hidden_from_players():
    """A flipped `wild-draw4` is put back at a random place in the draw pile below its top card
    (recorded).
    """
    v = Variant.from_spec({"rules": "official", "options": {"hand_size": 2}})
    deck = stacked([["green-1", "green-2"], ["green-3", "green-4"]], "wild-draw4", ["red-5"])
    positions = set()
    for seed in range(12):
        events = v.start(2, deck=deck, dealer=0, seed=seed)
        (reinserted,) = of_type(events, "card-reinserted")
        positions.add(reinserted["position"])
        assert "position" not in v.view_event(reinserted, 0)
        assert "position" not in v.view_event(reinserted, None)
    assert len(positions) > 1
    assert all(1 <= p <= 103 for p in positions)


def test_a_second_flipped_wild_draw4_goes_back_too():
    """A flipped `wild-draw4` is put back …, and the next card is flipped."""
    t = official(FOUR, "wild-draw4", ["wild-draw4", "red-5"], dealer=1)
    assert [e["card"] for e in of_type(t.events, "card-flipped")] == [
        "wild-draw4",
        "wild-draw4",
        "red-5",
    ]
    assert len(of_type(t.events, "card-reinserted")) == 2
    assert t.view()["top"] == "red-5"


def test_a_flipped_skip_skips_the_seat_left_of_the_dealer():
    """Other flipped cards: `skip` skips the seat left of the dealer."""
    t = official(FOUR, "red-skip", dealer=1)
    assert t.to_act() == [3]
    assert t.view()["pending"] == {"type": "play", "seat": 3}
    assert t.view()["hand_sizes"] == [2, 2, 2, 2]


def test_a_flipped_draw2_makes_the_seat_left_of_the_dealer_draw_2_and_lose_its_turn():
    """`draw2` makes that seat draw 2 and lose its turn."""
    t = official(FOUR, "red-draw2", ["blue-1", "blue-2"], dealer=1)
    assert t.hand(2) == ["green-6", "green-7", "blue-1", "blue-2"]
    assert t.to_act() == [3]


def test_a_flipped_reverse_makes_the_dealer_play_first_and_play_goes_counter_clockwise():
    """`reverse` makes the dealer play first and play goes counter-clockwise."""
    t = official([*FOUR[:1], ["red-3", "green-4"], *FOUR[2:]], "red-reverse", dealer=1)
    assert t.view()["direction"] == "counter-clockwise"
    assert t.to_act() == [1]
    t.do("play", 1, card="red-3", uno=False)
    assert t.to_act() == [0]


def test_a_flipped_wild_lets_the_seat_left_of_the_dealer_name_the_colour_then_take_its_turn():
    """`wild` makes the seat left of the dealer name the colour (`choose-color`), then take its
    turn.
    """
    t = official(FOUR, "wild", dealer=1)
    assert t.to_act() == [2]
    assert t.view()["pending"] == {"type": "color", "seat": 2, "after": "turn"}
    assert t.view()["color"] is None
    assert t.legal(2) == [{"type": "choose-color", "seat": 2, "color": c} for c in COLORS]
    t.reject("unexpected-command", "play", 2, card="green-6", uno=False)
    t.do("choose-color", 2, color="green")
    assert (t.view()["color"], t.to_act()) == ("green", [2])
    assert t.view()["pending"] == {"type": "play", "seat": 2}
    t.do("play", 2, card="green-6", uno=False)
    assert t.to_act() == [3]


def test_a_black_card_is_played_with_its_colour_named():
    """A turn is one of: play a matching card (naming a colour for a black card)."""
    t = official([["red-1", "red-2"], ["wild", "red-7"], ["green-3", "red-9"]], "red-5")
    assert play(1, "wild", color="yellow") in t.legal(1)
    t.do("play", 1, card="wild", color="yellow", uno=False)
    assert (t.view()["color"], t.to_act()) == ("yellow", [2])


def test_a_black_card_played_without_a_colour_waits_for_choose_color():
    """A turn is one of: play a matching card (naming a colour for a black card)."""
    t = official([["red-1", "red-2"], ["wild", "red-7"], ["green-3", "red-9"]], "red-5")
    t.do("play", 1, card="wild", uno=True)
    assert t.to_act() == [1]
    assert t.legal(1) == [{"type": "choose-color", "seat": 1, "color": c} for c in COLORS]
    t.do("choose-color", 1, color="green")
    assert (t.view()["color"], t.to_act()) == ("green", [2])


def test_drawing_is_allowed_even_when_holding_a_playable_card():
    """Draw one card. Drawing is allowed even when holding a playable card."""
    t = official(
        [["red-1", "red-2"], ["red-6", "red-7"], ["green-3", "red-9"]], "red-5", ["blue-1"]
    )
    assert {"type": "draw", "seat": 1} in t.legal(1)
    t.do("draw", 1)
    assert t.hand(1) == ["red-6", "red-7", "blue-1"]
    assert t.to_act() == [2]


def test_skip_makes_the_next_seat_lose_its_turn():
    """`skip` – the next seat loses its turn."""
    t = official([["red-1", "red-2"], ["red-skip", "red-7"], ["green-3", "red-9"]], "red-5")
    t.do("play", 1, card="red-skip", uno=False)
    assert t.to_act() == [0]
    assert t.view()["hand_sizes"] == [2, 1, 2]


def test_reverse_flips_the_direction():
    """`reverse` – direction flips."""
    t = official([["red-1", "red-2"], ["red-reverse", "red-7"], ["green-3", "red-9"]], "red-5")
    t.do("play", 1, card="red-reverse", uno=False)
    assert (t.view()["direction"], t.to_act()) == ("counter-clockwise", [0])
    t.do("play", 0, card="red-1", uno=False)
    assert t.to_act() == [2]


def test_draw2_makes_the_next_seat_draw_2_and_lose_its_turn():
    """`draw2` – the next seat draws 2 and loses its turn."""
    t = official(
        [["red-1", "red-2"], ["red-draw2", "red-7"], ["green-3", "red-9"]],
        "red-5",
        ["blue-1", "blue-2"],
    )
    t.do("play", 1, card="red-draw2", uno=False)
    assert t.hand(2) == ["green-3", "red-9", "blue-1", "blue-2"]
    assert t.to_act() == [0]


def test_wild_draw4_names_the_colour_and_the_next_seat_draws_4_and_loses_its_turn_on_accept():
    """`wild-draw4` – colour named, the next seat draws 4 and loses its turn (after the challenge
    decision).
    """
    t = official(
        [["red-1", "red-2"], ["wild-draw4", "blue-7"], ["green-3", "red-9"]],
        "red-5",
        ["blue-1", "blue-2", "blue-3", "blue-4"],
    )
    t.do("play", 1, card="wild-draw4", color="blue", uno=True)
    assert (t.view()["color"], t.to_act()) == ("blue", [2])
    assert t.view()["hand_sizes"] == [2, 1, 2]  # nothing drawn before the decision
    t.do("accept", 2)
    assert t.hand(2) == ["green-3", "red-9", "blue-1", "blue-2", "blue-3", "blue-4"]
    assert (t.view()["top"], t.view()["color"], t.to_act()) == ("wild-draw4", "blue", [0])


def test_wild_draw4_may_always_be_played():
    """`wild-draw4` may always be played."""
    t = official(
        [
            ["red-1", "red-2", "red-3"],
            ["wild-draw4", "red-7", "red-8"],
            ["green-3", "red-9", "blue-1"],
        ],
        "red-5",
    )
    assert "wild-draw4" in plays(t, 1)
    t.do("play", 1, card="wild-draw4", color="green", uno=False)
    assert t.view()["pending"] == {"type": "challenge", "seat": 2, "offender": 1}


CHALLENGE_DRAW = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6"]


def challenged(kept: list[str]) -> tuple[Table, dict]:
    """Seat 1 plays a `wild-draw4` naming green on red-5, keeping `kept`; seat 2 challenges."""
    t = official(
        [["red-1", "red-2", "red-3"], ["wild-draw4", *kept], ["green-3", "red-9", "yellow-1"]],
        "red-5",
        CHALLENGE_DRAW,
    )
    t.do("play", 1, card="wild-draw4", color="green", uno=False)
    (resolved,) = of_type(t.do("challenge", 2), "challenge-resolved")
    return t, resolved


def test_a_guilty_wild_draw4_makes_the_offender_draw_4_and_the_challenger_take_a_normal_turn():
    """Guilty: the offender draws 4, the `wild-draw4` stays on the pile with its named colour, and
    the challenger takes a normal turn.
    """
    t, resolved = challenged(["red-7", "green-8"])
    assert resolved == {
        "type": "challenge-resolved",
        "seat": 2,
        "target": 1,
        "guilty": True,
        "hand": ["red-7", "green-8"],
    }
    assert t.hand(1) == ["red-7", "green-8", *CHALLENGE_DRAW[:4]]
    assert t.hand(2) == ["green-3", "red-9", "yellow-1"]
    assert (t.view()["top"], t.view()["color"]) == ("wild-draw4", "green")
    assert t.to_act() == [2]
    assert t.view()["pending"] == {"type": "play", "seat": 2}
    assert plays(t, 2) == {"green-3"}


@pytest.mark.parametrize(
    "kept",
    [
        ["green-8", "blue-7"],  # no card of the colour that was current (red)
        ["blue-5", "green-8"],  # the same number in another colour is not the colour
        ["wild", "wild-draw4"],  # black cards have no colour
    ],
)
def test_an_honest_wild_draw4_makes_the_challenger_draw_6_and_lose_its_turn(kept):
    """Honest: the challenger draws 6 and loses the turn."""
    t, resolved = challenged(kept)
    assert resolved["guilty"] is False
    assert t.hand(2) == ["green-3", "red-9", "yellow-1", *CHALLENGE_DRAW]
    assert t.hand(1) == kept
    assert (t.view()["color"], t.to_act()) == ("green", [0])


@pytest.mark.parametrize(("held", "guilty"), [("blue-4", True), ("red-4", False)])
def test_honesty_is_judged_against_the_colour_named_for_a_black_top_card(held, guilty):
    """`wild-draw4` is honest only if the player held no card of the colour that was current before
    it.
    """
    t = official(
        [
            ["red-1", "red-2", "red-3"],
            ["wild", "red-7", "green-8"],
            ["wild-draw4", held, "yellow-1"],
        ],
        "red-5",
        CHALLENGE_DRAW,
    )
    t.do("play", 1, card="wild", color="blue", uno=False)
    t.do("play", 2, card="wild-draw4", color="yellow", uno=False)
    events = t.do("challenge", 0)
    assert of_type(events, "challenge-resolved")[0]["guilty"] is guilty


def test_on_a_challenge_the_offenders_hand_is_shown_to_the_challenger_alone():
    """On a challenge the offender's hand is shown to the challenger alone."""
    t, shown = challenged(["red-7", "green-8"])
    assert t.variant.view_event(shown, 2)["hand"] == ["red-7", "green-8"]
    assert t.variant.view_event(shown, 0)["hand"] == [None, None]
    assert t.variant.view_event(shown, None)["hand"] == [None, None]
    assert t.variant.view_event(shown, 0)["guilty"] is True


def test_an_uno_call_may_go_with_the_play():
    """Uno: a play that leaves a seat with one card must carry the uno call (`uno: true`)."""
    t = official(UNO_HANDS, "red-5")
    assert t.legal(1)[:2] == [play(1, "red-6"), play(1, "red-6", uno=True)]
    events = t.do("play", 1, card="red-6", uno=True)
    assert {"type": "uno-called", "seat": 1} in events
    assert t.view()["uncalled"] == []
    t.reject("not-catchable", "catch", 0, target=1)


def test_an_uno_call_may_be_a_separate_command_before_the_next_turn_begins():
    """… or the seat may call it by a separate command before the next turn begins."""
    t = official(UNO_HANDS, "red-5")
    t.do("play", 1, card="red-6", uno=False)
    assert t.do("call-uno", 1) == [{"type": "uno-called", "seat": 1}]
    assert t.view()["uncalled"] == []
    assert t.to_act() == [2]
    t.reject("not-catchable", "catch", 0, target=1)
    t.reject("uno-not-owed", "call-uno", 1)


@pytest.mark.parametrize(("catcher", "penalty"), [(0, 2), (2, 2), (0, 4)])
def test_any_other_seat_may_catch_a_seat_that_has_not_called(catcher, penalty):
    """Until then, any other seat may `catch` a seat that has one card and has not called: it draws
    `uno_penalty`.
    """
    t = official(
        UNO_HANDS, "red-5", CHALLENGE_DRAW, **({"uno_penalty": penalty} if penalty != 2 else {})
    )
    t.do("play", 1, card="red-6", uno=False)
    events = t.do("catch", catcher, target=1)
    assert events[0] == {"type": "uno-caught", "seat": catcher, "target": 1}
    assert t.hand(1) == ["red-7", *CHALLENGE_DRAW[:penalty]]
    assert t.view()["uncalled"] == []
    t.reject("not-catchable", "catch", 0, target=1)


def test_a_catch_of_a_seat_that_is_not_catchable_is_rejected():
    """A catch of a seat that is not catchable is rejected."""
    t = official(UNO_HANDS, "red-5")
    t.reject("not-catchable", "catch", 0, target=1)
    t.do("play", 1, card="red-6", uno=False)
    t.reject("not-catchable", "catch", 1, target=2)
    t.reject("bad-target", "catch", 1, target=1)


def test_an_uno_call_by_a_seat_that_does_not_owe_one_is_rejected():
    """… and so is an uno call by a seat that does not owe one."""
    t = official(UNO_HANDS, "red-5")
    t.reject("uno-not-owed", "call-uno", 1)
    t.do("play", 1, card="red-6", uno=False)
    t.reject("uno-not-owed", "call-uno", 2)
    t.reject("uno-not-owed", "call-uno", 0)


@pytest.mark.parametrize("last", ["red-7", "wild"])
def test_the_hand_ends_when_a_seat_plays_its_last_card(last):
    """The hand ends when a seat plays its last card (a black card too)."""
    t = official([["red-1", "red-2"], ["red-6", last], ["green-3", "red-9"]], "red-5")
    t.do("play", 1, card="red-6", uno=True)
    t.do("play", 2, card="red-9", uno=False)
    t.do("play", 0, card="red-1", uno=True)
    events = t.do("play", 1, card=last, uno=False)
    assert types(events) == ["card-played", "hand-ended"]
    view = t.view()
    assert (view["status"], view["to_act"], view["pending"]) == (
        "hand-over",
        [],
        {"type": "next-hand"},
    )
    assert view["last_hand"]["winner"] == 1
    assert t.legal(0) == t.legal(1) == t.legal(2) == []
    assert t.legal(None) == [{"type": "next-hand"}]


@pytest.mark.parametrize(("last", "count"), [("red-draw2", 2), ("wild-draw4", 4)])
def test_a_last_draw2_or_wild_draw4_still_makes_the_next_seat_draw_with_no_challenge(last, count):
    """If that card is a `draw2` or `wild-draw4`, the next seat still draws first (no challenge on a
    winning card).
    """
    t = official([["red-1"], [last], ["green-3"]], "red-5", CHALLENGE_DRAW)
    events = t.do(
        "play", 1, card=last, uno=False, **({"color": "red"} if last == "wild-draw4" else {})
    )
    assert types(events) == ["card-played", "cards-drawn", "hand-ended"]
    assert t.hand(2) == ["green-3", *CHALLENGE_DRAW[:count]]
    assert t.view()["status"] == "hand-over"
    assert t.view()["pending"] == {"type": "next-hand"}
    assert events[-1]["cards_left"][2] == t.hand(2)
