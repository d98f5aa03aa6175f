"""What a newcomer reads on a club's pages, on a phone (360 x 740) and a desktop (1280 x 800): a
season started before anyone has played calls nobody promoted or relegated, its first round's
day is the same everywhere, the club's only admin is told why they cannot step down (no button
that can only fail), and a ladder for bots does not invite people in person."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tests.games.factories import make_user
from tests.league.factories import make_club, make_competition
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS
from tests.web.league_pages import season_level_on_nothing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 360, "height": 740}, {"width": 1280, "height": 800}]


@pytest.fixture
def club_and_season():
    club, ada, (ben,) = make_club(admin=make_user("ada"), members=1)
    day = timezone.localdate() + datetime.timedelta(days=2)
    season_level_on_nothing(club, ada, ben, name="Riverside Autumn", slug="autumn", start_date=day)
    return club, ada, day


def test_a_new_season_and_its_club_say_only_what_is_true(open_page, club_and_season):
    """Both pages opened on the phone, then their tabs resized to the desktop and read again."""
    club, ada, day = club_and_season
    season = open_page(ada, "/seasons/autumn/", **SIZES[0])
    # The settings are folded below the tables: opened to be read.
    if season.locator("#settings").get_attribute("open") is None:
        season.locator("#settings summary").click()
    page = open_page(ada, f"/clubs/{club.slug}/", **SIZES[0])
    for size in SIZES:
        season.set_viewport_size(size)
        page.set_viewport_size(size)

        assert season.locator(".standing .zone").count() == 0
        assert season.locator(".standing--down, .standing--up").count() == 0
        assert season.get_by_text("Nobody is marked until a result is in").count() == 2
        settings = season.locator(".facts").inner_text()
        assert f"First round opens\n{day:%a %-d %b %Y}" in settings.replace("\t", "\n")
        assert season.get_by_text(f"opens {day:%a %-d %b}").first.is_visible()
        assert not scrolls_sideways(season), too_wide(season)

        members = page.locator("#members-title").locator("xpath=..")
        assert members.get_by_text("The only admin: make another member an admin").is_visible()
        assert members.get_by_role("button", name="Not an admin").count() == 0
        assert members.get_by_role("button", name="Step down as admin").count() == 0
        assert page.get_by_text(f"from {day:%-d %b %Y}").is_visible()
        assert not scrolls_sideways(page), too_wide(page)

        ARTIFACTS.mkdir(exist_ok=True)
        for name, shown in (("season", season), ("club", page)):
            shown.screenshot(
                path=str(ARTIFACTS / f"season-club-words-{name}-{size['width']}.png"),
                full_page=True,
            )


def test_a_ladder_for_bots_invites_bots_only(open_page, settings):
    settings.LEAGUE_BOT_LADDERS = ["arena"]
    make_competition(name="Bot Arena", slug="arena", variant={"rules": "official"})

    ladder = open_page(None, "/ladders/arena/", width=360, height=740)
    assert ladder.get_by_text("Bots only: people enter their bots, not themselves").is_visible()
    entering = ladder.locator("#enter-heading").locator("xpath=..").inner_text()
    assert "Sign in to enter one of your bots" in entering
    assert "yourself" not in entering

    listed = open_page(None, "/ladders/", width=360, height=740)
    lead = listed.locator(".lead").inner_text()
    assert lead.startswith("Always open: bots enter")
    assert "people and bots enter" not in lead
