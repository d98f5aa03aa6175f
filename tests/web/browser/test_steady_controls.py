"""The hand and the moves stay put from move to move: a move that turns the direction of play
and leaves no card to use (the hint over the hand gone) moves neither the Draw button nor the
hand, on a phone (the pinned dock) and on a desktop (the page's flow); nor does a bot's turn
between two of the person's. Measured: bounding boxes against the viewport, before and after
the move. Each test deals a game of its own for each size and plays it in one tab, resized
before the game's page loads."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse

from bots import turns
from games import tasks
from games.creation import SeatSpec, game_create
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import at_size, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Official, two seats, ana first on red 4. Her red reverse turns play counter-clockwise and, at a
# table of two, skips the bot: her turn again, on red reverse, with nothing in hand that matches
# (no red, no reverse): "no card can be played, draw one", and no card outlined.
HANDS = [
    ["red-reverse", "blue-3", "green-5", "yellow-7", "green-1", "blue-6", "yellow-9"],
    ["green-2", "green-3", "blue-4", "yellow-4", "blue-5", "green-6", "yellow-6"],
]


SIZES = [(360, 740), (1280, 800)]


def a_game_at_each_size(
    open_page: Any, live_server: Any, hands: list[list[str]]
) -> Iterator[tuple[Any, int]]:
    """(page, width) for each of SIZES: ana against a bot, her turn, in a game dealt from
    `hands` for that size alone, loaded after the tab is resized."""
    ana = make_user("ana")
    page = None
    for width, height in SIZES:
        game = game_create(
            variant_spec={"rules": "official"},
            seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
            deck=stacked(hands, "red-4", first=0),
            dealer=1,
        )
        path = reverse("web:play", args=[game.pk])
        page = at_size(open_page, live_server, page, ana, path, width=width, height=height)
        yield page, width


def boxes(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const box = sel => { const r = document.querySelector(sel).getBoundingClientRect();
            return [r.x, r.y, r.width, r.height].map(Math.round); };
          return {draw: box('.actions button.action'), hand: box('.hand'),
                  head: box('.hand-head'), pile: box('.pile'), scrollY: window.scrollY,
                  direction: document.querySelector('.pile__facts').innerText,
                  hint: document.querySelector('.hand-area .hint')?.innerText || ''};
        }"""
    )


def test_a_move_that_turns_play_and_ends_the_hint_moves_no_control(open_page, live_server):
    for page, width in a_game_at_each_size(open_page, live_server, HANDS):
        page.wait_for_selector(".status--mine")
        before = boxes(page)
        assert "clockwise" in before["direction"] and "counter" not in before["direction"]
        assert "outlined" in before["hint"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"steady-controls-{width}-before.png"))

        old = version(page)
        page.get_by_role("button", name="Play red reverse").click()
        wait_for_board_after(page, old)
        page.wait_for_selector(".status--mine")
        after = boxes(page)
        page.screenshot(path=str(ARTIFACTS / f"steady-controls-{width}-after.png"))

        assert "counter-clockwise" in after["direction"]
        assert "no card can be played" in page.locator(".status__line").inner_text()
        assert page.locator(".hand__card--live").count() == 0
        assert after["scrollY"] == before["scrollY"]
        # The Draw button and the hand (the strip, and the title over it) where they were.
        assert after["draw"] == before["draw"], (before, after)
        assert after["hand"] == before["hand"], (before, after)
        assert after["head"] == before["head"], (before, after)
        # The pile keeps its size: "counter-clockwise" fits where "clockwise" did.
        assert after["pile"][2:] == before["pile"][2:], (before, after)


# Two moves of ana's, each a skip that gives her the turn again (a table of two): red skip on
# red 4, then yellow skip, which makes the colour to match yellow and leaves nothing to use.
# "yellow" is a longer word than "red" in the pile's caption.
COLOUR_HANDS = [
    ["red-skip", "yellow-skip", "blue-3", "green-5", "green-1", "blue-6", "blue-9"],
    ["green-2", "green-3", "blue-4", "yellow-4", "blue-5", "green-6", "yellow-6"],
]


def test_a_move_that_changes_the_colour_moves_neither_the_pile_nor_the_seats(
    open_page, live_server
):
    for page, width in a_game_at_each_size(open_page, live_server, COLOUR_HANDS):
        page.wait_for_selector(".status--mine")
        old = version(page)
        page.get_by_role("button", name="Play red skip").click()
        wait_for_board_after(page, old)
        page.wait_for_selector(".status--mine")
        before = {**boxes(page), **pile_and_seats(page)}
        assert "red" in page.locator(".pile").inner_text()

        old = version(page)
        page.get_by_role("button", name="Play yellow skip").click()
        wait_for_board_after(page, old)
        page.wait_for_selector(".status--mine")
        after = {**boxes(page), **pile_and_seats(page)}
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"steady-colour-{width}-after.png"))

        assert "yellow" in page.locator(".pile").inner_text()
        assert after["scrollY"] == before["scrollY"]
        # The status line above may take another line ("no card can be played, draw one"): the
        # pile keeps its size, and the seats keep their place by it (under it on a phone, beside
        # it in the side column on a desktop).
        assert after["pile"][2:] == before["pile"][2:], (before, after)
        gap = [seen["seats"][1] - seen["pile"][1] - seen["pile"][3] for seen in (before, after)]
        assert abs(gap[0] - gap[1]) <= 1, (before, after)  # each box rounded on its own
        for key in ("draw", "hand", "head"):
            assert after[key] == before[key], (key, before, after)


def pile_and_seats(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const box = sel => { const r = document.querySelector(sel).getBoundingClientRect();
            return [r.x, r.y, r.width, r.height].map(Math.round); };
          return {pile: box('.pile'), seats: box('.seats')};
        }"""
    )


# Official, two seats, ana first on red 4: she plays red 5, and the turn is the greedy bot's,
# which holds red (its move waits for the test: the task that plays it is held back). Then the
# bot plays and the turn is ana's again.
BOT_TURN_HANDS = [
    ["red-5", "blue-3", "green-5", "yellow-7", "green-1", "blue-6", "yellow-9"],
    ["red-2", "green-3", "blue-4", "yellow-4", "blue-5", "green-6", "yellow-6"],
]


def hand_and_moves(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const box = sel => { const el = document.querySelector(sel);
            if (!el) return null;
            const r = el.getBoundingClientRect();
            return [r.x, r.y, r.width, r.height].map(Math.round); };
          return {hand: box('.hand'), head: box('.hand-head'), actions: box('.actions'),
                  status: box('.status'), scrollY: window.scrollY};
        }"""
    )


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_the_hand_and_the_moves_stay_put_through_a_bots_turn(open_page, monkeypatch, width, height):
    # The bot's turn is played when the test says (bots/turns.py), not by the command's task.
    monkeypatch.setattr(tasks.advance_game, "delay", lambda *args, **kwargs: None)
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        deck=stacked(BOT_TURN_HANDS, "red-4", first=0),
        dealer=1,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=width, height=height)
    page.wait_for_selector(".status--mine")
    mine = hand_and_moves(page)
    assert "Turn ends" in page.locator(".status").inner_text()

    old = version(page)
    page.get_by_role("button", name="Play red 5").click()
    wait_for_board_after(page, old)
    assert page.locator(".status--mine").count() == 0
    theirs = hand_and_moves(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"steady-bots-turn-{width}.png"))

    old = version(page)
    turns.advance_game(game_id=game.pk)
    wait_for_board_after(page, old)  # the board's poll brings the bot's move
    page.wait_for_selector(".status--mine")
    again = hand_and_moves(page)
    page.screenshot(path=str(ARTIFACTS / f"steady-bots-turn-{width}-after.png"))

    for seen in (theirs, again):
        assert seen["scrollY"] == mine["scrollY"]
        # The hand (its title and its strip) where it was, and the status box its size. The
        # moves' row keeps its place and height for the bot's turn: empty on a desktop, saying
        # whose turn it is on a phone (where the hand is pinned to the bottom, the row over it
        # had taken no room while empty, and the dock grew by it as the turn came;
        # test_steady_dock.py).
        assert seen["hand"][:2] == mine["hand"][:2], (mine, seen)
        for key in ("status", "head", "actions"):
            assert seen[key] == mine[key], (key, mine, seen)
