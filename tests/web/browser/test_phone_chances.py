"""A phone's play page (360x740) in the families that open chances out of turn: newno's jump-in
line and the catches that basic-plus and newno list of every seat.

The jump-in line came and went in the status box above the pile after most newno plays, and
moved the pile and the seats down by its two lines and back; on a phone the dock says it
instead, the newest of its "just happened" line, in room the dock keeps anyway. And a catch
that would cost the viewer stood as a question on its seat, under the pinned dock at four
seats; on a phone the dock asks these (with basic-plus's false UNO call) in one question among
the moves, on screen at rest with the hand, opening above the dock. A desktop (1366x768) keeps
both where they were. Each table is dealt from a stacked deck, its bots moved by the test."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import tasks
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.visibility import game_view
from tests.engine.decks import stacked
from tests.games.factories import commit_play, make_user
from tests.web.browser.clicks import POLL_MS, SETTLED, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_seats_in_view import four_at_basic_plus
from tests.web.browser.test_status_room import card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE, DESKTOP = (360, 740), (1366, 768)

# Where the pile and the seats stand, the dock's box, and every catch the page shows now (a
# button or a question's summary drawn, its words starting "Catch" or "Call or catch"): its box
# and whether it is inside the window and drawn uncovered (the points at its middle and near its
# corners hit it).
PLACES = """() => {
  const box = el => el.getBoundingClientRect().toJSON();
  const uncovered = el => { const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
    return [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 3, r.top + 3],
            [r.right - 3, r.bottom - 3], [r.left + 3, r.bottom - 3]].every(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (el === hit || el.contains(hit)); }); };
  const catches = [...document.querySelectorAll('#game button, #game summary')]
    .filter(el => el.getClientRects().length > 0
      && /^(Catch|Call or catch)/.test(el.innerText.trim()))
    .map(el => ({words: el.innerText.trim(), uncovered: uncovered(el), ...box(el)}));
  return {
    pile: document.querySelector('.pile').getBoundingClientRect().top,
    seats: [...document.querySelectorAll('.seat')].map(el => el.getBoundingClientRect().top),
    dock: box(document.querySelector('.dock')),
    hand: box(document.querySelector('.hand')),
    catches, scrollY: scrollY,
  };
}"""


def seen(page: Any, name: str) -> dict[str, Any]:
    """The page at its top, settled, its screenshot (test-artifacts/phone-chances-<name>.png)
    and what PLACES finds."""
    page.evaluate("() => window.scrollTo(0, 0)")
    page.evaluate(SETTLED)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-chances-{name}.png"))
    return dict(page.evaluate(PLACES))


def assert_catches_at_rest(places: dict[str, Any], count: int) -> None:
    """`count` catches drawn, each on screen and uncovered with the page at its top, and the
    hand whole on screen in the dock pinned to the window's bottom."""
    assert places["scrollY"] == 0, places
    for shown in places["catches"]:
        assert shown["uncovered"], (shown, places["dock"])
    assert len(places["catches"]) == count, places["catches"]
    assert places["dock"]["bottom"] == PHONE[1], places["dock"]
    assert places["dock"]["top"] <= places["hand"]["top"], places
    assert places["hand"]["bottom"] <= PHONE[1], places["hand"]


# newno, ana (seat 0) and three bots, seven cards each, red 5 turned up, yellow 5 on the draw
# pile: ana opens with red 6 (a first play opens no jump-in), greedy (seat 2) answers red 8 (play
# goes clockwise), greedy (seat 3) red 9, greedy (seat 4) green 9; ana holds no green
# and no 9, draws yellow 5 (her draw closes the jump-in on green 9), and greedy (seat 2) plays
# green 1.
NEWNO = [
    ["red-6", "blue-1", "blue-2", "blue-3", "blue-4", "yellow-1", "yellow-2"],
    ["red-8", "green-1", "yellow-3", "yellow-4", "blue-5", "blue-6", "blue-7"],
    ["red-9", "green-2", "yellow-6", "yellow-7", "blue-8", "blue-9", "green-3"],
    ["green-9", "green-4", "yellow-8", "yellow-9", "green-5", "green-6", "green-7"],
]


def test_the_jump_in_line_moves_nothing_on_a_phone(open_page, monkeypatch):
    # The bots move when the test says (each a play it names), the board's poll brings it.
    monkeypatch.setattr(tasks.advance_game, "delay", lambda *args, **kwargs: None)
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "newno"},
        seats=[SeatSpec(user=ana, age=20)]
        + [SeatSpec(bot="greedy", age=30 + seat) for seat in range(3)],
        deck=stacked(NEWNO, "red-5", ["yellow-5"], first=1),
        dealer=0,
        settings=GameSettings(grace_seconds=0),
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=PHONE[0], height=PHONE[1])
    page.wait_for_selector(".status--mine")
    old = version(page)
    card(page, "red-6").click()
    wait_for_board_after(page, old)

    def bot_plays(seat: int, name: str) -> None:
        old = version(page)
        commit_play(game, seat, name)
        wait_for_board_after(page, old)

    jump = page.locator("[data-jump]")
    bot_plays(1, "red-8")
    assert page.locator(".status__line").inner_text() == "greedy (seat 3)'s turn."
    assert page.locator(".status__jump").count() == 1
    opened = seen(page, "jump-in-open-360")
    news = page.locator("[data-news] .dock__said").all_inner_texts()

    bot_plays(2, "red-9")
    bot_plays(3, "green-9")
    page.wait_for_selector(".status--mine")
    old = version(page)
    page.get_by_role("button", name="Draw a card").click()
    wait_for_board_after(page, old)
    assert page.locator(".status__line").inner_text() == "greedy (seat 2)'s turn."
    assert page.locator(".status__jump").count() == 0
    closed = seen(page, "jump-in-closed-360")
    # The line gone: the pile and the seats where they were with it (it had moved them by 39
    # px), and the hand pinned where it was.
    assert (closed["pile"], closed["seats"]) == (opened["pile"], opened["seats"]), (opened, closed)
    assert closed["hand"] == opened["hand"], (opened, closed)
    # The dock had said it, the newest line of its two, after the play that opened it; the
    # status box keeps the whole line for a desktop, and on a phone takes no room for it.
    assert news[-2:] == ["greedy (seat 2) played red 8.", "Anyone else with red 8 may jump in now."]
    assert jump.count() == 0
    # newno lists a catch of every seat, but nobody holds one card: no UNO to catch, and the
    # dock asks nothing (it asked "Catch a seat?" at every turn, and opened only penalties).
    assert_catches_at_rest(opened, 0)

    bot_plays(1, "green-1")
    assert page.locator(".status__line").inner_text() == "greedy (seat 3)'s turn."
    assert jump.inner_text() == "Anyone else with green 1 may jump in now."
    assert not page.locator(".status__jump").is_visible()
    again = seen(page, "jump-in-again-360")
    assert (again["pile"], again["seats"], again["hand"]) == (
        closed["pile"],
        closed["seats"],
        closed["hand"],
    ), (closed, again)

    # A desktop keeps the whole line in the status box's room, which it keeps anyway
    # (web/board.py `_room`), and asks each catch on its seat.
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    desk = seen(page, "jump-in-1366")
    assert page.locator(".status__jump").inner_text() == (
        "Jump-in open: anyone else holding green 1 may play it now, out of turn."
    )
    assert not jump.is_visible()
    assert sorted(shown["words"] for shown in desk["catches"]) == [
        f"Catch greedy (seat {seat}) ({held} cards): you would draw 2 cards"
        for seat, held in ((2, 5), (3, 6), (4, 6))
    ]


def test_the_catches_are_on_screen_at_rest_on_a_phone(open_page):
    # Four people at basic-plus (tests/web/browser/test_seats_in_view.py): ben, to act, holds
    # 12 cards after two false calls; ana owes UNO (his catch of her succeeds: among his moves),
    # and his catches of cal and dee would cost him 5 cards each, as would another false call:
    # cal and dee hold two cards, no UNO to catch, and the dock asks only the call.
    # At 360x740 his dock took 361 px with the call's question and the catch of ana, each two
    # lines of their own, and the questions on cal's and dee's seats stood under it.
    game, (ana, ben, cal, dee) = four_at_basic_plus()
    page = open_page(ben, reverse("web:play", args=[game.pk]), width=PHONE[0], height=PHONE[1])
    page.wait_for_selector(".status--mine")
    rest = seen(page, "catch-rest-360")
    assert_catches_at_rest(rest, 1)
    assert [shown["words"] for shown in rest["catches"]] == [
        "Catch ana: 1 card and no UNO called — ana draws 5 cards",
    ]
    assert page.locator(".dock .asks > summary").inner_text() == "Call UNO?"
    # The moves and the hand are on screen with them, the top card above the dock.
    assert page.get_by_role("button", name="Draw a card").is_visible()
    top = page.locator(".pile .card").first.bounding_box()
    assert top["y"] + top["height"] <= rest["dock"]["top"], (top, rest["dock"])

    # The question opens above the dock, over the table: each move, why it fails, what it
    # costs, and its button, all on screen; the dock stays where it was.
    page.locator(".dock .asks > summary").click()
    page.evaluate(SETTLED)
    asked = seen(page, "catch-asked-360")
    assert asked["dock"] == rest["dock"] and asked["hand"] == rest["hand"], (rest, asked)
    body = page.locator(".dock .asks__body")
    assert body.locator(".confirm__why").all_inner_texts() == [
        "You hold 12 cards: UNO is called with one card left, so this call is false and you "
        "draw 5 cards as the penalty.",
    ]
    call = body.get_by_role("button", name="Call UNO anyway: draw 5 cards")
    box = call.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= rest["dock"]["top"], box
    assert body.get_by_role("button", name=re.compile("^Catch")).count() == 0
    page.evaluate("window.__axeCheck()")

    # Escape closes it; opened again, its call costs ben what it said.
    page.keyboard.press("Escape")
    assert not body.is_visible()
    page.locator(".dock .asks > summary").click()
    old = version(page)
    body.get_by_role("button", name="Call UNO anyway: draw 5 cards").click()
    wait_for_board_after(page, old)
    assert game_view(game_id=game.pk, viewer=ben)["hand_sizes"][1] == 17
    page.wait_for_function(
        "() => document.querySelector('.hand').children.length === 17", polling=POLL_MS
    )

    # A desktop asks each where it stands: the call among the moves, the catches on the seats.
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    desk = seen(page, "catch-1366")
    assert not page.locator(".dock .asks").is_visible()
    assert sorted(shown["words"] for shown in desk["catches"]) == [
        "Catch ana: 1 card and no UNO called — ana draws 5 cards",
        "Catch cal (2 cards): you would draw 5 cards",
        "Catch dee (2 cards): you would draw 5 cards",
    ]
