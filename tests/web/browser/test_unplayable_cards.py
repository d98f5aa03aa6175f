"""The cards of the hand that cannot be played now, on a phone (360x740) and a desktop: told
apart from the playable ones (no ring, a greyed body), yet legible at 1x: the figure upright, in
its own colour on its white oval, as on a playable card, and the corner letters 4.5:1 and more
on the greyed body, as the browser computes the colours. Dealt from a stacked deck."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import SETTLED
from tests.web.browser.conftest import ARTIFACTS
from tests.web.test_contrast import ratio

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What the browser draws of each card of the hand: playable or not, the card's filter and
# opacity, the figure's colour, its oval's, its transform, a corner letter's colour and the
# body's colour under it.
CARDS = """() => [...document.querySelectorAll('.dock .hand__card')].map(item => {
  const card = item.querySelector('.card'), mark = card.querySelector('.card__mark');
  const corner = card.querySelector('.card__corner'), style = getComputedStyle(card);
  return {live: item.classList.contains('hand__card--live'), code: card.dataset.card,
          filter: style.filter, opacity: style.opacity, body: style.backgroundColor,
          ring: style.boxShadow, figure: getComputedStyle(mark).color,
          oval: getComputedStyle(mark).backgroundColor, turned: getComputedStyle(mark).transform,
          letter: getComputedStyle(corner).color};
})"""


def rgb(text: str) -> tuple[float, float, float]:
    """A computed colour: rgb(r, g, b) or color(srgb r g b)."""
    if text.startswith("color(srgb"):
        r, g, b = (float(part) for part in text[len("color(srgb ") : -1].split()[:3])
        return (r, g, b)
    r, g, b = (int(part) / 255 for part in re.findall(r"[\d.]+", text)[:3])
    return (r, g, b)


def shown(page: Any) -> list[dict[str, Any]]:
    page.evaluate(SETTLED)
    return page.evaluate(CARDS)


@pytest.mark.parametrize("size", [(360, 740), (1280, 800)], ids=["phone", "desktop"])
def test_a_card_that_cannot_play_now_is_told_apart_yet_legible(open_page, size):
    # ana plays first on a red 5: her red 3 and green 5 play, her yellow, blue and green 2 do not.
    ana = make_user("ana")
    hands = [
        ["red-3", "green-5", "yellow-6", "blue-7", "yellow-8", "blue-4", "green-2"],
        ["red-9", "yellow-4", "red-6", "red-0", "yellow-5", "green-1", "green-7"],
    ]
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        deck=stacked(hands, "red-5", first=0),
        dealer=1,
    )
    width, height = size
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=width, height=height)
    page.wait_for_selector(".status--mine")
    if width > 600:
        page.locator(".hand-area").scroll_into_view_if_needed()
    cards = shown(page) if width <= 600 else page.evaluate(CARDS.replace(".dock ", ""))
    assert {card["code"] for card in cards if card["live"]} == {"red-3", "green-5"}
    live = {card["code"].split("-")[0]: card for card in cards if card["live"]}
    for card in cards:
        if card["live"]:
            continue
        suit = card["code"].split("-")[0]
        # Told apart: no playable ring, a body greyer than its colour's.
        assert "176, 120, 0" not in card["ring"], card
        # Legible: nothing fades or turns the figure; it is drawn as a playable card's is.
        assert card["filter"] == "none" and card["opacity"] == "1", card
        assert card["turned"] == "none", card
        if suit in live:
            assert card["figure"] == live[suit]["figure"], card
            assert card["body"] != live[suit]["body"], card
        assert ratio(rgb(card["figure"]), rgb(card["oval"])) >= 4.5, card
        assert ratio(rgb(card["letter"]), rgb(card["body"])) >= 4.5, card
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".hand").first.screenshot(
        path=str(ARTIFACTS / f"unplayable-cards-{width}.png"), scale="css"
    )
    page.screenshot(path=str(ARTIFACTS / f"unplayable-cards-page-{width}.png"))
