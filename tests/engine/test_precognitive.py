"""The `precognitive` modifier (docs/rules.md "The precognitive modifier"), over both bases."""

from __future__ import annotations

from typing import Any

import pytest

from engine import POINTS, Variant
from tests.engine.decks import stacked
from tests.engine.table import Table, basic_plus, of_type, official, types

BASES = ["official", "basic-plus"]
over_each_base = pytest.mark.parametrize("base", BASES)
SIGHTS = ["sighted", "blind", "telepathic"]


def precog(
    base: str,
    hands: list[list[str]],
    flip: str,
    draw: list[str] | None = None,
    *,
    first: int = 0,
    lane: Any = 1,
    sight: str = "sighted",
    **options: Any,
) -> Table:
    """A precognitive game from a stacked deck in which `first` takes the first turn."""
    variant = Variant.from_spec(
        {
            "rules": base,
            "options": {"hand_size": len(hands[0]), **options},
            "precognitive": {"lane": lane, "sight": sight},
        }
    )
    seats = len(hands)
    deck = stacked(hands, flip, draw, first=first)
    # official: the seat left of the dealer plays first; basic-plus: the first seat.
    anchor = {"dealer": (first - 1) % seats} if base == "official" else {"first": first}
    return Table(variant, variant.start(seats, deck=deck, **anchor))


def lanes(table: Table) -> list[list[str]]:
    """Every lane as it really is (the whole state, not a view)."""
    return [list(lane) for lane in table.state.lanes]


def pending(table: Table, viewer: int | None = None) -> dict[str, Any]:
    return table.view(viewer)["pending"]


def of_kind(table: Table, seat: int, kind: str) -> list[dict[str, Any]]:
    return [c for c in table.legal(seat) if c["type"] == kind]


def played(events: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
    return [(e["seat"], e["card"], e["source"]) for e in of_type(events, "card-played")]


# ------------------------------------------------------------------------------- spec


@pytest.mark.parametrize("base", ["newno", "censorship"])
def test_precognitive_is_refused_over_newno_and_censorship_at_from_spec(base):
    """`newno` and `censorship` are refused with a clear message, at `from_spec`."""
    Variant.from_spec({"rules": base})  # the family itself is fine
    with pytest.raises(ValueError, match=f"precognitive cannot wrap {base}: its open starts"):
        Variant.from_spec({"rules": base, "precognitive": {"lane": 2}})


def test_precognitive_is_a_modifier_over_official_by_default():
    """A modifier over a base ruleset (`official` by default; …)."""
    variant = Variant.from_spec({"precognitive": {"lane": 2}})
    assert variant.spec["rules"] == "official"


@over_each_base
def test_precognitive_is_a_modifier_over_official_and_basic_plus(base):
    """A modifier over a base ruleset (`official` by default; `basic-plus` too; …)."""
    variant = Variant.from_spec({"rules": base, "precognitive": {"lane": 2, "sight": "blind"}})
    assert variant.spec["rules"] == base
    assert variant.spec["precognitive"] == {"lane": 2, "sight": "blind"}
    plain = Variant.from_spec({"rules": base})
    assert variant.spec["options"] == plain.spec["options"]


@pytest.mark.parametrize("given", [{}, True])
def test_the_lane_defaults_to_1_and_sight_to_sighted(given):
    """Defaults: `lane` 1, `sight` `sighted`."""
    variant = Variant.from_spec({"rules": "official", "precognitive": given})
    assert variant.spec["precognitive"] == {"lane": 1, "sight": "sighted"}


@pytest.mark.parametrize("sight", SIGHTS)
@pytest.mark.parametrize("lane", [1, 2, 3, 15, "initial-hand", "half-hand", "fewest-in-any-hand"])
def test_every_lane_and_sight_option_is_accepted(lane, sight):
    """`lane`: an integer ≥ 1, `initial-hand`, `half-hand`, `fewest-in-any-hand`; `sight`: …"""
    variant = Variant.from_spec(
        {"rules": "official", "precognitive": {"lane": lane, "sight": sight}}
    )
    assert variant.spec["precognitive"] == {"lane": lane, "sight": sight}


@pytest.mark.parametrize(
    "precognitive",
    [
        {"lane": 0},
        {"lane": -1},
        {"lane": 1.5},
        {"lane": "2"},
        {"lane": True},
        {"lane": None},
        {"lane": "quarter-hand"},
        {"sight": "deaf"},
        {"sight": None},
        {"sight": 1},
        {"size": 2},
        "blind",
        2,
        [],
    ],
)
def test_a_bad_precognitive_option_is_refused(precognitive):
    """Options: `lane` (an integer ≥ 1 or a named rule) and `sight` (sighted, blind, telepathic)."""
    with pytest.raises(ValueError):
        Variant.from_spec({"rules": "official", "precognitive": precognitive})


# --------------------------------------------------------------- the start of a turn

# Two seats: seat 0 holds only red cards, seat 1 too; the flip is red, so every play is legal.
RED = [["red-1", "red-2", "red-3", "red-4"], ["red-5", "red-6", "red-7", "red-8"]]


@over_each_base
def test_a_seat_with_an_empty_lane_takes_a_normal_base_turn(base):
    """A seat whose lane is empty (its first turn) takes a base turn from its regular hand."""
    table = precog(base, RED, "red-9")
    plain = official(RED, "red-9", dealer=1) if base == "official" else basic_plus(RED, "red-9")
    assert lanes(table) == [[], []]
    assert pending(table) == {"type": "play", "seat": 0}
    assert table.legal(0) == plain.legal(0)
    table.reject("unexpected-command", "precommit", 0, cards=["red-1"], uno=False)
    table.do("play", 0, card="red-1", uno=False)
    assert table.view()["top"] == "red-1"
    assert pending(table) == {"type": "precommit", "seat": 0, "count": 1, "next": 1, "then": None}
    assert table.to_act() == [0]


@over_each_base
def test_an_empty_lane_turn_may_be_a_draw_and_then_a_precommit(base):
    """A seat whose lane is empty … takes a normal base turn (a draw too), then precommits."""
    table = precog(base, RED, "red-9", draw=["green-1"])
    table.do("draw", 0)
    assert table.hand(0) == ["red-1", "red-2", "red-3", "red-4", "green-1"]
    assert pending(table) == {"type": "precommit", "seat": 0, "count": 1, "next": 1, "then": None}
    table.do("precommit", 0, cards=["green-1"], uno=False)
    assert lanes(table) == [["green-1"], []]
    assert pending(table) == {"type": "play", "seat": 1}


def test_over_official_a_kept_drawn_card_is_followed_by_the_precommit():
    """At the end of each of its turns the seat fills its lane with one `precommit` command."""
    table = precog("official", RED, "red-9", draw=["red-0"])
    table.do("draw", 0)
    assert pending(table, 0) == {"type": "drawn", "seat": 0, "card": "red-0"}
    table.do("pass", 0)
    assert pending(table)["type"] == "precommit"
    table.do("precommit", 0, cards=["red-0"], uno=False)
    assert lanes(table) == [["red-0"], []]


@over_each_base
def test_a_legal_front_card_is_played_at_once_by_the_engine(base):
    """If it is a legal play it is played at once by the engine."""
    table = precog(base, RED, "red-9")
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    events = table.do("precommit", 1, cards=["red-6"], uno=False)
    assert types(events) == ["lane-filled", "card-played", "prompted"]
    assert played(events) == [(0, "red-2", "lane")]
    assert table.view()["top"] == "red-2"
    assert lanes(table) == [[], ["red-6"]]
    assert table.hand(0) == ["red-3", "red-4"]
    assert pending(table) == {"type": "precommit", "seat": 0, "count": 1, "next": 1, "then": None}


@over_each_base
def test_a_seat_with_a_lane_cannot_otherwise_play_or_draw(base):
    """The seat cannot otherwise play or draw."""
    table = precog(base, RED, "red-9")
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    table.do("precommit", 1, cards=["red-6"], uno=False)
    assert {c["type"] for c in table.legal(0)} <= {"precommit", "call-uno", "catch"}
    table.reject("unexpected-command", "play", 0, card="red-3", uno=False)
    table.reject("unexpected-command", "draw", 0)


@over_each_base
def test_the_lane_moves_up_and_the_precommit_fills_the_back_slots_in_order(base):
    """… and the lane moves up; … fill its lane … back slots in order."""
    hands = [["red-1", "red-2", "red-3", "blue-4"], ["red-5", "red-6", "red-7", "red-8"]]
    table = precog(base, hands, "red-9", lane=2)
    table.do("play", 0, card="red-1", uno=False)
    assert pending(table)["count"] == 2
    table.do("precommit", 0, cards=["red-3", "red-2"], uno=False)
    assert lanes(table) == [["red-3", "red-2"], []]
    table.do("play", 1, card="red-5", uno=False)
    events = table.do("precommit", 1, cards=["red-7", "red-6"], uno=False)
    assert played(events) == [(0, "red-3", "lane")]
    assert lanes(table) == [["red-2"], ["red-7", "red-6"]]
    assert pending(table)["count"] == 1
    events = table.do("precommit", 0, cards=["blue-4"], uno=False)
    assert played(events) == [(1, "red-7", "lane")]
    assert lanes(table) == [["red-2", "blue-4"], ["red-6"]]


@over_each_base
def test_a_black_front_card_has_its_colour_named_by_the_owner_before_the_precommit(base):
    """For a black card the owner then names the colour (`choose-color`) before the precommit."""
    hands = [["red-1", "wild", "red-3", "red-4"], RED[1]]
    table = precog(base, hands, "red-9")
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["wild"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    events = table.do("precommit", 1, cards=["red-6"], uno=False)
    assert played(events) == [(0, "wild", "lane")]
    assert pending(table) == {"type": "color", "seat": 0, "after": "play"}
    assert [c["color"] for c in of_kind(table, 0, "choose-color")] == [
        "red",
        "yellow",
        "green",
        "blue",
    ]
    assert of_kind(table, 0, "precommit") == []
    table.reject("unexpected-command", "precommit", 0, cards=["red-3"], uno=False)
    table.reject("unexpected-command", "play", 0, card="red-3", uno=False)
    table.do("choose-color", 0, color="green")
    assert (table.view()["top"], table.view()["color"]) == ("wild", "green")
    assert pending(table) == {"type": "precommit", "seat": 0, "count": 1, "next": 1, "then": None}


@over_each_base
def test_an_illegal_front_card_flushes_the_whole_lane_draws_one_and_ends_the_turn(base):
    """If not, the lane is flushed into the regular hand, the seat draws one, its turn is over."""
    hands = [["red-1", "blue-2", "red-3", "red-4"], ["red-5", "green-5", "red-7", "red-8"]]
    table = precog(base, hands, "red-9", draw=["yellow-9"], lane=2)
    table.do("play", 0, card="red-1", uno=False)
    # The front blue-2 will not match; red-3 behind it would, but the whole lane goes back.
    table.do("precommit", 0, cards=["blue-2", "red-3"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    events = table.do("precommit", 1, cards=["green-5", "red-7"], uno=False)
    assert types(events) == ["lane-filled", "lane-flushed", "cards-drawn", "prompted"]
    assert events[1] == {"type": "lane-flushed", "seat": 0, "cards": ["blue-2", "red-3"]}
    assert events[2] == {"type": "cards-drawn", "seat": 0, "cards": ["yellow-9"], "reason": "flush"}
    assert lanes(table)[0] == []
    assert sorted(table.hand(0)) == sorted(["red-4", "blue-2", "red-3", "yellow-9"])
    assert table.view()["top"] == "red-5"  # nothing was played
    # Its turn is over: what is left is the precommit (any card, the flushed or drawn ones too).
    assert pending(table) == {"type": "precommit", "seat": 0, "count": 2, "next": 1, "then": None}
    table.reject("unexpected-command", "play", 0, card="red-3", uno=False)
    table.reject("unexpected-command", "draw", 0)
    table.do("precommit", 0, cards=["yellow-9", "blue-2"], uno=False)
    assert lanes(table)[0] == ["yellow-9", "blue-2"]
    # Seat 1's front green-5 matches red-5 by rank and is played at once.
    assert table.view()["top"] == "green-5"


# ---------------------------------------------------------------------- the precommit


@over_each_base
def test_the_precommit_holds_exactly_the_cards_that_fill_the_lane(base):
    """… with exactly as many cards as bring the lane to its size …"""
    table = precog(base, RED, "red-9", lane=2)
    table.do("play", 0, card="red-1", uno=False)
    assert pending(table)["count"] == 2
    precommits = of_kind(table, 0, "precommit")
    assert precommits and all(len(c["cards"]) == 2 for c in precommits)
    assert {tuple(c["cards"]) for c in precommits} == {
        (a, b) for a in ("red-2", "red-3", "red-4") for b in ("red-2", "red-3", "red-4") if a != b
    }
    table.reject("bad-precommit", "precommit", 0, cards=["red-2"], uno=False)
    table.reject("bad-precommit", "precommit", 0, cards=["red-2", "red-3", "red-4"], uno=False)
    table.reject("bad-precommit", "precommit", 0, cards=[], uno=False)
    table.reject("card-not-in-hand", "precommit", 0, cards=["red-2", "red-1"], uno=False)
    table.reject("card-not-in-hand", "precommit", 0, cards=["red-2", "red-2"], uno=False)
    table.reject("not-your-turn", "precommit", 1, cards=["red-5", "red-6"], uno=False)
    table.reject("unknown-card", "precommit", 0, cards=["red-2", "purple-3"], uno=False)


@over_each_base
def test_the_precommit_takes_only_cards_of_the_regular_hand(base):
    """… fills its lane … from its regular hand."""
    hands = [["red-1", "red-2", "red-3", "red-4"], ["red-5", "red-2", "red-7", "red-8"]]
    table = precog(base, hands, "red-9", lane=2)
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2", "red-3"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    table.do("precommit", 1, cards=["red-7", "red-8"], uno=False)
    # Seat 0 played red-2 from its lane; red-3 is still in the lane, not in the regular hand.
    assert table.hand(0) == ["red-4"]
    table.reject("card-not-in-hand", "precommit", 0, cards=["red-3"], uno=False)


@over_each_base
def test_the_precommit_empties_a_regular_hand_smaller_than_the_gap(base):
    """… or empty the regular hand."""
    table = precog(
        base, [["red-1", "red-2", "red-3"], ["red-5", "red-6", "red-7"]], "red-9", lane=3
    )
    table.do("play", 0, card="red-1", uno=False)
    assert pending(table)["count"] == 2
    table.reject("bad-precommit", "precommit", 0, cards=["red-2"], uno=False)
    table.do("precommit", 0, cards=["red-3", "red-2"], uno=False)
    assert lanes(table)[0] == ["red-3", "red-2"]
    assert table.hand(0) == []


@over_each_base
def test_with_an_empty_regular_hand_no_precommit_is_needed_and_the_turn_ends(base):
    """With an empty regular hand … no command is needed and the turn ends."""
    hands = [["red-1", "red-2", "red-3"], ["red-5", "blue-6", "blue-7"]]
    table = precog(base, hands, "red-9", draw=["yellow-9"], lane=2)
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2", "red-3"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    events = table.do("precommit", 1, cards=["blue-6", "blue-7"], uno=False)
    # Seat 0 plays red-2 from its lane; its regular hand is empty, so seat 1's turn follows at
    # once (blue-6 does not match red-2: seat 1's lane is flushed).
    assert types(events) == [
        "lane-filled",
        "card-played",
        "uno-owed",
        "lane-flushed",
        "cards-drawn",
        "prompted",
    ]
    assert [e["pending"]["seat"] for e in of_type(events, "prompted")] == [1]
    assert lanes(table)[0] == ["red-3"]
    assert pending(table)["type"] == "precommit"
    assert pending(table)["seat"] == 1


@over_each_base
def test_a_lane_longer_than_a_newly_computed_size_keeps_its_cards(base):
    """… a lane already full: no command; a lane longer than a new size keeps its cards."""
    hands = [["red-1", "red-2", "red-3"], ["red-skip", "red-5", "blue-7"]]
    lane = "fewest-in-any-hand"
    table = precog(base, hands, "red-9", draw=["green-1", "yellow-9"], lane=lane)
    table.do("draw", 0)  # green-1: seat 0 holds 4, seat 1 holds 3
    assert pending(table)["count"] == 3
    table.do("precommit", 0, cards=["red-1", "red-2", "red-3"], uno=False)
    table.do("play", 1, card="red-skip", uno=False)  # seat 1 holds 2: the fewest
    assert pending(table)["count"] == 2
    events = table.do("precommit", 1, cards=["red-5", "blue-7"], uno=False)
    # Seat 0 is skipped; seat 1 plays red-5 from its lane (1 card left, regular hand empty);
    # seat 0 plays red-1 from its lane: its lane of 2 is longer than the fewest (1), so it
    # keeps both cards and needs no precommit; seat 1's blue-7 is flushed, seat 1 draws and
    # now holds 2, and the fewest (2) is its lane size.
    assert played(events) == [(1, "red-5", "lane"), (0, "red-1", "lane")]
    assert [e["pending"] for e in of_type(events, "prompted")] == [
        {"type": "precommit", "seat": 1, "count": 2, "next": 0, "then": None}
    ]
    assert lanes(table) == [["red-2", "red-3"], []]
    assert table.hand(0) == ["green-1"]
    assert sorted(table.hand(1)) == ["blue-7", "yellow-9"]


@over_each_base
def test_the_precommit_count_is_computed_at_the_refill_after_a_penalty(base):
    """As many cards as bring the lane to its size or empty the regular hand; at each refill."""
    hands = [["red-1", "red-2"], ["red-5", "red-6"]]
    table = precog(base, hands, "red-9", draw=["green-1", "green-2", "green-3"], lane=2)
    table.do("play", 0, card="red-1", uno=False)  # one card left: only one to precommit
    assert pending(table)["count"] == 1
    table.do("catch", 1, target=0)  # seat 0 draws the penalty into its regular hand
    assert len(table.hand(0)) > 2
    # Now the regular hand can fill the lane of 2.
    table.do("precommit", 0, cards=["red-2", "green-1"], uno=False)
    assert lanes(table)[0] == ["red-2", "green-1"]


# ------------------------------------------------------------------------- lane sizes


@over_each_base
@pytest.mark.parametrize("lane", [1, 2, 3])
def test_an_integer_lane_holds_that_many_cards(base, lane):
    """`lane`: an integer ≥ 1 (1 = single-commit, 2 = two-commit)."""
    hands = [
        ["red-1", "red-2", "red-3", "red-4", "red-5"],
        ["red-6", "red-7", "red-8", "blue-1", "blue-2"],
    ]
    table = precog(base, hands, "red-9", lane=lane)
    table.do("play", 0, card="red-1", uno=False)
    assert pending(table)["count"] == lane
    table.do("precommit", 0, cards=table.hand(0)[:lane], uno=False)
    assert len(lanes(table)[0]) == lane
    assert table.view()["hand_sizes"] == [4, 5]


@over_each_base
def test_an_initial_hand_lane_holds_the_number_dealt(base):
    """`initial-hand` (the number dealt)."""
    table = precog(base, RED, "red-9", draw=["green-1"], lane="initial-hand")
    table.do("draw", 0)  # 5 cards in the regular hand, 4 dealt
    assert pending(table)["count"] == 4
    table.reject("bad-precommit", "precommit", 0, cards=table.hand(0), uno=False)
    table.do("precommit", 0, cards=["green-1", "red-1", "red-2", "red-3"], uno=False)
    assert lanes(table)[0] == ["green-1", "red-1", "red-2", "red-3"]


@over_each_base
def test_a_half_hand_lane_is_computed_at_each_refill(base):
    """`half-hand` (half the cards the seat holds, lane included, rounded down), at each refill."""
    hands = [[f"red-{n}" for n in range(1, 8)], [f"red-{n}" for n in range(1, 8)]]
    table = precog(base, hands, "red-9", lane="half-hand")
    table.do("play", 0, card="red-1", uno=False)  # holds 6: a lane of 3
    assert pending(table)["count"] == 3
    table.do("precommit", 0, cards=["red-2", "red-3", "red-4"], uno=False)
    table.do("play", 1, card="red-1", uno=False)
    events = table.do("precommit", 1, cards=["red-2", "red-3", "red-4"], uno=False)
    # Seat 0 plays red-2 and holds 5 (lane 2): half is 2, the lane is full, no command.
    # Seat 1 likewise. Seat 0 plays red-3 and holds 4 (lane 1): half is 2, one card to add.
    assert played(events) == [(0, "red-2", "lane"), (1, "red-2", "lane"), (0, "red-3", "lane")]
    assert [e["pending"]["seat"] for e in of_type(events, "prompted")] == [0]
    assert pending(table)["count"] == 1
    assert lanes(table) == [["red-4"], ["red-3", "red-4"]]


@over_each_base
def test_a_half_hand_lane_holds_at_least_one_card(base):
    """`half-hand` (…, at least 1)."""
    table = precog(base, [["red-1", "red-2"], ["red-5", "red-6"]], "red-9", lane="half-hand")
    table.do("play", 0, card="red-1", uno=True)  # holds 1: half is 0, the lane is 1
    assert pending(table)["count"] == 1


@over_each_base
def test_a_fewest_in_any_hand_lane_counts_every_seat_lanes_included(base):
    """`fewest-in-any-hand` (the fewest cards any seat holds, lanes included, at least 1)."""
    hands = [["red-1", "red-2", "red-3", "red-4"], ["red-5", "red-6", "red-7", "red-8"]]
    table = precog(base, hands, "red-9", draw=["green-1"], lane="fewest-in-any-hand")
    table.do("draw", 0)  # seat 0 holds 5, seat 1 holds 4
    assert pending(table)["count"] == 4
    table.do("precommit", 0, cards=["red-1", "red-2", "red-3", "red-4"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    # Seat 1 holds 3; seat 0 holds 5, 4 of them in its lane (1 without it): the fewest is 3.
    assert pending(table)["count"] == 3


# ------------------------------------------------------------------ skips and penalties

THREE = [
    ["red-1", "red-skip", "red-2", "red-3"],
    ["red-4", "red-5", "red-6", "red-7"],
    ["red-8", "red-9", "blue-1", "blue-2"],
]


@over_each_base
def test_a_skipped_seat_has_no_turn_and_its_lane_is_untouched(base):
    """A skipped seat has no turn; its lane is untouched."""
    table = precog(base, THREE, "red-0")
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-skip"], uno=False)
    table.do("play", 1, card="red-4", uno=False)
    table.do("precommit", 1, cards=["red-5"], uno=False)
    table.do("play", 2, card="red-8", uno=False)
    events = table.do("precommit", 2, cards=["red-9"], uno=False)
    # Seat 0 plays its red-skip from the lane and precommits; seat 1 is then skipped.
    assert played(events) == [(0, "red-skip", "lane")]
    events = table.do("precommit", 0, cards=["red-2"], uno=False)
    assert played(events) == [(2, "red-9", "lane")]
    assert lanes(table) == [["red-2"], ["red-5"], []]
    assert table.hand(1) == ["red-6", "red-7"]
    assert pending(table)["seat"] == 2


@over_each_base
def test_a_draw2_victim_draws_into_its_regular_hand_and_keeps_its_lane(base):
    """Cards drawn as penalties go to the regular hand."""
    hands = [["red-1", "red-draw2", "red-2", "red-3"], ["red-4", "red-5", "red-6", "red-7"]]
    table = precog(base, hands, "red-0", draw=["green-1", "green-2"])
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-draw2"], uno=False)
    table.do("play", 1, card="red-4", uno=False)
    events = table.do("precommit", 1, cards=["red-5"], uno=False)
    assert played(events) == [(0, "red-draw2", "lane")]
    assert of_type(events, "cards-drawn") == [
        {"type": "cards-drawn", "seat": 1, "cards": ["green-1", "green-2"], "reason": "draw2"}
    ]
    assert table.hand(1) == ["red-6", "red-7", "green-1", "green-2"]
    assert lanes(table)[1] == ["red-5"]
    assert table.view()["hand_sizes"] == [2, 5]


@over_each_base
def test_an_uno_penalty_goes_to_the_regular_hand(base):
    """Cards drawn as penalties go to the regular hand."""
    hands = [["red-1", "red-2", "red-3"], ["red-4", "red-5", "red-6"]]
    table = precog(base, hands, "red-0", draw=["green-1", "green-2", "green-3"])
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2"], uno=False)
    table.do("play", 1, card="red-4", uno=False)
    table.do("precommit", 1, cards=["red-5"], uno=False)
    # Seat 0 played red-2 from its lane and holds one card, uncalled.
    assert table.view()["uncalled"] == [0]
    table.do("catch", 1, target=0)
    penalty = table.variant.ruleset.options["uno_penalty"]
    assert table.hand(0) == ["red-3", *["green-1", "green-2", "green-3"][:penalty]]
    assert lanes(table)[0] == []


# ------------------------------------------------------------------------------- uno


def lane_then_one(base: str) -> Table:
    """Seat 0 plays red-2 from its lane and is left with red-3 in its regular hand."""
    hands = [["red-1", "red-2", "red-3"], ["red-4", "red-5", "red-6"], ["red-7", "red-8", "red-9"]]
    table = precog(base, hands, "red-0", draw=["green-1", "green-2", "green-3"])
    for seat, (play, commit) in enumerate(
        [("red-1", "red-2"), ("red-4", "red-5"), ("red-7", "red-8")]
    ):
        table.do("play", seat, card=play, uno=False)
        table.do("precommit", seat, cards=[commit], uno=False)
    return table


@over_each_base
def test_uno_is_due_when_an_automatic_play_leaves_one_card(base):
    """Uno is due when a play leaves the seat with one card counting the lane."""
    table = lane_then_one(base)
    assert "uno-owed" in types(table.events[-3:])
    assert table.view()["uncalled"] == [0]
    assert table.view()["hand_sizes"] == [1, 2, 2]
    assert {"type": "catch", "seat": 1, "target": 0} in table.legal(1)


@over_each_base
def test_uno_is_due_when_the_one_card_left_is_in_the_lane(base):
    """Uno is due when a play leaves the seat with one card counting the lane."""
    hands = [["red-1", "red-2", "red-3"], ["red-4", "blue-5", "blue-6"]]
    table = precog(base, hands, "red-0", draw=["green-1"], lane=2)
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2", "red-3"], uno=False)
    table.do("play", 1, card="red-4", uno=False)
    events = table.do("precommit", 1, cards=["blue-5", "blue-6"], uno=False)
    assert {"type": "uno-owed", "seat": 0} in events
    assert table.hand(0) == [] and lanes(table)[0] == ["red-3"]
    # No precommit for seat 0 (empty regular hand): it calls with call-uno.
    table.do("call-uno", 0)
    assert table.view()["uncalled"] == []


@over_each_base
def test_the_owner_calls_uno_for_an_automatic_play_with_its_precommit(base):
    """For an automatic lane play the owner calls it with its `precommit` (`uno: true`)."""
    table = lane_then_one(base)
    assert {"type": "precommit", "seat": 0, "cards": ["red-3"], "uno": True} in table.legal(0)
    events = table.do("precommit", 0, cards=["red-3"], uno=True)
    assert types(events)[:2] == ["lane-filled", "uno-called"]
    assert 0 not in table.view()["uncalled"]
    if base == "official":
        table.reject("not-catchable", "catch", 2, target=0)
    else:
        events = table.do("catch", 2, target=0)
        assert events[0] == {"type": "uno-penalized", "seat": 2, "reason": "wrong-catch"}


@over_each_base
def test_the_owner_calls_uno_for_an_automatic_play_with_call_uno(base):
    """For an automatic lane play the owner calls it with … `call-uno`."""
    table = lane_then_one(base)
    assert table.do("call-uno", 0) == [{"type": "uno-called", "seat": 0}]
    assert table.view()["uncalled"] == []
    table.do("precommit", 0, cards=["red-3"], uno=False)
    assert 0 not in table.view()["uncalled"]


@over_each_base
def test_an_automatic_play_that_leaves_more_than_one_card_owes_no_uno(base):
    """Uno is due when a play leaves the seat with one card counting the lane."""
    hands = [["red-1", "red-2", "red-3", "red-4"], ["red-5", "red-6", "red-7", "red-8"]]
    table = precog(base, hands, "red-0", draw=["green-1", "green-2", "green-3"])
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    table.do("precommit", 1, cards=["red-6"], uno=False)
    assert table.view()["uncalled"] == []
    if base == "official":
        table.reject("uno-not-owed", "precommit", 0, cards=["red-3"], uno=True)
    else:
        # basic-plus: a false call costs the penalty.
        events = table.do("precommit", 0, cards=["red-3"], uno=True)
        assert {"type": "uno-penalized", "seat": 0, "reason": "false-call"} in events
        assert table.hand(0) == ["red-4", "green-1", "green-2", "green-3"]
        assert lanes(table)[0] == ["red-3"]


def test_automatic_plays_do_not_close_a_catch_window():
    """Automatic plays do not close a catch window: it closes when the next seat sends a command."""
    table = lane_then_one("official")
    table.do("precommit", 0, cards=["red-3"], uno=False)
    # Seat 1 played red-5 from its lane: that is the next turn, but automatic.
    assert played(table.events[-4:]) == [(1, "red-5", "lane")]
    assert table.view()["uncalled"] == [0, 1]
    assert {"type": "catch", "seat": 2, "target": 0} in table.legal(2)
    events = table.do("catch", 2, target=0)
    assert events[0] == {"type": "uno-caught", "seat": 2, "target": 0}
    assert table.hand(0) == ["green-1", "green-2"]


def test_the_catch_window_closes_when_the_next_seat_sends_a_command():
    """Automatic plays do not close a catch window: it closes when the next seat sends a command."""
    table = lane_then_one("official")
    table.do("precommit", 0, cards=["red-3"], uno=False)  # the owner's own command keeps it open
    assert table.view()["uncalled"] == [0, 1]
    events = table.do("precommit", 1, cards=["red-6"], uno=False)  # seat 1 is the next seat
    assert events[0] == {"type": "uno-expired", "seats": [0]}
    assert 0 not in table.view()["uncalled"]
    table.reject("not-catchable", "catch", 2, target=0)


# -------------------------------------------------------------------- winning, scores


def two_lanes_to_the_end(base: str) -> tuple[Table, list[dict[str, Any]]]:
    hands = [["red-1", "red-2", "red-3"], ["red-4", "red-5", "red-6"]]
    table = precog(base, hands, "red-0", lane=2, scoring="winner-takes")
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2", "red-3"], uno=False)
    table.do("play", 1, card="red-4", uno=False)
    return table, table.do("precommit", 1, cards=["red-5", "red-6"], uno=False)


@over_each_base
def test_a_seat_wins_only_when_it_has_no_card_left_lane_included(base):
    """A seat wins when it has no card left, lane included."""
    table, events = two_lanes_to_the_end(base)
    # Seat 0's regular hand was already empty; it plays red-2, then (after seat 1) red-3.
    assert played(events) == [(0, "red-2", "lane"), (1, "red-5", "lane"), (0, "red-3", "lane")]
    kinds = types(events)
    assert kinds.count("hand-ended") == 1
    assert kinds.index("hand-ended") > max(i for i, k in enumerate(kinds) if k == "card-played")
    assert table.view()["last_hand"]["winner"] == 0
    assert table.view()["status"] == "hand-over"


@over_each_base
def test_every_lane_is_empty_again_at_the_first_turn_of_the_next_hand(base):
    """A seat whose lane is empty (its first turn) takes a normal base turn."""
    table, _ = two_lanes_to_the_end(base)
    assert lanes(table) == [[], ["red-6"]]
    # The next hand is dealt first to seat 1 (left of the previous dealer or first seat).
    deck = stacked([["blue-1", "blue-2"], ["blue-3", "blue-4"]], "blue-9", first=1)
    table.do("next-hand", deck=deck)
    assert lanes(table) == [[], []]
    assert table.view()["lane"] == [[], []]
    assert pending(table) == {"type": "play", "seat": 1}
    assert {"type": "draw", "seat": 1} in table.legal(1)


@over_each_base
def test_cards_in_a_lane_count_for_scoring(base):
    """Cards in a precognitive lane count as cards in hand for scoring."""
    table, events = two_lanes_to_the_end(base)
    ended = of_type(events, "hand-ended")[0]
    assert ended["cards_left"] == [[], ["red-6"]]
    assert ended["points"] == [0, POINTS["red-6"]]
    assert ended["gained"] == [6, 0]
    assert table.view()["scores"] == [6, 0]


# -------------------------------------------------------------------- wild-draw4


PENALTIES = ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-5", "yellow-6"]


def lane_wild_draw4(hands: list[list[str]], commit: list[str], lane: int) -> Table:
    """Seat 0 precommits `commit` with a wild-draw4 in front; seat 1's turn then plays it."""
    table = precog("official", hands, "red-0", draw=PENALTIES, lane=lane)
    table.do("play", 0, card=hands[0][0], uno=False)
    table.do("precommit", 0, cards=commit, uno=False)
    table.do("play", 1, card=hands[1][0], uno=False)
    table.do("precommit", 1, cards=hands[1][1 : 1 + lane], uno=False)
    return table


def test_a_wild_draw4_from_a_lane_is_challenged_by_the_next_seat_once_the_owners_turn_is_over():
    """A lane `wild-draw4` may be challenged by the next seat once the owner's turn is over."""
    hands = [["red-1", "wild-draw4", "red-3", "blue-4"], ["red-5", "red-6", "red-7", "red-8"]]
    table = lane_wild_draw4(hands, ["wild-draw4"], lane=1)
    assert played(table.events[-3:]) == [(0, "wild-draw4", "lane")]
    assert pending(table) == {"type": "color", "seat": 0, "after": "play"}
    table.reject("not-your-turn", "challenge", 1)
    table.do("choose-color", 0, color="blue")
    assert pending(table) == {
        "type": "precommit",
        "seat": 0,
        "count": 1,
        "next": 1,
        "then": {"type": "challenge", "seat": 1, "offender": 0},
    }
    table.reject("not-your-turn", "challenge", 1)
    table.reject("not-your-turn", "accept", 1)
    table.do("precommit", 0, cards=["blue-4"], uno=False)
    assert pending(table) == {"type": "challenge", "seat": 1, "offender": 0}
    assert table.to_act() == [1]
    assert {c["type"] for c in table.legal(1)} >= {"challenge", "accept"}
    events = table.do("accept", 1)
    assert table.hand(1) == ["red-7", "red-8", *PENALTIES[:4]]
    assert lanes(table)[1] == ["red-6"]  # penalty draws go to the regular hand
    # Seat 1 lost its turn; seat 0 plays blue-4 from its lane.
    assert played(events) == [(0, "blue-4", "lane")]


def test_a_lane_wild_draw4_challenge_judges_the_regular_hand_as_it_was_when_played():
    """The challenge judges the regular hand as it was when the card was played."""
    # When the wild-draw4 is played (red current), the regular hand holds red-3: guilty,
    # even though red-3 is in the lane by the time of the challenge.
    hands = [["red-1", "wild-draw4", "red-3", "blue-4"], ["red-5", "red-6", "red-7", "red-8"]]
    table = lane_wild_draw4(hands, ["wild-draw4"], lane=1)
    table.do("choose-color", 0, color="red")
    table.do("precommit", 0, cards=["red-3"], uno=False)
    assert table.hand(0) == ["blue-4"]
    events = table.do("challenge", 1)
    resolved = of_type(events, "challenge-resolved")[0]
    assert resolved["guilty"] is True
    assert resolved["hand"] == ["red-3", "blue-4"]
    assert table.hand(0) == ["blue-4", *PENALTIES[:4]]
    assert lanes(table)[0] == ["red-3"]
    # The challenger takes a normal turn: with a lane, its front card is played at once.
    assert played(events) == [(1, "red-6", "lane")]


def test_cards_in_the_lane_do_not_make_a_lane_wild_draw4_guilty():
    """The challenge judges the regular hand as it was when the card was played."""
    hands = [["red-1", "wild-draw4", "red-3", "blue-4"], ["red-5", "red-6", "red-7", "red-8"]]
    table = lane_wild_draw4(hands, ["wild-draw4", "red-3"], lane=2)
    table.do("choose-color", 0, color="red")
    assert table.hand(0) == ["blue-4"]
    table.do("precommit", 0, cards=["blue-4"], uno=False)
    events = table.do("challenge", 1)
    resolved = of_type(events, "challenge-resolved")[0]
    assert (resolved["guilty"], resolved["hand"]) == (False, ["blue-4"])
    assert of_type(events, "cards-drawn") == [
        {"type": "cards-drawn", "seat": 1, "cards": PENALTIES, "reason": "challenge"}
    ]
    assert table.hand(1) == ["red-8", *PENALTIES]  # the challenger's lane is not touched:
    # it loses its turn (seat 0 plays red-3, then has an empty regular hand), then plays red-6.
    assert played(events) == [(0, "red-3", "lane"), (1, "red-6", "lane")]
    assert lanes(table) == [["blue-4"], ["red-7"]]


def test_over_basic_plus_a_lane_wild_draw4_makes_the_next_seat_draw_4_at_once():
    """There is no challenge (basic-plus); the next seat draws 4 at once."""
    hands = [["red-1", "wild-draw4", "red-3", "blue-4"], ["red-5", "red-6", "red-7", "red-8"]]
    table = precog(
        "basic-plus", hands, "red-0", draw=["yellow-1", "yellow-2", "yellow-3", "yellow-4"]
    )
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["wild-draw4"], uno=False)
    table.do("play", 1, card="red-5", uno=False)
    table.do("precommit", 1, cards=["red-6"], uno=False)
    table.do("choose-color", 0, color="blue")
    assert table.hand(1) == ["red-7", "red-8", "yellow-1", "yellow-2", "yellow-3", "yellow-4"]
    assert pending(table)["type"] == "precommit"
    table.do("precommit", 0, cards=["blue-4"], uno=False)
    # Seat 1 lost its turn: seat 0 plays again (blue-4 from its lane on blue).
    assert played(table.events[-4:])[-1] == (0, "blue-4", "lane")


# ---------------------------------------------------------------------- two seats


@over_each_base
def test_a_reverse_with_two_seats_acts_as_skip_over_official_only(base):
    """`reverse` with two players acts as `skip` (`official`, and `precognitive` over it)."""
    hands = [["red-reverse", "red-1", "red-2", "red-3"], ["red-5", "red-6", "red-7", "red-8"]]
    table = precog(base, hands, "red-0")
    table.do("play", 0, card="red-reverse", uno=False)
    events = table.do("precommit", 0, cards=["red-1"], uno=False)
    if base == "official":
        # Seat 0 plays again: its lane's front is played at once.
        assert played(events) == [(0, "red-1", "lane")]
        assert pending(table)["seat"] == 0
    else:
        assert played(events) == []
        assert pending(table) == {"type": "play", "seat": 1}


# ------------------------------------------------------------------------------ views


def sees(sight: str, owner: int, viewer: int | None) -> bool:
    return sight == "telepathic" or (sight == "sighted" and viewer == owner)


def lane_of_two(base: str, sight: str) -> Table:
    """Three seats; seat 0 holds red-2 and red-3 in its lane and blue-4 in its regular hand."""
    hands = [
        ["red-1", "red-2", "red-3", "blue-4"],
        ["red-5", "red-6", "red-7", "red-8"],
        ["blue-5", "green-6", "green-7", "green-8"],
    ]
    table = precog(base, hands, "red-0", draw=["yellow-9"], lane=2, sight=sight)
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2", "red-3"], uno=False)
    return table


@over_each_base
def test_a_view_shows_the_regular_hand_and_hand_sizes_count_the_lane(base):
    """In views, `hand` is the regular hand; `hand_sizes` count every card, lane included."""
    table = precog(base, RED, "red-9", lane=2)
    table.do("play", 0, card="red-1", uno=False)
    table.do("precommit", 0, cards=["red-2", "red-3"], uno=False)
    assert table.hand(0) == ["red-4"]
    for viewer in [None, 0, 1]:
        assert table.view(viewer)["hand_sizes"] == [3, 4]
    assert "hand" not in table.view(None)


@over_each_base
@pytest.mark.parametrize("sight", SIGHTS)
def test_a_view_shows_a_lane_only_to_those_allowed_to_see_it(base, sight):
    """`sighted` (owner sees its lane), `blind` (nobody, owner included), `telepathic` (all)."""
    table = lane_of_two(base, sight)
    for viewer in [None, 0, 1, 2]:
        view = table.view(viewer)
        expected = ["red-2", "red-3"] if sees(sight, 0, viewer) else [None, None]
        assert view["lane"] == [expected, [], []]
        assert "red-2" not in str(view) or sees(sight, 0, viewer)
    assert table.view(0)["hand"] == ["blue-4"]


@over_each_base
@pytest.mark.parametrize("sight", SIGHTS)
def test_a_lane_filled_event_shows_its_cards_only_to_those_allowed_to_see_the_lane(base, sight):
    """`sighted` (owner sees its lane), `blind` (nobody, owner included), `telepathic` (all)."""
    table = lane_of_two(base, sight)
    filled = of_type(table.events, "lane-filled")[0]
    for viewer in [None, 0, 1, 2]:
        seen = table.variant.view_event(filled, viewer)
        expected = ["red-2", "red-3"] if sees(sight, 0, viewer) else [None, None]
        assert seen == {"type": "lane-filled", "seat": 0, "cards": expected}
    assert filled["cards"] == ["red-2", "red-3"]  # the stored event is left alone


@over_each_base
@pytest.mark.parametrize("sight", SIGHTS)
def test_a_flushed_lane_is_seen_by_its_owner_and_by_everyone_when_telepathic(base, sight):
    """`blind` (nobody sees a lane card, the owner included, until it is played or flushed)."""
    table = lane_of_two(base, sight)
    table.do("play", 1, card="red-5", uno=False)
    table.do("precommit", 1, cards=["red-6", "red-7"], uno=False)
    table.do("play", 2, card="blue-5", uno=False)  # red-2 does not match blue-5
    events = table.do("precommit", 2, cards=["green-6", "green-7"], uno=False)
    flushed = of_type(events, "lane-flushed")[0]
    assert flushed == {"type": "lane-flushed", "seat": 0, "cards": ["red-2", "red-3"]}
    for viewer in [None, 0, 1, 2]:
        seen = table.variant.view_event(flushed, viewer)
        visible = sight == "telepathic" or viewer == 0
        assert seen["cards"] == (["red-2", "red-3"] if visible else [None, None])
        assert table.view(viewer)["lane"][0] == []
    assert sorted(table.hand(0)) == ["blue-4", "red-2", "red-3", "yellow-9"]


@over_each_base
@pytest.mark.parametrize("sight", SIGHTS)
def test_a_lane_card_is_seen_by_everyone_once_played(base, sight):
    """`blind` (nobody sees a lane card, … until it is played or flushed)."""
    table = lane_of_two(base, sight)
    table.do("play", 1, card="red-5", uno=False)
    table.do("precommit", 1, cards=["red-6", "red-7"], uno=False)
    table.do("draw", 2)
    events = table.do("precommit", 2, cards=["green-6", "green-7"], uno=False)
    play = of_type(events, "card-played")[0]
    for viewer in [None, 0, 1, 2]:
        assert table.variant.view_event(play, viewer)["card"] == "red-2"
        view = table.view(viewer)
        assert view["top"] == "red-2"
        assert view["lane"][0] == (["red-3"] if sees(sight, 0, viewer) else [None])
