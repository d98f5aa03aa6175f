"""The replay stepped with its buttons, the keyboard and the slider."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from games.models import Game
from tests.games.factories import make_user
from tests.web.browser.clicks import POLL_MS
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def at(page) -> int:
    return int(page.locator(".replay__at strong").inner_text())


def wait_for_at(page, n: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('.replay__at strong').textContent) === n",
        arg=n,
        polling=POLL_MS,
    )


def test_the_replay_steps_by_buttons_keys_and_slider(open_page):
    # Bots only: with tasks in-process the match is played out when it is created.
    game = game_create(
        variant_spec={"rules": "official", "options": {"scoring": "single-hand"}},
        seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random"), SeatSpec(bot="colour-control")],
        seed=4,
    )
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    page = open_page(make_user("ana"), reverse("web:replay", args=[game.pk]) + "?as=all")
    start = at(page)
    assert page.locator(".seat__revealed .card").count() > 0

    page.get_by_role("link", name="Next ›").click()
    wait_for_at(page, start + 1)
    assert f"at={start + 1}" in page.url
    # The focus comes back to the step just used, so Enter steps on.
    page.wait_for_function("() => document.activeElement.dataset.step === 'next'", polling=POLL_MS)
    page.keyboard.press("Enter")
    wait_for_at(page, start + 2)
    page.keyboard.press("ArrowRight")
    wait_for_at(page, start + 3)
    page.keyboard.press("ArrowLeft")
    wait_for_at(page, start + 2)
    page.keyboard.press("End")
    wait_for_at(page, game.version)
    assert "The match is over" in page.locator(".story").inner_text()
    page.get_by_role("link", name="« First").click()
    wait_for_at(page, 1)
    page.locator("#replay-at").fill("10")
    wait_for_at(page, 10)
    assert "at=10" in page.url


def test_the_keys_line_shows_where_there_is_a_mouse_not_on_a_touch_screen(open_page):
    game = game_create(
        variant_spec={"rules": "official", "options": {"scoring": "single-hand"}},
        seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random")],
        seed=4,
    )
    url = reverse("web:replay", args=[game.pk]) + "?as=all"
    keys = "Keys: ← → step, Home and End jump."

    desktop = open_page(make_user("ana"), url, width=1280, height=800)
    assert desktop.evaluate("matchMedia('(hover: hover) and (pointer: fine)').matches")
    assert desktop.get_by_text(keys).is_visible()

    phone = open_page(make_user("ben"), url, width=360, height=740, touch=True)
    assert phone.evaluate("matchMedia('(pointer: coarse)').matches")
    assert phone.locator(".replay__keys").count() == 1
    assert not phone.locator(".replay__keys").is_visible()
    assert keys not in phone.locator("main").inner_text()
    # The steps themselves are there, to tap.
    assert phone.get_by_role("link", name="Next ›").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "replay-touch-360.png"))
    desktop.screenshot(path=str(ARTIFACTS / "replay-mouse-1280.png"))
