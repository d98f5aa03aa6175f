"""On a phone (360x740) the dock (the hand and the moves pinned to the screen's bottom) keeps its
height and its lines their places as the turn comes and goes in a game of two people: the
other person moves, the board's poll makes it the viewer's turn, and the hand's cards, its title,
the moves' row and the dock's top are where they were. The moves' row had come with the turn and
the dock grew over the board by 49 px (186 to 235 px, its lines lifted by as much); with a long
hand, the turn's hint took a third line beside the count of the cards past the strip's edge, and
the hand's title went up by 21 px (the dock 256 px, over a third of the screen)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.commands import game_command
from games.creation import SeatSpec, game_create
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import SETTLED, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Official, two people, ben first on red 4: he plays red 5, and it is ana's turn (red 7 and
# green 5 match). Seven cards each, or eleven (ana's strip then scrolls: "4 more ›").
ANA = ["red-7", "wild", "green-5", "yellow-7", "green-1", "wild-draw4", "yellow-9"]
BEN = ["red-5", "green-3", "blue-4", "yellow-4", "blue-5", "green-6", "yellow-6"]
LONG = (["blue-1", "blue-2", "blue-3", "green-2"], ["green-7", "green-8", "green-9", "yellow-1"])

# Each box's top and height, rounded to a tenth of a pixel.
BOXES = """() => { const box = s => { const el = document.querySelector(s);
    if (!el || !el.getClientRects().length) return null;
    const r = el.getBoundingClientRect();
    return [r.top, r.height].map(v => Math.round(v * 10) / 10); };
  return {cards: box('.hand'), hand: box('.hand-area'), title: box('.hand-head'),
          moves: box('.dock .actions'), news: box('.dock__news'), seats: box('.dock__seats'),
          more: box('.hand-more'), dock: box('.dock'), scrollY: window.scrollY,
          hint: document.querySelector('.hand-area .hint').innerText}; }"""


@pytest.mark.parametrize("cards", [7, 11])
def test_the_dock_holds_still_as_the_turn_comes(open_page, cards):
    ana, ben = make_user("ana"), make_user("ben")
    hands = [ANA + list(LONG[0]), BEN + list(LONG[1])] if cards == 11 else [ANA, BEN]
    game = game_create(
        variant_spec={"rules": "official", "options": {"hand_size": cards}},
        seats=[SeatSpec(user=ana), SeatSpec(user=ben)],
        deck=stacked(hands, "red-4", first=1),
        dealer=0,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".dock")
    page.evaluate(SETTLED)
    theirs = page.evaluate(BOXES)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"steady-dock-{cards}-theirs-360.png"))
    assert page.locator(".status--mine").count() == 0
    assert theirs["hint"] == "No card of yours can be used now."
    assert (theirs["more"] is not None) == (cards == 11), theirs

    old = version(page)
    game_command(
        game_id=game.pk,
        actor=ben,
        command={"type": "play", "seat": 1, "card": "red-5", "uno": False},
        expected_version=old,
    )
    wait_for_board_after(page, old, timeout=20_000)  # the board's poll brings it
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    mine = page.evaluate(BOXES)
    page.screenshot(path=str(ARTIFACTS / f"steady-dock-{cards}-mine-360.png"))
    assert mine["hint"] == "Cards you can use now are outlined: pick one."
    assert page.get_by_role("button", name="Draw a card").is_visible()

    assert mine["scrollY"] == theirs["scrollY"] == 0
    for key in ("cards", "hand", "title", "moves", "news", "seats", "more", "dock"):
        if theirs[key] is None:
            assert mine[key] is None, (key, theirs, mine)
            continue
        top, height = (abs(a - b) for a, b in zip(theirs[key], mine[key], strict=True))
        assert top <= 1 and height <= 1, (key, theirs, mine)
    # No taller than it must be: the moves' row is the turn's, kept (a third of the screen is
    # 247 px).
    assert mine["dock"][1] <= 240, mine
