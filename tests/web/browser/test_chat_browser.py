"""Chat at a table on a phone: a seated person opens the chat under the board, sends a message
with the form (htmx, no reload), and the other person at the table sees it arrive by the
panel's poll; a spectator's word stays out of the seats' panel. Nothing scrolls sideways at
360x740, and the hand stays pinned to the bottom (the phone dock)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from chat import board, moderation, table
from chat.models import ClubPost, Message, Report
from tests.games.factories import make_user
from tests.league.factories import make_club
from tests.web.browser.clicks import POLL_MS, scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS
from tests.web.tables import official_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 740


def test_a_seated_person_sends_a_message_and_the_other_sees_it(open_page):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    game = official_pair(ana, ben)
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
    cys.locator("#chat-body").get_by_role("button", name="Send", exact=True).click()
    cys.wait_for_selector("#chat-messages >> text=ben holds two wilds")

    anas.evaluate("window.stillTheSamePage = true")
    anas.locator("#chat summary").click()
    anas.fill("#chat-text", "good luck, have fun! " + "averyveryverylongwordwithoutanyspace" * 3)
    anas.locator("#chat-body").get_by_role("button", name="Send", exact=True).click()
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

    # On a desktop the chat stands under the board, open, the message there too.
    desk = open_page(ben, f"{url}?chat=1", width=1280, height=800)
    desk.wait_for_selector("#chat-messages >> text=good luck, have fun!")
    desk.screenshot(path=str(ARTIFACTS / "desktop-chat-1280x800.png"), full_page=True)


def test_a_report_reaches_staff_who_hide_the_message(open_page):
    ana, ben = make_user("ana"), make_user("ben")
    moderator = make_user("moderator")
    moderator.is_staff = True
    moderator.save()
    game = official_pair(ana, ben)
    message = table.post(game_id=game.pk, author=ana, text="you are hopeless")
    url = reverse("web:play", args=[game.pk])
    bens = open_page(ben, f"{url}?chat=1", width=WIDTH, height=HEIGHT)
    bens.get_by_role("link", name="Report ana's message").click()
    bens.fill("#reason", "insulting")
    bens.get_by_role("button", name="Report").click()
    bens.wait_for_selector("text=the moderators will look at it")
    assert Report.objects.get().message == message

    staff = open_page(moderator, reverse("staff:reports"))
    assert "you are hopeless" in staff.locator(".report").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    staff.screenshot(path=str(ARTIFACTS / "staff-reports-queue.png"), full_page=True)
    staff.fill(f"#hide-{Report.objects.get().pk}", "insults another player")
    staff.get_by_role("button", name="Hide").click()
    staff.wait_for_selector("text=No open report")
    assert "insults another player" in staff.locator(".audit").inner_text()

    bens.goto(bens.url.split("#")[0])
    chat = bens.locator("#chat-messages").inner_text()
    assert "message hidden by moderators" in chat and "hopeless" not in chat
    assert not scrolls_sideways(bens), too_wide(bens)


def test_the_club_board_on_a_phone(open_page):
    club, admin, (member,) = make_club(members=1)
    board.post(club=club, author=admin, text="Season two starts on Monday", announcement=True)
    page = open_page(member, reverse("web:club", args=[club.slug]), width=WIDTH, height=HEIGHT)
    page.fill("#board-text", "Count me in! " + "averyveryverylongwordwithoutanyspace" * 2)
    page.get_by_role("button", name="Post", exact=True).click()
    page.wait_for_selector("text=Posted on the board")
    threads = page.locator(".board__post")
    assert "Season two starts on Monday" in threads.nth(0).inner_text()
    assert "Count me in!" in threads.nth(1).inner_text()
    page.fill(f"#reply-{ClubPost.objects.get(is_announcement=True).pk}", "See you there")
    page.get_by_role("button", name="Reply").first.click()
    page.wait_for_selector(".board__reply >> text=See you there")
    assert not scrolls_sideways(page), too_wide(page)


def test_a_long_paste_is_kept_whole_counted_and_refused_with_the_limit_said(open_page):
    ana, ben = make_user("ana"), make_user("ben")
    game = official_pair(ana, ben)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=WIDTH, height=HEIGHT)
    page.locator("#chat summary").click()
    box, count = page.locator("#chat-text"), page.locator("#chat-count")
    box.focus()
    page.keyboard.insert_text("🂡" * 420)  # characters, as the server counts them, not UTF-16
    # The count is said at the input (static/limits.js); waited for, as a person reads it.
    expect(count).to_have_text("80 characters left")
    box.fill("")
    page.keyboard.insert_text("a" * 300)  # far from the limit: no count
    expect(count).to_be_hidden()
    page.keyboard.insert_text("b" * 150)
    expect(count).to_have_text("50 characters left")
    page.keyboard.insert_text("c" * 150)  # a paste past the limit is kept whole, and said
    assert len(box.input_value()) == 600
    expect(count).to_have_text("100 characters too many: a message holds 500 at most")
    assert box.get_attribute("aria-invalid") == "true"
    count.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "chat-too-long-360x740.png"))

    page.locator("#chat-body").get_by_role("button", name="Send", exact=True).click()
    page.wait_for_selector("#chat-body .chat__error")
    error = page.locator("#chat-body .chat__error").inner_text()
    # The person reads the sentence only; the code is for scripts, in an attribute.
    assert error.strip() == "A message has at most 500 characters (600 given).", error
    assert page.locator("#chat-body .chat__error").get_attribute("data-code") == "message-too-long"
    assert not Message.objects.exists()
    # The text stays in the box, to be cut by the writer, and the count says so still.
    assert len(page.locator("#chat-text").input_value()) == 600
    # Counted again once the swapped-in form has settled.
    page.wait_for_selector("#chat-count.chat__count--over")
    assert page.locator("#chat-count").inner_text().startswith("100 characters too many")
    assert not scrolls_sideways(page), too_wide(page)
    page.locator("#chat-count").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "chat-refused-360x740.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#chat-count").scroll_into_view_if_needed()
    assert page.locator("#chat-count").is_visible()
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "chat-refused-1280x800.png"))


def test_the_line_of_who_one_mutes_stays_one_line_once_the_chat_opens(open_page):
    ana, ben = make_user("ana"), make_user("ben")
    game = official_pair(ana, ben)
    moderation.mute(muter=ana, username="ben")
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=WIDTH, height=HEIGHT)
    page.locator("#chat summary").click()
    # Opening reads the list again (its poll): the line under it is put in its place, not added.
    page.wait_for_function(
        "() => (document.querySelector('#chat-messages')?.getAttribute('hx-trigger') || '')"
        ".startsWith('every')",
        polling=POLL_MS,
    )
    assert page.locator("#chat").get_by_text("You mute").count() == 1
    page.locator("#chat").screenshot(path=str(ARTIFACTS / "chat-muted-once-360x740.png"))
