"""People's ratings in the browser, on a phone (360x740) and a desktop: the player page's Ratings
section (the figure, provisional marked, the history chart, the rated games with every seat
marked person or bot) and the leaderboard of people, reached from the site's navigation. One
tab, resized from the phone to the desktop."""

from __future__ import annotations

import pytest

from tests.games.factories import make_user
from tests.ratings.games import one_card_game, run_ratings
from tests.web.browser.clicks import at_size, scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1200, "height": 900}}


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_ratings_pages-{name}.png"), full_page=True)


def test_a_players_ratings_and_the_leaderboard(open_page, live_server, settings):
    """The same games seen on a phone, then in the same tab resized to a desktop."""
    settings.RATINGS_PROVISIONAL_GAMES = 3
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    for winner in (0, 0, 1, 0):
        one_card_game([ana, ben], winner=winner)
    one_card_game([cy, ana, "greedy"], winner=1)
    one_card_game([ana, ben, cy], winner=2, spec={"rules": "basic-plus", "options": {
        "hand_size": 1, "scoring": "single-hand"}})  # fmt: skip
    run_ratings()

    page = None
    for size in SIZES:
        page = at_size(open_page, live_server, page, ana, "/players/ana/", **SIZES[size])
        official = page.locator('article.rating-panel[data-family="official"]')
        assert official.locator("h3").inner_text() == "Official"
        assert official.locator(".badge--provisional").count() == 0
        assert "5" in official.locator("dt:has-text('Rated games') + dd").inner_text()
        chart = official.locator("figure.rating-chart svg:visible")
        assert chart.is_visible()
        assert chart.locator("circle.rating-chart__dot").count() == 6  # the start and 5 games
        assert chart.bounding_box()["width"] <= SIZES[size]["width"]
        assert official.locator("ul.rated-games li").count() == 5
        newest = official.locator("ul.rated-games li").first
        assert newest.locator(".kind--bot").inner_text() == "bot, not rated"
        assert newest.locator(".kind--person").inner_text() == "person"
        # basic-plus: one rated game, provisional, marked.
        basic = page.locator('article.rating-panel[data-family="basic-plus"]')
        assert basic.locator(".badge--provisional").inner_text() == "provisional"
        assert basic.locator(".rating-figure .provisional").inner_text() == "?"
        assert not scrolls_sideways(page), too_wide(page)
        snapshot(page, f"player-{size}")
        official.screenshot(path=str(ARTIFACTS / f"test_ratings_pages-official-{size}.png"))

        # The rated game's replay is one click away.
        newest.get_by_role("link").first.click()
        page.wait_for_url("**/replay/")
        page.go_back()

        # The leaderboard, from the site's navigation.
        if SIZES[size]["width"] < 1152:  # under 72rem the header keeps its links behind "Menu"
            page.get_by_role("navigation", name="Site").get_by_text("Menu", exact=True).click()
        page.get_by_role("navigation", name="Site").get_by_role("link", name="Ratings").click()
        page.wait_for_url("**/ratings/")
        assert not scrolls_sideways(page), too_wide(page)
        snapshot(page, f"pools-{size}")
        page.get_by_role("link", name="Official", exact=True).first.click()
        page.wait_for_url("**/ratings/official/")
        ranked = page.locator("section[aria-labelledby=board-heading] tr.board-line")
        assert ranked.count() == 2  # ana (5 games) and ben (4); cy has 2: provisional
        assert ranked.first.locator("th a").inner_text() == "ana"
        assert ranked.first.locator("td").first.inner_text() == "1"
        provisional = page.locator("section[aria-labelledby=provisional-heading] tr.board-line")
        assert provisional.count() == 1 and provisional.locator("th a").inner_text() == "cy"
        assert page.locator("tr.board-line .kind--person").count() == 3
        assert page.locator("tr.board-line .kind--bot").count() == 0
        assert not scrolls_sideways(page), too_wide(page)
        snapshot(page, f"board-{size}")
