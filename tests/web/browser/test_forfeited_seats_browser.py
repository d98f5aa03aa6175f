"""Two seats of a fixture ruled forfeited, as their person sees them in the browser, on a phone
(360x740) and a desktop: the finished game's seats and scores place both last, marked
"forfeited", and the result line names a seat that played on; the club's all-time table shows
them sharing a place; the notice is under the bell."""

from __future__ import annotations

import pytest

from tests.web.browser.clicks import scrolls_sideways
from tests.web.browser.conftest import ARTIFACTS
from tests.web.league_pages import two_seats_forfeited

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (360, 740), "desktop": (1280, 900)}


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_forfeited_seats-{name}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_a_forfeited_person_sees_both_seats_last_and_is_told(open_page, size):
    club, fixture, ben, _ = two_seats_forfeited()
    width, height = SIZES[size]

    page = open_page(ben, f"/games/{fixture.game_id}/", width=width, height=height)
    seats = page.locator(".seat")
    for name in ("ben", "cal"):
        seat = seats.filter(has=page.locator(".seat__name", has_text=name))
        assert seat.locator(".tag", has_text="place").inner_text() == "place 3, forfeited"
        row = page.locator(".scores tbody tr", has=page.locator("th", has_text=name))
        assert row.locator("td").last.inner_text() == "3, forfeited"
    result = page.locator(".game").inner_text()
    assert "ben wins" not in result and "cal wins" not in result
    assert not scrolls_sideways(page)
    snapshot(page, f"game-{size}")

    page.goto(page.url.split("/games/")[0] + f"/clubs/{club.slug}/")
    table = page.locator("#all-time-title ~ .table-scroll tbody")
    for name in ("ben", "cal"):
        assert table.locator("tr", has_text=name).locator("td").first.inner_text() == "3="
    snapshot(page, f"club-{size}")

    page.goto(page.url.split("/clubs/")[0] + "/notifications/")
    assert f"Your seat in game {fixture.game_id} was forfeited by the league" in page.inner_text(
        "main"
    )
    snapshot(page, f"notices-{size}")
