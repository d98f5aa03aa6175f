"""On a desktop every seat is on screen with the hand, without scrolling: each seat's name, its
card count, who is to act and every catch control that can appear, beside the status box, the
pile and the whole hand, at tables of two, three and four. Measured as a person sees it: each
box inside the viewport at the page's top, and nothing drawn over it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from bots import turns
from games import tasks
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.models import Game
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import (
    at_size,
    my_turn,
    play_a_turn,
    scrolls_sideways,
    too_wide,
    version,
    wait_for_board_after,
)
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_status_says_why import precognitive_lane_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOPS = [(1280, 800), (1366, 768), (1152, 800)]

# What must be on screen, each box with the text a person reads there: the status box, the pile,
# every card of the hand, and every seat panel with its count, its "to act" and its catch.
IN_VIEW = """() => {
  const seen = el => { const r = el.getBoundingClientRect();
    const inside = r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth
      && r.bottom <= innerHeight;
    const hit = inside && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {inside, uncovered: !!hit && (el === hit || el.contains(hit)),
            box: [r.left, r.top, r.right, r.bottom].map(Math.round),
            text: el.innerText.trim().replace(/\\s+/g, ' ')}; };
  const all = sel => [...document.querySelectorAll(sel)].map(seen);
  return {status: seen(document.querySelector('.status')),
          pile: seen(document.querySelector('.pile')),
          cards: all('.hand .card'),
          seats: all('.seat'),
          counts: all('.seat__count'),
          acting: all('.seat .tag--acting:not([hidden])'),
          catches: all('.seat .action--catch, .actions .action--catch'),
          scrollY: scrollY};
}"""


# Every seat panel's box and the scores' box under them.
SEAT_BOXES = """() => [...document.querySelectorAll('.seat, .scores')].map(el => {
  const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); })"""


def assert_in_view(page: Any, size: tuple[int, int]) -> dict[str, Any]:
    """Every box of IN_VIEW inside the viewport and uncovered, the page at its top, not
    scrolling sideways; what was seen is returned."""
    page.evaluate("() => window.scrollTo(0, 0)")
    seen = page.evaluate(IN_VIEW)
    assert seen["scrollY"] == 0
    for key in ("status", "pile"):
        assert seen[key]["inside"] and seen[key]["uncovered"], (size, key, seen[key])
    for key in ("cards", "seats", "counts", "acting", "catches"):
        for box in seen[key]:
            assert box["inside"] and box["uncovered"], (size, key, box)
    assert not scrolls_sideways(page), too_wide(page)
    return seen


def four_at_basic_plus() -> tuple[Game, list[Any]]:
    """Four people at basic-plus, the most a seat panel carries: ana (first) plays down to one
    card without calling UNO, so she can be caught; ben calls UNO twice holding two cards, each
    false call costing him 5 (the table's `uno_penalty`), so he holds 12 cards on his turn.
    basic-plus lists a catch of every other seat, so ben's page shows every catch that can
    appear: ana's among his moves (it succeeds), cal's and dee's on their panels (each a
    question: it would cost him)."""
    people = [make_user(name) for name in ("ana", "ben", "cal", "dee")]
    hands = [
        ["red-3", "red-5"],
        ["blue-1", "green-9"],
        ["blue-2", "green-8"],
        ["yellow-1", "green-2"],
    ]
    game = game_create(
        variant_spec={"rules": "basic-plus", "options": {"hand_size": 2, "uno_penalty": 5}},
        seats=[SeatSpec(user=person) for person in people],
        deck=stacked(hands, flip="red-7", first=0),
        first=0,
    )
    ana, ben = people[:2]
    version = game.version
    for actor, command in [
        (ana, {"type": "play", "seat": 0, "card": "red-3", "uno": False}),
        (ben, {"type": "call-uno", "seat": 1}),
        (ben, {"type": "call-uno", "seat": 1}),
    ]:
        version = game_command(
            game_id=game.pk, actor=actor, command=command, expected_version=version
        ).version
    return game, people


@pytest.mark.parametrize(("width", "height"), DESKTOPS)
def test_four_seats_their_catches_and_a_hand_of_twelve_in_view(open_page, width, height):
    game, (ana, ben, cal, dee) = four_at_basic_plus()
    page = open_page(ben, reverse("web:play", args=[game.pk]), width=width, height=height)
    page.wait_for_selector(".status--mine")
    seen = assert_in_view(page, (width, height))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"seats-in-view-4-{width}x{height}.png"))
    assert len(seen["cards"]) == 12
    # From ben's seat, clockwise.
    assert [seat["text"].split(" ")[0] for seat in seen["seats"]] == ["ben", "cal", "dee", "ana"]
    assert "owes UNO: can be caught" in seen["seats"][3]["text"]
    assert [box["text"] for box in seen["acting"]] == ["to act"]
    assert "to act" in seen["seats"][0]["text"]
    assert sorted(box["text"] for box in seen["catches"]) == [
        "Catch ana: 1 card and no UNO called — ana draws 5 cards",
        "Catch cal (2 cards): you would draw 5 cards",
        "Catch dee (2 cards): you would draw 5 cards",
    ]
    assert [re.sub(r"\D", "", box["text"]) for box in seen["counts"]] == ["12", "2", "2", "1"]

    # ana calls UNO: her seat says "UNO", and ben's catch of her turns into a question on her
    # panel (it would cost him now). The poll brings it; no seat moves.
    seats = page.evaluate(SEAT_BOXES)
    old = version(page)
    game_command(
        game_id=game.pk, actor=ana, command={"type": "call-uno", "seat": 0}, expected_version=old
    )
    wait_for_board_after(page, old)
    called = assert_in_view(page, (width, height))
    page.screenshot(path=str(ARTIFACTS / f"seats-in-view-4-{width}x{height}-called.png"))
    assert "UNO" in page.locator('.seat[data-seat="0"] .tag--uno').inner_text()
    assert "Catch ana (1 card, UNO called): you would draw 5 cards" in called["seats"][3]["text"]
    assert page.evaluate(SEAT_BOXES) == seats


def against_bots(person: Any, bots: list[str], hand_size: int = 7) -> int:
    """`person` first at an official table with `bots`, a game of its own."""
    game = game_create(
        variant_spec={"rules": "official", "options": {"hand_size": hand_size}},
        seats=[SeatSpec(user=person), *(SeatSpec(bot=bot) for bot in bots)],
        seed=11,
        dealer=len(bots),
    )
    return game.pk


@pytest.mark.parametrize("bots", [["greedy"], ["greedy", "colour-control"]], ids=["2", "3"])
def test_two_and_three_seats_in_view(open_page, live_server, bots):
    """A hand of twelve, its two rows of cards, and the seats beside it."""
    ana = make_user("ana")
    page = None
    for width, height in DESKTOPS[:2]:
        path = reverse("web:play", args=[against_bots(ana, bots, hand_size=12)])
        page = at_size(open_page, live_server, page, ana, path, width=width, height=height)
        page.wait_for_selector(".status--mine")
        seen = assert_in_view(page, (width, height))
        seats = len(bots) + 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"seats-in-view-{seats}-{width}x{height}.png"))
        assert len(seen["seats"]) == len(seen["counts"]) == seats
        assert [box["text"] for box in seen["acting"]] == ["to act"]
        assert len(seen["cards"]) >= 12


def test_the_seats_hold_still_as_the_turn_goes_round(open_page, monkeypatch):
    """Four seats at 1280x800, ana against three bots, each bot's move played when the test
    says (bots/turns.py, one command at a time) and brought by the board's poll: the counts
    change and "to act" goes from seat to seat round the table; every seat panel and the scores
    under them stay where they were."""
    monkeypatch.setattr(tasks.advance_game, "delay", lambda *args, **kwargs: None)
    ana = make_user("ana")
    game = against_bots(ana, ["greedy", "colour-control", "random"])
    page = open_page(ana, reverse("web:play", args=[game]), width=1280, height=800)
    page.wait_for_selector(".status--mine")
    first = page.evaluate(SEAT_BOXES)
    acting, counts = [], []
    for _round in range(2):
        play_a_turn(page)
        while not my_turn(page):
            acting.append(page.locator(".seat--acting").get_attribute("data-seat"))
            counts.append(page.locator(".seat__count").all_inner_texts())
            assert page.evaluate(SEAT_BOXES) == first, acting
            old = version(page)
            turns.advance_game(game_id=game, batch=1)
            wait_for_board_after(page, old)
        assert page.evaluate(SEAT_BOXES) == first
        assert page.evaluate("scrollY") == 0
    assert {"1", "2", "3"} <= set(acting), acting
    assert len({tuple(seen) for seen in counts}) > 1, counts
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "seats-in-view-still-1280x800.png"))


def test_a_lane_filled_and_flushed_moves_no_seat(open_page, monkeypatch):
    """Precognitive (lane 2, sighted) over official at 1280x800, ana and a bot, the bot's moves
    played when the test says (as in tests/web/browser/test_status_room.py): ana's lane is
    empty, then filled with yellow 2 and yellow 6, the bot's turn, then flushed at her next turn
    (yellow 2 cannot go on red 5). Each seat keeps its line for a lane, and its place."""
    monkeypatch.setattr(tasks.advance_game, "delay", lambda *args, **kwargs: None)
    ana = make_user("ana")
    game = precognitive_lane_game(ana)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=1280, height=800)
    first = page.evaluate(SEAT_BOXES)
    old = version(page)
    page.get_by_role("button", name="Play red 5").click()
    wait_for_board_after(page, old)
    lanes = [page.locator(".seat__lane .card").count()]
    assert page.evaluate(SEAT_BOXES) == first
    lane_form = page.locator("form.precommit")
    for slot, card in zip(lane_form.locator("select").all(), ["yellow-2", "yellow-6"], strict=True):
        slot.select_option(card)
    old = version(page)
    lane_form.get_by_role("button", name="Fill the lane").click()
    wait_for_board_after(page, old)
    while page.locator("[data-note]").count() == 0:
        lanes.append(page.locator(".seat__lane .card").count())
        assert page.evaluate(SEAT_BOXES) == first, lanes
        old = version(page)
        turns.advance_game(game_id=game.pk, batch=1)
        wait_for_board_after(page, old)
    lanes.append(page.locator(".seat__lane .card").count())
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "seats-in-view-lane-flushed-1280x800.png"))
    assert page.evaluate(SEAT_BOXES) == first, lanes
    assert len(set(lanes)) > 1, lanes
