"""Where a bot author starts, in a real browser: the bot guide on a 360x740 phone and a desktop
shows "Start here" in its first screen, with a link for each language's starting point and the
contents at hand; the owner's bot pages show the bot's id with a Copy button; a pull bot's
token is shown once after a redirect, and a reload shows the bot's page saying so.
Screenshots: test-artifacts/bot-author-*.png."""

from __future__ import annotations

import re

import pytest

from games.models import Bot
from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS
from tests.web.ladder_pages import owned_bot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_WIDTH = "document.scrollingElement.scrollWidth"
STARTS = ("JavaScript", "Python", "Any other language")


def bottom(locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return float(box["y"] + box["height"])


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_the_bot_guide_says_where_to_start_in_its_first_screen(open_page, width, height):
    page = open_page(None, "/guides/bots-api/", width=width, height=height)
    start = page.locator("#start-here")
    start.wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    size = f"{width}x{height}" if width < 900 else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"bot-author-guide-{size}.png"))
    assert page.evaluate(PAGE_WIDTH) <= width, "the page scrolls sideways"
    # Each language's line, and the links in them, within the first screen.
    section = page.locator("article.guide ul").first
    for language in STARTS:
        line = section.locator("li", has_text=language)
        assert bottom(line) <= height, f"{language} is below the first screen"
    kit = section.get_by_role("link", name="starters/javascript")
    assert bottom(kit) <= height
    # The contents at hand: folded under the title on a phone, beside the text on a desktop.
    contents = page.locator(
        ".guide-contents-phone summary" if width < 900 else ".guide-side .guide-contents"
    )
    assert contents.is_visible() and contents.bounding_box()["y"] < height
    # The JavaScript line's shortest bot lands on it.
    section.locator("li", has_text="JavaScript").get_by_role(
        "link", name="The command protocol"
    ).click()
    page.wait_for_url("**/guides/bots-api/#the-command-protocol")
    heading = page.locator("#the-command-protocol").bounding_box()
    assert heading is not None and 0 <= heading["y"] < 100
    page.screenshot(path=str(ARTIFACTS / f"bot-author-guide-{size}-protocol.png"))
    # Its first lines are the JavaScript bot.
    assert page.locator("pre", has_text="createInterface").is_visible()
    # A short page for the whole-page screenshot taken at the end (the guide is long).
    page.goto(page.url.split("/guides/")[0] + "/guides/")


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_a_pull_bots_token_shown_once_and_a_reload(open_page, width, height):
    ada = make_user("ada")
    page = open_page(ada, "/me/bots/", width=width, height=height)
    page.get_by_label("Name").last.fill("Puller")
    page.get_by_role("button", name="Register the pull bot").click()
    page.wait_for_url(re.compile(r"/me/bots/\d+/shown$"))
    bot = Bot.objects.get(owner=ada)
    token = page.locator("#bot-token").input_value()
    assert len(token) > 20 and token not in page.url
    assert page.get_by_text(f"Its id is {bot.pk}").is_visible()
    size = f"{width}x{height}" if width < 900 else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"bot-author-token-{size}.png"))

    page.reload()

    page.wait_for_url(f"**/me/bots/{bot.pk}/")
    said = page.get_by_text("Puller's token is shown only once")
    assert said.is_visible() and bottom(said) <= height
    assert token not in page.content()
    assert Bot.objects.filter(owner=ada).count() == 1
    page.screenshot(path=str(ARTIFACTS / f"bot-author-reloaded-{size}.png"))


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_a_bots_id_is_shown_and_copied(open_page, live_server, width, height):
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta")
    owned_bot(ada, "A bot with a rather long name for a phone")
    page = open_page(ada, f"/me/bots/{greta.pk}/", width=width, height=height)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    shown = page.locator("#bot-id")
    assert shown.inner_text() == str(greta.pk) and bottom(shown) <= height
    assert page.evaluate(PAGE_WIDTH) <= width, "the page scrolls sideways"
    page.get_by_role("button", name="Copy the id").click()
    page.get_by_role("status").filter(has_text="Copied.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == str(greta.pk)
    size = f"{width}x{height}" if width < 900 else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"bot-author-id-{size}.png"))

    page.goto(page.url.split("/me/bots/")[0] + "/me/bots/")
    row = page.locator(".bot-rows li", has_text="Greta")
    assert row.locator(".bot-row-id").inner_text() == f"id {greta.pk}"
    assert page.evaluate(PAGE_WIDTH) <= width, "the page scrolls sideways"
    page.screenshot(path=str(ARTIFACTS / f"bot-author-my-bots-{size}.png"))
