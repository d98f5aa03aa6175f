"""A finished small season in the browser: the player page of one of its entrants (their
season's line, the record per family, the replays of their games), wide and narrow.

The season page itself (/seasons/<slug>/, which includes templates/leagues/_season_tables.html)
is web/clubs.py's; tests/web/test_season_tables.py renders the tables it includes.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.seasons import season_close, season_enter, season_start
from league.standings import division_table
from tests.league.factories import make_bot, make_club, make_season
from tests.web.league_pages import autumn_season, play_season_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished(eager_tasks):
    season, ada, ben = autumn_season()
    season_start(season=season, admin=ada)
    play_season_out(season, ada)
    season_close(season=season, admin=ada)
    return season, ada, ben


def test_the_player_page_shows_the_season_and_opens_a_replay(open_page, finished):
    season, ada, ben = finished
    (line,) = [x for x in division_table(season.divisions.get(tier=1)) if x.name == "ada"]

    page = open_page(ben, reverse("web:player", args=["ada"]))

    assert page.get_by_role("heading", level=1).inner_text() == "ada"
    seasons = page.get_by_role("table", name="The seasons ada entered, newest first")
    row = seasons.get_by_role("row").nth(1)
    assert row.get_by_role("link", name="Autumn League").get_attribute("href") == (
        "/seasons/autumn/"
    )
    cells = row.get_by_role("cell").all_inner_texts()
    assert cells[-3:] == [f"{line.rank}{'=' if line.shared else ''}", str(line.league_points), "2"]
    families = page.get_by_role("table", name="ada's finished matches by family")
    assert families.get_by_role("rowheader").all_inner_texts() == ["Official"]

    replays = page.get_by_role("link", name="Replay of game")
    assert replays.count() == 2
    # Followed in a page of its own, so that this one stays for the screenshot.
    replay = open_page(ben, replays.first.get_attribute("href"))
    assert replay.locator(".replay__at strong").is_visible()


def test_the_player_page_fits_a_phone(open_page, finished):
    page = open_page(None, reverse("web:player", args=["ada"]), width=375, height=800)
    # The tables scroll inside their box; the page itself never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.get_by_role("link", name="Autumn League").is_visible()


def test_the_season_table_shows_league_points_on_a_phone(open_page, finished):
    """The standings' league points, the column that orders the table, are on a phone's screen
    without a swipe: the columns after them scroll inside the table's box."""
    season, _, _ = finished
    page = open_page(None, reverse("web:season", args=[season.slug]), width=360, height=740)
    points = page.locator(".standing__points").first
    box = points.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    # Right after the name, before the columns that grow with the table's size ("Places" of a
    # four-seat season, "0 · 0 · 0 · 0"), which pushed it past a phone's edge.
    headers = page.locator(".standings").first.locator("thead th").all_inner_texts()
    assert headers[:4] == ["#", "Entrant", "Pts", "P"], headers
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_four_seat_season_does_not_pan_sideways_on_a_phone(open_page):
    """A season of four-seat tables: its places ("1st 0 times, 2nd 0 times, …" for screen
    readers, hidden) stay inside the table's scrolling box; they made the page 404 px wide at
    360, so a swipe cut off the page's left edge."""
    club, admin, _ = make_club()
    season = make_season(club, admin, name="Four", slug="four", seats_per_game=4)
    for _ in range(4):
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin), tier=1)
    season_start(season=season, admin=admin)
    page = open_page(None, reverse("web:season", args=[season.slug]), width=360, height=740)
    assert page.locator(".standing__places").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
