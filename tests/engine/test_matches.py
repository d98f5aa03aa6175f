"""docs/rules.md "Scoring and placement" for `official` (`basic-plus` where it differs), "Cards".

Most hands here are one card each: seat 1 (left of dealer 0) goes out on its first play.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import DECK, POINTS, Variant
from tests.engine.decks import stacked
from tests.engine.table import Table, basic_plus, of_type, official

# Seat 1 goes out with red-7; seat 0 keeps a wild (50), seat 2 a skip (20).
ONE_CARD = [["wild"], ["red-7"], ["blue-skip"]]


def next_hand(t: Table, hands: list[list[str]] | None = None, flip: str = "red-5", **kw) -> list:
    """Start the next hand; stacked when `hands` is given (`first=`: the seat dealt first)."""
    if hands is None:
        return t.do("next-hand")
    return t.do("next-hand", deck=stacked(hands, flip, **kw))


def test_winner_takes_scores_the_points_of_all_cards_left_in_the_other_hands():
    """`winner-takes`: the hand's winner scores the points of all cards left in the other hands."""
    t = official(ONE_CARD, "red-5")
    (ended,) = of_type(t.do("play", 1, card="red-7", uno=False), "hand-ended")
    last = {
        "winner": 1,
        "cards_left": [["wild"], [], ["blue-skip"]],
        "points": [50, 0, 20],
        "gained": [0, 70, 0],
    }
    assert {k: ended[k] for k in last} == last
    view = t.view()
    assert view["last_hand"] == last
    assert (view["scores"], view["hands_won"], view["status"]) == (
        [0, 70, 0],
        [0, 1, 0],
        "hand-over",
    )


@pytest.mark.parametrize(
    ("last", "drawn", "victim_points"),
    [
        ("red-draw2", ["blue-9", "green-skip"], 20 + 9 + 20),
        ("wild-draw4", ["blue-9", "green-skip", "yellow-reverse", "wild"], 20 + 9 + 20 + 20 + 50),
    ],
)
def test_cards_drawn_because_of_a_final_draw2_or_wild_draw4_count(last, drawn, victim_points):
    """`winner-takes`: … (cards drawn because of a final `draw2`/`wild-draw4` count)."""
    t = official([["wild"], [last], ["blue-skip"]], "red-5", drawn)
    color = {"color": "red"} if last == "wild-draw4" else {}
    (ended,) = of_type(t.do("play", 1, card=last, uno=False, **color), "hand-ended")
    assert ended["cards_left"][2] == ["blue-skip", *drawn]
    assert ended["points"] == [50, 0, victim_points]
    assert t.view()["scores"] == [0, 50 + victim_points, 0]


def test_running_total_adds_to_every_seat_the_points_of_its_own_remaining_cards():
    """`running-total`: every seat adds the points of its own remaining cards."""
    t = official(ONE_CARD, "red-5", scoring="running-total")
    t.do("play", 1, card="red-7", uno=False)
    assert t.view()["last_hand"]["gained"] == [50, 0, 20]
    assert t.view()["scores"] == [50, 0, 20]
    # Dealer 1 now: seat 2 goes out; seat 0 keeps 9 points, seat 1 keeps 20.
    next_hand(t, [["blue-9"], ["green-skip"], ["red-6"]], first=2)
    t.do("play", 2, card="red-6", uno=False)
    assert t.view()["last_hand"]["gained"] == [9, 20, 0]
    assert t.view()["scores"] == [59, 20, 20]


def test_running_total_lowest_total_wins():
    """`running-total`: … lowest total wins."""
    t = official(ONE_CARD, "red-5", scoring="running-total", target=50)
    events = t.do("play", 1, card="red-7", uno=False)
    (ended,) = of_type(events, "match-ended")
    assert ended == {"type": "match-ended", "winner": 1, "places": [3, 1, 2], "scores": [50, 0, 20]}
    view = t.view()
    assert (view["status"], view["winner"], view["places"]) == ("match-over", 1, [3, 1, 2])


def test_single_hand_is_one_hand_won_by_its_winner_and_scored_as_winner_takes():
    """`single-hand`: the match is one hand; its winner wins; scores as `winner-takes` for that
    hand.
    """
    t = official(ONE_CARD, "red-5", scoring="single-hand")
    t.do("play", 1, card="red-7", uno=False)
    view = t.view()
    assert (view["status"], view["winner"], view["scores"]) == ("match-over", 1, [0, 70, 0])
    assert t.legal(None) == []
    t.reject("game-over", "next-hand")


def test_single_hand_places_the_winner_first_then_by_points_left_low_first():
    """Final placement: `single-hand` winner first then by points left in hand (low first)."""
    t = official(ONE_CARD, "red-5", scoring="single-hand")
    t.do("play", 1, card="red-7", uno=False)
    assert t.view()["places"] == [3, 1, 2]


def test_single_hand_ties_on_points_left_are_shared():
    """… remaining ties by hands won, then shared."""
    t = official([["blue-9"], ["red-7"], ["green-9"]], "red-5", scoring="single-hand")
    t.do("play", 1, card="red-7", uno=False)
    assert t.view()["places"] == [2, 1, 2]


def test_the_target_defaults_to_500():
    """`target`: integer, default 500."""
    assert Variant.from_spec({"rules": "official"}).spec["options"]["target"] == 500


@pytest.mark.parametrize(("target", "over"), [(69, True), (70, True), (71, False)])
def test_the_match_ends_after_the_hand_in_which_a_seat_reaches_the_target(target, over):
    """`target`: the match ends after the hand in which a seat reaches it."""
    t = official(ONE_CARD, "red-5", target=target)
    events = t.do("play", 1, card="red-7", uno=False)
    assert bool(of_type(events, "match-ended")) is over
    assert t.view()["status"] == ("match-over" if over else "hand-over")
    assert t.legal(None) == ([] if over else [{"type": "next-hand"}])


def test_scores_add_up_over_the_hands_of_a_match():
    """A game is a *match* of one or more hands; the match ends after the hand in which a seat
    reaches the target.
    """
    t = official(ONE_CARD, "red-5", target=100)
    t.do("play", 1, card="red-7", uno=False)
    assert t.view()["status"] == "hand-over"
    # Dealer 1 now: seat 2 plays first and goes out, scoring 50 + 50.
    next_hand(t, [["wild"], ["wild-draw4"], ["red-6"]], first=2)
    events = t.do("play", 2, card="red-6", uno=False)
    (ended,) = of_type(events, "match-ended")
    assert ended["scores"] == [0, 70, 100]
    assert t.view()["hand_number"] == 2
    assert (t.view()["winner"], t.view()["places"]) == (2, [3, 2, 1])


def test_winner_takes_places_by_total_points_high_first_ties_by_hands_won():
    """Final placement: `winner-takes` by total points (high first); remaining ties by hands won."""
    # Hand 1, dealt by seat 2: seat 0 goes out while the others hold only zeros.
    t = official([["red-1"], ["green-0"], ["blue-0"]], "red-5", dealer=2, target=50)
    t.do("play", 0, card="red-1", uno=False)
    assert (t.view()["scores"], t.view()["hands_won"]) == ([0, 0, 0], [1, 0, 0])
    # Hand 2, dealt by seat 0: seat 1 goes out and scores seat 2's wild.
    next_hand(t, [["yellow-0"], ["red-7"], ["wild"]], first=1)
    t.do("play", 1, card="red-7", uno=False)
    view = t.view()
    assert (view["scores"], view["hands_won"]) == ([0, 50, 0], [1, 1, 0])
    assert (view["status"], view["winner"], view["places"]) == ("match-over", 1, [2, 1, 3])


def test_winner_takes_ties_with_equal_hands_won_are_shared():
    """Final placement: … remaining ties by hands won, then shared."""
    t = official(ONE_CARD, "red-5", target=50)
    t.do("play", 1, card="red-7", uno=False)
    assert t.view()["places"] == [2, 1, 2]


def test_running_total_places_by_total_low_first_ties_by_hands_won():
    """Final placement: `running-total` by total (low first); remaining ties by hands won."""
    t = official(
        [["red-1"], ["green-0"], ["blue-3"]], "red-5", dealer=2, scoring="running-total", target=10
    )
    t.do("play", 0, card="red-1", uno=False)
    assert t.view()["scores"] == [0, 0, 3]
    # Hand 2, dealt by seat 0: the flipped skip passes over seat 1; seat 2 draws; seat 0 goes out.
    next_hand(t, [["red-3"], ["yellow-0"], ["blue-9"]], flip="red-skip", draw=["green-1"], first=1)
    t.do("draw", 2)
    t.do("play", 0, card="red-3", uno=False)
    view = t.view()
    assert (view["scores"], view["hands_won"]) == ([0, 0, 13], [2, 0, 0])
    assert (view["winner"], view["places"]) == (0, [1, 2, 3])


def test_running_total_ties_with_equal_hands_won_share_first_place():
    """Final placement: … remaining ties by hands won, then shared."""
    t = official(
        [["red-1"], ["green-0"], ["blue-3"]], "red-5", dealer=2, scoring="running-total", target=10
    )
    t.do("play", 0, card="red-1", uno=False)
    next_hand(t, [["yellow-0"], ["red-7"], ["wild"]], first=1)
    t.do("play", 1, card="red-7", uno=False)
    view = t.view()
    assert (view["scores"], view["hands_won"]) == ([0, 0, 53], [1, 1, 0])
    assert (view["status"], view["places"]) == ("match-over", [1, 1, 3])


@pytest.mark.parametrize("dealer", [0, 2])
def test_the_dealer_of_the_next_hand_is_the_seat_left_of_the_previous_dealer(dealer):
    """The dealer of the next hand is the seat left of the previous dealer."""
    hands = [["blue-1"], ["blue-2"], ["blue-3"]]
    hands[(dealer + 1) % 3] = ["red-7"]
    t = official(hands, "red-5", dealer=dealer)
    t.do("play", (dealer + 1) % 3, card="red-7", uno=False)
    events = next_hand(t)
    (started,) = of_type(events, "hand-started")
    new = (dealer + 1) % 3
    assert (started["dealer"], started["first"]) == (new, (new + 1) % 3)
    assert (t.view()["dealer"], t.view()["hand_number"]) == (new, 2)


def test_next_hand_deals_a_stacked_deck_and_resolves_its_flip():
    """`next-hand` with a stacked deck; the first events of a hand already contain the flip and its
    effects.
    """
    t = official(ONE_CARD, "red-5")
    t.do("play", 1, card="red-7", uno=False)
    deck = stacked(
        [["green-1"], ["green-2"], ["green-3"]], "red-draw2", ["blue-1", "blue-2"], first=2
    )
    events = t.do("next-hand", deck=deck)
    assert [e["type"] for e in events] == [
        "hand-started",
        "card-flipped",
        "cards-drawn",
        "prompted",
    ]
    assert events[0]["deck"] == deck
    assert [t.hand(s) for s in range(3)] == [
        ["green-1"],
        ["green-2"],
        ["green-3", "blue-1", "blue-2"],
    ]
    view = t.view()
    assert (view["status"], view["top"], view["to_act"]) == ("playing", "red-draw2", [0])
    assert (view["scores"], view["last_hand"], view["winner"]) == ([0, 70, 0], None, None)


def test_next_hand_without_a_deck_deals_a_recorded_reproducible_shuffle():
    """`next-hand` without a stacked deck: every shuffle is recorded as the resulting card order in
    an event.
    """
    t = official(ONE_CARD, "red-5")
    t.do("play", 1, card="red-7", uno=False)
    events = t.variant.decide(t.state, {"type": "next-hand"})
    assert t.variant.decide(t.state, {"type": "next-hand"}) == events
    (started,) = of_type(events, "hand-started")
    assert Counter(started["deck"]) == Counter(DECK)
    assert started["deck"] != of_type(t.events, "hand-started")[0]["deck"]
    t.do("next-hand")
    assert t.replayed() == t.state
    assert (t.view()["status"], t.view()["hand_number"]) == ("playing", 2)


def test_winner_stays_null_until_the_match_is_over():
    """`winner` in a view is the match winner and stays `null` until the match is over; the hand's
    result is in the hand events.
    """
    t = official(ONE_CARD, "red-5", target=100)
    assert (t.view()["winner"], t.view()["places"]) == (None, None)
    events = t.do("play", 1, card="red-7", uno=False)
    assert of_type(events, "hand-ended")[0]["winner"] == 1
    assert not of_type(events, "match-ended")
    for seat in (None, 0, 1, 2):
        assert t.view(seat)["winner"] is None
    next_hand(t, [["wild-draw4"], ["wild"], ["red-7"]], first=2)
    assert t.view()["winner"] is None
    t.do("play", 2, card="red-7", uno=False)
    assert (t.view()["status"], t.view()["winner"]) == ("match-over", 2)


@pytest.mark.parametrize(
    ("card", "points"),
    [(f"{c}-{n}", n) for c in ("red", "yellow", "green", "blue") for n in range(10)]
    + [
        (f"{c}-{a}", 20)
        for c in ("red", "yellow", "green", "blue")
        for a in ("skip", "reverse", "draw2")
    ]
    + [("wild", 50), ("wild-draw4", 50)],
)
def test_card_points(card, points):
    """Points: number cards face value; `skip`, `reverse`, `draw2` 20; `wild`, `wild-draw4` 50."""
    assert POINTS[card] == points


def test_the_deck_has_108_cards():
    """The deck has 108 cards: per colour one `0`, two each of `1`–`9`, `skip`, `reverse`, `draw2`;
    four `wild`, four `wild-draw4`.
    """
    expected = Counter({"wild": 4, "wild-draw4": 4})
    for color in ("red", "yellow", "green", "blue"):
        expected[f"{color}-0"] = 1
        for rank in [*map(str, range(1, 10)), "skip", "reverse", "draw2"]:
            expected[f"{color}-{rank}"] = 2
    assert len(DECK) == 108
    assert Counter(DECK) == expected


# ------------------------------------------------------------------------- basic-plus


def test_basic_plus_defaults_to_a_single_hand_match():
    """`basic-plus` defaults: `scoring` single-hand; the match is one hand; its winner wins."""
    t = basic_plus([["red-7"], ["wild"], ["blue-skip"]], "red-5")
    assert t.variant.spec["options"]["scoring"] == "single-hand"
    t.do("play", 0, card="red-7", uno=False)
    view = t.view()
    assert (view["status"], view["winner"], view["scores"], view["places"]) == (
        "match-over",
        0,
        [70, 0, 0],
        [1, 3, 2],
    )


def test_basic_plus_next_hand_starts_with_the_seat_left_of_the_previous_first_seat():
    """`basic-plus`: no dealer; the next hand starts with the seat left of the previous first."""
    t = basic_plus([["blue-1"], ["blue-2"], ["red-7"]], "red-5", first=2, scoring="winner-takes")
    assert (t.view()["dealer"], t.to_act()) == (None, [2])
    t.do("play", 2, card="red-7", uno=False)
    (started,) = of_type(next_hand(t), "hand-started")
    assert (started["dealer"], started["first"]) == (None, 0)
