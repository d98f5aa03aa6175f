"""In a real browser: a new person signs up, starts an official game against three bots from
/play/new/, finds it in the lobby and plays a whole hand of it by clicking; on a desktop with
the mouse and on a 360 px phone with the keyboard alone (tests/web/browser/conftest.py: Debian's
chromium, a screenshot per test, any console error fails).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from tests.web.browser.clicks import hand_number, my_turn, play_a_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width} px wide"


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_new_person_signs_up_starts_a_game_against_three_bots_and_plays_a_hand(
    open_page, live_server, size
):
    page = open_page(None, "/", **size)
    keyboard = size == PHONE
    if keyboard:
        # The skip link, the brand, then the header's "Menu" (a phone's header shows "Sign in"
        # and "Menu"), opened by Enter: People, Clubs, Ladders, Tournaments, Ratings, Guides,
        # API, Sign up.
        for _ in range(3):
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Menu"
        page.keyboard.press("Enter")
        for _ in range(8):
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Sign up"
        page.keyboard.press("Enter")
    else:
        # The header's, on a desktop; the home page has its own "Sign up" too.
        page.get_by_role("navigation", name="Site").get_by_role("link", name="Sign up").click()
    page.wait_for_url("**/accounts/signup/")
    no_sideways_scroll(page)

    fields = [
        ("Username", "lin"),
        ("Email", "lin@example.org"),
        ("Password", "tulip-garden-1984"),
        ("Password confirmation", "tulip-garden-1984"),
    ]
    if keyboard:
        page.get_by_label("Username").focus()
        for _, value in fields:
            page.keyboard.type(value)
            page.keyboard.press("Tab")
        # The date field takes its parts in the locale's order (en-US: month, day, year).
        page.keyboard.type("05171990")
        page.keyboard.press("Enter")
    else:
        for label, value in fields:
            page.get_by_label(label, exact=True).fill(value)
        page.get_by_label("Birth date").fill("1990-05-17")
        page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/play/")
    if keyboard:  # a phone's header: "Sign out" behind "Menu"
        page.get_by_text("Menu", exact=True).click()
    assert page.get_by_role("button", name="Sign out lin").is_visible()
    if keyboard:  # closed again: open, it lies over the page's top (and "New game")
        page.get_by_text("Menu", exact=True).click()
    assert "You are in no game yet." in page.content()
    no_sideways_scroll(page)

    page.get_by_role("link", name="New game").click()
    page.wait_for_url("**/play/new/")
    no_sideways_scroll(page)
    assert page.get_by_label("Official").is_checked()
    assert page.get_by_label("Seat 1", exact=True).input_value() == "me"
    for seat in (2, 3, 4):
        assert page.get_by_label(f"Seat {seat}", exact=True).input_value() == "bot:greedy"
    # A seat's username box shows only once the seat is "another person".
    assert not page.get_by_label("Seat 2 username").is_visible()
    assert not page.get_by_label("Seat 6 username").is_visible()
    page.get_by_label("Seat 2", exact=True).select_option("person")
    assert page.get_by_label("Seat 2 username").is_visible()
    page.get_by_label("Seat 2", exact=True).select_option("bot:greedy")
    assert not page.get_by_label("Seat 2 username").is_visible()
    if keyboard:
        page.get_by_label("Cards dealt").focus()
        page.keyboard.press("Enter")  # a form's Enter presses its one submit button
    else:
        page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = page.url
    game_id = int(re.search(r"/games/(\d+)/$", game_url).group(1))

    page.goto(f"{live_server.url}/play/")
    card = page.locator("li.game", has_text=f"Game {game_id} · Official")
    assert card.count() == 1
    assert "Your turn" in card.inner_text()
    assert card.locator("li").count() == 4  # the seats: lin and three greedy bots
    no_sideways_scroll(page)

    card.get_by_role("link", name="Play").click()
    page.wait_for_url(game_url)
    turns = 0
    while hand_number(page) == 1:
        assert turns < 200, "the hand did not end"
        page.wait_for_selector(".status--mine", timeout=10_000)
        if my_turn(page):
            play_a_turn(page)
            turns += 1
    assert turns > 0
    assert page.locator(".last-hand summary").inner_text().startswith("Hand 1:")
