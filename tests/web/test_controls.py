"""The hint above the hand says what picking an outlined card does: play it, or, for the censor,
put it in the submitted card's place or give it back."""

from __future__ import annotations

from web.controls import controls
from web.names import Names

VIEW = {"seat": 0, "hand": ["red-3", "yellow-2"], "to_act": [0]}
NAMES = ["ana", "ben", "cy"]


def hint(legal: list[dict]) -> str:
    return controls(legal, VIEW, Names(["ana", "ben", "cy"], 0)).hand_hint


def test_a_player_is_told_to_pick_a_card_to_play():
    assert hint([{"type": "play", "seat": 0, "card": "red-3"}, {"type": "draw", "seat": 0}]) == (
        "Cards you can use now are outlined: pick one."
    )


def test_the_censor_is_told_an_outlined_card_takes_the_submissions_place():
    legal = [{"type": "substitute", "seat": 0, "card": "yellow-2"}]

    assert "in its place" in hint(legal)


def test_the_censor_is_told_a_picked_card_goes_back_to_the_submitter():
    legal = [{"type": "return", "seat": 0, "card": "red-3"}]

    assert "return a card" in hint(legal)


def test_no_hint_when_no_card_of_the_hand_is_a_control():
    assert hint([{"type": "draw", "seat": 0}]) == ""


def test_a_challenge_of_a_wild_draw_four_says_its_price_either_way():
    view = {**VIEW, "pending": {"type": "challenge", "seat": 0, "offender": 1}}
    legal = [{"type": "challenge", "seat": 0}, {"type": "accept", "seat": 0}]

    labels = [option.label for option in controls(legal, view, Names(NAMES, 0)).actions]

    assert labels == [
        "Challenge ben's wild draw four: ben draws 4 if ben held a card of the colour before "
        "the wild, else you draw 6",
        "Accept: draw 4",
    ]
