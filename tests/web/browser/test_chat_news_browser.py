"""A message said while a person's chat is closed marks its toggle on a phone ("1 new", then "2
new"), from the board's poll (no poll of the chat's own); opening the chat shows the messages
and clears the mark; a muted person's message marks nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from chat import moderation, table
from games.creation import SeatSpec, game_create
from tests.games.factories import make_user
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 740


def test_a_closed_chat_counts_what_came_and_opening_it_clears_the_count(open_page):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(user=ben), SeatSpec(user=cy)],
        seed=2,
        dealer=1,
    )
    moderation.mute(muter=ben, username="cy")
    table.post(game_id=game.pk, author=ana, text="hello both")
    page = open_page(ben, reverse("web:play", args=[game.pk]), width=WIDTH, height=HEIGHT)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    mark = page.locator("#chat [data-chat-new]")
    # What the page showed when it loaded is not new.
    page.wait_for_timeout(2_500)
    assert not mark.is_visible()

    # A muted person's word marks nothing.
    table.post(game_id=game.pk, author=cy, text="anyone?")
    page.wait_for_timeout(2_500)
    assert not mark.is_visible()

    table.post(game_id=game.pk, author=ana, text="your move, ben")
    page.wait_for_selector("#chat [data-chat-new]:not([hidden])", timeout=8_000)
    assert mark.text_content() == "1 new message"
    table.post(game_id=game.pk, author=ana, text="still there?")
    expect(mark).to_have_text("2 new messages", timeout=8_000)
    assert page.locator("#chat summary").text_content().startswith("Chat 2 new messages")
    # The list was read once per new message, never polled: the closed list asks nothing.
    chat_reads = [url for url in requests if url.split("?")[0].endswith("/chat")]
    assert 1 <= len(chat_reads) <= 3
    assert not any("seen=" in url for url in chat_reads)
    assert not scrolls_sideways(page), too_wide(page)
    page.locator("#chat").scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "chat-new-closed-360x740.png"))

    page.locator("#chat summary").click()
    page.wait_for_selector("#chat-messages >> text=still there?")
    assert not mark.is_visible()
    assert "anyone?" not in page.locator("#chat-messages").inner_text()
    page.screenshot(path=str(ARTIFACTS / "chat-new-opened-360x740.png"))

    # Closed again, the next message marks it from where the person left off.
    page.locator("#chat summary").click()
    table.post(game_id=game.pk, author=ana, text="ok, later")
    page.wait_for_selector("#chat [data-chat-new]:not([hidden])", timeout=8_000)
    assert mark.text_content() == "1 new message"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#chat").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "chat-new-closed-1280x800.png"))
