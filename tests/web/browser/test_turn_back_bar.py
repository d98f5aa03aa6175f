"""Away from the board (the status line's "Chat" link leads to the chat under it), the dock is
out of view with the board: a turn that comes there must show in view. A bar pinned to the
screen's bottom says "Your turn", read out once, and a tap takes the person back to the table,
the dock and its hand in view; the page never moves by itself (static/games.js)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.browser.clicks import POLL_MS, scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_turn_alerts import move, two_people

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCK_SHOWN = """() => { const r = document.querySelector('#game .dock').getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight + 1; }"""

# Each time the bar's region gets words to read out.
COUNT_SAYINGS = """() => { window.__sayings = 0;
  const region = document.querySelector('[data-turn-back-said]');
  new MutationObserver(() => { if (region.textContent) window.__sayings += 1; })
    .observe(region, {childList: true, characterData: true, subtree: true}); }"""


# A desktop window low enough for the chat to take the board out of view.
@pytest.mark.parametrize("size", [(360, 740), (1280, 520)], ids=["phone", "desktop"])
def test_a_turn_that_comes_while_chatting_says_so_in_view_and_leads_back(open_page, size):
    game, _mover, waiting = two_people()
    width, height = size
    page = open_page(waiting, reverse("web:play", args=[game.pk]), width=width, height=height)
    bar = page.locator("[data-turn-back]")
    said = page.locator("[data-turn-back-said]")
    assert not bar.is_visible()  # not the person's turn, and the board in view

    page.locator("[data-chat-jump]").click()
    page.wait_for_selector("#chat[open]")
    page.wait_for_timeout(1_500)
    assert not page.evaluate(DOCK_SHOWN)
    assert not bar.is_visible()  # still not their turn: nothing said
    chat_top = "() => Math.round(document.querySelector('#chat').getBoundingClientRect().top)"
    scrolled = page.evaluate(chat_top)
    page.evaluate(COUNT_SAYINGS)

    move(game)  # the other seat moves: the person's turn
    page.wait_for_selector("[data-turn-back]:not([hidden])", timeout=6_000)
    box = bar.bounding_box()
    assert box and box["y"] + box["height"] <= height + 1 and box["y"] >= height - 80, box
    assert bar.inner_text().replace("\n", " ") == "Your turn ↑ Back to the table"
    assert "Your turn" in said.inner_text()
    # The chat stayed where the person was reading it: the page did not jump by itself.
    assert page.evaluate(chat_top) == scrolled
    # The chat's foot is not hidden under the bar: the page keeps room for it.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(200)
    form_bottom = page.evaluate(
        "() => document.querySelector('#chat').getBoundingClientRect().bottom"
    )
    assert form_bottom <= bar.bounding_box()["y"] + 1
    assert not scrolls_sideways(page), too_wide(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"turn-back-bar-{width}.png"))
    page.evaluate("window.__axeCheck()")  # axe on the page with the bar shown

    # Said once: the scrolls and the next polls' boards say it no more.
    page.mouse.wheel(0, -40)
    page.wait_for_timeout(2_500)
    assert page.evaluate("window.__sayings") == 1

    bar.locator("a").click()
    page.wait_for_function(DOCK_SHOWN, polling=POLL_MS, timeout=3_000)
    assert not bar.is_visible()
    assert page.evaluate("document.activeElement.classList.contains('status')")
    assert page.locator("#game .status").bounding_box()["y"] < height / 2
    page.screenshot(path=str(ARTIFACTS / f"turn-back-table-{width}.png"))
