"""A draft season's organiser on a phone (360 x 740) and a desktop (1280 x 800): the settings
edited on the form prefilled, the draft deleted after its confirmation page, the season form's
defaults said; and a player whose fixture's deadline was moved reads it on their game's page and
in the lobby. Screenshots in test-artifacts/test_season_drafts-*.png."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from league.seasons import fixture_retime, season_start
from tests.games.factories import make_user
from tests.league.factories import make_club
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS
from tests.web.league_pages import autumn_season, open_fixture_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def snapshot(page, name: str, *, full: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_season_drafts-{name}.png"), full_page=full)


@pytest.mark.parametrize("size", SIZES)
def test_an_organiser_edits_then_deletes_a_draft(open_page, size):
    season, ada, _ = autumn_season()
    page = open_page(ada, f"/seasons/{season.slug}/", **SIZES[size])

    panel = page.locator("#organiser")
    panel.get_by_role("link", name="Edit the settings").scroll_into_view_if_needed()
    snapshot(page, f"panel-{size}")
    with page.expect_navigation():
        panel.get_by_role("link", name="Edit the settings").click()
    assert page.locator("h1").inner_text() == "Settings of Autumn League"
    assert page.get_by_label("Season name").input_value() == "Autumn League"
    assert page.get_by_label("Division 2 name").input_value() == "Challenger"
    snapshot(page, f"edit-{size}")
    page.get_by_label("Placement points").scroll_into_view_if_needed()
    snapshot(page, f"edit-defaults-{size}")
    assert not scrolls_sideways(page), too_wide(page)

    page.get_by_label("Season name").fill("Winter League")
    page.get_by_label("Address").fill("winter")
    page.get_by_label("Placement points").fill("")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the settings").click()
    assert page.url.endswith("/seasons/winter/")
    said = page.locator("[role=status]").first.inner_text()
    assert said.startswith("Winter League's settings are saved (left blank, so the defaults:")
    assert "placement points 1 / 0" in said
    snapshot(page, f"saved-{size}")

    with page.expect_navigation():
        page.locator("#organiser").get_by_role("link", name="Delete the season…").click()
    assert page.locator("h1").inner_text() == "Delete Winter League?"
    snapshot(page, f"delete-{size}")
    assert not scrolls_sideways(page), too_wide(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Delete the season").click()
    assert page.url.endswith(f"/clubs/{season.club.slug}/")
    assert "Winter League is deleted." in page.locator("[role=status]").first.inner_text()
    snapshot(page, f"deleted-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_the_new_season_form_says_its_defaults(open_page, size):
    club, admin, _ = make_club()
    page = open_page(admin, f"/clubs/{club.slug}/seasons/new/", **SIZES[size])

    page.get_by_label("Players at a table").scroll_into_view_if_needed()
    snapshot(page, f"new-defaults-{size}")
    page.get_by_label("Vacation days").scroll_into_view_if_needed()
    snapshot(page, f"new-calendar-{size}")
    assert "Default: 7." in page.locator("main").inner_text()
    assert not scrolls_sideways(page), too_wide(page)


@pytest.mark.parametrize("size", SIZES)
def test_a_player_reads_the_moved_deadline_on_their_game(open_page, eager_tasks, size):
    season, ada, _ = autumn_season()
    season = season_start(season=season, admin=ada)
    fixture = open_fixture_of(season, ada)
    staff = make_user("sam")
    staff.is_staff = True
    staff.save()
    later = (timezone.now() + datetime.timedelta(days=9)).replace(second=0, microsecond=0)
    fixture_retime(fixture=fixture, actor=staff, deadline=later, note="snowed in")
    moved = f"deadline moved to {later:%a %-d %b, %H:%M} UTC"

    page = open_page(ada, f"/games/{fixture.game_id}/", **SIZES[size])
    crumbs = page.locator("p.crumbs").inner_text()
    assert crumbs.endswith(moved) and "Autumn League · Premier · round 1" in crumbs
    snapshot(page, f"game-{size}")

    page.goto(page.url.split("/games/")[0] + "/play/")
    card = page.locator(".fixture-mark").first.inner_text()
    assert card.endswith(moved)
    snapshot(page, f"lobby-{size}")

    page.goto(page.url.split("/play/")[0] + "/notifications/")
    assert (
        f"Your fixture's deadline moved to {later:%a %-d %b %Y, %H:%M} UTC"
        in page.locator("main").inner_text()
    )
    snapshot(page, f"notice-{size}")
    assert not scrolls_sideways(page), too_wide(page)
