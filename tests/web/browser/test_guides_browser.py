"""The guides in a real browser (web/guides.py): the rules page on a 360x740 phone (no sideways
scroll of the page, its tables scrolling in their own boxes, the contents folded under the title,
a contents link landing on its section) and on a desktop (the contents beside the text, in view
while it scrolls). Screenshots: test-artifacts/guides-rules-*.png."""

from __future__ import annotations

import pytest

from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_WIDTH = "document.scrollingElement.scrollWidth"


def test_the_rules_on_a_phone(open_page):
    page = open_page(None, "/guides/rules/", width=360, height=740)
    page.get_by_role("heading", level=1, name="The rules the service plays").wait_for()
    assert page.evaluate(PAGE_WIDTH) <= 360, "the page scrolls sideways"
    # The tables scroll inside their boxes, which fit the screen.
    boxes = page.locator(".table-scroll")
    assert boxes.count() > 5
    widths = page.evaluate(
        "[...document.querySelectorAll('.table-scroll')].map("
        "(b) => [b.getBoundingClientRect().right, b.scrollWidth > b.clientWidth])"
    )
    assert all(right <= 360 for right, _ in widths)
    assert any(scrolls for _, scrolls in widths), "no wide table to scroll"
    # Code blocks keep within the screen too.
    rights = page.evaluate(
        "[...document.querySelectorAll('.guide pre')].map((p) => p.getBoundingClientRect().right)"
    )
    assert rights and max(rights) <= 360
    # The sidebar is a desktop's; on a phone the contents fold under the title.
    assert not page.locator(".guide-side").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "guides-rules-360x740.png"))
    boxes.first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "guides-rules-360x740-table.png"))
    page.locator(".guide-contents-phone summary").click()
    page.screenshot(path=str(ARTIFACTS / "guides-rules-360x740-contents.png"))
    page.locator(".guide-contents-phone").get_by_role(
        "link", name="The precognitive modifier"
    ).click()
    page.wait_for_url("**/guides/rules/#the-precognitive-modifier")
    top = page.locator("#the-precognitive-modifier").bounding_box()
    assert top is not None and 0 <= top["y"] < 100
    page.screenshot(path=str(ARTIFACTS / "guides-rules-360x740-precognitive.png"))
    # The list of guides (and a short page for the whole-page screenshot taken at the end).
    page.get_by_role("link", name="Guides", exact=True).first.click()
    page.wait_for_url("**/guides/")
    page.get_by_role("link", name="Writing a bot").first.wait_for()


def test_the_rules_on_a_desktop(open_page):
    page = open_page(None, "/guides/rules/#censorship", width=1280, height=800)
    side = page.locator(".guide-side")
    assert side.is_visible()
    assert page.evaluate(PAGE_WIDTH) <= 1280
    # The contents stay in view while the text scrolls past the section.
    box = side.get_by_role("link", name="Scoring and placement").bounding_box()
    assert box is not None and 0 <= box["y"] < 800
    article = page.locator("article.guide").bounding_box()
    assert article is not None and article["x"] > 250
    page.screenshot(path=str(ARTIFACTS / "guides-rules-desktop.png"))
    side.get_by_role("link", name="The JSON API").click()
    page.wait_for_url("**/guides/api/")
    page.get_by_role("link", name="the Swagger page").click()
    page.wait_for_url("**/api/docs/")
