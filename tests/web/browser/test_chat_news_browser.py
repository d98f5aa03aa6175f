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


# The board's and the dock's tops, and the status line's chat count with its place.
PLACES = """() => {
  const box = sel => document.querySelector(sel).getBoundingClientRect();
  const mark = document.querySelector('[data-chat-jump] [data-chat-new]');
  const at = mark && !mark.hidden ? mark.getBoundingClientRect() : null;
  return {pile: box('.pile').top, dock: box('.dock').top, status: box('.status').height,
          mark: at && {top: at.top, bottom: at.bottom, left: at.left, right: at.right},
          text: mark ? mark.textContent : null, scrollY: window.scrollY};
}"""


@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_a_new_message_is_counted_in_view_while_the_person_plays(open_page, width, height):
    ana, ben = make_user("ana"), make_user("ben")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(user=ben)],
        seed=2,
        dealer=1,
    )
    page = open_page(ben, reverse("web:play", args=[game.pk]), width=width, height=height)
    page.wait_for_timeout(1_500)
    before = page.evaluate(PLACES)
    assert before["mark"] is None
    table.post(game_id=game.pk, author=ana, text="your move, ben")
    page.wait_for_selector("[data-chat-jump] [data-chat-new]:not([hidden])", timeout=8_000)
    # A board swap brings the status line back: the count stays.
    page.wait_for_timeout(2_500)
    after = page.evaluate(PLACES)
    assert after["text"] == "1 new message", after  # "1" in a dot, the words for screen readers
    mark = after["mark"]
    assert mark and 0 <= mark["top"] and mark["bottom"] <= height and mark["right"] <= width
    # Nothing moved: the board, the dock, the page.
    for key in ("pile", "dock", "status", "scrollY"):
        assert after[key] == before[key], (key, before, after)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"chat-new-status-{width}.png"))
    # The link opens the chat, the message in it, and the counts clear.
    page.locator("[data-chat-jump]").click()
    page.wait_for_selector("#chat-messages >> text=your move, ben")
    assert page.locator("#chat").get_attribute("open") is not None
    assert not page.locator("[data-chat-jump] [data-chat-new]").is_visible()
