"""In a real browser: a new person signs up, starts an official game against three bots from
/play/new/, lands on the game's page, and finds the game in the lobby; on a desktop with the
mouse and on a 360 px phone with the keyboard alone.

Debian's chromium (/usr/bin/chromium), never a downloaded one; loopback only. One screenshot per
test under test-artifacts/; any console error fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.urls import Resolver404, resolve
from playwright.sync_api import ConsoleMessage, Page, sync_playwright

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("eager_tasks")]

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}

if not shutil.which(CHROMIUM):
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {CHROMIUM} is missing", pytrace=False)
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)


def play_page_exists() -> bool:
    """Whether the play page (/games/<id>/, another part of web/) is routed in this tree."""
    try:
        resolve("/games/1/")
    except Resolver404:
        return False
    return True


@pytest.fixture
def browser_page(request: pytest.FixtureRequest, live_server) -> Iterator[tuple[Page, list[str]]]:
    """A fresh page of Debian's chromium and the console errors it logs; a screenshot after."""
    size = (
        request.node.callspec.params.get("size", DESKTOP)
        if hasattr(request.node, "callspec")
        else DESKTOP
    )
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=size)
        page.set_default_timeout(15_000)

        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                errors.append(f"{message.text} at {message.location.get('url')}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
        try:
            yield page, errors
        finally:
            ARTIFACTS.mkdir(exist_ok=True)
            name = re.sub(r"[^\w.-]+", "-", request.node.name).strip("-")
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
            browser.close()


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width} px wide"


def real_errors(errors: list[str], game_url: str) -> list[str]:
    """Console errors, but the 404s of the play page while it is not routed in this tree (the
    page itself, and the /favicon.ico that Django's bare 404 page makes the browser ask for)."""
    if play_page_exists():
        return errors
    missing = (f"at {game_url}", "/favicon.ico")
    return [e for e in errors if not ("404" in e and e.endswith(missing))]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_new_person_signs_up_and_starts_a_game_against_three_bots(
    browser_page, live_server, size
):
    page, errors = browser_page
    keyboard = size == PHONE
    page.goto(f"{live_server.url}/")
    if keyboard:
        page.keyboard.press("Tab")  # the skip link, then the site's links
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Sign up"
        page.keyboard.press("Enter")
    else:
        page.get_by_role("link", name="Sign up").click()
    page.wait_for_url("**/accounts/signup/")
    no_sideways_scroll(page)

    fields = [
        ("Username", "lin"),
        ("Email", "lin@example.org"),
        ("Password", "tulip-garden-1984"),
        ("Password confirmation", "tulip-garden-1984"),
    ]
    if keyboard:
        page.get_by_label("Username").focus()
        for _, value in fields:
            page.keyboard.type(value)
            page.keyboard.press("Tab")
        # The date field takes its parts in the locale's order (en-US: month, day, year).
        page.keyboard.type("05171990")
        page.keyboard.press("Enter")
    else:
        for label, value in fields:
            page.get_by_label(label, exact=True).fill(value)
        page.get_by_label("Birth date").fill("1990-05-17")
        page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/play/")
    assert page.get_by_role("button", name="Sign out lin").is_visible()
    assert "You are in no game yet." in page.content()
    no_sideways_scroll(page)

    page.get_by_role("link", name="New game").click()
    page.wait_for_url("**/play/new/")
    no_sideways_scroll(page)
    assert page.get_by_label("Official").is_checked()
    assert page.get_by_label("Seat 1", exact=True).input_value() == "me"
    for seat in (2, 3, 4):
        assert page.get_by_label(f"Seat {seat}", exact=True).input_value() == "bot:greedy"
    if keyboard:
        page.get_by_label("Cards dealt").focus()
        page.keyboard.press("Enter")  # a form's Enter presses its one submit button
    else:
        page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = page.url
    game_id = int(re.search(r"/games/(\d+)/$", game_url).group(1))

    page.goto(f"{live_server.url}/play/")
    card = page.locator("li.game", has_text=f"Game {game_id} · Official")
    assert card.count() == 1
    assert "Your turn" in card.inner_text()
    assert card.locator("li").count() == 4  # the seats: lin and three greedy bots
    no_sideways_scroll(page)
    assert real_errors(errors, game_url) == []
