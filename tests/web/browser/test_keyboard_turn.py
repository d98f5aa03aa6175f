"""A whole turn by keyboard alone: Tab to a card that plays, Enter (or Space to open a card's
choices, Tab, Enter), and the move is made; the focus ring on the way is the stylesheet's, dark
navy, never the "playable" ring's amber (tests/web/test_contrast.py checks their contrast)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from tests.games.factories import make_user
from tests.web.browser.clicks import version, wait_for_board_after

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYS = (
    ".hand__card--live .card-button, .hand__card--live details.card-choice > summary, "
    ".actions button.action"
)
FOCUS_RING = "rgb(13, 47, 107)"  # cards.css's --focus, #0d2f6b


def focused(page, selector: str) -> bool:
    return bool(page.evaluate("s => document.activeElement.matches(s)", selector))


def test_a_person_plays_a_turn_with_tab_enter_and_space_only(open_page):
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official", "options": {"hand_size": 7}},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy"), SeatSpec(bot="random")],
        seed=11,
        dealer=2,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    old = version(page)

    # From the top of the page, Tab until a card that plays has the focus (the moves below the
    # hand, such as drawing, come after the cards: the first move reached is a card if one plays).
    for _ in range(100):
        page.keyboard.press("Tab")
        if focused(page, PLAYS):
            break
    else:
        pytest.fail("Tab never reached a move")
    outline = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, s.outlineColor, s.outlineWidth]; }"
    )
    assert outline == ["solid", FOCUS_RING, "3px"], outline
    label = page.evaluate("() => document.activeElement.textContent.trim()")

    if focused(page, "summary"):
        # A card that plays in several ways: Space opens its choices, Tab reaches the first.
        page.keyboard.press("Space")
        page.keyboard.press("Tab")
        assert focused(page, ".card-choice__options button")
        label = page.evaluate("() => document.activeElement.textContent.trim()")
    page.keyboard.press("Enter")
    wait_for_board_after(page, old)

    assert label, "the move has a name"
    story = page.locator(".story").inner_text()
    assert "You played" in story or "You drew" in story, (label, story[:300])
