"""A move whose request fails says so (static/games.js): with the phone's connection off, a tapped
card once did nothing at all and the move was silently lost. Now a line at the top of the dock
(in view on a phone) and the #announce region say the move got no answer; the board stays as it
was (the card still in the hand, the version the same); the next board the server sends takes the
line away. A server's error (a 5xx) says so in its own words."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from tests.games.factories import make_user
from tests.web.browser.clicks import SETTLED, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_ANSWER = "Your move got no answer from the server: check your connection and try again."
# What chromium and htmx log while the connection is off (the failed move, the failed polls; htmx
# logs a failed request's afterRequest as an error too), and for the 502 the route below answers:
# expected here, an error anywhere else.
OFFLINE = (
    "htmx:sendError",
    "htmx:responseError",
    "htmx:afterRequest",
    "ERR_INTERNET_DISCONNECTED",
    "HTTP 502",
    "Response Status Error Code 502",
    "status of 502",
)


def a_game(person: Any) -> int:
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=person), SeatSpec(bot="greedy")],
        seed=11,
        dealer=1,
    )
    return game.pk


def tap_a_card(page: Any) -> None:
    """The first card that plays, as a thumb taps it (no scroll of the page first)."""
    card = page.locator(".hand__card--live .card-button").first
    card.evaluate(
        """el => { const strip = el.closest('.hand'), r = el.getBoundingClientRect(),
          s = strip.getBoundingClientRect();
          if (r.right > s.right) strip.scrollLeft += r.right - s.right + 8; }"""
    )
    box = card.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def hand(page: Any) -> list[str]:
    return page.locator(".dock .hand .hand__card").evaluate_all(
        "cards => cards.map(card => card.innerText.trim())"
    )


@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_a_move_tapped_offline_says_it_got_no_answer_and_keeps_the_board(open_page, width, height):
    ana = make_user("ana")
    game = a_game(ana)
    page = open_page(
        ana,
        reverse("web:play", args=[game]),
        width=width,
        height=height,
        own_context=True,
        allow=OFFLINE,
    )
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    before, cards = version(page), hand(page)
    assert page.locator("[data-move-failed]").count() == 0

    page.context.set_offline(True)
    tap_a_card(page)
    failed = page.locator(".dock [data-move-failed]")
    failed.wait_for(state="visible")
    assert failed.inner_text() == NO_ANSWER
    page.wait_for_function(
        "words => document.getElementById('announce').textContent === words", arg=NO_ANSWER
    )
    # The page as it was: the same board, the card still in the hand, still the person's turn.
    assert version(page) == before and hand(page) == cards
    assert page.locator(".status--mine").is_visible()
    # In view, where the thumb is: on a phone inside the pinned dock, above the screen's bottom.
    box = failed.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= height and box["x"] + box["width"] <= width
    page.screenshot(path=str(ARTIFACTS / f"failed-move-offline-{width}x{height}.png"))

    # Back online, the move tried again: the board it brings has no such line, nor the region.
    page.context.set_offline(False)
    tap_a_card(page)
    wait_for_board_after(page, before)
    assert page.locator("[data-move-failed]").count() == 0
    assert NO_ANSWER not in page.locator("#announce").inner_text()
    assert hand(page) != cards


def test_a_server_error_on_a_move_says_so(open_page):
    ana = make_user("ana")
    game = a_game(ana)
    page = open_page(
        ana,
        reverse("web:play", args=[game]),
        width=360,
        height=740,
        own_context=True,
        allow=OFFLINE,
    )
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    before, cards = version(page), hand(page)
    command = reverse("web:command", args=[game])
    page.route(f"**{command}", lambda route: route.fulfill(status=502, body="Bad gateway"))
    tap_a_card(page)
    failed = page.locator(".dock [data-move-failed]")
    failed.wait_for(state="visible")
    said = "The server failed on your move (error 502): try again in a moment."
    assert failed.inner_text() == said
    page.wait_for_function(
        "words => document.getElementById('announce').textContent === words", arg=said
    )
    assert version(page) == before and hand(page) == cards
    page.screenshot(path=str(ARTIFACTS / "failed-move-502-360x740.png"))
    page.unroute(f"**{command}")
    tap_a_card(page)
    wait_for_board_after(page, before)
    assert page.locator("[data-move-failed]").count() == 0
