"""Chat at a table on a phone: a seated person opens the chat under the board, sends a message
with the form (htmx, no reload), and the other person at the table sees it arrive by the
panel's poll; a spectator's word stays out of the seats' panel. Nothing scrolls sideways at
360x740, and the hand stays pinned to the bottom (the phone dock)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from chat.models import Message
from games.creation import SeatSpec, game_create
from tests.games.factories import make_user
from tests.web.browser.clicks import scrolls_sideways, too_wide

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 740


def test_a_seated_person_sends_a_message_and_the_other_sees_it(open_page):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(user=ben)],
        seed=2,
        dealer=1,
    )
    url = reverse("web:play", args=[game.pk])
    anas = open_page(ana, url, width=WIDTH, height=HEIGHT)
    bens = open_page(ben, url, width=WIDTH, height=HEIGHT)
    cys = open_page(cy, url, width=WIDTH, height=HEIGHT)
    for page in (anas, bens):
        # The dock (the hand) is still pinned to the screen's bottom with the chat on the page.
        dock = page.locator(".dock").bounding_box()
        assert dock is not None and abs(dock["y"] + dock["height"] - HEIGHT) <= 2
        assert not scrolls_sideways(page), too_wide(page)

    # A spectator says something the seats must not read while the match plays.
    cys.locator("#chat summary").click()
    cys.fill("#chat-text", "ben holds two wilds")
    cys.locator("#chat-body button[type=submit]").click()
    cys.wait_for_selector("#chat-messages >> text=ben holds two wilds")

    anas.evaluate("window.stillTheSamePage = true")
    anas.locator("#chat summary").click()
    anas.fill("#chat-text", "good luck, have fun! " + "averyveryverylongwordwithoutanyspace" * 3)
    anas.locator("#chat-body button[type=submit]").click()
    anas.wait_for_selector("#chat-messages >> text=good luck, have fun!")
    assert anas.evaluate("window.stillTheSamePage") is True
    # The form is empty again, ready for the next line.
    assert anas.input_value("#chat-text") == ""
    assert Message.objects.filter(author=ana, channel="seats").count() == 1

    bens.locator("#chat summary").click()
    # The panel's poll brings ana's message within its few seconds.
    bens.wait_for_selector("#chat-messages >> text=good luck, have fun!", timeout=8_000)
    assert "ben holds two wilds" not in bens.locator("#chat").inner_text()
    assert "ben holds two wilds" not in anas.locator("#chat").inner_text()
    # The spectator reads both.
    cys.wait_for_selector("#chat-messages >> text=good luck, have fun!", timeout=8_000)

    for page in (anas, bens, cys):
        assert not scrolls_sideways(page), too_wide(page)
    bens.locator("#chat").scroll_into_view_if_needed()
    assert bens.locator("#chat-messages").is_visible()
