"""A club's admin hears of its people under the bell, on a phone (360x740) and a desktop: who
joined, who asks to join; the request's notice leads to the requests, where they answer it."""

from __future__ import annotations

import pytest

from league.clubs import club_create, club_join, club_request
from tests.games.factories import make_user
from tests.web.browser.clicks import scrolls_sideways
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_an_admin_reads_who_joined_and_answers_who_asks(open_page, size):
    ada = make_user("ada")
    club = club_create(name="Friday Night UNO", creator=ada)
    club_join(club=club, user=make_user("Tobi_R"), code=club.invite_code)
    club_request(club=club, user=make_user("pia"))

    page = open_page(ada, "/notifications/", **size)
    assert page.get_by_role("heading", name="2 unread").is_visible()
    main = page.locator("main").inner_text()
    assert "Tobi_R joined Friday Night UNO" in main
    assert "pia asks to join Friday Night UNO" in main
    assert "your club's members" in main
    assert not scrolls_sideways(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"club-join-notices-{size['width']}.png"), full_page=True)

    page.get_by_role("link", name="pia asks to join Friday Night UNO").click()
    page.wait_for_url(f"**/clubs/{club.slug}/#requests-title")
    page.get_by_role("button", name="Approve pia").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    assert page.get_by_text("pia is a member now.").is_visible()
    assert page.get_by_role("link", name="Notifications, 1 unread").is_visible()
