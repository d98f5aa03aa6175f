"""The status box says why the moves are what they are, in view with the hand: a precognitive
lane flushed at the start of the turn (the form to fill it comes back), newno's stack with
nothing to stack, a censor who may not approve a submission (and sees that card beside the top
card, its arrival moving nothing). Each situation is dealt from a stacked deck; on a 360x740
phone the words sit above the pinned dock, on screen, and on a 1280x800 desktop in the page's
flow, in view. A situation the test only looks at is seen at both sizes on one page, resized;
one it plays through is dealt again for the second size."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import POLL_MS, SETTLED, at_size, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 740), (1280, 800)]


def in_view_above_the_dock(page: Any, selector: str) -> None:
    """`selector` is on screen without scrolling, and not under the pinned dock."""
    seen = page.evaluate(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
          const dock = document.querySelector('.dock');
          const pinned = dock && getComputedStyle(dock).position === 'sticky';
          return {top: r.top, bottom: r.bottom, height: window.innerHeight,
                  dockTop: pinned ? dock.getBoundingClientRect().top : window.innerHeight,
                  scrollY: window.scrollY}; }""",
        selector,
    )
    assert seen["scrollY"] == 0, seen
    assert seen["top"] >= 0 and seen["bottom"] <= min(seen["height"], seen["dockTop"]), seen


# Precognitive (lane 2, sighted) over official, two seats, ana first on red 4. She plays red 5
# and fills her lane with yellow 2 then yellow 6; the bot has nothing for red 5 and draws blue 1
# (no use either). Her next turn: yellow 2 cannot go on red 5, so the lane is flushed back into
# her hand, she draws green skip, and she must fill the lane again.
PRECOG_HANDS = [
    ["red-5", "yellow-2", "yellow-6", "green-1", "green-3", "blue-7", "blue-8"],
    ["green-9", "blue-9", "yellow-9", "green-0", "blue-0", "yellow-0", "green-7"],
]


def precognitive_lane_game(ana: Any) -> Any:
    """The game above: precognitive (lane 2, sighted) over official, ana first, a greedy bot."""
    return game_create(
        variant_spec={"precognitive": {"lane": 2, "sight": "sighted"}},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        deck=stacked(PRECOG_HANDS, "red-4", ["blue-1", "green-skip"], first=0),
        dealer=1,
    )


def test_a_flushed_lane_is_explained_by_the_hand(open_page, live_server):
    ana = make_user("ana")
    page = None
    for width, height in SIZES:
        game = precognitive_lane_game(ana)
        path = reverse("web:play", args=[game.pk])
        page = at_size(open_page, live_server, page, ana, path, width=width, height=height)
        old = version(page)
        page.get_by_role("button", name="Play red 5").click()
        wait_for_board_after(page, old)
        lane_form = page.locator("form.precommit")
        assert page.locator("[data-note]").count() == 0  # nothing flushed yet: no note
        for slot, card in zip(
            lane_form.locator("select").all(), ["yellow-2", "yellow-6"], strict=True
        ):
            slot.select_option(card)
        old = version(page)
        lane_form.get_by_role("button", name="Fill the lane").click()
        wait_for_board_after(page, old)
        # The bot's turn, then ana's: her lane is flushed and the form to fill it is back.
        page.wait_for_function(
            "() => document.querySelector('[data-note]') !== null", polling=POLL_MS
        )
        assert page.locator("form.precommit").count() == 1
        hand = page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert {"yellow-2", "yellow-6", "green-skip"} <= set(hand)

        note = page.locator(".status [data-note]").inner_text()
        assert note == (
            "Your lane could not play: its front card, yellow 2, cannot go on red 5. So your "
            "lane's 2 cards (yellow 2 and yellow 6) went back into your hand and you drew green "
            "skip: that was your turn."
        )
        in_view_above_the_dock(page, ".status [data-note]")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"status-lane-flushed-{width}.png"))

        # Filled again, the note is gone.
        lane_form = page.locator("form.precommit")
        for slot, card in zip(
            lane_form.locator("select").all(), ["green-1", "green-3"], strict=True
        ):
            slot.select_option(card)
        old = version(page)
        lane_form.get_by_role("button", name="Fill the lane").click()
        wait_for_board_after(page, old)
        assert page.locator("[data-note]").count() == 0


# newno, two seats, ana (seat 0) can make no opening play on red 4; the bot's only card that can
# is its wild draw four, which it plays: ana must answer the stack of 4 and holds no wild draw
# four to add.
NEWNO_HANDS = [
    ["blue-3", "green-5", "yellow-7", "green-1", "blue-6", "yellow-9", "blue-1"],
    ["wild-draw4", "green-3", "blue-9", "yellow-8", "blue-5", "green-6", "yellow-6"],
]


def newno_stack(open_page: Any, width: int = 360, height: int = 740) -> Any:
    """Ana's page at the stack's prompt of the game above (no grace), at `width`x`height`."""
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "newno"},
        seats=[SeatSpec(user=ana, age=30), SeatSpec(bot="greedy", age=20)],
        deck=stacked(NEWNO_HANDS, "red-4", first=0),
        dealer=1,
        settings=GameSettings(grace_seconds=0),
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=width, height=height)
    page.wait_for_function(
        "() => document.querySelector('.status__line').innerText.includes('Stack of 4')",
        polling=POLL_MS,
    )
    return page


def test_newno_stack_prompt_says_what_the_seat_can_do(open_page):
    page = newno_stack(open_page)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        status = page.locator(".status__line").inner_text()
        assert status == ("Stack of 4: you have no wild draw four to add, so take the cards.")
        assert "may stack" not in status
        moves = page.locator(".actions button").all_inner_texts()
        assert "Accept: draw 4" in moves
        assert not [move for move in moves if move.startswith("Play")]
        in_view_above_the_dock(page, ".status__line")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"status-newno-stack-{width}.png"))


# Censorship, three seats, ana deals (the censor); play starts at benedict (seat 1, a name long
# enough to take the status box and the pile's words to more lines on a phone), whose cards are
# all yellow or red and none an 8: on blue 8 he submits red 7, which cannot be played. Ana holds
# blue 2, which can.
CENSOR_HANDS = [
    ["blue-2", "green-1", "green-3", "red-9", "green-5", "green-7", "red-0"],
    ["yellow-3", "yellow-4", "red-1", "red-2", "yellow-5", "red-6", "red-7"],
    ["green-9", "blue-9", "yellow-9", "green-0", "blue-0", "yellow-0", "green-8"],
]
# Where the pile and the hand are on screen: the pile's top and height, the hand's top.
PLACES = """() => { const pile = document.querySelector('.pile').getBoundingClientRect();
  const hand = document.querySelector('.hand').getBoundingClientRect();
  return {pileTop: pile.top, pile: pile.height, hand: hand.top}; }"""


def test_the_censor_sees_the_submission_and_is_told_why_approve_is_missing(open_page):
    ana, benedict = make_user("ana"), make_user("benedict")
    game = game_create(
        variant_spec={"rules": "censorship"},
        seats=[SeatSpec(user=ana), SeatSpec(user=benedict), SeatSpec(bot="random")],
        deck=stacked(CENSOR_HANDS, "blue-8", first=1),
        dealer=0,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    # Where the pile and ana's hand are while benedict chooses, at each size.
    places = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        places[width] = page.evaluate(PLACES)
    assert page.locator(".pile__submission").inner_text() == "Nothing\nsubmitted"
    game_command(
        game_id=game.pk,
        actor=benedict,
        command={"type": "submit", "seat": 1, "card": "red-7"},
        expected_version=version(page),
    )
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        # The submission and the note that came with it moved nothing: the pile kept its
        # height, the hand its place (on a phone pinned to the bottom; on a desktop the status
        # box kept the note's room while the censor waited, where the note pushed the pile and
        # the hand 77 px down).
        now, then = page.evaluate(PLACES), places[width]
        assert now["pile"] == then["pile"]
        assert now["hand"] == then["hand"], (now, then)
        if width == 1280:
            assert now["pileTop"] == then["pileTop"], (now, then)
        status = page.locator(".status__line").inner_text()
        assert "You, the censor, rule on benedict's card" in status
        # The card to judge, face up beside the top card, on screen above the pinned hand.
        submitted = page.locator(".pile__submission")
        assert submitted.locator(".card").get_attribute("data-card") == "red-7"
        assert submitted.locator(".pile__caption").inner_text() == "Submitted\nby benedict"
        in_view_above_the_dock(page, ".pile__submission .card")
        assert page.locator(".actions button", has_text="Approve").count() == 0
        assert page.get_by_role("button", name="Play your blue 2 instead").count() == 1

        note = page.locator(".status [data-note]").inner_text()
        assert note == (
            "benedict's red 7 cannot be played on blue 8, so you cannot approve it: it can only "
            "be replaced by one of your outlined cards."
        )
        in_view_above_the_dock(page, ".status [data-note]")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"status-censor-cannot-approve-{width}.png"))


def test_official_challenge_says_its_price_either_way_and_fits_the_dock(open_page):
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        deck=stacked(NEWNO_HANDS[::-1], "red-4", first=0),
        dealer=0,  # the bot, seat 1, plays first: its wild draw four, all it can
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".actions button:has-text('Challenge')", timeout=15_000)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        moves = page.locator(".actions button").all_inner_texts()
        assert (
            "Challenge greedy's wild draw four: greedy draws 4 if greedy held a card of the "
            "colour before the wild, else you draw 6"
        ) in moves
        assert "Accept: draw 4" in moves
        in_view_above_the_dock(page, ".status__line")
        page.screenshot(path=str(ARTIFACTS / f"status-official-challenge-{width}.png"))
