"""Names as long as the site holds, on a phone (360 x 740): a username of 150 characters (Django's
limit, which names made before sign-up's 30 and by the admin may reach) and a tournament named
with 100 (the form's maximum), neither with a space to break at. They wrap or end in an
ellipsis; no page grows wider than the screen, the site header keeps "Sign out" in view (on a
phone, behind "Menu"), and a game's Scores table keeps within its column."""

from __future__ import annotations

import pytest

from games.creation import SeatSpec, game_create
from tests.games.factories import SHORT, make_user, play_to_end
from tests.tournaments.factories import make_tournament
from tests.web.browser.clicks import too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
LONG_USER = ("Longname" * 19)[:150]
LONG_TOURNAMENT = "T" * 100


def page_width(page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def in_view(page, locator) -> bool:
    """The element's box lies within the viewport's width."""
    box = locator.bounding_box()
    width = page.evaluate("window.innerWidth")
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1


@pytest.fixture
def long_names():
    person = make_user(LONG_USER)
    assert len(person.username) == 150
    make_tournament(make_user(), name=LONG_TOURNAMENT, slug="long-t")
    return person


def test_long_names_stay_inside_the_screen(open_page, live_server, long_names):
    """Each page opened on the phone, then its tab resized to the desktop and looked at again."""
    person = long_names
    lobby = open_page(person, "/play/", **PHONE)
    tournament = open_page(person, "/tournaments/long-t/", **PHONE)
    player = open_page(None, f"/players/{LONG_USER}/", **PHONE)
    for size in (PHONE, DESKTOP):
        width = size["width"]
        for page in (lobby, tournament, player):
            page.set_viewport_size(size)

        assert lobby.get_by_role("link", name=LONG_TOURNAMENT).is_visible()
        assert page_width(lobby) <= width, too_wide(lobby)
        sign_out = lobby.get_by_role("button", name=f"Sign out {LONG_USER}")
        if width < 1152:  # under 72rem "Sign out" is behind the header's "Menu"
            assert not sign_out.is_visible()
            lobby.get_by_text("Menu", exact=True).click()
        assert sign_out.is_visible()
        assert sign_out.inner_text().startswith("Sign out ")
        assert in_view(lobby, sign_out), too_wide(lobby)

        heading = tournament.get_by_role("heading", level=1)
        assert heading.inner_text().replace("\n", "") == LONG_TOURNAMENT
        assert in_view(tournament, heading)
        assert page_width(tournament) <= width, too_wide(tournament)

        heading = player.get_by_role("heading", level=1)
        assert heading.inner_text().replace("\n", "") == LONG_USER
        assert page_width(player) <= width, too_wide(player)

        ARTIFACTS.mkdir(exist_ok=True)
        for name, page in (("lobby", lobby), ("tournament", tournament), ("player", player)):
            page.screenshot(path=str(ARTIFACTS / f"long-names-{name}-{width}.png"), full_page=True)

    # A finished match of the long name, a long-ish one and a bot, watched (the player's tab, on
    # the desktop, then the phone): each name in the Scores table is whole for a screen reader
    # and on hover, the table no wider than its column (it ran 1,473 px past the side column at
    # 1280 px, "Hands won" and "Place" out of sight, and made the page 1,781 px wide at 360).
    seats = [SeatSpec(user=person), SeatSpec(user=make_user("rosalind-montgomery"))]
    game = game_create(variant_spec=SHORT, seats=[*seats, SeatSpec(bot="greedy")], seed=3)
    play_to_end(game.pk)
    player.goto(f"{live_server.url}/games/{game.pk}/")
    for size in (DESKTOP, PHONE):
        width = size["width"]
        player.set_viewport_size(size)
        scores = player.get_by_role("region", name="Scores")
        headings = scores.get_by_role("columnheader").all_inner_texts()
        assert headings == ["Seat", "Points", "Hands won", "Place"]
        edges = player.evaluate(
            """() => [document.querySelector('.scores table').getBoundingClientRect().right,
                      document.querySelector('.scores').getBoundingClientRect().right]"""
        )
        assert edges[0] <= edges[1], edges
        assert page_width(player) <= width, too_wide(player)
        name = scores.get_by_role("rowheader", name=LONG_USER)
        assert name.get_attribute("title") == LONG_USER
        scores.scroll_into_view_if_needed()
        player.screenshot(path=str(ARTIFACTS / f"long-names-scores-{width}.png"))
