"""The family controls in a browser: a precognitive lane, a censor's ruling, newno's open start
and a jump-in, each made by clicking."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import POLL_MS, my_turn, play_a_turn, version, wait_for_board_after

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_precognitive_seat_fills_its_lane_by_picking_cards_in_order(open_page):
    ana = make_user("ana")
    game = game_create(
        variant_spec={"precognitive": {"lane": 2, "sight": "sighted"}},
        seats=[SeatSpec(user=ana), SeatSpec(bot="lane-planner"), SeatSpec(bot="greedy")],
        seed=5,
        dealer=2,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]))

    for _ in range(20):
        page.wait_for_selector(".status--mine")
        if page.locator("form.precommit").count():
            break
        play_a_turn(page)
    lane_form = page.locator("form.precommit")
    assert "Fill your lane: 2 cards, in playing order" in lane_form.inner_text()
    hand = page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    picked = hand[:2]
    slots = lane_form.locator("select")
    for slot, card in zip(slots.all(), picked, strict=True):
        slot.select_option(card)
    old = version(page)
    lane_form.get_by_role("button", name="Fill the lane").click()
    wait_for_board_after(page, old)

    lane = page.locator(".seat--me .seat__lane .card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    # Sighted: the owner sees its lane; the lane may have played its front card since.
    assert lane and lane == picked[len(picked) - len(lane) :] or lane[:2] == picked
    assert "committed" in page.locator(".story").inner_text()


def test_the_censor_rules_on_a_bots_submission(open_page):
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "censorship"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy"), SeatSpec(bot="random")],
        seed=8,
        dealer=0,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]))

    page.wait_for_selector(".status--mine")
    status = page.locator(".status__line").inner_text()
    assert "You, the censor, rule on greedy's card" in status
    # The censor sees the submitted card face up.
    submitted = page.locator(".pile__submission .card").get_attribute("data-card")
    assert submitted
    old = version(page)
    approve = page.locator(".actions button", has_text="Approve")
    if approve.count():
        approve.first.click()
    else:
        play_a_turn(page)
    wait_for_board_after(page, old)

    story = page.locator(".story").inner_text()
    assert any(words in story for words in ("You approved greedy's", "for greedy", "returned")), (
        story
    )


# newno, four seats, seat 3 deals (seat 0 is dealt first); red-5 is flipped. Only ana (seat 0)
# can open (blue-5); then only seat 1 can answer (blue-9), which sets play clockwise and leaves
# ben's turn (seat 2, a person who waits): ana holds the other blue-9 and may jump in.
NEWNO_HANDS = [
    ["blue-5", "blue-9", "green-4", "yellow-4", "green-6", "yellow-6", "green-8"],
    ["blue-9", "green-1", "green-2", "yellow-1", "yellow-2", "green-3", "yellow-3"],
    ["red-1", "red-2", "red-3", "red-4", "red-6", "red-7", "red-8"],
    ["green-7", "yellow-7", "green-9", "yellow-9", "yellow-8", "yellow-0", "green-0"],
]


def test_newno_open_start_and_a_jump_in(open_page):
    ana, ben = make_user("ana"), make_user("ben")
    game = game_create(
        variant_spec={"rules": "newno"},
        seats=[
            SeatSpec(user=ana, age=30),
            SeatSpec(bot="greedy", age=40),
            SeatSpec(user=ben, age=20),
            SeatSpec(bot="greedy", age=50),
        ],
        deck=stacked(NEWNO_HANDS, "red-5", first=0),
        dealer=3,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]))

    assert "Open start: anyone may make the first play" in page.locator(".status").inner_text()
    # By keyboard: the card is a button.
    old = version(page)
    page.get_by_role("button", name="Play blue 5").focus()
    page.keyboard.press("Enter")
    wait_for_board_after(page, old)
    # The focus stays on the board (its status line, the card being gone), not the page's top.
    page.wait_for_function(
        "() => document.activeElement.closest('#game') !== null", polling=POLL_MS
    )

    jump = page.get_by_role("button", name="Jump in with blue 9")
    jump.wait_for()
    assert "Jump-in open" in page.locator(".status").inner_text()
    assert not my_turn(page)
    old = version(page)
    jump.click()
    wait_for_board_after(page, old)

    assert "You jumped in with blue 9" in page.locator(".story").inner_text()
