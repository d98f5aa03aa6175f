"""On a phone (360x740; the members list on a desktop too): a club admin removes a member
from the members list (a confirmation page saying what happens to the member's entries, then
the button), and a member leaves the club from their own line, as docs/web.md, "Clubs and
seasons", says. Screenshots in test-artifacts/test_club_leaving_browser-*.png."""

from __future__ import annotations

import pytest

from league.clubs import is_member
from league.models import Season
from league.seasons import season_enter
from social.models import Notification
from tests.games.factories import make_user
from tests.league.factories import make_club, make_season
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_club_leaving_browser-{name}.png"), full_page=True)


def test_an_admin_removes_a_member_and_a_member_leaves_on_a_phone(open_page):
    ada, ben, cy = make_user("ada"), make_user("ben"), make_user("Cyrille_Longname")
    club, _, _ = make_club(admin=ada)
    for person in (ben, cy):
        club.memberships.create(user=person)
    season = make_season(club, ada, name="Office Autumn League")
    season_enter(season=season, actor=ada, user=cy)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)

    admin = open_page(ada, f"/clubs/{club.slug}/#members-title", **PHONE)
    members = admin.locator("#members-title + .rows")
    assert "Remove" in members.inner_text()
    assert not scrolls_sideways(admin), too_wide(admin)
    snapshot(admin, "members")
    admin.set_viewport_size({"width": 1200, "height": 900})
    assert not scrolls_sideways(admin), too_wide(admin)
    snapshot(admin, "members-desktop")
    admin.set_viewport_size(PHONE)
    members.get_by_role("link", name="Remove Cyrille_Longname from the club").click()
    admin.wait_for_selector("h1 >> text=Remove Cyrille_Longname from")
    said = admin.locator(".confirm").inner_text()
    assert "What they have entered stays, played and ruled as now" in said
    assert "Office Autumn League" in said
    assert not scrolls_sideways(admin), too_wide(admin)
    snapshot(admin, "remove-confirm")
    admin.get_by_role("button", name="Remove Cyrille_Longname").click()
    admin.wait_for_selector("text=Cyrille_Longname is no longer a member")
    assert "Cyrille_Longname" not in admin.locator("#members-title + .rows").inner_text()
    snapshot(admin, "removed")
    assert not is_member(club, cy)
    assert Notification.objects.filter(user=cy, text=f"ada removed you from {club.name}").exists()

    member = open_page(ben, f"/clubs/{club.slug}/#members-title", **PHONE)
    member.locator("#members-title + .rows").get_by_role("link", name="Leave the club").click()
    member.wait_for_selector(f"h1 >> text=Leave {club.name}?")
    snapshot(member, "leave-confirm")
    member.get_by_role("button", name="Leave the club").click()
    member.wait_for_selector(f"text=You left {club.name}.")
    assert member.get_by_role("button", name="Ask to join").is_visible()
    assert not scrolls_sideways(member), too_wide(member)
    snapshot(member, "left")
    assert not is_member(club, ben)
