"""docs/rules.md "newno", rule by rule, on stacked decks.

Unless a test says otherwise: four seats, seat 0 deals (so seat 1 is dealt first; in newno the
dealer only flips), seat ages are equal (so the lowest seat is the youngest). Many tests start
from `turn`: seat 0 opens with red-6 on a flipped red-5 and seat 1 answers with red-8, so play
runs clockwise and it is seat 2's turn on red-8.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine import DECK, Variant
from engine.cards import CARD_CODES
from tests.engine.decks import stacked
from tests.engine.table import Table, of_type, types

COLORS = ["red", "yellow", "green", "blue"]


Hands = str | list[list[str]]


def dealt(hands: Hands) -> list[list[str]]:
    """Hands seat by seat; as text, seats are separated by "/": "red-1 red-2 / blue-6 blue-7"."""
    if isinstance(hands, str):
        return [seat.split() for seat in hands.split("/")]
    return hands


def newno(
    hands: Hands,
    flip: str,
    draw: list[str] | None = None,
    *,
    dealer: int = 0,
    ages: list[int] | None = None,
    **options: Any,
) -> Table:
    """A newno game dealt from a stacked deck (the seat left of `dealer` is dealt first)."""
    hands = dealt(hands)
    variant = Variant.from_spec(
        {"rules": "newno", "options": {"hand_size": len(hands[0]), **options}}
    )
    seats = len(hands)
    deck = stacked(hands, flip, draw, first=(dealer + 1) % seats)
    return Table(variant, variant.start(seats, deck=deck, dealer=dealer, seed=1, ages=ages))


OPENERS = "red-6 yellow-1 yellow-2 / red-8 yellow-3 yellow-4"


def turn(hands: Hands, draw: list[str] | None = None, *, second: int = 1) -> Table:
    """Seat 0 opens with red-6 on a flipped red-5 and `second` answers with red-8.

    `second` 1 sets the direction clockwise, 3 counter-clockwise; either way it is then seat 2's
    turn on red-8. `hands` are the dealt hands, red-6 and red-8 included (usually `OPENERS` for
    seats 0 and 1).
    """
    t = newno(hands, "red-5", draw)
    play(t, 0, "red-6")
    play(t, second, "red-8")
    assert t.to_act() == [2]
    return t


def play(t: Table, seat: int, card: str, **fields: Any) -> list[dict[str, Any]]:
    return t.do("play", seat, card=card, **{"uno": False, **fields})


def plays(t: Table, seat: int) -> set[str]:
    """The cards `seat` may play now, by its legal commands."""
    return {c["card"] for c in t.legal(seat) if c["type"] == "play"}


def kinds(t: Table, seat: int) -> set[str]:
    """The kinds of command `seat` may send now, leaving out the ever-present `catch`."""
    return {c["type"] for c in t.legal(seat)} - {"catch"}


def pending(t: Table) -> dict[str, Any]:
    """The pending decision, without its jump-in window (tested on its own)."""
    return {k: v for k, v in t.view()["pending"].items() if k != "jump"}


def jump(t: Table) -> dict[str, Any] | None:
    return t.view()["pending"].get("jump")


def rotated(hands: list[list[str]], step: int) -> list[list[str]]:
    """Every hand passed one seat: clockwise (`step` 1) or counter-clockwise (-1)."""
    n = len(hands)
    return [hands[(s - step) % n] for s in range(n)]


# ---------------------------------------------------------------------------------- options


def test_the_defaults_are_seven_cards_winner_takes_target_500_and_an_uno_penalty_of_2():
    """Defaults: `hand_size` 7, `scoring` winner-takes, `target` 500, `uno_penalty` 2."""
    variant = Variant.from_spec({"rules": "newno"})
    assert variant.spec == {
        "rules": "newno",
        "options": {"hand_size": 7, "scoring": "winner-takes", "target": 500, "uno_penalty": 2},
    }
    state = variant.replay(variant.start(4, seed=3))
    assert variant.view(state, None)["hand_sizes"] == [7, 7, 7, 7]


@pytest.mark.parametrize(("seats", "size"), [(2, 1), (4, 1), (2, 15), (7, 15)])
def test_the_hand_size_may_be_anything_from_1_to_15(seats, size):
    """`hand_size` 7 (any 1–15)."""
    variant = Variant.from_spec({"rules": "newno", "options": {"hand_size": size}})
    state = variant.replay(variant.start(seats, seed=3))
    assert variant.view(state, None)["hand_sizes"] == [size] * seats


@pytest.mark.parametrize("size", [0, 16, -1, "7", 7.0, None])
def test_a_hand_size_outside_1_to_15_is_refused(size):
    """`hand_size` 7 (any 1–15)."""
    with pytest.raises(ValueError, match="hand_size"):
        Variant.from_spec({"rules": "newno", "options": {"hand_size": size}})


# ------------------------------------------------------------------------------ open start

OPEN = "red-1 yellow-1 / red-2 yellow-2 / red-3 green-1 / red-4 green-2"


def test_at_the_open_start_every_seat_is_in_to_act():
    """Open start: the dealer flips the top card; every seat is in `to_act`."""
    t = newno(OPEN, "red-5")
    assert types(t.events) == ["match-started", "hand-started", "card-flipped", "prompted"]
    view = t.view()
    assert (view["top"], view["color"], view["direction"]) == ("red-5", "red", "clockwise")
    assert view["to_act"] == [0, 1, 2, 3]
    assert view["pending"] == {"type": "first-play", "seats": [0, 1, 2, 3], "leeway": True}
    for seat in range(4):
        assert plays(t, seat) == {f"red-{seat + 1}"}


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_any_seat_may_make_the_first_play(seat):
    """Any seat may make the first play."""
    t = newno(OPEN, "red-5")
    play(t, seat, f"red-{seat + 1}")
    assert t.view()["top"] == f"red-{seat + 1}"
    assert t.view()["hand_sizes"][seat] == 1
    assert pending(t)["first"] == seat


def test_nobody_draws_at_the_open_start():
    """Any seat may make the first play (no drawing yet)."""
    t = newno(OPEN, "red-5")
    for seat in range(4):
        assert "draw" not in kinds(t, seat)
        t.reject("cannot-draw", "draw", seat)


@pytest.mark.parametrize(
    ("flip", "card", "ok"),
    [
        # A flipped draw2: only cards of that colour, no other draw2.
        ("red-draw2", "red-3", True),
        ("red-draw2", "red-skip", True),
        ("red-draw2", "blue-3", False),
        ("red-draw2", "blue-draw2", False),
        ("red-draw2", "red-draw2", False),
        # A flipped wild-draw4: any card.
        ("wild-draw4", "blue-3", True),
        ("wild-draw4", "green-skip", True),
        ("wild-draw4", "yellow-draw2", True),
        # A flipped skip: any card of that colour.
        ("red-skip", "red-3", True),
        ("red-skip", "red-skip", True),
        ("red-skip", "blue-skip", False),
        ("red-skip", "blue-3", False),
        # A flipped reverse: any card of that colour.
        ("red-reverse", "red-3", True),
        ("red-reverse", "red-reverse", True),
        ("red-reverse", "blue-reverse", False),
        # A flipped wild: any card.
        ("wild", "blue-3", True),
        ("wild", "red-draw2", True),
        # A number card: the usual match.
        ("red-5", "red-9", True),
        ("red-5", "blue-5", True),
        ("red-5", "blue-6", False),
        ("red-5", "blue-skip", False),
    ],
)
def test_the_first_play_has_leeway_on_the_flipped_card(flip, card, ok):
    """Leeway for the first play: on a flipped `draw2` only cards of that colour (no other
    `draw2`); on a `wild-draw4` any card; on a `skip` or `reverse` any card of that colour; on a
    `wild` any card; on a number card the usual match.
    """
    t = newno(f"yellow-8 green-8 / {card} yellow-9 / green-9 yellow-7 / green-7 yellow-6", flip)
    assert (card in plays(t, 1)) is ok
    if ok:
        play(t, 1, card)
        assert t.view()["top"] == card
    else:
        t.reject("card-does-not-match", "play", 1, card=card, uno=False)


@pytest.mark.parametrize("flip", ["red-draw2", "wild-draw4", "red-skip", "red-reverse", "wild"])
def test_nobody_draws_or_is_skipped_for_a_flipped_action_card(flip):
    """On a flipped `draw2` or `wild-draw4` nobody draws; on a flipped `skip` nobody is skipped;
    a flipped `reverse` changes nothing (and a flipped `wild-draw4` stays on the pile).
    """
    t = newno(OPEN, flip)
    assert types(t.events) == ["match-started", "hand-started", "card-flipped", "prompted"]
    view = t.view()
    assert view["top"] == flip
    assert view["color"] == (None if flip.startswith("wild") else "red")
    assert view["direction"] == "clockwise"
    assert view["hand_sizes"] == [2, 2, 2, 2]
    assert view["to_act"] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "flip", ["red-draw2", "red-skip", "red-reverse", "red-5", "wild", "wild-draw4"]
)
@pytest.mark.parametrize("card", ["wild", "wild-draw4"])
def test_black_cards_are_always_allowed_as_the_first_play(flip, card):
    """Black cards are always allowed as the first play."""
    t = newno(f"yellow-8 green-8 / {card} yellow-9 / green-9 yellow-7 / green-7 yellow-6", flip)
    assert card in plays(t, 1)
    play(t, 1, card, color="blue")
    assert (t.view()["top"], t.view()["color"]) == (card, "blue")


# ----------------------------------------------------------------------------- second play


def numbered(seats: int) -> list[list[str]]:
    """Seat s holds red-(s+1) and yellow-(s+1): every seat can answer any red card."""
    return [[f"red-{s + 1}", f"yellow-{s + 1}"] for s in range(seats)]


@pytest.mark.parametrize(
    ("seats", "first", "second", "direction", "nxt"),
    [
        (5, 2, 3, "clockwise", 4),
        (5, 2, 1, "counter-clockwise", 0),
        (3, 0, 1, "clockwise", 2),
        (3, 0, 2, "counter-clockwise", 1),
    ],
)
def test_either_neighbour_may_make_the_second_play_which_sets_the_direction(
    seats, first, second, direction, nxt
):
    """Second play: either neighbour of the first player may make it, and that sets the
    direction (from the first player towards the second).
    """
    t = newno(numbered(seats), "red-5")
    play(t, first, f"red-{first + 1}")
    cw, ccw = (first + 1) % seats, (first - 1) % seats
    assert t.to_act() == [cw, ccw]
    assert t.view()["pending"] == {
        "type": "second-play",
        "first": first,
        "steps": 1,
        "seats": [cw, ccw],
    }
    assert t.view()["direction"] == "clockwise"
    play(t, second, f"red-{second + 1}")
    assert t.view()["direction"] == direction
    assert t.to_act() == [nxt]
    assert pending(t) == {"type": "play", "seat": nxt}


def test_only_a_neighbour_of_the_first_player_may_make_the_second_play():
    """Second play: either neighbour of the first player may make it."""
    t = newno(numbered(5), "red-5")
    play(t, 2, "red-3")
    for seat in (0, 2, 4):
        assert plays(t, seat) == set()
        card = "yellow-3" if seat == 2 else f"red-{seat + 1}"
        t.reject("not-your-turn", "play", seat, card=card, uno=False)


def test_nobody_draws_while_the_second_play_is_open():
    """Second play: either neighbour may make it (an open choice: nobody draws)."""
    t = newno("red-1 red-2 / blue-6 blue-7 / red-3 red-4 / blue-8 blue-9", "red-5")
    play(t, 0, "red-1")
    for seat in (1, 3):
        assert kinds(t, seat) == set()
        t.reject("cannot-draw", "draw", seat)


def test_with_two_seats_the_other_seat_takes_the_second_play_as_its_turn_clockwise():
    """Second play: either neighbour of the first player may make it (with two seats both
    neighbours are one seat: it takes its turn, clockwise).
    """
    t = newno("red-1 red-2 / blue-6 blue-7", "red-5", ["blue-3"])
    play(t, 0, "red-1")
    assert t.to_act() == [1]
    assert t.view()["pending"] == {"type": "play", "seat": 1}
    assert kinds(t, 1) == {"draw"}  # a normal turn: it cannot play, so it draws
    t.do("draw", 1)
    assert t.view()["direction"] == "clockwise"
    assert t.to_act() == [0]


@pytest.mark.parametrize(
    ("second", "direction", "nxt"), [(2, "clockwise", 3), (3, "counter-clockwise", 2)]
)
def test_after_a_first_play_skip_the_second_play_belongs_to_the_seats_two_places_away(
    second, direction, nxt
):
    """If the first play is a `skip`, the second play belongs to the seat two places clockwise
    (direction clockwise) or two places counter-clockwise (direction counter-clockwise).
    """
    t = newno([["red-skip", "yellow-1"], *numbered(5)[1:]], "red-5")
    play(t, 0, "red-skip")
    assert t.to_act() == [2, 3]
    assert t.view()["pending"] == {"type": "second-play", "first": 0, "steps": 2, "seats": [2, 3]}
    for seat in (1, 4):
        t.reject("not-your-turn", "play", seat, card=f"red-{seat + 1}", uno=False)
    play(t, second, f"red-{second + 1}")
    assert t.view()["direction"] == direction
    assert t.to_act() == [nxt]


def test_after_a_first_play_skip_with_four_seats_the_seat_opposite_plays_clockwise():
    """Where those are the same seat (4 seats) it plays and the direction is clockwise."""
    t = newno("red-1 yellow-1 / red-skip yellow-2 / red-3 yellow-3 / red-4 yellow-4", "red-5")
    play(t, 1, "red-skip")
    assert t.to_act() == [3]
    assert t.view()["pending"] == {"type": "play", "seat": 3}
    play(t, 3, "red-4")
    assert t.view()["direction"] == "clockwise"
    assert t.to_act() == [0]


def test_after_a_first_play_skip_with_two_seats_the_first_player_plays_again_clockwise():
    """With 2 seats the first player plays again, clockwise."""
    t = newno("red-skip red-1 yellow-1 / red-2 red-3 yellow-2", "red-5")
    play(t, 0, "red-skip")
    assert t.to_act() == [0]
    assert t.view()["pending"] == {"type": "play", "seat": 0}
    play(t, 0, "red-1")
    assert t.view()["direction"] == "clockwise"
    assert t.to_act() == [1]


@pytest.mark.parametrize(("second", "direction"), [(2, "clockwise"), (1, "counter-clockwise")])
def test_after_a_first_play_skip_with_three_seats_either_other_seat_may_play_second(
    second, direction
):
    """If the first play is a `skip`, the second play belongs to the seat two places clockwise
    (direction clockwise) or two places counter-clockwise (with 3 seats: the seats two places
    away are the first player's neighbours, each reached across the other).
    """
    t = newno("red-skip yellow-1 / red-2 yellow-2 / red-3 yellow-3", "red-5")
    play(t, 0, "red-skip")
    assert t.to_act() == [2, 1]
    assert t.view()["pending"] == {"type": "second-play", "first": 0, "steps": 2, "seats": [2, 1]}
    play(t, second, f"red-{second + 1}")
    assert t.view()["direction"] == direction
    assert t.to_act() == [0]


@pytest.mark.parametrize(("second", "direction"), [(1, "clockwise"), (3, "counter-clockwise")])
def test_a_reverse_played_before_the_direction_is_set_has_no_effect(second, direction):
    """A `reverse` played before the direction is set has no effect."""
    t = newno([["red-reverse", "yellow-1"], *numbered(4)[1:]], "red-5")
    events = play(t, 0, "red-reverse")
    assert of_type(events, "direction-changed") == []
    assert t.view()["direction"] == "clockwise"
    assert t.view()["pending"] == {"type": "second-play", "first": 0, "steps": 1, "seats": [1, 3]}
    play(t, second, f"red-{second + 1}")
    assert t.view()["direction"] == direction
    assert t.to_act() == [2]


def test_a_0_played_before_the_direction_is_set_passes_hands_clockwise():
    """A `0` played then passes hands clockwise."""
    hands = [
        ["red-0", "yellow-1", "yellow-2"],
        ["red-2", "green-1", "green-2"],
        ["red-3", "blue-1", "blue-2"],
        ["red-4", "blue-3", "blue-4"],
    ]
    t = newno(hands, "red-5")
    events = play(t, 0, "red-0")
    assert of_type(events, "hands-rotated") == [{"type": "hands-rotated", "direction": 1}]
    after = [["yellow-1", "yellow-2"], *hands[1:]]
    assert [t.hand(s) for s in range(4)] == rotated(after, 1)
    assert t.view()["direction"] == "clockwise"
    assert t.view()["pending"] == {"type": "second-play", "first": 0, "steps": 1, "seats": [1, 3]}


def test_a_first_play_wild_or_7_is_settled_before_the_second_play_opens():
    """Second play: either neighbour of the first player may make it (after the first player has
    named the colour of its wild, or the seat its 7 swaps with).
    """
    t = newno(
        "wild red-7 yellow-1 / red-2 yellow-2 green-1 / "
        "red-3 yellow-3 green-2 / red-4 yellow-4 green-3",
        "red-5",
    )
    play(t, 0, "wild")
    assert (t.to_act(), pending(t)["type"]) == ([0], "color")
    t.do("choose-color", 0, color="red")
    assert t.view()["pending"] == {"type": "second-play", "first": 0, "steps": 1, "seats": [1, 3]}
    t = newno(
        "red-7 yellow-1 yellow-6 / red-2 yellow-2 green-1 / "
        "red-3 yellow-3 green-2 / red-4 yellow-4 green-3",
        "red-5",
    )
    play(t, 0, "red-7")
    assert (t.to_act(), pending(t)["type"]) == ([0], "swap")
    t.do("swap", 0, target=2)
    assert t.hand(2) == ["yellow-1", "yellow-6"]
    assert t.view()["pending"] == {"type": "second-play", "first": 0, "steps": 1, "seats": [1, 3]}


DRAWS = [("red-draw2", "draw2", 2), ("wild-draw4", "wild-draw4", 4)]


def first_play_draw(card: str) -> Table:
    """Five seats; seat 0 opens with `card`; seats 1 and 4 hold both kinds to stack."""
    t = newno(
        [
            [card, "yellow-1", "yellow-2"],
            ["blue-draw2", "wild-draw4", "green-1"],
            ["red-3", "green-2", "green-3"],
            ["red-4", "green-4", "green-6"],
            ["green-draw2", "wild-draw4", "blue-1"],
        ],
        "red-5",
        ["blue-6", "blue-7", "blue-8", "blue-9", "yellow-6", "yellow-8", "yellow-9", "green-9"],
    )
    play(t, 0, card, **({"color": "red"} if card == "wild-draw4" else {}))
    return t


@pytest.mark.parametrize(("card", "kind", "total"), DRAWS)
@pytest.mark.parametrize(
    ("second", "direction", "nxt"), [(1, "clockwise", 2), (4, "counter-clockwise", 3)]
)
def test_after_a_first_play_draw_the_neighbour_who_accepts_draws_and_play_continues_past_it(
    card, kind, total, second, direction, nxt
):
    """After a first-play `draw2`/`wild-draw4` the neighbour who acts second either stacks or
    `accept`s (draws, loses its turn, and play continues past it in that direction).
    """
    t = first_play_draw(card)
    assert t.view()["pending"] == {
        "type": "stack",
        "first": 0,
        "steps": 1,
        "total": total,
        "kind": kind,
        "seats": [1, 4],
    }
    assert t.to_act() == [1, 4]
    events = t.do("accept", second)
    assert [e["cards"] for e in of_type(events, "cards-drawn")] == [
        ["blue-6", "blue-7", "blue-8", "blue-9"][:total]
    ]
    assert of_type(events, "cards-drawn")[0]["seat"] == second
    assert t.view()["hand_sizes"][second] == 3 + total
    assert t.view()["direction"] == direction
    assert t.to_act() == [nxt]
    assert pending(t) == {"type": "play", "seat": nxt}


@pytest.mark.parametrize(("card", "kind", "total"), DRAWS)
@pytest.mark.parametrize(
    ("second", "direction", "nxt"), [(1, "clockwise", 2), (4, "counter-clockwise", 3)]
)
def test_after_a_first_play_draw_the_neighbour_who_stacks_sets_the_direction(
    card, kind, total, second, direction, nxt
):
    """After a first-play `draw2`/`wild-draw4` the neighbour who acts second either stacks or
    `accept`s.
    """
    t = first_play_draw(card)
    answer = "wild-draw4" if kind == "wild-draw4" else t.hand(second)[0]
    play(t, second, answer, **({"color": "green"} if kind == "wild-draw4" else {}))
    assert t.view()["direction"] == direction
    assert t.to_act() == [nxt]
    assert pending(t) == {"type": "stack", "seat": nxt, "total": 2 * total, "kind": kind}
    assert sum(t.view()["hand_sizes"]) == 13  # nobody has drawn


@pytest.mark.parametrize(
    ("second", "direction", "nxt"), [(1, "counter-clockwise", 0), (4, "clockwise", 0)]
)
def test_a_reverse_as_the_second_play_reverses_the_direction_just_set(second, direction, nxt):
    """A `reverse` or `0` as the second play has its normal effect in the direction just set."""
    t = newno(
        "red-3 yellow-1 / red-reverse yellow-2 / "
        "red-6 yellow-3 / red-7 yellow-4 / red-reverse yellow-6",
        "red-5",
    )
    play(t, 0, "red-3")
    events = play(t, second, "red-reverse")
    assert t.view()["direction"] == direction
    assert t.to_act() == [nxt]
    assert of_type(events, "direction-changed")[-1] == {
        "type": "direction-changed",
        "direction": 1 if direction == "clockwise" else -1,
    }


@pytest.mark.parametrize(("second", "step", "nxt"), [(1, 1, 2), (4, -1, 3)])
def test_a_0_as_the_second_play_passes_hands_in_the_direction_just_set(second, step, nxt):
    """A `reverse` or `0` as the second play has its normal effect in the direction just set."""
    hands = [
        ["red-3", "yellow-1"],
        ["red-0", "yellow-2"],
        ["red-6", "yellow-3"],
        ["red-7", "yellow-4"],
        ["red-0" if second == 4 else "red-8", "yellow-6"],
    ]
    if second == 4:
        hands[1] = ["red-9", "yellow-2"]
    t = newno(hands, "red-5")
    play(t, 0, "red-3")
    before = [t.hand(s) for s in range(5)]
    before[second] = [c for c in before[second] if c != "red-0"]
    events = play(t, second, "red-0")
    assert of_type(events, "hands-rotated") == [{"type": "hands-rotated", "direction": step}]
    assert [t.hand(s) for s in range(5)] == rotated(before, step)
    assert t.to_act() == [nxt]


# --------------------------------------------------------------------------- youngest rule


def test_an_open_choice_stays_open_until_someone_acts_or_the_service_closes_it():
    """An open choice (the first or second play) stays open until someone acts or the service
    closes it with the system command `close-window`.
    """
    t = newno(OPEN, "red-5")
    assert t.legal(None) == [{"type": "close-window"}]
    play(t, 0, "red-1")
    assert t.legal(None) == [{"type": "close-window"}]
    play(t, 1, "red-2")
    assert t.legal(None) == []


@pytest.mark.parametrize(
    ("ages", "youngest"), [(None, 0), ([40, 12, 30, 25], 1), ([9, 9, 3, 3], 2)]
)
def test_close_window_hands_the_open_start_to_the_youngest_seat(ages, youngest):
    """Then the youngest seat in `to_act` must act (ages: smaller = younger)."""
    t = newno(OPEN, "red-5", ages=ages)
    t.do("close-window")
    assert t.to_act() == [youngest]
    assert t.view()["pending"] == {
        "type": "first-play",
        "seat": youngest,
        "leeway": True,
        "forced": True,
    }
    other = (youngest + 1) % 4
    t.reject("not-your-turn", "play", other, card=f"red-{other + 1}", uno=False)
    assert t.legal(None) == []


def test_the_youngest_may_draw_at_the_open_start_even_holding_a_playable_card():
    """At the open start it may play or draw, even holding a playable card."""
    t = newno(OPEN, "red-5", ["blue-9"])
    t.do("close-window")
    assert kinds(t, 0) == {"play", "draw"}
    assert plays(t, 0) == {"red-1"}
    t.do("draw", 0)
    assert t.hand(0) == ["red-1", "yellow-1", "blue-9"]


def test_a_card_the_youngest_draws_and_plays_is_the_first_play_with_the_leeway():
    """A drawn card it then plays is the first play (with the leeway)."""
    # On a flipped wild any card may be played: blue-3 matches only by the leeway.
    t = newno(OPEN, "wild", ["blue-3"], ages=[30, 10, 20, 40])
    t.do("close-window")
    t.do("draw", 1)
    assert t.view(1)["pending"]["card"] == "blue-3"
    assert {c["type"] for c in t.legal(1)} - {"catch"} == {"play", "pass"}
    play(t, 1, "blue-3")
    assert t.view()["pending"] == {"type": "second-play", "first": 1, "steps": 1, "seats": [2, 0]}
    assert t.view()["direction"] == "clockwise"


@pytest.mark.parametrize(("drawn", "command"), [("red-9", "pass"), ("blue-9", None)])
def test_if_the_youngest_does_not_play_play_goes_clockwise_from_it(drawn, command):
    """If it does not play, play goes clockwise from it and the next seat takes a normal turn
    against the top card.
    """
    t = newno(OPEN, "red-5", [drawn], ages=[30, 20, 10, 40])
    t.do("close-window")
    t.do("draw", 2)
    if command:
        t.do(command, 2)
    assert t.view()["direction"] == "clockwise"
    assert t.to_act() == [3]
    assert t.view()["pending"]["type"] == "play"
    assert t.view()["top"] == "red-5"
    play(t, 3, "red-4")
    # A normal turn: no second-play window; play goes on clockwise.
    assert t.to_act() == [0]
    assert pending(t) == {"type": "play", "seat": 0}


def test_after_the_youngest_passes_the_next_seat_still_has_the_leeway():
    """Engine decision (rules/newno.py): the leeway of the first play holds for any play on the
    flipped card; after the youngest draws and passes, the next seat's turn still has it.
    """
    t = newno(
        "red-1 yellow-1 / blue-draw2 red-4 / green-1 green-2 / red-3 yellow-2",
        "red-draw2",
        ["blue-9"],
    )
    t.do("close-window")
    t.do("draw", 0)  # blue-9: not playable, the turn passes
    assert t.view()["pending"] == {"type": "play", "seat": 1, "leeway": True}
    assert plays(t, 1) == {"red-4"}
    t.reject("card-does-not-match", "play", 1, card="blue-draw2", uno=False)
    play(t, 1, "red-4")
    assert t.view()["hand_sizes"] == [3, 1, 2, 2]  # nobody drew for the flipped draw2


def test_close_window_hands_the_second_play_to_the_youngest_neighbour():
    """Then the youngest seat in `to_act` must act, with the moves it would have anyway."""
    # Seat 2 is the youngest at the table, but not in to_act.
    t = newno(
        "red-1 yellow-1 / red-2 yellow-2 / red-3 yellow-3 / red-4 yellow-4",
        "red-5",
        ages=[50, 40, 10, 20],
    )
    play(t, 0, "red-1")
    t.do("close-window")
    assert t.to_act() == [3]
    assert t.view()["pending"] == {
        "type": "second-play",
        "first": 0,
        "steps": 1,
        "seat": 3,
        "forced": True,
    }
    # It can play, so it may not draw.
    assert kinds(t, 3) == {"play"}
    t.reject("cannot-draw", "draw", 3)
    play(t, 3, "red-4")
    assert t.view()["direction"] == "counter-clockwise"
    assert t.to_act() == [2]


def test_a_youngest_neighbour_that_cannot_play_draws_and_play_goes_on_past_it():
    """Then the youngest seat in `to_act` must act (a seat that cannot play draws; engine
    decision: the direction then points from the first player towards it).
    """
    t = newno(
        "red-1 yellow-1 / red-2 yellow-2 / red-3 yellow-3 / blue-6 blue-7",
        "red-5",
        ["blue-9"],
        ages=[50, 40, 10, 20],
    )
    play(t, 0, "red-1")
    t.do("close-window")
    assert kinds(t, 3) == {"draw"}
    t.do("draw", 3)
    assert t.hand(3) == ["blue-6", "blue-7", "blue-9"]
    assert t.view()["direction"] == "counter-clockwise"
    assert t.to_act() == [2]


def test_close_window_on_an_open_stack_makes_the_youngest_neighbour_stack_or_accept():
    """With the moves it would have anyway (stack or `accept` facing a stack)."""
    t = newno(
        "red-draw2 yellow-1 / blue-draw2 yellow-2 / red-3 yellow-3 / green-draw2 yellow-4",
        "red-5",
        ["blue-6", "blue-7"],
    )
    play(t, 0, "red-draw2")
    t.do("close-window")
    assert t.view()["pending"] == {
        "type": "stack",
        "first": 0,
        "steps": 1,
        "total": 2,
        "kind": "draw2",
        "seat": 1,
        "forced": True,
    }
    assert kinds(t, 1) == {"play", "accept"}
    assert plays(t, 1) == {"blue-draw2"}
    t.reject("unexpected-command", "draw", 1)
    t.do("accept", 1)
    assert t.hand(1) == ["blue-draw2", "yellow-2", "blue-6", "blue-7"]
    assert t.view()["direction"] == "clockwise"
    assert t.to_act() == [2]


def test_close_window_without_an_open_choice_is_refused():
    """An open choice stays open until the service closes it with `close-window` (there is
    nothing to close once the direction is set).
    """
    t = newno(OPEN, "red-5")
    play(t, 0, "red-1")
    play(t, 1, "red-2")
    assert t.legal(None) == []
    t.reject("no-open-window", "close-window")


@pytest.mark.parametrize(
    "ages", [[1, 2, 3], [1, 2, 3, 4, 5], ["a", 1, 2, 3], [1.5, 1, 2, 3], "1234"]
)
def test_seat_ages_are_one_whole_number_per_seat(ages):
    """Seat ages are part of the game's setup (`ages`, smaller = younger)."""
    variant = Variant.from_spec({"rules": "newno"})
    with pytest.raises(ValueError, match="ages"):
        variant.start(4, seed=1, ages=ages)


# ------------------------------------------------------------------------------------ a turn


def test_a_turn_is_a_play_of_a_matching_card():
    """A turn: play a matching card."""
    t = turn(f"{OPENERS} / red-9 blue-8 blue-1 / green-1 green-2 green-3")
    assert plays(t, 2) == {"red-9", "blue-8"}
    t.reject("card-does-not-match", "play", 2, card="blue-1", uno=False)
    play(t, 2, "blue-8")
    assert (t.view()["top"], t.view()["color"]) == ("blue-8", "blue")
    assert t.to_act() == [3]


def test_only_a_seat_that_cannot_play_may_draw():
    """Only a seat that cannot play may draw one card."""
    t = turn(
        f"{OPENERS} / red-9 blue-1 blue-2 / green-1 green-2 green-3",
        ["blue-9"],
    )
    assert "draw" not in kinds(t, 2)
    t.reject("cannot-draw", "draw", 2)
    play(t, 2, "red-9")
    assert kinds(t, 3) == {"draw"}
    t.do("draw", 3)
    assert t.hand(3) == ["green-1", "green-2", "green-3", "blue-9"]


@pytest.mark.parametrize("command", ["play", "pass"])
def test_the_apex_gambit_a_playable_drawn_card_may_be_played_at_once(command):
    """It may play that drawn card at once if it is playable (the Apex Gambit)."""
    t = turn(
        f"{OPENERS} / green-1 blue-1 blue-2 / green-2 green-3 green-4",
        ["red-9"],
    )
    t.do("draw", 2)
    assert t.view(2)["pending"] == {
        "type": "drawn",
        "seat": 2,
        "card": "red-9",
        "ctx": {"phase": "turn", "total": 0},
        "leeway": False,
    }
    assert kinds(t, 2) == {"play", "pass"}
    assert plays(t, 2) == {"red-9"}
    t.reject("must-play-drawn-card", "play", 2, card="green-1", uno=False)
    if command == "play":
        play(t, 2, "red-9")
        assert t.view()["top"] == "red-9"
    else:
        t.do("pass", 2)
        assert t.hand(2)[-1] == "red-9"
    assert t.to_act() == [3]


def test_an_unplayable_drawn_card_ends_the_turn():
    """Else the turn ends."""
    t = turn(
        f"{OPENERS} / green-1 blue-1 blue-2 / green-2 green-3 green-4",
        ["blue-9"],
    )
    t.do("draw", 2)
    assert t.to_act() == [3]
    assert pending(t) == {"type": "play", "seat": 3}


def test_there_is_no_apex_gambit_after_penalty_draws():
    """Not after penalty draws."""
    t = turn(
        f"{OPENERS} / red-draw2 blue-1 blue-2 / green-2 green-3 green-4",
        ["red-9", "red-4"],
    )
    play(t, 2, "red-draw2")
    t.do("accept", 3)
    assert t.hand(3)[-2:] == ["red-9", "red-4"]  # both playable on red-draw2
    assert t.to_act() == [0]
    assert pending(t) == {"type": "play", "seat": 0}
    t.reject("not-your-turn", "play", 3, card="red-9", uno=False)


# ---------------------------------------------------------------------------------- stacking


def test_a_draw2_is_answered_only_with_a_draw2_of_any_colour_adding_2():
    """A `draw2` may be answered only with a `draw2` (any colour), adding 2."""
    t = turn(f"{OPENERS} / red-draw2 blue-1 blue-2 / blue-draw2 red-9 wild")
    play(t, 2, "red-draw2")
    assert pending(t) == {"type": "stack", "seat": 3, "total": 2, "kind": "draw2"}
    assert plays(t, 3) == {"blue-draw2"}
    for card in ("red-9", "wild"):
        t.reject(
            "card-does-not-match",
            "play",
            3,
            card=card,
            uno=False,
            **({"color": "red"} if card == "wild" else {}),
        )
    play(t, 3, "blue-draw2")
    assert pending(t) == {"type": "stack", "seat": 0, "total": 4, "kind": "draw2"}


def test_a_wild_draw4_is_answered_only_with_a_wild_draw4_adding_4():
    """A `wild-draw4` only with a `wild-draw4`, adding 4."""
    t = turn(f"{OPENERS} / wild-draw4 blue-1 blue-2 / wild-draw4 green-9 wild")
    play(t, 2, "wild-draw4", color="green")
    assert pending(t) == {"type": "stack", "seat": 3, "total": 4, "kind": "wild-draw4"}
    assert plays(t, 3) == {"wild-draw4"}
    t.reject("card-does-not-match", "play", 3, card="green-9", uno=False)
    play(t, 3, "wild-draw4", color="blue")
    assert pending(t) == {"type": "stack", "seat": 0, "total": 8, "kind": "wild-draw4"}
    assert t.view()["color"] == "blue"


@pytest.mark.parametrize(
    ("attack", "defence"),
    [
        ("red-draw2", "wild-draw4"),
        ("wild-draw4", "red-draw2"),
        ("wild-draw4", "green-draw2"),
        ("wild-draw4", "wild"),
    ],
)
def test_draw2_and_wild_draw4_never_mix(attack, defence):
    """The two never mix."""
    t = turn(f"{OPENERS} / {attack} blue-1 blue-2 / {defence} green-1 green-2")
    play(t, 2, attack, **({"color": "green"} if attack == "wild-draw4" else {}))
    assert plays(t, 3) == set()
    t.reject(
        "card-does-not-match",
        "play",
        3,
        card=defence,
        uno=False,
        **({"color": "red"} if defence.startswith("wild") else {}),
    )


def test_the_seat_facing_a_stack_always_decides_even_with_nothing_to_stack():
    """The seat facing a stack always decides (stack or `accept`), so nobody learns what it
    holds.
    """
    t = turn(f"{OPENERS} / red-draw2 blue-1 blue-2 / green-1 green-2 green-3")
    events = play(t, 2, "red-draw2")
    assert of_type(events, "cards-drawn") == []
    assert t.to_act() == [3]
    assert kinds(t, 3) == {"accept"}
    t.reject("unexpected-command", "draw", 3)
    t.reject("card-does-not-match", "play", 3, card="green-1", uno=False)
    assert t.hand(3) == ["green-1", "green-2", "green-3"]


def test_on_accept_the_seat_draws_the_total_and_loses_its_turn():
    """On `accept` it draws the total and loses its turn."""
    t = turn(
        f"{OPENERS} / red-draw2 blue-1 blue-2 / blue-draw2 green-2 green-3",
        ["blue-6", "blue-7", "blue-8", "blue-9", "green-9"],
    )
    play(t, 2, "red-draw2")
    play(t, 3, "blue-draw2")
    events = t.do("accept", 0)
    assert [(e["seat"], e["cards"], e["reason"]) for e in of_type(events, "cards-drawn")] == [
        (0, ["blue-6", "blue-7", "blue-8", "blue-9"], "stack")
    ]
    assert t.to_act() == [1]
    assert pending(t) == {"type": "play", "seat": 1}


def test_a_wild_draw4_can_always_be_played_and_there_is_no_challenge():
    """`wild-draw4` can always be played; there is no challenge in `newno`."""
    t = turn(f"{OPENERS} / wild-draw4 red-9 red-1 / green-1 green-2 green-3")
    assert "wild-draw4" in plays(t, 2)  # although seat 2 holds red cards
    play(t, 2, "wild-draw4", color="green")
    assert pending(t) == {"type": "stack", "seat": 3, "total": 4, "kind": "wild-draw4"}
    assert "challenge" not in kinds(t, 3)
    t.reject("unknown-command", "challenge", 3)


# -------------------------------------------------------------------------------- 7s and 0s

SEVENS = f"{OPENERS} / red-7 blue-1 blue-2 / green-1 green-2 green-3"


def test_a_7_swaps_hands_with_the_target_named_with_the_play():
    """`7`: the player swaps hands with a seat of its choice (`target` with the play)."""
    t = turn(SEVENS)
    events = play(t, 2, "red-7", target=0)
    assert of_type(events, "hands-swapped") == [{"type": "hands-swapped", "seat": 2, "target": 0}]
    assert t.hand(2) == ["yellow-1", "yellow-2"]
    assert t.hand(0) == ["blue-1", "blue-2"]
    assert t.to_act() == [3]


def test_a_7_played_without_a_target_waits_for_a_swap():
    """`7`: the player swaps hands with a seat of its choice (or a following `swap`)."""
    t = turn(SEVENS)
    play(t, 2, "red-7")
    assert t.to_act() == [2]
    assert pending(t)["type"] == "swap"
    assert [c for c in t.legal(2) if c["type"] == "swap"] == [
        {"type": "swap", "seat": 2, "target": s} for s in (0, 1, 3)
    ]
    t.reject("bad-target", "swap", 2, target=2)
    t.reject("bad-target", "swap", 2, target=0, other=1)  # only a 7 jumper swaps two others
    events = t.do("swap", 2, target=3)
    assert of_type(events, "hands-swapped") == [{"type": "hands-swapped", "seat": 2, "target": 3}]
    assert (t.hand(2), t.hand(3)) == (["green-1", "green-2", "green-3"], ["blue-1", "blue-2"])
    assert t.to_act() == [3]


def test_a_7_is_listed_once_per_target_and_only_a_7_names_another_seat():
    """`7`: the player swaps hands with a seat of its choice (`target` with the play)."""
    t = turn(f"{OPENERS} / red-7 red-9 blue-2 / green-1 green-2 green-3")
    sevens = [c for c in t.legal(2) if c["type"] == "play" and c["card"] == "red-7"]
    assert [c.get("target") for c in sevens] == [0, 1, 3]
    t.reject("bad-target", "play", 2, card="red-9", uno=False, target=0)
    t.reject("bad-target", "play", 2, card="red-7", uno=False, target=2)


@pytest.mark.parametrize(("second", "step", "nxt"), [(1, 1, 3), (3, -1, 1)])
def test_a_0_passes_every_hand_one_seat_in_the_direction_of_play(second, step, nxt):
    """`0`: every hand passes one seat in the direction of play."""
    hands = [
        ["red-6", "yellow-1", "yellow-2"],
        ["yellow-3", "yellow-4", "yellow-6"],
        ["red-0", "blue-1", "blue-2"],
        ["green-1", "green-2", "green-3"],
    ]
    hands[second] = ["red-8", "yellow-8", "yellow-9"]
    t = turn(hands, second=second)
    before = [t.hand(s) for s in range(4)]
    before[2] = ["blue-1", "blue-2"]
    events = play(t, 2, "red-0")
    assert of_type(events, "hands-rotated") == [{"type": "hands-rotated", "direction": step}]
    assert [t.hand(s) for s in range(4)] == rotated(before, step)
    assert t.to_act() == [nxt]


# ---------------------------------------------------------------------------------- jump-ins


@pytest.mark.parametrize(("jumper", "nxt"), [(3, 0), (0, 1)])
def test_a_seat_holding_the_identical_card_may_play_it_out_of_turn(jumper, nxt):
    """Jump-in: a seat holding a card identical to the top card may play it out of turn; play
    continues from the jumper.
    """
    hands = [
        ["red-6", "blue-8", "yellow-2"],
        ["red-8", "yellow-3", "yellow-4"],
        ["red-9", "blue-1", "blue-2"],
        ["green-8", "green-2", "green-3"],
    ]
    hands[jumper][1] = "red-8"
    t = turn(hands)
    assert jump(t) == {"card": "red-8", "by": 1}
    assert t.to_act() == [2]  # a jump-in is out of turn: not in to_act
    assert plays(t, jumper) == {"red-8"}
    events = play(t, jumper, "red-8")
    assert events[0] == {
        "type": "card-played",
        "seat": jumper,
        "card": "red-8",
        "color": None,
        "source": "hand",
        "jump": True,
    }
    assert t.to_act() == [nxt]
    assert pending(t) == {"type": "play", "seat": nxt}
    assert jump(t) == {"card": "red-8", "by": jumper}


@pytest.mark.parametrize("card", ["blue-8", "red-9"])
def test_only_a_card_of_the_same_colour_and_rank_jumps_in(card):
    """Jump-in: a card identical to the top card (same colour and rank)."""
    t = turn(f"{OPENERS} / red-1 blue-1 blue-2 / {card} green-2 green-3")
    assert plays(t, 3) == set()
    t.reject("cannot-jump-in", "play", 3, card=card, uno=False)


def test_a_seat_cannot_jump_in_on_its_own_card():
    """Engine decision (rules/newno.py): a seat cannot jump in on its own card."""
    t = turn(
        "red-6 yellow-1 yellow-2 / red-8 red-8 yellow-4 / "
        "red-1 blue-1 blue-2 / green-1 green-2 green-3"
    )
    assert plays(t, 1) == set()
    t.reject("cannot-jump-in", "play", 1, card="red-8", uno=False)


def test_nobody_jumps_in_before_the_direction_is_set():
    """Engine decision (rules/newno.py): jump-ins are possible once the direction is set."""
    t = newno("red-6 yellow-1 / blue-1 yellow-2 / red-6 yellow-3 / blue-2 yellow-4", "red-5")
    play(t, 0, "red-6")
    assert "jump" not in t.view()["pending"]
    assert plays(t, 2) == set()
    t.reject("not-your-turn", "play", 2, card="red-6", uno=False)


def test_a_jump_in_may_answer_the_second_play():
    """Jump-in: a seat holding a card identical to the top card may play it out of turn (from
    the second play on); play continues from the jumper, in the direction just set.
    """
    t = newno(f"{OPENERS} / red-1 blue-1 blue-2 / red-8 green-2 green-3", "red-5")
    play(t, 0, "red-6")
    play(t, 3, "red-8")  # counter-clockwise
    assert (t.to_act(), jump(t)) == ([2], {"card": "red-8", "by": 3})
    play(t, 1, "red-8")
    assert t.view()["direction"] == "counter-clockwise"
    assert t.to_act() == [0]


def test_a_reverse_jump_in_cancels_the_reverse():
    """`reverse` jump-in cancels the reverse."""
    t = turn(f"{OPENERS} / red-reverse blue-1 blue-2 / red-reverse green-2 green-3")
    play(t, 2, "red-reverse")
    assert (t.view()["direction"], t.to_act()) == ("counter-clockwise", [1])
    events = play(t, 3, "red-reverse")
    assert of_type(events, "direction-changed") == [{"type": "direction-changed", "direction": 1}]
    assert (t.view()["direction"], t.to_act()) == ("clockwise", [0])


def six_seat_skip(seat3: str, seat5: str) -> Table:
    """Six seats, clockwise; seat 2 plays red-skip, so seat 3 is skipped and seat 4 is to play."""
    t = newno(
        f"{OPENERS} / red-skip blue-1 blue-2 / {seat3} green-2 green-3 / "
        f"green-4 green-6 green-7 / {seat5} blue-3 blue-4",
        "red-5",
    )
    play(t, 0, "red-6")
    play(t, 1, "red-8")
    play(t, 2, "red-skip")
    assert t.to_act() == [4]
    assert jump(t) == {"card": "red-skip", "by": 2, "skips": 1, "skipped": [3]}
    return t


def test_a_skip_jump_in_skips_one_more_seat():
    """`skip` jump-in skips one more seat."""
    t = six_seat_skip("green-1", "red-skip")
    play(t, 5, "red-skip")
    # Seats 0 and 1 after the jumper are skipped.
    assert t.to_act() == [2]
    assert jump(t) == {"card": "red-skip", "by": 5, "skips": 2, "skipped": [3, 0, 1]}


def test_a_seat_the_earlier_skips_would_have_skipped_cannot_jump_in_with_a_skip():
    """`skip` jump-in is not allowed for a seat the earlier skips would have skipped."""
    t = six_seat_skip("red-skip", "green-1")
    assert plays(t, 3) == set()
    t.reject("cannot-jump-in", "play", 3, card="red-skip", uno=False)


def test_a_draw2_jump_in_adds_to_the_total():
    """`draw2`/`wild-draw4` jump-in adds to the total (play continues from the jumper)."""
    t = turn(
        "red-6 red-draw2 yellow-2 / red-8 yellow-3 yellow-4 / "
        "red-draw2 blue-1 blue-2 / green-1 green-2 green-3"
    )
    play(t, 2, "red-draw2")
    assert pending(t) == {"type": "stack", "seat": 3, "total": 2, "kind": "draw2"}
    play(t, 0, "red-draw2")
    assert t.to_act() == [1]
    assert pending(t) == {"type": "stack", "seat": 1, "total": 4, "kind": "draw2"}
    assert t.hand(3) == ["green-1", "green-2", "green-3"]  # passed over, draws nothing


@pytest.mark.parametrize("named", [False, True])
def test_a_wild_draw4_jump_in_adds_to_the_total_and_the_jumper_names_the_colour(named):
    """`draw2`/`wild-draw4` jump-in adds to the total; a `wild-draw4` jump-in is possible before
    the first player has named the colour, and then the jumper names it.
    """
    t = turn(
        "red-6 wild-draw4 yellow-2 / red-8 yellow-3 yellow-4 / "
        "wild-draw4 blue-1 blue-2 / green-1 green-2 green-3"
    )
    play(t, 2, "wild-draw4")
    assert (pending(t)["type"], pending(t)["seat"]) == ("color", 2)
    assert jump(t) == {"card": "wild-draw4", "by": 2}
    assert "wild-draw4" in plays(t, 0)
    if named:
        play(t, 0, "wild-draw4", color="yellow")
    else:
        play(t, 0, "wild-draw4")
        assert (pending(t)["type"], pending(t)["seat"]) == ("color", 0)
        t.reject("not-your-turn", "choose-color", 2, color="blue")
        t.do("choose-color", 0, color="yellow")
    assert t.view()["color"] == "yellow"
    assert pending(t) == {"type": "stack", "seat": 1, "total": 8, "kind": "wild-draw4"}


def test_wild_draw4_jump_ins_keep_adding_to_the_total():
    """`draw2`/`wild-draw4` jump-in adds to the total (each jumper names no colour, so the
    window stays open for the next).
    """
    t = turn(
        "red-6 wild-draw4 yellow-2 / red-8 yellow-3 yellow-4 / "
        "wild-draw4 blue-1 blue-2 / wild-draw4 green-2 green-3"
    )
    play(t, 2, "wild-draw4")
    play(t, 0, "wild-draw4")
    assert (pending(t)["seat"], pending(t)["total"], jump(t)) == (
        0,
        8,
        {"card": "wild-draw4", "by": 0},
    )
    play(t, 3, "wild-draw4")
    assert (pending(t)["seat"], pending(t)["total"]) == (3, 12)
    t.do("choose-color", 3, color="green")
    assert pending(t) == {"type": "stack", "seat": 0, "total": 12, "kind": "wild-draw4"}


@pytest.mark.parametrize("named", [False, True])
def test_a_wild_jump_in_comes_before_the_colour_is_named_and_the_jumper_names_it(named):
    """`wild` jump-in is only possible before the first player has named the colour, and then the
    jumper names it (for black cards identical means the same kind).
    """
    t = turn(
        "red-6 wild yellow-2 / red-8 yellow-3 yellow-4 / "
        "wild blue-1 blue-2 / wild-draw4 green-2 green-3"
    )
    play(t, 2, "wild")
    assert jump(t) == {"card": "wild", "by": 2}
    assert plays(t, 3) == set()  # a wild-draw4 is not the same kind
    t.reject("cannot-jump-in", "play", 3, card="wild-draw4", uno=False)
    if named:
        play(t, 0, "wild", color="green")
    else:
        play(t, 0, "wild")
        t.do("choose-color", 0, color="green")
    assert t.view()["color"] == "green"
    assert of_type(t.events, "color-chosen") == (
        [] if named else [{"type": "color-chosen", "seat": 0, "color": "green"}]
    )
    assert t.to_act() == [1]


@pytest.mark.parametrize("card", ["wild", "wild-draw4"])
@pytest.mark.parametrize("named", ["with the play", "choose-color"])
def test_nobody_jumps_in_on_a_black_card_once_its_colour_is_named(card, named):
    """`wild`/`wild-draw4` jump-in is only possible before the first player has named the
    colour; a play that names its colour in the same command closes that window at once.
    """
    t = turn(
        f"red-6 {card} yellow-2 / red-8 yellow-3 yellow-4 / "
        f"{card} blue-1 blue-2 / green-1 green-2 green-3"
    )
    if named == "with the play":
        play(t, 2, card, color="blue")
    else:
        play(t, 2, card)
        t.do("choose-color", 2, color="blue")
    assert "jump" not in t.view()["pending"]
    assert card not in plays(t, 0)
    t.reject("not-your-turn", "play", 0, card=card, uno=False, color="red")


SEVEN_JUMP = (
    "red-6 red-7 yellow-2 / red-8 yellow-3 yellow-4 / red-7 blue-1 blue-2 / green-1 green-2 green-3"
)


def test_a_7_jumper_swaps_after_the_first_player_with_anyone_else():
    """`7` jump-in: the first player swaps first; the jumper then swaps with anyone else."""
    t = turn(SEVEN_JUMP)
    play(t, 2, "red-7")
    assert jump(t) == {"card": "red-7", "by": 2}
    play(t, 0, "red-7")
    assert (pending(t)["type"], pending(t)["seat"], pending(t)["jumper"]) == ("swap", 2, 0)
    t.reject("bad-target", "swap", 2, target=1, other=3)  # only the jumper swaps two others
    t.do("swap", 2, target=3)
    assert (t.hand(2), t.hand(3)) == (["green-1", "green-2", "green-3"], ["blue-1", "blue-2"])
    assert (pending(t)["type"], pending(t)["seat"], pending(t)["jumper_of"]) == ("swap", 0, 2)
    t.do("swap", 0, target=1)
    assert (t.hand(0), t.hand(1)) == (["yellow-3", "yellow-4"], ["yellow-2"])
    assert t.to_act() == [1]  # play continues from the jumper


def test_a_7_jumper_may_swap_two_other_seats_and_keep_its_hand():
    """`7` jump-in: the jumper then swaps with anyone else or swaps two other seats."""
    t = turn(SEVEN_JUMP)
    play(t, 2, "red-7")
    play(t, 0, "red-7")
    t.do("swap", 2, target=3)
    swaps = [c for c in t.legal(0) if c["type"] == "swap"]
    assert {(c["target"], c.get("other")) for c in swaps} == {
        (1, None),
        (2, None),
        (3, None),
        (1, 2),
        (1, 3),
        (2, 3),
    }
    t.reject("bad-target", "swap", 0, target=0, other=1)
    t.reject("bad-target", "swap", 0, target=1, other=1)
    events = t.do("swap", 0, target=1, other=3)
    assert of_type(events, "hands-swapped") == [{"type": "hands-swapped", "seat": 1, "target": 3}]
    assert (t.hand(0), t.hand(1), t.hand(3)) == (
        ["yellow-2"],
        ["blue-1", "blue-2"],
        ["yellow-3", "yellow-4"],
    )
    assert t.to_act() == [1]


def test_a_7_jumper_that_named_its_target_swaps_right_after_the_first_player():
    """`7` jump-in: the first player swaps first; the jumper then swaps (here with the target it
    named with its play).
    """
    t = turn(SEVEN_JUMP)
    play(t, 2, "red-7")
    play(t, 0, "red-7", target=3)
    events = t.do("swap", 2, target=1)
    assert [(e["seat"], e["target"]) for e in of_type(events, "hands-swapped")] == [(2, 1), (0, 3)]
    assert t.to_act() == [1]


def test_nobody_jumps_in_on_a_7_whose_target_was_named_with_the_play():
    """`7` jump-in is only possible before the first player has named the swap target; a play
    that names its target in the same command closes that window at once.
    """
    t = turn(SEVEN_JUMP)
    play(t, 2, "red-7", target=3)
    assert "jump" not in t.view()["pending"]
    assert plays(t, 0) == set()
    t.reject("not-your-turn", "play", 0, card="red-7", uno=False)


@pytest.mark.parametrize(
    "command",
    [
        ("catch", 3, {"target": 1}),
        ("catch", 0, {"target": 1}),
        ("catch", 2, {"target": 3}),  # a wrong challenge, by the seat whose turn it is
        ("call-uno", 1, {}),
        ("call-uno", 0, {}),
    ],
)
def test_a_jump_in_is_possible_until_the_next_command_is_recorded(command):
    """A jump-in is possible until the next command is recorded (any command, a catch too)."""
    # Seats 0 and 1 are down to one card without calling uno; seat 3 holds the other red-8.
    t = turn("red-6 yellow-1 / red-8 yellow-3 / red-9 blue-1 / red-8 green-2")
    assert t.view()["uncalled"] == [0, 1]
    assert plays(t, 3) == {"red-8"}
    kind, seat, fields = command
    t.do(kind, seat, **fields)
    assert "red-8" not in plays(t, 3)
    t.reject("not-your-turn", "play", 3, card="red-8", uno=False)


def test_a_0_jump_in_is_unreachable_with_one_0_per_colour():
    """`0` jump-in before the hands have passed makes them pass twice (unreachable with the
    standard deck, which has one `0` per colour).
    """
    count = Counter(DECK)
    assert [count[f"{color}-0"] for color in COLORS] == [1, 1, 1, 1]
    t = turn(f"{OPENERS} / red-0 blue-1 blue-2 / green-1 green-2 green-3")
    play(t, 2, "red-0")
    assert jump(t) == {"card": "red-0", "by": 2}
    assert all("red-0" not in t.hand(s) and "red-0" not in plays(t, s) for s in range(4))


# -------------------------------------------------------------------------------- challenges


@pytest.mark.parametrize("penalty", [2, 4])
def test_a_seat_down_to_one_card_that_has_not_called_uno_is_caught_and_draws_the_penalty(penalty):
    """A seat that is down to one card by playing must call uno; until it does, any seat may
    challenge it (`catch`): it draws `uno_penalty`.
    """
    t = newno(
        "red-6 yellow-1 / red-8 yellow-3 / red-9 blue-1 / red-4 green-2",
        "red-5",
        ["blue-6", "blue-7", "blue-8", "blue-9"],
        uno_penalty=penalty,
    )
    play(t, 0, "red-6")
    play(t, 1, "red-8", uno=True)
    assert t.view()["uncalled"] == [0]
    assert of_type(t.events, "uno-called") == [{"type": "uno-called", "seat": 1}]
    events = t.do("catch", 3, target=0)
    assert of_type(events, "uno-caught") == [{"type": "uno-caught", "seat": 3, "target": 0}]
    assert t.hand(0) == ["yellow-1", "blue-6", "blue-7", "blue-8", "blue-9"][: 1 + penalty]
    assert t.view()["uncalled"] == []
    t.reject("bad-target", "catch", 3, target=3)


def test_a_catch_is_possible_while_the_seat_holds_one_card_and_has_not_called():
    """A catch is possible while the seat holds one card and has not called."""
    t = turn("red-6 yellow-1 / red-8 yellow-3 / red-9 blue-1 / red-4 green-2", ["blue-6", "blue-7"])
    play(t, 2, "red-9", uno=True)
    play(t, 3, "red-4", uno=True)
    assert t.to_act() == [0]
    assert t.view()["uncalled"] == [0, 1]  # turns have passed: still catchable
    t.do("call-uno", 0)
    t.reject("uno-not-owed", "call-uno", 0)
    assert t.view()["uncalled"] == [1]
    t.do("catch", 2, target=1)
    assert t.hand(1) == ["yellow-3", "blue-6", "blue-7"]


@pytest.mark.parametrize(("target", "owing"), [(3, [3]), (0, [0, 2])])
def test_a_seat_receiving_a_one_card_hand_in_a_swap_must_call_uno(target, owing):
    """A seat that is down to one card by receiving a one-card hand in a swap must call uno."""
    t = newno(
        "red-6 yellow-1 / red-8 yellow-3 / red-7 blue-1 / green-1 green-2",
        "red-5",
        ["blue-6", "blue-7"],
    )
    play(t, 0, "red-6", uno=True)
    play(t, 1, "red-8", uno=True)
    events = play(t, 2, "red-7", uno=True, target=target)
    assert t.view()["uncalled"] == owing
    assert sorted(e["seat"] for e in of_type(events, "uno-owed")) == owing
    t.do("call-uno", owing[0])
    assert t.view()["uncalled"] == owing[1:]
    if owing[1:]:
        t.do("catch", 1, target=owing[1])
        assert t.view()["hand_sizes"][owing[1]] == 3


def test_a_seat_receiving_a_one_card_hand_when_a_0_passes_the_hands_must_call_uno():
    """A seat that is down to one card by receiving a one-card hand (here as a `0` passes every
    hand) must call uno.
    """
    t = turn("red-6 yellow-1 / red-8 yellow-3 / red-0 blue-1 / green-1 green-2")
    t.do("call-uno", 0)
    t.do("call-uno", 1)
    play(t, 2, "red-0", uno=True)
    assert [t.hand(s) for s in range(4)] == [
        ["green-1", "green-2"],
        ["yellow-1"],
        ["yellow-3"],
        ["blue-1"],
    ]
    assert t.view()["uncalled"] == [1, 2, 3]
    t.do("catch", 0, target=1)
    assert t.view()["hand_sizes"] == [2, 3, 1, 1]


def test_a_wrong_challenge_makes_the_challenger_draw_the_penalty():
    """A wrong challenge makes the challenger draw `uno_penalty`."""
    t = turn(
        f"{OPENERS} / red-9 blue-1 blue-2 / green-1 green-2 green-3",
        ["blue-6", "blue-7"],
    )
    assert {c["target"] for c in t.legal(3) if c["type"] == "catch"} == {0, 1, 2}
    events = t.do("catch", 3, target=2)
    assert of_type(events, "uno-penalized") == [
        {"type": "uno-penalized", "seat": 3, "reason": "wrong-catch"}
    ]
    assert t.hand(3) == ["green-1", "green-2", "green-3", "blue-6", "blue-7"]
    assert t.hand(2) == ["red-9", "blue-1", "blue-2"]
    assert t.to_act() == [2]


def test_a_seat_that_owes_no_uno_call_cannot_call_uno():
    """A seat must call uno when down to one card (a call from a seat that owes none is
    rejected, as in official).
    """
    t = turn(f"{OPENERS} / red-9 blue-1 blue-2 / green-1 green-2 green-3")
    assert "call-uno" not in kinds(t, 2)
    t.reject("uno-not-owed", "call-uno", 2)
    t.reject("uno-not-due", "play", 2, card="red-9", uno=True)


# ------------------------------------------------------------------- going out and scoring


def test_going_out_ends_the_hand_at_once():
    """Engine decision (rules/newno.py): the last card ends the hand at once."""
    t = newno("red-3 red-9 / red-4 blue-6", "red-5")
    play(t, 0, "red-3")
    play(t, 1, "red-4")
    events = play(t, 0, "red-9")
    assert types(events) == ["card-played", "hand-ended"]
    view = t.view()
    assert (view["status"], view["to_act"], view["pending"]) == (
        "hand-over",
        [],
        {"type": "next-hand"},
    )
    assert view["last_hand"] == {
        "winner": 0,
        "cards_left": [[], ["blue-6"]],
        "points": [0, 6],
        "gained": [6, 0],
    }
    assert t.legal(None) == [{"type": "next-hand"}]


@pytest.mark.parametrize(("card", "total"), [("draw2", 6), ("wild-draw4", 12)])
def test_a_last_draw_card_makes_the_next_seat_draw_the_whole_stack(card, total):
    """Engine decision (rules/newno.py): a last draw2 or wild-draw4 makes the next seat draw the
    whole stack.
    """
    cards = ["blue-draw2", "red-draw2", "green-draw2"] if card == "draw2" else ["wild-draw4"] * 3
    drawn = "blue-6 blue-7 blue-8 blue-9 green-6 green-7 green-8 green-9 yellow-6 yellow-7".split()
    drawn += ["yellow-8", "yellow-9"]
    t = newno([["red-3", cards[0]], [cards[1], "yellow-1"], [cards[2], "yellow-2"]], "red-5", drawn)
    color = {"color": "red"} if card == "wild-draw4" else {}
    play(t, 0, "red-3")
    play(t, 1, cards[1], **color)  # the second play, clockwise
    play(t, 2, cards[2], **color)
    step = {"draw2": 2, "wild-draw4": 4}[card]
    assert pending(t) == {"type": "stack", "seat": 0, "total": total - step, "kind": card}
    events = play(t, 0, cards[0])
    assert types(events) == ["card-played", "cards-drawn", "hand-ended"]
    assert (events[1]["seat"], events[1]["cards"]) == (1, drawn[:total])
    # The drawn cards count for the winner.
    left = ["yellow-1", *drawn[:total]]
    assert t.view()["last_hand"]["cards_left"] == [[], left, ["yellow-2"]]
    assert t.view()["last_hand"]["gained"] == [sum(int(c[-1]) for c in left) + 2, 0, 0]


@pytest.mark.parametrize("card", ["red-7", "red-0"])
def test_a_last_7_or_0_swaps_nothing(card):
    """Engine decision (rules/newno.py): a last 7 or 0 swaps nothing."""
    t = newno([["red-3", card], ["red-4", "blue-6"]], "red-5")
    play(t, 0, "red-3")
    play(t, 1, "red-4")
    assert [c for c in t.legal(0) if c["type"] == "play"] == [
        {"type": "play", "seat": 0, "card": card, "uno": False}
    ]
    events = play(t, 0, card, **({"target": 1} if card == "red-7" else {}))
    assert types(events) == ["card-played", "hand-ended"]
    assert t.view()["last_hand"]["cards_left"] == [[], ["blue-6"]]


def test_the_winner_takes_the_points_of_every_other_hand():
    """Defaults: `scoring` winner-takes (the winner scores the points of all cards left in the
    other hands); the next hand opens the same way, dealt by the seat left of the dealer.
    """
    t = newno("red-3 red-9 red-1 / red-4 wild blue-skip / red-6 red-2 wild-draw4", "red-5")
    play(t, 0, "red-3")
    play(t, 1, "red-4")
    play(t, 2, "red-6")
    play(t, 0, "red-9", uno=True)
    play(t, 1, "wild", color="red")
    play(t, 2, "red-2")
    events = play(t, 0, "red-1")
    ended = of_type(events, "hand-ended")[0]
    assert (ended["points"], ended["gained"], ended["scores"]) == (
        [0, 20, 50],
        [70, 0, 0],
        [70, 0, 0],
    )
    assert t.view()["scores"] == [70, 0, 0]
    assert t.view()["status"] == "hand-over"
    t.do("next-hand")
    view = t.view()
    assert (view["hand_number"], view["dealer"], view["scores"]) == (2, 1, [70, 0, 0])
    assert view["to_act"] == [0, 1, 2]
    assert view["pending"]["type"] == "first-play"


# ------------------------------------------------------------------------------ what is seen


def card_codes(obj: Any) -> set[str]:
    """Every card code anywhere in a JSON-like value."""
    if isinstance(obj, str):
        return {obj} if obj in CARD_CODES else set()
    if isinstance(obj, dict):
        return set().union(*map(card_codes, obj.values())) if obj else set()
    if isinstance(obj, (list, tuple)):
        return set().union(*map(card_codes, obj)) if obj else set()
    return set()


def assert_nothing_leaks(t: Table) -> None:
    """Every event and the last view show each viewer only public cards (flipped or played, or
    the hands at the end of a hand) and cards the viewer itself holds or has held.
    """
    variant, seats = t.variant, t.state.seats
    state = variant.replay(t.events[:1])
    public: set[str] = set()
    held: dict[int | None, set[str]] = {s: set() for s in range(seats)}
    held[None] = set()
    for event in t.events[1:]:
        state = variant.replay([event], state)
        if event["type"] in ("card-flipped", "card-played"):
            public.add(event["card"])
        for s in range(seats):
            held[s] |= set(state.hands[s])
        shown = card_codes(event) if event["type"] == "hand-ended" else set()
        for viewer in [None, *range(seats)]:
            seen = card_codes(variant.view_event(event, viewer))
            assert seen <= public | held[viewer] | shown, (event, viewer)
    for viewer in [None, *range(seats)]:
        view = t.view(viewer)
        assert view.get("hand") == (None if viewer is None else state.hands[viewer])
        rest = card_codes({k: v for k, v in view.items() if k != "hand"})
        drawn = view["pending"] or {}
        own = {drawn["card"]} if drawn.get("type") == "drawn" and drawn["seat"] == viewer else set()
        assert rest <= {view["top"]} | own, viewer


def test_a_seat_sees_its_own_hand_after_swaps_and_rotations_and_nothing_of_the_others():
    """Nothing in a view reveals a card that the viewer may not see (hands after a 7 or a 0)."""
    t = turn(
        "red-6 red-7 yellow-1 yellow-2 / red-8 yellow-3 yellow-4 yellow-6 / "
        "red-7 red-0 blue-1 blue-2 / green-1 green-2 green-3 red-1",
        ["blue-9"],
    )
    play(t, 2, "red-7")
    play(t, 0, "red-7")  # a jump-in: seat 2 swaps first, then seat 0
    events = t.do("swap", 2, target=3)
    assert events[0] == {"type": "hands-swapped", "seat": 2, "target": 3}
    assert_nothing_leaks(t)
    t.do("swap", 0, target=1, other=2)
    assert_nothing_leaks(t)
    assert t.hand(1) == ["green-1", "green-2", "green-3", "red-1"]
    play(t, 1, "red-1")
    t.do("draw", 2)  # seat 2 holds seat 1's old yellows: it draws blue-9, the turn passes
    play(t, 3, "red-0")  # seat 3 holds seat 2's old hand, with its red-0
    assert_nothing_leaks(t)
    assert t.replayed() == t.state


def test_a_drawn_card_is_seen_by_the_seat_that_drew_it_alone():
    """Nothing in a view reveals a card that the viewer may not see (a drawn card, the Apex
    Gambit's pending card, a forced draw at the open start).
    """
    t = newno(OPEN, "red-5", ["red-9", "blue-9"], ages=[20, 30, 10, 40])
    t.do("close-window")
    events = t.do("draw", 2)
    for viewer in (None, 0, 1, 3):
        assert t.view(viewer)["pending"]["card"] is None
        shown = [t.variant.view_event(e, viewer) for e in events]
        assert shown[0]["cards"] == [None]
        assert shown[1]["pending"]["card"] is None
    assert t.view(2)["pending"]["card"] == "red-9"
    assert t.variant.view_event(events[0], 2)["cards"] == ["red-9"]
    assert_nothing_leaks(t)
    t.do("pass", 2)
    play(t, 3, "red-4")
    assert_nothing_leaks(t)
