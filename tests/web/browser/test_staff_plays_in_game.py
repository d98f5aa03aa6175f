"""The staff inspector of a game the staff member plays in, in chromium: no ruling (extend,
forfeit, abort) is offered, and the page says up front that another member of the staff must
act on it; the log, the state and the seats stay to read. On a desktop and on a phone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.creation import SeatSpec, game_create
from games.models import Game
from tests.games.factories import make_user
from tests.staff.test_dashboard import SHORT, first_to_act_seed
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_a_staff_player_is_told_up_front_and_offered_no_ruling(open_page, width, height):
    sam = get_user_model().objects.create_user("sam", is_staff=True)
    game = game_create(
        variant_spec=SHORT,
        seats=[SeatSpec(user=sam), SeatSpec(user=make_user("opponent"))],
        seed=first_to_act_seed(2, 0),
    )
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING

    page = open_page(sam, f"/staff/games/{game.pk}/", width=width, height=height)

    said = page.locator("[data-code='plays-in-game']")
    assert said.is_visible()
    assert "Another member of the staff must act on it, as you play in it" in said.inner_text()
    # Up front: on the first screen, before any of the log.
    assert said.bounding_box()["y"] < height
    actions = page.locator("#actions")
    for label in ("Extend a deadline", "Forfeit a seat", "Abort"):
        assert actions.get_by_role("link", name=label).count() == 0, label
    assert page.locator("#seats").is_visible() and page.locator("#state-json").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_staff_plays_in_game-{width}x{height}-top.png"))
    actions.scroll_into_view_if_needed()
    actions.screenshot(
        path=str(ARTIFACTS / f"test_staff_plays_in_game-{width}x{height}-actions.png")
    )
