"""A decision's cost where the better option is plain, luck where a deal is plainly lucky, and
the same analysis from the same seed (analysis/evaluate.py, docs/analysis.md)."""

from __future__ import annotations

from analysis.evaluate import analyse_match
from analysis.report import from_json, to_json
from engine import Variant
from tests.analysis.helpers import after, finish
from tests.engine.decks import stacked

# Four seats, one card each: seat 1 (left of the dealer, seat 0) plays first and holds red-5 on
# a red-3, so it can go out at once and score the three others' cards; after a draw instead,
# each of the three others may go out before it comes round again (seat 0 holds a wild, which
# goes out on anything).
SPEC = {"rules": "official", "options": {"hand_size": 1, "target": 1}}


def deal() -> tuple[Variant, list[dict]]:
    variant = Variant.from_spec(SPEC)
    hands = [["wild"], ["red-5"], ["blue-9"], ["green-7"]]
    deck = stacked(hands, flip="red-3", draw=["green-2"], first=1)
    return variant, variant.start(4, seed=11, deck=deck, dealer=0)


def test_drawing_instead_of_going_out_costs_and_names_the_winning_card():
    variant, events = deal()
    events = finish(variant, after(variant, events, {"type": "draw", "seat": 1}))
    analysis = analyse_match(SPEC, events, seed=3, playouts=16, seats=[1])

    first = analysis.decisions[0]
    assert first.seat == 1 and first.chosen.command == {"type": "draw", "seat": 1}
    assert first.best.command["type"] == "play" and first.best.command["card"] == "red-5"
    # Going out wins the hand for sure and scores the others' three cards, whatever seat 1
    # thinks they are (the unseen cards average 11.6 points).
    assert first.best.win_chance == 1.0
    assert 20 < first.best.value < 50
    # After a draw the others go first: seat 1 seldom wins that hand.
    assert first.chosen.win_chance < 0.5
    assert first.cost > 10
    assert first.cost <= first.best.value - first.chosen.value + 1e-9
    assert analysis.summaries[1].decision_cost >= first.cost


def test_going_out_costs_nothing():
    variant, events = deal()
    events = finish(variant, events, bot="colour-control")
    analysis = analyse_match(SPEC, events, seed=3, playouts=8, seats=[1])
    first = analysis.decisions[0]
    assert first.chosen.command["card"] == "red-5"
    assert first.cost == 0.0
    assert first.best == first.chosen


def test_a_deal_that_goes_out_at_once_is_lucky():
    variant, events = deal()
    events = finish(variant, events, bot="colour-control")
    analysis = analyse_match(SPEC, events, seed=5, playouts=16)
    seats = analysis.hands[0].seats
    lucky = seats[1]
    assert lucky.deal_luck > 0
    assert all(other.deal_luck < lucky.deal_luck for other in seats if other.seat != 1)
    assert lucky.points == 50 + 9 + 7  # it went out and scored the others' cards
    # The chart ends with the winner's certainty.
    assert analysis.hands[0].chances[-1][1] == [0.0, 1.0, 0.0, 0.0]


def test_the_same_seed_gives_the_same_analysis():
    variant = Variant.from_spec({"rules": "official", "options": {"target": 1, "hand_size": 4}})
    events = finish(variant, variant.start(3, seed=21), seed=2)
    spec = variant.spec
    one = to_json(analyse_match(spec, events, seed=9, playouts=3))
    two = to_json(analyse_match(spec, events, seed=9, playouts=3))
    for data in (one, two):
        data.pop("cpu_seconds")
    assert one == two
    other = to_json(analyse_match(spec, events, seed=10, playouts=3))
    other.pop("cpu_seconds")
    assert other != one
    assert to_json(from_json(one | {"cpu_seconds": 0.0})) == one | {"cpu_seconds": 0.0}


def test_progress_counts_up_to_its_total():
    variant = Variant.from_spec({"rules": "official", "options": {"target": 1, "hand_size": 3}})
    events = finish(variant, variant.start(3, seed=4), seed=1)
    seen: list[tuple[int, int]] = []
    analysis = analyse_match(
        variant.spec, events, seed=1, playouts=2, progress=lambda d, t: seen.append((d, t))
    )
    assert seen and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == list(range(1, len(seen) + 1))
    assert analysis.cpu_seconds > 0
