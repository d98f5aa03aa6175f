"""Resigning a two-player game in the browser, on a phone (360x740) and a desktop: the
confirmation says the match ends and who wins; after it the board says the match is over, the
person who resigned sees "You resigned: theo wins the match", and the other sees they won."""

from __future__ import annotations

import pytest

from games import lobby
from tests.games.factories import SHORT, make_user
from tests.web.browser.clicks import scrolls_sideways
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (360, 740), "desktop": (1280, 900)}


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_resign-{name}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_resigning_a_two_player_game_ends_it_and_the_other_wins(open_page, size):
    maya, theo = make_user(f"maya{size}"), make_user(f"theo{size}")
    game = lobby.game_start(
        creator=maya,
        variant_spec=SHORT,
        seats=[{"user": "me"}, {"user": theo.username}],
        turn_seconds=3600,
    )
    width, height = SIZES[size]

    page = open_page(maya, f"/games/{game.pk}/resign", width=width, height=height)
    words = " ".join(page.locator("main").inner_text().split())
    assert f"The match ends now and {theo.username} wins; you are placed last." in words
    assert "default bot" not in words
    assert not scrolls_sideways(page)
    snapshot(page, f"confirm-{size}")

    page.get_by_role("button", name="Resign").click()
    page.wait_for_url(f"**/games/{game.pk}/")
    board = page.locator(".game").inner_text()
    assert f"You resigned: {theo.username} wins the match" in board
    assert f"{theo.username} wins the match." in board
    assert not scrolls_sideways(page)
    snapshot(page, f"resigned-{size}")

    theirs = open_page(theo, f"/games/{game.pk}/", width=width, height=height)
    assert "You win the match by forfeit." in theirs.locator(".game").inner_text()
    assert f"{maya.username} resigned: you win the match." in theirs.locator("main").inner_text()
    snapshot(theirs, f"won-{size}")
