"""The site's header on a phone and on a desktop (docs/web.md, "The header").

On a phone (360 x 740) the header is one line: the brand, the bell, "Play" and "Menu"; the
other links wait behind "Menu" and open over the page, each one that a person follows. On a
desktop every link is in the header at once and there is no "Menu"."""

from __future__ import annotations

import pytest

from tests.games.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
BEHIND_MENU = ["Profile", "Bots", "Clubs", "Ladders", "Tournaments", "Ratings", "Guides", "API"]


def shown_links(page) -> list[str]:
    """The names of the site navigation's links a person can see, in order (the bell, a picture
    and a figure, left out)."""
    links = page.get_by_role("navigation", name="Site").locator("a:not(.bell)").all()
    return [link.inner_text().strip() for link in links if link.is_visible()]


def header_height(page) -> float:
    return float(page.evaluate("document.querySelector('.site-header').offsetHeight"))


def test_a_phone_keeps_the_links_behind_menu(open_page):
    person = make_user("menu-phone")
    page = open_page(person, "/play/", **PHONE)
    assert shown_links(page) == ["Play"]
    menu = page.get_by_text("Menu", exact=True)
    assert menu.is_visible()
    # One line: the brand, the bell, Play and Menu (the four lines of links there were before
    # put a game's status 150 px down the screen).
    assert header_height(page) < 60, header_height(page)
    heading = page.get_by_role("heading", level=1)
    top_before = heading.bounding_box()["y"]

    menu.click()
    assert shown_links(page) == ["Play", *BEHIND_MENU]
    assert page.get_by_role("button", name="Sign out menu-phone").is_visible()
    # The open menu lies over the page: nothing under it moves.
    assert heading.bounding_box()["y"] == top_before
    page.get_by_role("link", name="Tournaments").click()
    page.wait_for_url("**/tournaments/")
    assert page.get_by_role("heading", level=1).inner_text() == "Tournaments"
    # A new page starts with the menu closed.
    assert shown_links(page) == ["Play"]


def test_a_visitor_on_a_phone_can_sign_in_without_the_menu(open_page):
    page = open_page(None, "/", **PHONE)
    assert shown_links(page) == ["Sign in"]
    page.get_by_text("Menu", exact=True).click()
    assert shown_links(page) == [
        "Clubs",
        "Ladders",
        "Tournaments",
        "Ratings",
        "Guides",
        "API",
        "Sign up",
        "Sign in",
    ]


def test_a_desktop_shows_every_link_and_no_menu(open_page):
    person = make_user("menu-desk")
    page = open_page(person, "/play/", **DESKTOP)
    assert not page.get_by_text("Menu", exact=True).is_visible()
    assert shown_links(page) == ["Play", *BEHIND_MENU]
    assert page.get_by_role("button", name="Sign out menu-desk").is_visible()
    page.get_by_role("link", name="Ladders").click()
    page.wait_for_url("**/ladders/")
    assert shown_links(page) == ["Play", *BEHIND_MENU]
