"""On a phone, seats a person reads count from 1: two greedy bots at the log's seats 1 and 2 are
"greedy (seat 2)" and "greedy (seat 3)" in the seat panels and the dock's row of counts, and a
person who holds the first and the last seat reads "Your seats: seat 1, seat 4"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_same_named_pair_and_two_seats_of_ones_own_on_a_phone(open_page):
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[
            SeatSpec(user=ana),
            SeatSpec(bot="greedy"),
            SeatSpec(bot="greedy"),
            SeatSpec(user=ana),
        ],
        seed=11,
        dealer=3,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")

    assert page.locator(".status__seats").inner_text().split() == [
        *("Your", "seats:", "seat", "1,", "seat", "4")
    ]
    panels = page.locator(".seat__name").all_inner_texts()
    assert "greedy (seat 2)" in panels and "greedy (seat 3)" in panels
    docked = page.locator(".dock__seat-name").all_inner_texts()
    assert "greedy (seat 2)" in docked and "greedy (seat 3)" in docked
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "phone-seat-numbers-360x740.png"))
