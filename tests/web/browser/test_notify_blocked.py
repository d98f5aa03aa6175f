"""A browser that does not let the site notify: "Notifications: off" on /play/ must not do
nothing. The page says why and what to do, in its own words (no alert()): the browser blocked
the question or the site, and its settings for the site can allow them (static/notify.js).
Headless chromium shows no prompt: it leaves a page's request pending for a while (the button
stayed "off", nothing said), then answers "denied"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.games.factories import make_user
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A browser that has blocked the site's notifications before: the permission reads "denied".
DENIED = """Object.defineProperty(Notification, "permission", {configurable: true,
  get: () => "denied"});
Notification.requestPermission = () => Promise.resolve("denied");"""
# A browser that closed its prompt, or blocked the question without showing it: "default".
UNANSWERED = """Notification.requestPermission = () => Promise.resolve("default");"""


@pytest.mark.parametrize("size", [(360, 740), (1280, 800)], ids=["phone", "desktop"])
def test_a_request_the_browser_leaves_pending_then_denies_says_why_and_what_to_do(open_page, size):
    ana = make_user("ana")
    width, height = size
    page = open_page(
        ana, reverse("web:lobby"), width=width, height=height, own_context=True, touch=width < 400
    )
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    button = page.locator('[data-alert-toggle="notify"]')
    said = page.locator("[data-alerts-state]")
    assert button.inner_text() == "Notifications: off"
    button.click()
    # At once, while the browser's answer is pending: what to do, whatever it does.
    words = said.inner_text()
    assert words.startswith("The browser is asking whether this site may notify you"), words
    assert "settings for this site (the icon beside the address)" in words
    box = said.bounding_box()
    assert box and box["y"] + box["height"] <= height, box  # in view, under the button
    assert said.get_attribute("aria-live") == "polite"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"notify-asking-{width}.png"))
    # Denied: the button says so and the words say where to allow them.
    page.wait_for_function(
        "() => document.querySelector('[data-alert-toggle=notify]').textContent"
        " === 'Notifications: blocked'"
    )
    words = said.inner_text()
    assert words.startswith("This browser blocks the site's notifications. To allow them"), words
    assert dialogs == []
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / f"notify-denied-{width}.png"))


def test_a_closed_or_blocked_prompt_keeps_the_button_and_says_where_to_allow(open_page):
    ana = make_user("ana")
    page = open_page(ana, reverse("web:lobby"), width=360, height=740, touch=True)
    page.add_init_script(UNANSWERED)
    page.reload()
    button = page.locator('[data-alert-toggle="notify"]')
    button.click()
    said = page.locator("[data-alerts-state]")
    page.wait_for_function(
        "() => document.querySelector('[data-alerts-state]').textContent.includes('did not allow')"
    )
    words = said.inner_text()
    assert "blocked the question or its prompt was closed" in words
    assert "settings for this site" in words and "press the button again" in words
    assert button.inner_text() == "Notifications: off" and button.is_enabled()
    page.screenshot(path=str(ARTIFACTS / "notify-unanswered-360.png"))


def test_a_browser_that_blocked_the_site_before_says_where_to_allow_it(open_page):
    ana = make_user("ana")
    page = open_page(ana, reverse("web:lobby"), width=360, height=740, touch=True)
    page.add_init_script(DENIED)
    page.reload()
    button = page.locator('[data-alert-toggle="notify"]')
    assert button.inner_text() == "Notifications: blocked" and button.is_disabled()
    words = page.locator("[data-alerts-state]").inner_text()
    assert "blocks the site's notifications" in words
    assert "settings for this site (the icon beside the address)" in words
