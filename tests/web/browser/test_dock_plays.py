"""On a phone the dock's two lines name every card the others played since the person's move:
a draw two and a skip that kept the turn from them are said, not only the newest card, so the
person knows why they drew and were skipped (web/board_news.py `news_sentences`). The line keeps
its room: the dock and the hand stay where they were."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import SETTLED
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_just_happened import (
    assert_still,
    news,
    places,
    play,
    shown_sentences,
    wait_for_news,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


HANDS = [["red-3", "blue-9", "blue-8", "blue-7"], ["red-draw2", "red-skip", "red-6", "green-1"]]


def test_the_dock_names_the_draw_two_and_the_skip(open_page):
    # Official, two seats, four cards each: ana plays red 3 on red 7; greedy sheds its most
    # points first: red draw two (ana draws green 2 and green 4, and is skipped), red skip
    # (ana skipped again), red 6, and calls UNO. Ana's turn.
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official", "options": {"hand_size": 4}},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        seed="dock-plays",
        deck=stacked(HANDS, "red-7", ["green-2", "green-4"], first=0),
        dealer=1,
        settings=GameSettings(grace_seconds=0),
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    before = places(page, "plays-before")
    play(page, "red 3")
    wait_for_news(page, "Since your move")
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    # Its UNO call too, which the list had left out (a catch then looked possible).
    plays = (
        "Since your move: greedy red draw two, greedy red skip, greedy red 6, greedy called UNO."
    )
    assert news(page).endswith(plays), news(page)
    shown, lines = shown_sentences(page)
    assert lines == 2 and shown[-1] == plays, shown
    # What reached her hand stands before it (shown where the room allows, and in the link's
    # title and the story, one tap away).
    assert "You drew green 2 and green 4 (draw two). Since your move" in news(page)
    after = places(page, "plays-after")
    assert_still(before, after)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(SETTLED)
    page.screenshot(path=str(ARTIFACTS / "dock-plays-1280.png"))
