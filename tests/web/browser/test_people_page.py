"""A newcomer on a phone (360 x 740) finds a person to play: "People" in the site's menu, the
people waiting at an open table and those playing now, a search by the start of a name, and a
Challenge button that opens the challenge form for that person (web/people.py); the same page
on a desktop (1280 x 800). Nothing wider than the screen; axe checks every page."""

from __future__ import annotations

import pytest

from games.creation import SeatSpec, game_create
from tables import services
from tests.games.factories import make_user, take_turns
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def people_about():
    """ana waits at an open table, bartholomew-the-long plays a bot now (moves of his own),
    and some others."""
    ana, long = make_user("ana"), make_user("bartholomew-the-long")
    services.open_table(opener=ana, variant_spec={"rules": "official"}, seats=2)
    game = game_create(
        variant_spec={"rules": "official"}, seats=[SeatSpec(user=long), SeatSpec(bot="greedy")]
    )
    take_turns(game)
    for name in ("anabel", "anton", "bob"):
        make_user(name)


def test_a_newcomer_on_a_phone_finds_a_person_and_challenges_them(open_page):
    people_about()
    page = open_page(make_user("newcomer"), "/play/", **PHONE)
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("link", name="People").click()
    page.wait_for_url("**/players/")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "people-phone.png"), full_page=True)
    assert page.get_by_role("heading", level=1).inner_text() == "People"
    waiting = page.locator("section", has=page.locator("#waiting-heading"))
    assert "ana" in waiting.inner_text() and "waiting at table" in waiting.inner_text()
    playing = page.locator("section", has=page.locator("#playing-heading"))
    assert "bartholomew-the-long" in playing.inner_text()
    assert playing.get_by_role("link", name="Challenge bartholomew-the-long").is_visible()
    assert not scrolls_sideways(page), too_wide(page)

    page.get_by_label("Find a person by username").fill("AN")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url("**/players/?q=AN")
    rows = page.locator(".person-row__name").all_inner_texts()
    assert rows == ["ana", "anabel", "anton"]
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "people-search-phone.png"), full_page=True)
    page.get_by_role("link", name="Challenge anton").click()
    page.wait_for_url("**/tables/new/?challenge=anton")
    assert page.get_by_role("heading", level=1).inner_text() == "Challenge anton"
    assert page.get_by_label("Challenge a person (username)").input_value() == "anton"
    page.screenshot(path=str(ARTIFACTS / "people-challenge-phone.png"))


def test_the_people_page_on_a_desktop(open_page):
    people_about()
    page = open_page(make_user("desk"), "/players/", **DESKTOP)
    assert page.get_by_role("link", name="People").is_visible()  # in the header's one line
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "people-desktop.png"), full_page=True)
    page = open_page(make_user("desk2"), "/players/?q=b", **DESKTOP)
    assert page.locator(".person-row__name").all_inner_texts() == ["bartholomew-the-long", "bob"]
    page.screenshot(path=str(ARTIFACTS / "people-search-desktop.png"), full_page=True)
