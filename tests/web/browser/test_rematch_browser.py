"""A rematch offer reaches the other person's open page of the finished game without a reload
(the panel polls while a rematch may be offered: web/rematch.py), and they accept from it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.games.factories import make_game, play_to_end
from tests.web.browser.clicks import SETTLED
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_an_offer_shows_on_the_open_page_and_is_accepted_there(open_page, width, height):
    game = make_game(players=2, bots=["greedy"])
    play_to_end(game.pk)
    ana, ben = (seat.user for seat in game.seats.order_by("number")[:2])
    page = open_page(ben, reverse("web:play", args=[game.pk]), width=width, height=height)
    offer = page.get_by_role("button", name="Offer a rematch")
    offer.wait_for()
    # ana offers on her own page; ben's page, open all along, learns of it.
    client = Client()
    client.force_login(ana)
    client.post(f"/games/{game.pk}/rematch", {"answer": "offer"})
    accept = page.get_by_role("button", name="Accept the rematch")
    accept.wait_for(timeout=6_000)
    assert page.get_by_role("button", name="Decline").is_visible()
    assert offer.count() == 0
    accept.scroll_into_view_if_needed()
    page.evaluate(SETTLED)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"rematch-offer-shown-{width}.png"))
    accept.click()
    page.wait_for_url(re.compile(rf"/games/(?!{game.pk}/)\d+/"))
