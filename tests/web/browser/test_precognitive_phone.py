"""A precognitive seat on a phone (360x740): the form that fills the lane keeps its heading
inside its box, and the hand's count says how it and the seat's count (hand and lane together,
as the view's hand_sizes) agree. Dealt from a stacked deck."""

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

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The lane form's box (its fieldset's border) and its heading (the legend).
FORM = """() => {
  const box = el => el.getBoundingClientRect();
  const set = document.querySelector('form.precommit fieldset');
  const legend = box(set.querySelector('legend'));
  const frame = box(set);
  const style = getComputedStyle(set);
  return {legendTop: legend.top, legendBottom: legend.bottom, legendLeft: legend.left,
          legendRight: legend.right, top: frame.top, left: frame.left, right: frame.right,
          border: parseFloat(style.borderTopWidth)};
}"""


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"precognitive-phone-{name}.png"))


def lane_to_fill(open_page: Any) -> Any:
    """Precognitive (lane 2, sighted) over official on a phone: ana plays first (red 3 on red
    5), then is asked to fill her lane with two of her six cards; the page at that moment."""
    ana = make_user("ana")
    hands = [
        ["red-3", "green-1", "green-2", "blue-4", "yellow-6", "blue-7", "yellow-8"],
        ["red-9", "yellow-4", "red-6", "red-0", "yellow-5", "green-5", "green-7"],
    ]
    game = game_create(
        variant_spec={"precognitive": {"lane": 2, "sight": "sighted"}},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        deck=stacked(hands, "red-5", first=0),
        dealer=1,
        settings=GameSettings(grace_seconds=0),
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    old = version(page)
    page.get_by_role("button", name="Play red 3", exact=True).click()
    wait_for_board_after(page, old)
    page.wait_for_selector("form.precommit")
    page.evaluate(SETTLED)
    return page


def test_the_lane_form_and_the_hands_count_on_a_phone(open_page):
    page = lane_to_fill(open_page)
    page.locator("form.precommit").scroll_into_view_if_needed()
    shot(page, "form-360")

    # The heading sits inside the box, below its top border, not across it.
    form = page.evaluate(FORM)
    assert form["legendTop"] >= form["top"] + form["border"] - 0.5, form
    assert form["left"] <= form["legendLeft"] and form["legendRight"] <= form["right"], form
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(SETTLED)
    shot(page, "form-1280")
    form = page.evaluate(FORM)
    assert form["legendTop"] >= form["top"] + form["border"] - 0.5, form
    page.set_viewport_size({"width": 360, "height": 740})
    page.evaluate(SETTLED)

    # Fill the lane with green 1 and green 2: four cards in hand, two in the lane; the seat
    # counts six, and the hand's heading says where the other two are.
    slots = page.locator("form.precommit select")
    for slot, card in zip(slots.all(), ["green-1", "green-2"], strict=True):
        slot.select_option(card)
    old = version(page)
    page.locator("form.precommit").get_by_role("button", name="Fill the lane").click()
    wait_for_board_after(page, old)
    page.evaluate(SETTLED)
    # (The card back beside the count reads "UNO".)
    count = page.locator(".seat--me .seat__count").inner_text().strip().splitlines()[-1]
    heading = page.locator("#hand-title").inner_text().strip()
    hand = page.locator(".hand .card").count()
    lane = page.locator(".seat--me .seat__lane .card").count()
    assert count == f"{hand + lane} cards", (count, hand, lane)
    assert heading == f"Your hand ({hand} cards + {lane} in your lane)", heading
    shot(page, "count-360")

    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(SETTLED)
    shot(page, "count-1280")


# The dock's box, the pile's top, the hand's cards' tops and the lane form's parts.
DOCK = """() => {
  const box = el => el.getBoundingClientRect();
  const dock = box(document.querySelector('.dock'));
  const cards = [...document.querySelectorAll('.dock .hand .card')].map(c => box(c).top);
  const slots = [...document.querySelectorAll('form.precommit select')].map(box);
  const button = document.querySelector('form.precommit button[type=submit]');
  return {top: dock.top, height: dock.height, pile: box(document.querySelector('.pile')).top,
          pileBottom: box(document.querySelector('.pile')).bottom, cards,
          slots: slots.map(s => ({top: s.top, left: s.left, right: s.right, height: s.height})),
          button: button ? {top: box(button).top, bottom: box(button).bottom,
                            height: box(button).height} : null};
}"""


def test_the_lane_form_and_the_hand_leave_most_of_a_phone_to_the_table(open_page):
    page = lane_to_fill(open_page)
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate(SETTLED)
    shot(page, "dock-fill-360")
    dock = page.evaluate(DOCK)
    # The dock with the lane's form and the hand: 37% of the screen at most (it was 50%), the
    # whole top card above it, every card of the hand in one row, the two slots side by side,
    # the button of a thumb's size.
    assert dock["height"] <= 0.37 * 740, dock
    assert dock["pileBottom"] <= dock["top"], dock
    assert len(set(dock["cards"])) == 1, dock
    first, second = dock["slots"]
    assert first["top"] == second["top"] and first["right"] <= second["left"], dock
    assert dock["button"]["height"] >= 24, dock
    assert page.get_by_text("How the lane works").is_visible()
    # The status says what the lane is for, in its two lines.
    status = page.locator(".status__line")
    assert (
        status.inner_text()
        == "You must fill the lane with 2 cards: it plays for you next turn if it fits."
    )
    assert status.bounding_box()["height"] <= 2 * 1.6 * 16, status.bounding_box()

    # Filling the lane moves nothing above the dock: the pile stays where it stood.
    slots = page.locator("form.precommit select").all()
    for slot, card in zip(slots, ["green-1", "green-2"], strict=True):
        slot.select_option(card)
    page.evaluate(SETTLED)
    assert page.evaluate(DOCK)["pile"] == dock["pile"]
    old = version(page)
    page.locator("form.precommit").get_by_role("button", name="Fill the lane").click()
    wait_for_board_after(page, old)
    page.evaluate(SETTLED)
    after = page.evaluate(DOCK)
    # (Within a fraction of a pixel: the status keeps two lines, as in newno, and the prompt
    # that fills them, with what the lane is for, is bold.)
    assert abs(after["pile"] - dock["pile"]) < 0.5, (dock, after)
    assert after["height"] <= dock["height"], (dock, after)
    shot(page, "dock-filled-360")
