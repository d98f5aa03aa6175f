"""On a phone every seat's card count is on screen with the hand: at four seats the seat panels
run under the pinned dock, so the dock carries a compact row of the other seats' counts. Seen
as a person sees it: the count's box on screen, and nothing drawn over it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.games.factories import make_user
from tests.web.browser.clicks import at_size
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_phone_table import a_game_against_bots, tap_a_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def counts_in_view(page: Any) -> dict[int, str]:
    """Each seat's count as shown on screen, uncovered: the seat's own panel when it is in
    view, else the dock's row (one's own seat: the hand's title); a seat with neither is
    missing."""
    return {
        int(seat): text
        for seat, text in page.evaluate(
            """() => {
              const shown = el => { const r = el.getBoundingClientRect();
                if (r.width === 0 || r.top < 0 || r.bottom > innerHeight) return false;
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return hit !== null && (el === hit || el.contains(hit)); };
              const seen = {};
              for (const seat of document.querySelectorAll('.seat')) {
                const count = seat.querySelector('.seat__count');
                if (shown(count)) seen[seat.dataset.seat] = count.innerText.trim();
              }
              for (const count of document.querySelectorAll('.dock [data-count-of]')) {
                if (!(count.dataset.countOf in seen) && shown(count))
                  seen[count.dataset.countOf] = count.innerText.trim();
              }
              // One's own count: the hand's title, "Your hand (7 cards)".
              const me = document.querySelector('.seat--me').dataset.seat;
              const title = document.querySelector('#hand-title');
              if (!(me in seen) && shown(title)) seen[me] = title.innerText.replace(/[()]/g, ' ');
              return Object.entries(seen);
            }"""
        )
    }


def held(page: Any) -> dict[int, int]:
    """Each seat's cards, from the seat panels."""
    return {
        int(seat.get_attribute("data-seat")): int(
            re.search(r"(\d+) cards?", seat.locator(".seat__count").inner_text())[1]
        )
        for seat in page.locator(".seat").all()
    }


def test_every_seats_count_is_on_screen_with_the_hand(open_page, live_server):
    """Two phones, a game of its own at each, in one tab resized before the game loads."""
    ana = make_user("ana")
    page = None
    for width, height in [(360, 740), (390, 844)]:
        path = reverse("web:play", args=[a_game_against_bots(ana)])
        page = at_size(open_page, live_server, page, ana, path, width=width, height=height)
        for move in range(3):
            page.wait_for_selector(".status--mine")
            cards = held(page)
            seen = counts_in_view(page)
            assert sorted(seen) == sorted(cards), (width, seen, cards)
            for seat, count in cards.items():
                assert str(count) in seen[seat].split(), (width, seat, seen[seat], count)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"phone-seats-{width}x{height}-{move}.png"))
            tap_a_move(page)


def test_the_desktop_has_no_second_row_of_counts(open_page):
    """On a desktop the hand is not pinned: the seats stand in the page's flow under it."""
    ana = make_user("ana")
    game = a_game_against_bots(ana)
    page = open_page(ana, reverse("web:play", args=[game]), width=1280, height=800)
    page.wait_for_selector(".status--mine")
    assert page.locator(".seats").is_visible()
    assert page.locator(".dock__seats").count() in (0, 1)
    assert not page.locator(".dock__seats").is_visible()
