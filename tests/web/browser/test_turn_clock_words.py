"""The play page's turn clock, ticked by static/games.js, reads as a sentence: "Turn ends in 2d
23h", not "Turn ends 2d 23h left" (docs/web.md, "The play page")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from tests.games.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_turn_clock_says_in_how_long_the_turn_ends(open_page):
    ana = make_user("clock-ana")
    # The bot deals, so ana plays first and her turn's deadline is shown.
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        dealer=1,
        seed=3,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    clock = page.locator(".status__deadline")
    # Ticked: the absolute time ("Mon 30 Nov, 09:00 UTC") becomes what is left of it.
    page.wait_for_function(
        "() => !/UTC|, \\d\\d:\\d\\d/.test(document.querySelector('.status__deadline').textContent)"
    )
    words = " ".join(clock.inner_text().split())
    assert re.fullmatch(r"Turn ends in (\d+d \d+h|\d+h \d+m|\d+:\d\d)", words), words
