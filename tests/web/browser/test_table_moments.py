"""The play page on a phone (360x740) at the moments after the game's ordinary moves: a match
that is over shows its result where the hand was (who won, the places, a way on), not an empty
hand; newno's stack prompt keeps the status box's height, and the box names no version. Each
is dealt from a stacked deck and looked at on a desktop (1280x800) too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser.clicks import (
    POLL_MS,
    SETTLED,
    scrolls_sideways,
    version,
    wait_for_board_after,
)
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_just_happened import GREEDY_GOES_OUT, ana_and_greedy, greedy_goes_out
from tests.web.browser.test_status_says_why import newno_stack

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    size = page.viewport_size["width"]
    page.screenshot(path=str(ARTIFACTS / f"table-moments-{name}-{size}.png"))


def words(page: Any, selector: str) -> str:
    return " ".join(page.locator(selector).inner_text().split())


def test_a_finished_match_shows_its_result_where_the_hand_was(open_page):
    # Official to 10 points, two cards each: greedy goes out and its 14 points end the match.
    # The phone showed ana's hand at the board's foot ("Your hand (4 cards)"; the winner's,
    # "(0 cards)" and empty), under the scores, the story and the rematch.
    ana, page = ana_and_greedy(open_page, *GREEDY_GOES_OUT, target=10)
    greedy_goes_out(page)
    page.wait_for_selector("#match-over", timeout=15_000)
    page.evaluate(SETTLED)
    shot(page, "over")
    assert page.locator("#hand-title").count() == 0
    assert "Your hand" not in page.locator("main").inner_text()
    said = words(page, "#match-over")
    assert said.startswith("The match is over greedy wins the match."), said
    # Said once: the status line above says the match is over, the panel who won.
    assert "wins the match" not in words(page, ".status__line"), words(page, ".status__line")
    assert "1st greedy: 14 points 2nd ana (you): 0 points" in said, said
    # A way on, in view with the result: a rematch, the replay, the person's games.
    box = page.locator("#match-over").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740, box
    # The rematch a button for a thumb (it was drawn as a link, some 24 px high).
    offer = page.get_by_role("button", name="Offer a rematch").bounding_box()
    assert offer is not None and offer["height"] >= 44 and offer["y"] + offer["height"] <= 740
    assert page.locator("#match-over").get_by_role("link", name="Watch the replay").is_visible()
    assert page.locator("#match-over").get_by_role("link", name="Back to your games").is_visible()
    assert not scrolls_sideways(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(SETTLED)
    shot(page, "over")
    assert page.get_by_role("button", name="Offer a rematch").is_visible()


# Where the status box ends and the pile and the seats start, and the status line's lines.
STEADY = """() => { const box = s => document.querySelector(s).getBoundingClientRect();
  const line = document.querySelector('.status__line');
  return {status: box('.status').bottom, pile: box('.pile').top, seats: box('.seats').top,
          hand: box('.hand').top, scrollY: window.scrollY,
          lines: Math.round(line.getBoundingClientRect().height
                            / parseFloat(getComputedStyle(line).lineHeight))}; }"""


@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_newnos_stack_prompt_moves_nothing_under_the_status_box(open_page, width, height):
    # The prompt took three lines at 360x740 where the turn's took one: the pile and the seats
    # under the status box went down by 40 px as it came, and up again as it went.
    page = newno_stack(open_page, width, height)
    page.evaluate(SETTLED)
    stack = page.evaluate(STEADY)
    shot(page, "stack")
    assert words(page, ".status__line") == (
        "Stack of 4: you have no wild draw four to add, so take the cards."
    )
    assert stack["lines"] == 2, stack
    # The status box names no version (an internal counter: "· version 6 ·").
    assert words(page, ".status__meta") == "NEWNO: the rules · Refresh · Resign · Chat"
    old = version(page)
    page.get_by_role("button", name="Accept: draw 4").click()
    wait_for_board_after(page, old)
    page.wait_for_function(
        "() => document.querySelector('.status__line').innerText.startsWith('Your turn')",
        polling=POLL_MS,
        timeout=15_000,
    )
    page.evaluate(SETTLED)
    turn = page.evaluate(STEADY)
    shot(page, "stack-after")
    # (Two lines of text and two lines' room differ by a fraction of a pixel.)
    for place in ("status", "pile", "seats", "hand", "scrollY"):
        assert abs(turn[place] - stack[place]) < 0.5, (place, stack, turn)
