"""Browser tests: Debian's chromium driven by Playwright against pytest-django's live server.

Select them with `-m browser`. Without /usr/bin/chromium they are skipped, except under CI
(CI=true), where a missing browser is a failure. Every page fails its test on a console error,
an uncaught script error or a Content-Security-Policy violation, and leaves a screenshot in
test-artifacts/<test name>.png.

A test's pages open in tabs kept for the session, each in a browser context of its own
(`browser_contexts`), emptied before it is lent again (its other pages closed, its history,
cookies, the origin's storage, permissions), so that a page does not pay for a new context
(its set-up, init scripts and binding, and its closing): about a tenth of chromium's CPU.

Every page with scripts on is also checked by axe-core (vendor/axe.min.js, vendor/README.md):
after each load (every navigation, a form's answer included) and once more in its last state at
the test's end, axe runs in the page and a serious or critical violation fails the test; on the
site's own pages a moderate one does too. Every violation found, whatever its impact, is written to
test-artifacts/axe/<test name>.json.
"""

from __future__ import annotations

import json
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
AXE_SOURCE = (Path(__file__).resolve().parent / "vendor" / "axe.min.js").read_text()
# Runs in the top frame of every page after its load event: axe's rules (WCAG 2.0-2.2 A and AA
# and axe's best practices), the violations handed to the test by the binding `__axeReport`.
# `__axeCheck()` waits for a run under way, then runs again: the page's last state. No preload:
# axe would copy the stylesheets into inline style elements (for css-orientation-lock alone),
# which the Content-Security-Policy rightly refuses.
AXE_RUNNER = """
(() => {
  if (window.top !== window || !location.protocol.startsWith("http")) return;
  let running = Promise.resolve();
  const check = () => {
    const options = { resultTypes: ["violations"], preload: false };
    running = running.then(() => window.axe.run(document, options))
      .then((results) => window.__axeReport(location.pathname + location.search,
        results.violations.map((v) => ({
          id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
        }))));
    return running;
  };
  window.__axeCheck = check;
  window.addEventListener("load", () => { check(); });
})();
"""
# Pages that are not the site's own templates: Django's admin and Swagger UI (drf-spectacular's
# page, templates/api/swagger_ui.html). Their moderate findings are recorded, not failed.
NOT_OURS = ("/admin/", "/api/docs/")
# What cannot be fixed from outside Swagger UI, left out of the count (still written to the
# artifact): its operation summaries are clickable regions that hold buttons of their own.
BEYOND_REACH = {
    ("/api/docs/", "nested-interactive"): "Swagger UI's own markup: .opblock-summary",
}
FAILING = {"critical", "serious"}
FAILING_OURS = FAILING | {"moderate"}


def axe_failures(path: str, violations: list[dict[str, Any]]) -> list[str]:
    """The findings of one axe run that fail a test, one line each."""
    failing = FAILING if path.startswith(NOT_OURS) else FAILING_OURS
    return [
        f"axe {v['impact']} {v['id']} at {path}: {v['help']} ({v['nodes'][0]['target']}"
        + (f" and {len(v['nodes']) - 1} more" if len(v["nodes"]) > 1 else "")
        + ")"
        for v in violations
        if v["impact"] in failing and (path.split("?")[0], v["id"]) not in BEYOND_REACH
    ]


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


class Lent:
    """A tab of the session's pool, in a browser context of its own: the context's init scripts
    and axe's binding are added once; `report` is the current test's receiver of axe's
    findings."""

    def __init__(self, chromium: Any, javascript: bool) -> None:
        self.report: Callable[[str, list[dict[str, Any]]], None] | None = None
        self.listeners: list[tuple[str, Callable[..., Any]]] = []
        self.javascript = javascript
        self.context = chromium.new_context(java_script_enabled=javascript)
        # A Content-Security-Policy violation (config/settings.py) fails the test too, said
        # plainly: chromium's own console line for it may be a warning (report-only) or missing.
        self.context.add_init_script(CSP_LISTENER)
        self.context.expose_binding("__axeReport", self.axe_report)
        self.context.add_init_script(AXE_SOURCE)
        self.context.add_init_script(AXE_RUNNER)
        self.page = self.context.new_page()

    def axe_report(self, _source: Any, path: str, violations: list[dict[str, Any]]) -> None:
        assert self.report is not None, f"axe reported {path} from a page no test opened"
        self.report(path, violations)

    def empty(self, origin: str) -> None:
        """Nothing of an earlier test left: the tab on about:blank with no history, the test's
        listeners and other pages gone, no cookie, no permission, and the origin's storage
        (local and session storage, IndexedDB, caches, service workers) cleared."""
        if self.page.is_closed():
            self.page = self.context.new_page()
        for page in self.context.pages:
            if page is not self.page:
                page.close()
        for event, listener in self.listeners:
            self.page.remove_listener(event, listener)
        self.listeners.clear()
        if self.javascript and self.page.url.startswith(origin):
            self.page.evaluate("sessionStorage.clear()")
        self.page.goto("about:blank")
        self.report = None
        self.context.clear_cookies()
        self.context.clear_permissions()
        session = self.context.new_cdp_session(self.page)
        session.send("Page.resetNavigationHistory")
        session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        session.detach()

    def on(self, event: str, listener: Callable[..., Any]) -> None:
        self.page.on(event, listener)
        self.listeners.append((event, listener))


@pytest.fixture(scope="session")
def browser_contexts(chromium: Any) -> Iterator[dict[bool, list[Lent]]]:
    """The session's browser contexts, with scripts on (True) and off (False); a test's first
    page gets the first of its kind, its second page (another person) the second, and so on."""
    pool: dict[bool, list[Lent]] = {True: [], False: []}
    yield pool
    for lent in pool[True] + pool[False]:
        lent.context.close()


@pytest.fixture
def open_page(
    chromium: Any,
    browser_contexts: dict[bool, list[Lent]],
    live_server: Any,
    eager_tasks: None,
    request: pytest.FixtureRequest,
) -> Iterator[Callable[..., Any]]:
    """`open_page(person, path)`: a page in a context of its own, emptied, signed in as
    `person` (None: not signed in), at `path` on the live server (`javascript=False`: with
    scripts off; `own_context=True`: a new context, for a test that changes the context
    itself; `touch=True`: a new context of a phone's touch screen, no mouse, so that CSS's
    `(hover: none)` and `(pointer: coarse)` hold). Console errors and failed requests fail the
    test at its end, but those with a piece of `allow` in their words: a test that cuts the
    page's connection on purpose expects them)."""
    lent: list[Lent] = []
    own: list[Any] = []
    pages: list[Any] = []
    errors: list[str] = []
    axe_runs: list[dict[str, Any]] = []
    scripted: list[Any] = []  # axe is a script: pages with scripts off go unchecked

    def axe_report(_source: Any, path: str, violations: list[dict[str, Any]]) -> None:
        axe_runs.append({"path": path, "violations": violations})
        errors.extend(axe_failures(path, violations))

    def open_(
        person: Any,
        path: str,
        *,
        width: int = 1200,
        height: int = 900,
        javascript: bool = True,
        own_context: bool = False,
        touch: bool = False,
        allow: tuple[str, ...] = (),
    ) -> Any:
        if own_context or touch:
            context = chromium.new_context(
                viewport={"width": width, "height": height},
                java_script_enabled=javascript,
                has_touch=touch,
                is_mobile=touch,
            )
            context.add_init_script(CSP_LISTENER)
            context.expose_binding("__axeReport", axe_report)
            context.add_init_script(AXE_SOURCE)
            context.add_init_script(AXE_RUNNER)
            own.append(context)
            page = context.new_page()
            listen = page.on
        else:
            kind = browser_contexts[javascript]
            taken = sum(1 for one in lent if one in kind)
            if taken == len(kind):
                kind.append(Lent(chromium, javascript))
            one = kind[taken]
            one.empty(live_server.url)
            one.report = lambda path, violations: axe_report(None, path, violations)
            lent.append(one)
            context, page, listen = one.context, one.page, one.on
            page.set_viewport_size({"width": width, "height": height})
        if person is not None:
            client = Client()
            client.force_login(person)
            cookie = client.cookies["sessionid"]
            context.add_cookies(
                [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
            )
        page.set_default_timeout(10_000)

        def report(error: str) -> None:
            if not any(piece in error for piece in allow):
                errors.append(error)

        listen(
            "console",
            lambda message: report(f"console: {message.text}") if message.type == "error" else None,
        )
        listen("pageerror", lambda error: report(f"page error: {error}"))
        listen(
            "response",
            lambda response: (
                report(f"HTTP {response.status}: {response.url}")
                if response.status >= 400
                else None
            ),
        )
        page.goto(live_server.url + path)
        pages.append(page)
        if javascript:
            scripted.append(page)
        return page

    try:
        yield open_
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        for page in scripted:
            if not page.is_closed() and page.evaluate("typeof window.__axeCheck") == "function":
                page.evaluate("window.__axeCheck()")
        (ARTIFACTS / "axe").mkdir(exist_ok=True)
        (ARTIFACTS / "axe" / f"{name}.json").write_text(json.dumps(axe_runs, indent=1))
        for number, page in enumerate(pages):
            suffix = "" if number == 0 else f"-{number + 1}"
            page.screenshot(path=str(ARTIFACTS / f"{name}{suffix}.png"), full_page=True)
    finally:
        for context in own:
            context.close()
        for one in lent:
            one.empty(live_server.url)
    assert errors == [], "the browser reported errors"
