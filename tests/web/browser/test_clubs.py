"""A club admin's evening in the browser: a new club, a member joining by the link, a season
set up with its form, members and bots entered, the start, and the season running with its first
games open."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest
from django.utils import timezone

from league.models import Club, Fixture, Season
from tests.games.factories import make_user
from tests.league.factories import make_club, make_season
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_clubs-{name}.png"), full_page=True)


def test_an_admin_sets_up_a_club_and_starts_a_season_with_members_and_bots(open_page):
    ada, ben = make_user("ada"), make_user("ben")

    admin = open_page(ada, "/clubs/")
    admin.get_by_role("link", name="New club").click()
    admin.get_by_label("Name").fill("Riverside UNO")
    admin.get_by_label("About the club").fill("Thursday nights at the library.")
    admin.get_by_role("button", name="Create the club").click()
    admin.wait_for_selector("text=Riverside UNO is open")
    club = Club.objects.get()
    invitation = admin.locator("#invite-url").input_value()
    assert invitation.endswith(f"/clubs/riverside-uno/join/{club.invite_code}/")

    # Ben opens the link he was sent, on his phone, and joins.
    member = open_page(ben, urlsplit(invitation).path, width=360, height=800)
    assert "Join Riverside UNO?" in member.inner_text("h1")
    snapshot(member, "join")
    member.get_by_role("button", name="Join Riverside UNO").click()
    member.wait_for_selector("text=Welcome to Riverside UNO.")

    admin.reload()
    assert "ben" in admin.locator("#members-title + .rows").inner_text()
    snapshot(admin, "club")

    admin.get_by_role("link", name="New season").first.click()
    admin.get_by_label("Season name").fill("Autumn League")
    admin.get_by_label("Official").check()
    admin.get_by_label("Target score").fill("50")
    admin.get_by_label("Players at a table").select_option("2")
    admin.get_by_label("First round opens on").fill(timezone.localdate().isoformat())
    admin.get_by_label("Division 1 name").fill("Premier")
    admin.get_by_label("Placement points").fill("3, 2, 1")
    snapshot(admin, "season-form")
    admin.get_by_role("button", name="Create the season").click()
    # Three placements at tables of two are refused at their field; the form keeps what was
    # typed.
    said = "Placement points: Give 2 whole numbers of 0 or more, one per place."
    assert said in admin.locator("#form-errors").inner_text()
    assert admin.get_by_label("Season name").input_value() == "Autumn League"
    assert not Season.objects.exists()
    snapshot(admin, "season-form-refused")
    admin.get_by_label("Placement points").fill("")
    admin.get_by_role("button", name="Create the season").click()
    admin.wait_for_selector("text=Autumn League is set up")
    season = Season.objects.get()
    assert season.slug == "autumn-league"

    for count, username in enumerate(["ada", "ben"], start=1):
        admin.locator("#member_username").fill(username)
        admin.get_by_role("button", name="Add the member").click()
        admin.wait_for_selector(f".organiser .rows li:nth-child({count})")
    admin.locator("#bot_bot_name").fill("greedy")
    admin.get_by_role("button", name="Add the bot").click()
    admin.wait_for_selector(".message.success >> text=Bot greedy is entered")
    admin.locator("#bot_bot_name").fill("Rex")
    admin.locator("#bot_strategy").select_option("random")
    admin.get_by_role("button", name="Add the bot").click()
    admin.wait_for_selector(".message.success >> text=Bot Rex is entered")
    entrants = admin.locator("#division-1 tbody th").all_inner_texts()
    assert [line.split()[0] for line in entrants] == ["ada", "ben", "greedy", "Rex"]
    snapshot(admin, "draft")

    admin.get_by_role("button", name="Start the season").click()
    admin.wait_for_selector("text=Autumn League has started")

    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    opened = Fixture.objects.filter(division__season=season, game__isnull=False)
    assert opened.count() == 2
    status = admin.locator(".season-status").inner_text()
    assert "Running since" in status and "2 games started so far" in status
    assert admin.get_by_role("link", name="Close the season…").is_visible()

    # The club's page lists it as running, and its entrants in the all-time table.
    admin.get_by_role("link", name="Riverside UNO").click()
    assert "Autumn League" in admin.locator("#seasons-title + h3 + .rows").inner_text()
    assert admin.locator("#all-time-title ~ .table-scroll tbody tr").count() == 4
    snapshot(admin, "club-running")

    # The member finds it from the list of clubs.
    member.goto(urljoin(member.url, "/clubs/"))
    assert "you are a member" in member.locator(".club-card").inner_text()
    snapshot(member, "clubs")
    assert not scrolls_sideways(member)
    member.get_by_role("link", name="Riverside UNO").click()
    member.get_by_role("link", name="Autumn League").click()
    assert "Running since" in member.locator(".season-status").inner_text()
    assert member.locator(".organiser").count() == 0
    assert not scrolls_sideways(member)


def test_the_new_season_form_fits_a_phone(open_page):
    """The divisions' rows (tier, name, promoted, relegated) fit 360 px: the page does not
    scroll sideways, and every input of the rows is whole on the screen."""
    club, admin, _ = make_club()
    page = open_page(admin, f"/clubs/{club.slug}/seasons/new/", width=360, height=740)

    assert not scrolls_sideways(page), too_wide(page)
    inputs = page.locator(".division-rows input")
    assert inputs.count() == 12
    for index in range(inputs.count()):
        box = inputs.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, index
    page.locator(".division-rows").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "test_clubs-season-form-360.png"))


def test_the_new_club_form_fits_a_phone(open_page):
    """The club's "About" box is as wide as the form, not the 40 columns a textarea has by
    default, which ran past a 360 px screen."""
    page = open_page(make_user("ada"), "/clubs/new/", width=360, height=740)

    assert not scrolls_sideways(page), too_wide(page)
    box = page.get_by_label("About the club").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360


@pytest.mark.parametrize("width", [360, 1280])
def test_a_new_seasons_empty_division_says_so_where_it_is_read(open_page, width):
    """ "No entrants in this division." spans the table's row: it starts at the row's left, as
    text does, not at its right like the figures, where on a phone it sat past the table's
    scrolling strip, out of sight."""
    club, admin, _ = make_club()
    season = make_season(club, admin)
    page = open_page(admin, f"/seasons/{season.slug}/", width=width, height=740)

    cell = page.locator("#division-1 td.empty")
    assert cell.inner_text() == "No entrants in this division."
    words = cell.evaluate(
        """cell => { const range = document.createRange(); range.selectNodeContents(cell);
        const r = range.getBoundingClientRect(); return [r.left, r.right]; }"""
    )
    strip = page.locator("#division-1 .table-scroll").bounding_box()
    assert strip is not None
    assert strip["x"] <= words[0] and words[1] <= strip["x"] + strip["width"]
    assert words[0] - strip["x"] < 40  # at the row's start
