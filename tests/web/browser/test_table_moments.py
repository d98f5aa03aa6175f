"""The play page on a phone (360x740) at the moments after the game's ordinary moves: a match
that is over shows its result where the hand was (who won, the places, a way on), not an empty
hand. Each is dealt from a stacked deck and looked at on a desktop (1280x800) too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser.clicks import SETTLED, scrolls_sideways
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_just_happened import GREEDY_GOES_OUT, ana_and_greedy, greedy_goes_out

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
    assert "1st greedy: 14 points 2nd ana (you): 0 points" in said, said
    # A way on, in view with the result: a rematch, the replay, the person's games.
    box = page.locator("#match-over").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740, box
    assert page.get_by_role("button", name="Offer a rematch").is_visible()
    assert page.locator("#match-over").get_by_role("link", name="Watch the replay").is_visible()
    assert page.locator("#match-over").get_by_role("link", name="Back to your games").is_visible()
    assert not scrolls_sideways(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(SETTLED)
    shot(page, "over")
    assert page.get_by_role("button", name="Offer a rematch").is_visible()
