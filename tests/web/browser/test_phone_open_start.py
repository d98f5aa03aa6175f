"""newno's open start on a 360x740 phone: the status box's lines ("Open start: anyone may make
the first play", "Second play: ...", the bots' grace, a jump-in) must leave the top card on
screen above the pinned dock, so the person sees what they play on. Four seats and seven cards
each, as a person meets it; and the jump-in that follows a first play (tests/games/tables.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from clocks import presence
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from tests.engine.decks import stacked
from tests.games.factories import commit_play, make_user
from tests.games.tables import jump_in_table
from tests.web.browser.clicks import SETTLED, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_status_room import card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = [
    ["red-6", "red-8", "green-3", "green-7", "blue-1", "yellow-2", "blue-4"],
    ["red-8", "yellow-3", "yellow-4", "yellow-9", "green-1", "blue-2", "green-2"],
    ["blue-7", "blue-8", "green-4", "blue-9", "yellow-1", "yellow-5", "green-5"],
    ["green-6", "green-8", "green-9", "yellow-6", "yellow-7", "blue-3", "blue-5"],
]
# The top card's box, the dock's top and the page's scroll.
PLACES = """() => ({
  top: document.querySelector('.pile .card').getBoundingClientRect().toJSON(),
  dock: document.querySelector('.dock').getBoundingClientRect().top,
  scrollY: window.scrollY })"""


def assert_top_card_shows(page: Any, name: str) -> None:
    page.evaluate(SETTLED)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"open-start-{name}-360.png"))
    seen = page.evaluate(PLACES)
    assert seen["scrollY"] == 0, seen
    assert seen["top"]["top"] >= 0 and seen["top"]["bottom"] <= seen["dock"], seen


def test_the_top_card_shows_at_a_four_seat_open_start(open_page):
    """The open start, then the second play open to ana after greedy (seat 2)'s first play."""
    ana = make_user("ana")
    with transaction.atomic():
        game = game_create(
            variant_spec={"rules": "newno"},
            seats=[SeatSpec(user=ana, age=20)]
            + [SeatSpec(bot="greedy", age=30 + seat) for seat in range(3)],
            deck=stacked(HANDS, "red-5", first=1),
            dealer=0,
            settings=GameSettings(grace_seconds=120),
        )
        presence.seen(ana.pk, game.pk)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector("[data-grace-line]")
    assert page.locator(".status__line").inner_text().startswith("Open start")
    assert_top_card_shows(page, "four-seats")

    # greedy (seat 2) plays first while ana's page still shows the open start (its poll held
    # back), and her tap on red 6 comes too late: the board comes back with the refusal above
    # the second play's lines, the most the status box holds here.
    page.route("**/board?*", lambda route: route.fulfill(status=204))
    old = version(page)
    commit_play(game, 1, "red-8")
    card(page, "red-6").click()
    wait_for_board_after(page, old)
    page.unroute("**/board?*")
    assert page.locator(".banner--error").get_attribute("data-code") == "version-conflict"
    page.wait_for_selector("[data-grace-line]")
    assert page.locator(".status__line").inner_text().startswith("Second play:")
    assert_top_card_shows(page, "second-play")


def test_the_top_card_shows_with_the_jump_in_line(open_page):
    ana = make_user("ana")
    with transaction.atomic():
        game = jump_in_table(ana, grace=120)
        presence.seen(ana.pk, game.pk)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector("[data-grace-line]")
    assert_top_card_shows(page, "three-seats")
    old = version(page)
    card(page, "red-6").click()
    wait_for_board_after(page, old)
    # On a phone the dock says the jump-in (tests/web/browser/test_phone_chances.py).
    page.wait_for_selector("[data-jump]")
    page.wait_for_selector("[data-grace-line]")
    assert_top_card_shows(page, "jump-in")
