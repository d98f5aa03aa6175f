"""The phone's dock (the hand and the moves pinned to the screen's bottom, static/dock.css) is
compact: it holds no empty line, and at 360x740 it leaves the seats of a table of four on screen
above it, each panel whole and uncovered, while the moves and the hand stay where they were from
move to move. Each table is dealt from a stacked deck."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import SETTLED, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_just_happened import shown_sentences

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The dock's box, its lines of text (each child's box and words), the seats' boxes and whether
# each is drawn uncovered (the point at its middle and near its corners hits the panel itself).
MEASURE = """() => {
  const box = el => { const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, height: r.height}; };
  const dock = document.querySelector('.dock');
  const uncovered = el => { const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) return false;
    return [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 4, r.top + 4],
            [r.right - 4, r.bottom - 4], [r.left + 4, r.bottom - 4]].every(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (el === hit || el.contains(hit)); }); };
  return {
    dock: box(dock),
    parts: [...dock.children].filter(el => el.getBoundingClientRect().height > 0)
      .map(el => ({cls: el.className, height: el.getBoundingClientRect().height,
                   words: el.innerText.trim()})),
    hand: box(document.querySelector('.hand')),
    seats: [...document.querySelectorAll('.seat')].map(seat => ({
      seat: seat.dataset.seat, uncovered: uncovered(seat), ...box(seat)})),
    scrollY: window.scrollY,
  };
}"""


def measure(page: Any, name: str) -> dict[str, Any]:
    page.evaluate(SETTLED)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"compact-dock-{name}.png"))
    return dict(page.evaluate(MEASURE))


FOUR = [
    ["red-3", "blue-9", "green-4", "yellow-7", "blue-2", "green-8", "yellow-1"],
    ["red-8", "yellow-3", "yellow-4", "yellow-9", "green-1", "blue-2", "green-2"],
    ["blue-7", "blue-8", "green-4", "blue-9", "yellow-1", "yellow-5", "green-5"],
    ["green-6", "green-8", "green-9", "yellow-6", "yellow-7", "blue-3", "blue-5"],
]


def four_at_a_table(open_page: Any) -> Any:
    """Official, ana (first to play) and three bots, seven cards each, red 5 turned up; ana's
    page at 360x740 once it is her turn."""
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[
            SeatSpec(user=ana),
            SeatSpec(bot="greedy"),
            SeatSpec(bot="colour-control"),
            SeatSpec(bot="random"),
        ],
        deck=stacked(FOUR, "red-5", ["blue-1", "blue-4", "blue-6", "green-3"], first=0),
        dealer=3,
        settings=GameSettings(grace_seconds=0),
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    return page


def assert_compact(seen: dict[str, Any]) -> None:
    """Every seat whole and uncovered above the dock, the page at its top, and no part of the
    dock without words."""
    assert seen["scrollY"] == 0, seen
    for seat in seen["seats"]:
        assert seat["uncovered"] and seat["bottom"] <= seen["dock"]["top"], (seat, seen["dock"])
    assert all(part["words"] for part in seen["parts"]), seen["parts"]


def test_the_dock_leaves_the_seats_of_four_on_screen(open_page):
    # At 360x740 the dock took 260 px with one row of moves and the seats' second row ran
    # under it; its line of news kept an empty line where the deal did not fit.
    page = four_at_a_table(open_page)
    seen = measure(page, "four-start")
    assert_compact(seen)
    shown, lines = shown_sentences(page)
    assert lines == 2 and shown[-1] == "Red 5 was turned up.", shown
    assert seen["dock"]["height"] <= 240, seen["dock"]

    # A move, the three bots' turns, and ana's turn again: the moves, the hand and the seats
    # where they were, and the page where it was.
    old = version(page)
    page.get_by_role("button", name="Play red 3", exact=True).click()
    wait_for_board_after(page, old)
    page.wait_for_selector(".status--mine")
    after = measure(page, "four-after")
    assert_compact(after)
    assert after["dock"] == seen["dock"] and after["hand"] == seen["hand"], (seen, after)
    assert [s["top"] for s in after["seats"]] == [s["top"] for s in seen["seats"]], after
    shown, lines = shown_sentences(page)
    # The three bots' cards, each named (web/board_news.py `plays_since`), the newest last.
    assert lines == 2 and shown[-1].startswith("Since your move: greedy "), shown
    assert shown[-1].endswith(", random blue 5."), shown


def test_the_line_says_the_persons_move_while_the_others_think(open_page):
    # Two people: once ana has played, nothing happens until bob moves. The dock's line kept
    # two empty lines then; it says her move, after the card she played on.
    ana, bob = make_user("ana"), make_user("bob")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(user=bob)],
        deck=stacked([FOUR[0], FOUR[1]], "red-5", first=0),
        dealer=1,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    old = version(page)
    page.get_by_role("button", name="Play red 3", exact=True).click()
    wait_for_board_after(page, old)
    seen = measure(page, "two-people-waiting")
    assert " ".join(str(page.locator("[data-news]").text_content()).split()) == (
        "Red 5 was turned up. You played red 3."
    )
    assert shown_sentences(page) == (["Red 5 was turned up.", "You played red 3."], 2)
    assert_compact(seen)


def test_a_control_past_the_dock_reached_with_tab_is_brought_above_it(open_page):
    # Basic-plus lists a catch of every seat: at 360x740 the panels of four run under the dock.
    # Their questions had come into focus there with Tab, unseen, until the page brought them
    # above it; a phone's dock asks them now (tests/web/browser/test_phone_chances.py), and
    # the first control Tab reaches past the dock (the chat's, under the board) is brought above
    # it all the same.
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "basic-plus"},
        seats=[
            SeatSpec(user=ana),
            SeatSpec(bot="greedy"),
            SeatSpec(bot="colour-control"),
            SeatSpec(bot="random"),
        ],
        deck=stacked(FOUR, "red-5", first=0),
        first=0,
        settings=GameSettings(grace_seconds=0),
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    assert page.locator(".seat details.confirm > summary").first.is_hidden()
    page.evaluate("document.querySelector('.hand').focus({preventScroll: true})")
    past = """() => { const el = document.activeElement, dock = document.querySelector('.dock');
      return el !== document.body && !dock.contains(el)
        && !!(dock.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING); }"""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(past):
            break
    else:
        raise AssertionError("Tab never left the dock")
    page.evaluate(SETTLED)
    seen = page.evaluate(
        """() => ({box: document.activeElement.getBoundingClientRect().toJSON(),
                   words: document.activeElement.innerText,
                   dock: document.querySelector('.dock').getBoundingClientRect().top})"""
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "compact-dock-tabbed-past-360.png"))
    assert seen["box"]["top"] >= 0 and seen["box"]["bottom"] <= seen["dock"], seen
