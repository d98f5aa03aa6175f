"""A wrong catch asks first (issue 30): a person clicks "Catch …", reads what it will cost,
and only the second button sends it; the cost is then what the page said."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from games.visibility import game_view
from tests.games.factories import make_user
from tests.web.browser.clicks import (
    SETTLED,
    at_size,
    scrolls_sideways,
    too_wide,
    version,
    wait_for_board_after,
)
from tests.web.browser.conftest import ARTIFACTS
from tests.web.test_uno_buttons import basic_plus_down_to_one

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_wrong_catch_is_confirmed_then_costs_what_it_said(open_page):
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "basic-plus"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        seed=4,
        first=1,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    held = game_view(game_id=game.pk, viewer=ana)["hand_sizes"]
    greedy = held[1]
    assert greedy > 1

    # On a phone the seats sit under the pinned dock: the dock asks the moves that would cost
    # cards in one question, but greedy holds more than one card: there is no UNO to catch, and
    # it asks only ana's false call ("Catch a seat?" was asked at every turn).
    assert not page.locator('.seat[data-seat="1"] details.confirm').is_visible()
    ask = page.locator(".dock details.asks > summary")
    assert ask.inner_text() == "Call UNO?"
    body = page.locator(".dock .asks__body")
    assert body.get_by_role("button", name=re.compile("^Catch greedy")).count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "catch-confirmation-360x740.png"))

    # A desktop asks the catch on greedy's seat: why it fails and what it costs; nothing is
    # sent yet.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(SETTLED)
    asked = page.locator('.seat[data-seat="1"] details.confirm')
    why = asked.locator(".confirm__why")
    assert not why.is_visible()
    asked.locator("summary").click()
    assert why.is_visible()
    assert why.inner_text() == (
        f"greedy holds {greedy} cards, so there is no UNO to catch: the catch fails and you "
        "draw 3 cards as the penalty."
    )
    assert game_view(game_id=game.pk, viewer=ana)["hand_sizes"] == held
    button = asked.get_by_role("button", name="Catch greedy anyway: draw 3 cards")
    box = button.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800
    page.screenshot(path=str(ARTIFACTS / "catch-confirmation-1280x800.png"))

    old = version(page)
    button.click()
    wait_for_board_after(page, old)

    after = game_view(game_id=game.pk, viewer=ana)["hand_sizes"]
    assert after[0] == held[0] + 3
    assert page.locator(".hand .card").count() == after[0]


def test_a_missed_uno_is_caught_with_a_button_in_view(open_page, live_server):
    """The catch of a missed UNO stands among the moves, by the hand: in the pinned dock on a
    phone (the seats sit under it), on screen without scrolling on a desktop too. A game of its
    own at each size, in one tab resized before the game loads."""
    page, people = None, None
    for width, height in [(360, 740), (1280, 800)]:
        game, people = basic_plus_down_to_one(people)
        ana, ben = people
        path = reverse("web:play", args=[game.pk])
        page = at_size(open_page, live_server, page, ben, path, width=width, height=height)
        catch = page.get_by_role(
            "button", name="Catch ana: 1 card and no UNO called — ana draws 3 cards"
        )
        assert catch.count() == 1
        box = catch.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
        in_dock = page.locator(".dock").get_by_role("button", name=re.compile("^Catch ana"))
        assert in_dock.count() == 1
        # The seat still says why.
        assert "owes UNO: can be caught" in page.locator('.seat[data-seat="0"]').inner_text()
        assert not scrolls_sideways(page), too_wide(page)
        page.screenshot(path=str(ARTIFACTS / f"catch-in-view-{width}x{height}.png"))
        old = version(page)
        catch.click()
        wait_for_board_after(page, old)
        assert game_view(game_id=game.pk, viewer=ben)["hand_sizes"][0] == 1 + 3
