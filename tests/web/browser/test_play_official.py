"""A whole hand of official against three bots, played by clicking."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from games.visibility import game_view
from tests.games.factories import make_user
from tests.web.browser.clicks import hand_number, my_turn, play_a_turn, scrolls_sideways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_person_plays_a_whole_hand_by_clicking(open_page):
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official", "options": {"hand_size": 5}},
        seats=[
            SeatSpec(user=ana),
            SeatSpec(bot="greedy"),
            SeatSpec(bot="colour-control"),
            SeatSpec(bot="random"),
        ],
        seed=11,
        dealer=3,
    )
    # A phone's width: the board wraps, and never scrolls sideways.
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=760)

    held = game_view(game_id=game.pk, viewer=ana)["hand"]
    assert page.locator(".hand .card").count() == len(held) >= 5
    turns = 0
    while hand_number(page) == 1 and page.locator("#game").get_attribute("data-status") != (
        "match-over"
    ):
        assert turns < 200, "the hand did not end"
        page.wait_for_selector(".status--mine", timeout=10_000)
        if my_turn(page):
            play_a_turn(page)
            turns += 1
            assert not scrolls_sideways(page)

    assert turns > 0
    # The hand's result is on the page: who went out, and the scores.
    assert page.locator(".last-hand summary").inner_text().startswith("Hand 1:")
    assert "Hand 1 is over" in page.locator(".story").inner_text()
