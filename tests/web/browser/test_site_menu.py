"""The site's header on a phone and on a desktop (docs/web.md, "The header").

On a phone (360 x 740) the header is one line: the brand, the bell, "Play" and "Menu"; the
other links wait behind "Menu" and open over the page, each one that a person follows, as on
any screen narrower than 72rem. From 72rem every link is in the header at once, on one line
whatever the bell's figure and the username, and there is no "Menu"."""

from __future__ import annotations

import pytest

from social.notifications import notify
from tests.games.factories import make_user
from tests.web.browser.clicks import at_size, scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
# The narrowest screen that shows the links inline (72rem), and a 48rem one, which keeps "Menu".
NARROW_DESKTOP = {"width": 1152, "height": 800}
TABLET = {"width": 768, "height": 800}
BEHIND_MENU = [
    "Profile",
    "Bots",
    "People",
    "Clubs",
    "Ladders",
    "Tournaments",
    "Ratings",
    "Guides",
    "API",
]

# Behind "Menu" a signed-in person also has their own player page (no room on the desktop's line,
# where the profile page links it).
IN_MENU = ["Profile", "Your player page", *BEHIND_MENU[1:]]


def shown_links(page) -> list[str]:
    """The names of the site navigation's links a person can see, in order (the bell, a picture
    and a figure, left out)."""
    links = page.get_by_role("navigation", name="Site").locator("a:not(.bell)").all()
    return [link.inner_text().strip() for link in links if link.is_visible()]


def off_the_line(page) -> list[str]:
    """What in the header sits below its first line (the brand's): each visible item (a link,
    the bell, the sign-out button) whose top is under the brand's bottom, named with its box.
    Empty when the header is one line."""
    return list(
        page.evaluate(
            """() => {
                 const header = document.querySelector('.site-header');
                 const brand = header.querySelector('.brand').getBoundingClientRect();
                 return [...header.querySelectorAll('nav a, nav button')]
                   .map(el => [el, el.getBoundingClientRect()])
                   .filter(([el, box]) => el.checkVisibility() && box.top >= brand.bottom)
                   .map(([el, box]) => (el.getAttribute('aria-label') || el.textContent).trim()
                     + ` top=${box.top.toFixed(1)}, under the brand's ${brand.bottom.toFixed(1)}`);
               }"""
        )
    )


def header_underlines(page) -> list[str]:
    """The header's shown links and buttons drawn underlined."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.site-header nav a, .site-header nav button')]
             .filter(el => el.checkVisibility()
                     && getComputedStyle(el).textDecorationLine.includes('underline'))
             .map(el => el.textContent.trim())"""
    )


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
    assert shown_links(page) == ["Play", *IN_MENU]
    assert page.get_by_role("button", name="Sign out menu-phone").is_visible()
    # The open menu lies over the page: nothing under it moves.
    assert heading.bounding_box()["y"] == top_before
    page.get_by_role("link", name="Your player page").click()
    page.wait_for_url("**/players/menu-phone/")
    assert page.get_by_role("heading", level=1).inner_text() == "menu-phone"
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("link", name="Tournaments").click()
    page.wait_for_url("**/tournaments/")
    assert page.get_by_role("heading", level=1).inner_text() == "Tournaments"
    # A new page starts with the menu closed.
    assert shown_links(page) == ["Play"]


def test_a_visitor_on_a_phone_can_sign_in_without_the_menu(open_page):
    page = open_page(None, "/", **PHONE)
    assert shown_links(page) == ["Sign in"]
    page.get_by_text("Menu", exact=True).click()
    # A visitor's: what a person has behind it less their own pages, then the way in.
    assert shown_links(page) == [*BEHIND_MENU[2:], "Sign up", "Sign in"]


def test_a_desktop_shows_every_link_on_one_line_and_no_menu(open_page, live_server):
    # A username long enough for "Sign out" to cut it (12 characters shown).
    person = make_user("rosalind-montgomery")
    page = open_page(person, "/play/", **DESKTOP)
    assert not page.get_by_text("Menu", exact=True).is_visible()
    assert shown_links(page) == ["Play", *BEHIND_MENU]
    assert page.get_by_role("button", name="Sign out rosalind-montgomery").is_visible()
    # "Sign out" looks as the links beside it do: none is underlined.
    assert header_underlines(page) == []
    page.get_by_role("link", name="Ladders").click()
    page.wait_for_url("**/ladders/")
    assert shown_links(page) == ["Play", *BEHIND_MENU]

    # One line with a figure on the bell, "3" then "99+", at 1280 px, at the narrowest screen
    # that shows the links inline (72rem) and at 48rem, where they wait behind "Menu": at 1280
    # with "3" the links wrapped to a second line.
    ARTIFACTS.mkdir(exist_ok=True)
    for unread, shown in ((3, "3"), (100, "99+")):
        for number in range(unread):
            notify(person, "season", f"Season {number} started", url="/clubs/", key=f"s{number}")
        for size in (DESKTOP, NARROW_DESKTOP, TABLET):
            page = at_size(open_page, live_server, page, person, "/play/", **size)
            bell = page.get_by_role("link", name=f"Notifications, {shown} unread")
            assert bell.inner_text().strip() == shown
            inline = size is not TABLET
            assert page.get_by_text("Menu", exact=True).is_visible() is not inline
            assert shown_links(page) == (["Play", *BEHIND_MENU] if inline else ["Play"])
            sign_out = page.get_by_role("button", name="Sign out rosalind-montgomery")
            assert sign_out.is_visible() is inline
            assert off_the_line(page) == []
            assert not scrolls_sideways(page), too_wide(page)
            page.screenshot(path=str(ARTIFACTS / f"site-menu-{unread}-{size['width']}.png"))

    # A staff member's two more links, Staff and Admin, fit the narrowest line too.
    person.is_staff = True
    person.save()
    page = at_size(open_page, live_server, page, person, "/play/", **NARROW_DESKTOP)
    assert shown_links(page) == ["Play", *BEHIND_MENU, "Staff", "Admin"]
    assert off_the_line(page) == []


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_profile_page_links_ones_own_player_page(open_page, size):
    person = make_user("own-page")
    page = open_page(person, "/accounts/profile/", **size)
    link = page.get_by_role("link", name="Your player page")
    box = link.bounding_box()
    assert box and box["y"] + box["height"] <= size["height"], box  # under the name, in view
    link.click()
    page.wait_for_url("**/players/own-page/")
    assert page.get_by_role("heading", level=1).inner_text() == "own-page"
    assert not scrolls_sideways(page), too_wide(page)
