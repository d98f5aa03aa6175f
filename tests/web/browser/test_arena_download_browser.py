"""The arena's one file offered where a bot author looks (templates/bots/_arena_download.html):
the owner's bots page on a 360x740 phone, the link and its line within the screen, and a click
that saves `uno-arena.pyz`; the bot author's guide on a desktop, the note in its first screen.
Screenshots: test-artifacts/arena-download-*.png."""

from __future__ import annotations

import pytest

from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINK = "Download the arena (one file, needs Python 3.11+)"
PAGE_WIDTH = "document.scrollingElement.scrollWidth"


def test_my_bots_offers_the_arena_on_a_phone(open_page):
    page = open_page(make_user("ada"), "/me/bots/", width=360, height=740)
    link = page.get_by_role("link", name=LINK)
    link.wait_for()
    assert page.evaluate(PAGE_WIDTH) <= 360, "the page scrolls sideways"
    line = page.locator(".arena-download").bounding_box()
    assert line is not None and line["y"] + line["height"] <= 740, "below the first screen"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "arena-download-360x740.png"))
    with page.expect_download() as started:
        link.click()
    download = started.value
    assert download.suggested_filename == "uno-arena.pyz"
    with open(download.path(), "rb") as saved:
        assert saved.read(23) == b"#!/usr/bin/env python3\n"


def test_the_bot_guide_offers_the_arena_on_a_desktop(open_page):
    page = open_page(None, "/guides/bots-api/", width=1280, height=800)
    note = page.locator(".arena-download")
    note.get_by_role("link", name=LINK).wait_for()
    box = note.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800
    page.screenshot(path=str(ARTIFACTS / "arena-download-desktop.png"))
    note.get_by_role("link", name="Trying a bot locally").click()
    page.wait_for_url("**/guides/bots-api/#trying-a-bot-locally")
    page.screenshot(path=str(ARTIFACTS / "arena-download-desktop-section.png"))
    # A short page for the whole-page screenshot taken at the end (the guide is long).
    page.get_by_role("link", name="Guides", exact=True).first.click()
    page.wait_for_url("**/guides/")
