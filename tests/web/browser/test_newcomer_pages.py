"""What a newcomer reads, on a phone (360 x 740) and a desktop (1280 x 800): the new-game form's
key to the built-in bots under the seats (web/new_game.py bot_lines), each line whole on the
screen's width; and the lobby's empty Playing tab after finished games (docs/web.md, "The
lobby")."""

from __future__ import annotations

import pytest

from bots.strategies import STRATEGIES
from games import lobby
from tests.games.factories import SHORT, make_user, play_to_end
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"360": {"width": 360, "height": 740}, "1280": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("size", SIZES)
def test_each_bot_is_said_in_one_line_within_the_screen(open_page, size):
    page = open_page(make_user(f"bot-key-{size}"), "/play/new/", **SIZES[size])
    key = page.locator(".bot-key")
    key.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    key.screenshot(path=str(ARTIFACTS / f"new-game-bot-key-{size}.png"))
    assert key.locator("dt").count() == len(STRATEGIES)
    width = SIZES[size]["width"]
    for line in key.locator("dt, dd").all():
        box = line.bounding_box()
        assert line.is_visible() and box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert "Sheds its highest card" in key.inner_text()


@pytest.mark.parametrize("size", SIZES)
def test_the_empty_playing_tab_points_to_the_finished_games(open_page, size):
    ada = make_user(f"lobby-{size}")
    for _ in range(3):
        game = lobby.game_start(
            creator=ada, variant_spec=SHORT, seats=[{"user": "me"}, {"bot": "greedy"}], seed=3
        )
        play_to_end(game.pk)
    page = open_page(ada, "/play/", **SIZES[size])
    empty = page.locator("p.empty").first
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lobby-after-finished-{size}.png"))
    assert "You are in no running game. Your 3 finished games are under Finished." in (
        empty.inner_text()
    )
    empty.get_by_role("link", name="Finished").click()
    page.wait_for_url("**/play/?show=finished")
    assert page.locator("li.game.finished").count() == 3
