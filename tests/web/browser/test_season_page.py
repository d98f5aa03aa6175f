"""A finished small season in the browser: the player page of one of its entrants (their
season's line, the record per family, the replays of their games), wide and narrow.

The season page itself (/seasons/<slug>/, which includes templates/leagues/_season_tables.html)
is web/clubs.py's; tests/web/test_season_tables.py renders the tables it includes.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.seasons import season_close, season_start
from league.standings import division_table
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
