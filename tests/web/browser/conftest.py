"""Browser tests: Debian's chromium driven by Playwright against pytest-django's live server.

Select them with `-m browser`. Without /usr/bin/chromium they are skipped, except under CI
(CI=true), where a missing browser is a failure. Every page fails its test on a console error,
an uncaught script error or a Content-Security-Policy violation, and leaves a screenshot in
test-artifacts/<test name>.png.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
IN_CI = os.environ.get("CI") == "true"
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber}`);
});
"""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives chromium (Playwright); -m browser")


@pytest.fixture(scope="session")
def chromium(django_db_setup: None) -> Iterator[Any]:
    """One chromium for the session (each test gets its own contexts)."""
    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail(f"CI=true but {CHROMIUM} is missing: install chromium (apt)", False)
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run browser tests")
    # Playwright's sync API keeps an event loop running in this thread, which Django takes for
    # an async context; the ORM calls the tests make meanwhile are synchronous all the same.
    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if saved is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


@pytest.fixture
def open_page(
    chromium: Any,
    live_server: Any,
    eager_tasks: None,
    request: pytest.FixtureRequest,
) -> Iterator[Callable[..., Any]]:
    """`open_page(person, path)`: a page in a fresh context signed in as `person` (None: not
    signed in), at `path` on the live server (`javascript=False`: with scripts off). Console
    errors and failed requests fail the test at its end."""
    contexts: list[Any] = []
    pages: list[Any] = []
    errors: list[str] = []

    def open_(
        person: Any, path: str, *, width: int = 1200, height: int = 900, javascript: bool = True
    ) -> Any:
        context = chromium.new_context(
            viewport={"width": width, "height": height}, java_script_enabled=javascript
        )
        if person is not None:
            client = Client()
            client.force_login(person)
            cookie = client.cookies["sessionid"]
            context.add_cookies(
                [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
            )
        # A Content-Security-Policy violation (config/settings.py) fails the test too, said
        # plainly: chromium's own console line for it may be a warning (report-only) or missing.
        context.add_init_script(CSP_LISTENER)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on(
            "console",
            lambda message: (
                errors.append(f"console: {message.text}") if message.type == "error" else None
            ),
        )
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
        page.on(
            "response",
            lambda response: (
                errors.append(f"HTTP {response.status}: {response.url}")
                if response.status >= 400
                else None
            ),
        )
        page.goto(live_server.url + path)
        contexts.append(context)
        pages.append(page)
        return page

    yield open_
    ARTIFACTS.mkdir(exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    for number, page in enumerate(pages):
        suffix = "" if number == 0 else f"-{number + 1}"
        page.screenshot(path=str(ARTIFACTS / f"{name}{suffix}.png"), full_page=True)
    for context in contexts:
        context.close()
    assert errors == [], "the browser reported errors"
