"""The lines that come and go in the play page's status box move nothing under it: the bots'
grace ("the bots wait for you until ..."), newno's jump-in line and a precognitive lane's
"flushed" note. On a 1280x800 desktop the box keeps their room while the situation can bring
them (web/board.py `_room`), so the hand's top stays where it was as each comes and goes; on a
360x740 phone the hand is pinned to the screen's bottom (the dock) whatever the box holds. Each
situation is dealt from a stacked deck and seen at both sizes on one page, resized. (The
censor's note on a ruling: tests/web/browser/test_status_says_why.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from clocks import presence
from tests.games.factories import make_user
from tests.games.tables import jump_in_table
from tests.web.browser.clicks import POLL_MS, SETTLED, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_status_says_why import precognitive_lane_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP, PHONE = (1280, 800), (360, 740)
# The hand's and the pile's tops on screen, the dock's bottom and the window's height.
PLACES = """() => { const hand = document.querySelector('.hand').getBoundingClientRect();
  const pile = document.querySelector('.pile').getBoundingClientRect();
  const dock = document.querySelector('.dock').getBoundingClientRect();
  return {hand: hand.top, pile: pile.top, dockBottom: dock.bottom, height: window.innerHeight,
          scrollY: window.scrollY}; }"""


def places(page: Any, name: str) -> dict[int, dict[str, float]]:
    """Where the hand and the pile are at each size, the page at its top, and a screenshot of
    each (test-artifacts/status-room-<name>-<width>.png); the page is left at the desktop's
    size."""
    seen = {}
    for width, height in (PHONE, DESKTOP):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.evaluate(SETTLED)
        seen[width] = page.evaluate(PLACES)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"status-room-{name}-{width}.png"))
    return seen


def card(page: Any, name: str) -> Any:
    """The button that plays the card `name` from the hand."""
    return page.locator(
        f".hand__card--live form:has(input[name=command][value*='\"{name}\"']) button"
    )


def assert_still(before: dict[int, dict[str, float]], after: dict[int, dict[str, float]]) -> None:
    """On the desktop the hand (and the pile) kept their places; on the phone the dock is pinned
    to the screen's bottom, the hand above it on screen."""
    width = DESKTOP[0]
    assert after[width]["hand"] == before[width]["hand"], (before[width], after[width])
    assert after[width]["pile"] == before[width]["pile"], (before[width], after[width])
    for seen in (before[PHONE[0]], after[PHONE[0]]):
        assert seen["dockBottom"] == seen["height"], seen
        assert 0 < seen["hand"] < seen["height"], seen


def test_the_grace_and_the_jump_in_lines_move_nothing(open_page):
    # newno, ana and two bots (tests/games/tables.py): ana may open with red 6 on red 5; bot 1
    # answers red 8, and ana holds the other red 8. She is at the table before the first
    # append, so the bots wait for her at the open start and at the jump-in.
    ana = make_user("ana")
    with transaction.atomic():
        game = jump_in_table(ana, grace=120)
        presence.seen(ana.pk, game.pk)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=1280, height=800)
    # The open start: the grace line alone.
    assert (
        "Anyone may move first: the bots wait for you"
        in page.locator(".status__grace").inner_text()
    )
    assert page.locator(".status__jump").count() == 0
    start = places(page, "open-start")

    old = version(page)
    card(page, "red-6").click()
    wait_for_board_after(page, old)
    # Bot 1's red 8 opened a jump-in: its line comes, and the grace line says so.
    page.wait_for_selector(".status__jump")
    assert page.locator(".status__jump").inner_text() == (
        "Jump-in open: anyone else holding red 8 may play it now, out of turn."
    )
    assert (
        "You may move out of turn: the bots wait for you"
        in page.locator(".status__grace").inner_text()
    )
    jump = places(page, "jump-in")
    assert_still(start, jump)

    # Ana jumps in: her chance is gone, and the grace line with it.
    old = version(page)
    card(page, "red-8").click()
    wait_for_board_after(page, old)
    page.wait_for_function(
        "() => document.querySelector('.status__grace') === null", polling=POLL_MS
    )
    after = places(page, "jumped")
    assert_still(jump, after)


def test_a_flushed_lane_note_moves_nothing(open_page):
    # Precognitive (lane 2, sighted) over official, ana and a bot (as in
    # tests/web/browser/test_status_says_why.py): ana plays red 5 and fills her lane with yellow
    # 2 and yellow 6; at her next turn yellow 2 cannot go on red 5, the lane is flushed, and she
    # fills it again, told why by a note.
    ana = make_user("ana")
    game = precognitive_lane_game(ana)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=1280, height=800)
    old = version(page)
    page.get_by_role("button", name="Play red 5").click()
    wait_for_board_after(page, old)
    # The lane's form, no note yet.
    assert page.locator("form.precommit").count() == 1
    assert page.locator("[data-note]").count() == 0
    before = places(page, "lane-to-fill")

    lane_form = page.locator("form.precommit")
    for slot, card in zip(lane_form.locator("select").all(), ["yellow-2", "yellow-6"], strict=True):
        slot.select_option(card)
    old = version(page)
    lane_form.get_by_role("button", name="Fill the lane").click()
    wait_for_board_after(page, old)
    page.wait_for_function("() => document.querySelector('[data-note]') !== null", polling=POLL_MS)
    assert page.locator("form.precommit").count() == 1
    assert (
        page.locator(".status [data-note]")
        .inner_text()
        .startswith("Your lane could not play: its front card, yellow 2, cannot go on red 5.")
    )
    after = places(page, "lane-flushed")
    assert_still(before, after)
