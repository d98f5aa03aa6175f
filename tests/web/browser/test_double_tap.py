"""A double tap on Quick start's "One hand against one bot" at 360x740 starts one game, with
scripts on (static/once.js holds the button while the POST is in flight) and off (the form's
one-time token: web/once.py answers the second POST with the first one's game)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_PAGE = re.compile(r".*/games/(\d+)/$")


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts", "no-scripts"])
def test_a_double_tap_on_quick_start_starts_one_game(open_page, javascript):
    ana = make_user("ana")
    page = open_page(ana, "/play/new/", width=360, height=740, javascript=javascript)
    button = page.get_by_role("button", name="One hand against one bot")

    # Two taps, the second while the first POST is at the server (a double click's second
    # comes too soon: chromium drops the first submission before it is sent).
    box = button.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(60)
    page.mouse.click(x, y)
    # The second tap aborts the first's navigation (the page waits on the second's answer),
    # which wait_for_url takes for a failure: the address is asked until it is the game's.
    expect(page).to_have_url(GAME_PAGE, timeout=15_000)

    game = Game.objects.get()
    assert page.url.endswith(f"/games/{game.pk}/")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(
        path=str(ARTIFACTS / f"double-tap-quick-start-{'js' if javascript else 'nojs'}-360.png")
    )
