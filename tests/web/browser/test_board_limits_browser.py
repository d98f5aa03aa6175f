"""A club board's box on a phone, as the chat's: a paste past the limit is kept whole and
counted ("100 characters too many: a message holds 500 at most", static/limits.js), and sent
anyway it is refused under the box with its code, the text back in the box; nothing posted."""

from __future__ import annotations

import pytest
from django.urls import reverse

from chat import board
from chat.models import ClubPost
from tests.league.factories import make_club
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 740


def test_a_long_paste_on_the_board_is_kept_counted_and_refused_with_the_limit_said(open_page):
    club, admin, _ = make_club(members=1)
    thread = board.post(club=club, author=admin, text="Who plays Monday?")
    page = open_page(admin, reverse("web:club", args=[club.slug]), width=WIDTH, height=HEIGHT)
    box, count = page.locator("#board-text"), page.locator("#board-text-count")
    box.focus()
    page.keyboard.insert_text("a" * 450)
    assert count.inner_text() == "50 characters left"
    page.keyboard.insert_text("b" * 150)  # a paste past the limit is kept whole, and said
    assert len(box.input_value()) == 600
    assert count.inner_text() == "100 characters too many: a message holds 500 at most"
    assert box.get_attribute("aria-invalid") == "true"
    assert not scrolls_sideways(page), too_wide(page)
    count.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "board-too-long-360x740.png"))

    page.get_by_role("button", name="Post", exact=True).click()
    page.wait_for_selector("#board .board__error")
    error = page.locator("#board .board__error").inner_text()
    assert "A message has at most 500 characters (600 given)." in error
    assert "message-too-long" in error
    assert ClubPost.objects.count() == 1
    assert len(box.input_value()) == 600
    page.wait_for_selector("#board-text-count.chat__count--over")
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "board-refused-360x740.png"))

    # A reply's box counts too.
    reply = page.locator(f"#reply-{thread.pk}")
    reply.focus()
    page.keyboard.insert_text("c" * 505)
    assert page.locator(f"#reply-{thread.pk}-count").inner_text() == (
        "5 characters too many: a message holds 500 at most"
    )
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#board-text").scroll_into_view_if_needed()
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "board-refused-1280x800.png"))
