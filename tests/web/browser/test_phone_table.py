"""The play page on a phone: the top card, the hand and the moves on screen without scrolling,
the hand pinned to the bottom, and a move that never moves the page. And the desktop's two
columns, unchanged. Positions are measured (bounding boxes against the viewport), not guessed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from tests.games.factories import make_user
from tests.web.browser.clicks import (
    at_size,
    play_a_turn,
    scrolls_sideways,
    too_wide,
    version,
    wait_for_board_after,
)
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 44 CSS px: the smallest target a thumb hits reliably (WCAG 2.5.5, Apple's and Google's guides).
THUMB = 44


def tap(page: Any, control: Any) -> None:
    """A thumb's tap: swipe the hand's strip until the card shows (as a person would), then
    press at the control's centre. (Playwright's own click scrolls the page to the element
    first, which a tap never does.)"""
    control.evaluate(
        """el => { const strip = el.closest('.hand'); if (!strip) return;
          const r = el.getBoundingClientRect(), s = strip.getBoundingClientRect();
          if (r.right > s.right) strip.scrollLeft += r.right - s.right + 8;
          if (r.left < s.left) strip.scrollLeft -= s.left - r.left + 8; }"""
    )
    box = control.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_a_move(page: Any) -> None:
    """A turn by tapping: a card that plays (a card with choices: its first choice, calling
    UNO when offered), else the first other move; then wait for the board it brings."""
    old = version(page)
    card = page.locator(".hand__card--live .card-button")
    choice = page.locator(".hand__card--live details.card-choice > summary")
    if card.count():
        tap(page, card.first)
    elif choice.count():
        tap(page, choice.first)
        options = page.locator("details.card-choice[open] .card-choice__options button")
        calling = options.filter(has_text="call UNO")
        tap(page, (calling if calling.count() else options).first)
    else:
        tap(page, page.locator(".actions button.action").first)
    wait_for_board_after(page, old)


def a_game_against_bots(person: Any) -> int:
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[
            SeatSpec(user=person),
            SeatSpec(bot="greedy"),
            SeatSpec(bot="colour-control"),
            SeatSpec(bot="random"),
        ],
        seed=11,
        dealer=3,
    )
    return game.pk


def boxes(page: Any) -> dict[str, Any]:
    """The viewport, the scroll offset and the boxes that must be on screen."""
    return page.evaluate(
        """() => {
          const box = el => { const r = el.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                    width: r.width, height: r.height}; };
          const strip = document.querySelector('.hand');
          return {
            width: window.innerWidth, height: window.innerHeight, scrollY: window.scrollY,
            top: box(document.querySelector('.pile .card')),
            strip: box(strip), stripScrolls: strip.scrollWidth > strip.clientWidth,
            cards: [...document.querySelectorAll('.hand .card')].map(box),
            targets: [...document.querySelectorAll(
              '.hand__card--live :is(.card-button, summary), .actions button')].map(box),
          };
        }"""
    )


def inside(box: dict[str, float], width: int, height: int) -> bool:
    return (
        box["top"] >= 0 and box["left"] >= 0 and box["bottom"] <= height and (box["right"] <= width)
    )


def assert_on_screen(page: Any, *, top_card: bool = True) -> dict[str, Any]:
    seen = boxes(page)
    width, height = seen["width"], seen["height"]
    if top_card:
        assert inside(seen["top"], width, height), seen["top"]
    assert inside(seen["strip"], width, height), seen["strip"]
    assert seen["cards"], "no cards in hand"
    for card in seen["cards"]:
        # Every card is within the screen's height; a long hand scrolls sideways in its strip.
        assert card["top"] >= 0 and card["bottom"] <= height, card
        if not seen["stripScrolls"]:
            assert inside(card, width, height), card
    for target in seen["targets"]:
        if target["right"] <= seen["strip"]["right"] and target["left"] >= 0:
            assert target["top"] >= 0 and target["bottom"] <= height, target
        assert target["width"] >= THUMB and target["height"] >= THUMB, target
    assert not scrolls_sideways(page), too_wide(page)
    return seen


def test_the_phone_table_keeps_cards_and_moves_on_screen(open_page, live_server):
    """Two phones, a game of its own at each, in one tab resized before the game loads."""
    ana = make_user("ana")
    page = None
    for width, height in [(360, 740), (390, 844)]:
        path = reverse("web:play", args=[a_game_against_bots(ana)])
        page = at_size(open_page, live_server, page, ana, path, width=width, height=height)
        page.wait_for_selector(".status--mine")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"phone-table-{width}x{height}-before.png"))

        before = assert_on_screen(page)
        assert before["scrollY"] == 0
        for _ in range(3):
            tap_a_move(page)
            page.wait_for_selector(".status--mine")
            after = assert_on_screen(page)
            assert after["scrollY"] == 0, "a move moved the page"
        page.screenshot(path=str(ARTIFACTS / f"phone-table-{width}x{height}-after.png"))

        # Scrolled down to the seats, the hand stays pinned and a move keeps the page where it is.
        # (Not to the very end: a board a line shorter would then pull the page up by that line.)
        page.evaluate(
            "window.scrollTo(0, Math.min(300, document.documentElement.scrollHeight"
            " - window.innerHeight - 120))"
        )
        scrolled = page.evaluate("window.scrollY")
        assert scrolled > 0
        for _ in range(3):
            tap_a_move(page)
            page.wait_for_selector(".status--mine")
            after = assert_on_screen(page, top_card=False)
            assert after["scrollY"] == scrolled, "a move moved the page"
        # The focus stays at the table (a card or a move of the hand's bar), never the page's top.
        focused = page.evaluate("document.activeElement.closest('.dock') !== null")
        assert focused
        page.screenshot(path=str(ARTIFACTS / f"phone-table-{width}x{height}-scrolled.png"))
        # The region a screen reader hears says what the move did, or, once the live poll has
        # brought the bots' answers, what they did since and that it is your turn again.
        announced = page.locator("#announce").inner_text()
        assert announced.startswith("You ") or announced.endswith("Your turn."), announced


def test_the_desktop_keeps_its_two_columns(open_page):
    ana = make_user("ana")
    game = a_game_against_bots(ana)
    page = open_page(ana, reverse("web:play", args=[game]), width=1280, height=800)
    page.wait_for_selector(".status--mine")
    seen = boxes(page)
    assert inside(seen["top"], 1280, 800)
    side = page.locator(".game__side").bounding_box()
    board = page.locator(".pile").bounding_box()
    # The scores and the story stand to the right of the table, beside it.
    assert side["x"] >= board["x"] + board["width"]
    assert side["y"] < board["y"] + board["height"]
    # The hand is not pinned on a desktop: it wraps in the page's flow.
    assert page.locator(".dock").evaluate("el => getComputedStyle(el).position") == "static"
    assert not seen["stripScrolls"]
    assert page.locator("[data-hand-more]").is_hidden()  # nothing past an edge: no count
    play_a_turn(page)
    page.wait_for_selector(".status--mine")
    assert page.evaluate("window.scrollY") == 0
    page.screenshot(path=str(ARTIFACTS / "desktop-table-1280x800.png"))


def test_a_playable_card_scrolled_out_of_the_strip_is_counted_and_does_not_widen_the_page(
    open_page,
):
    """A long hand on a phone: a playable card past the strip's right edge. Its button's
    screen-reader label must be clipped by the strip like the card (it once took the pinned dock
    as its containing block, and the whole page scrolled sideways), and the count beside the
    hand's title says it is there and brings it into view."""
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official", "options": {"hand_size": 14}},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        seed=1,
        dealer=1,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    labels = page.evaluate(
        "[...document.querySelectorAll('.hand__card--live .sr-only')]"
        ".map(label => label.getBoundingClientRect().right)"
    )
    assert max(labels) > 360, labels  # a playable card lies beyond the screen, in the strip
    assert not scrolls_sideways(page), too_wide(page)
    assert page.evaluate("document.documentElement.scrollWidth") == 360

    # Beside the hand's title, a count of the cards past the strip's edge, outlined because one
    # of them can be used; a tap brings that card into view without moving the page.
    more = page.locator(".dock [data-hand-more]")
    assert more.is_visible()
    # It says what it is, "2 more \u203a", never "+2 \u203a", which reads as a Draw Two card.
    shown_count = more.inner_text()
    assert re.fullmatch(r"\d+ more \u203a", shown_count), shown_count
    count = int(shown_count.split()[0])
    hidden = page.evaluate(
        """() => { const s = document.querySelector('.hand').getBoundingClientRect();
          return [...document.querySelectorAll('.hand__card')].filter(card => {
            const r = card.getBoundingClientRect(); return r.right - r.width / 2 > s.right; })
            .map(card => card.classList.contains('hand__card--live')); }"""
    )
    assert count == len(hidden) and any(hidden), (more.inner_text(), hidden)
    assert "hand-more--live" in more.get_attribute("class")
    assert more.get_attribute("aria-label").startswith(f"{count} more cards to the right (")
    head, title = page.locator(".hand-head").bounding_box(), more.bounding_box()
    assert title["y"] + title["height"] <= page.locator(".hand").bounding_box()["y"] + 6
    assert title["x"] + title["width"] <= 360 and title["height"] >= THUMB, (head, title)
    page.screenshot(path=str(ARTIFACTS / "phone-table-long-hand-the-count.png"))
    tap(page, more)
    shown = page.evaluate(
        """() => { const s = document.querySelector('.hand').getBoundingClientRect();
          return [...document.querySelectorAll('.hand__card--live')].some(card => {
            const r = card.getBoundingClientRect(); return r.left >= s.left && r.right <= s.right
              && r.left > 360 / 2; }); }"""
    )
    assert shown, "the tap did not bring a card that can be used into view"
    assert page.evaluate("window.scrollY") == 0
    assert more.inner_text() != shown_count and "+" not in more.inner_text()
    page.screenshot(path=str(ARTIFACTS / "phone-table-long-hand-after-the-count.png"))
