"""The site as an app on a phone's home screen (docs/web.md, "On a phone's home screen"): chromium
itself says the site is installable (its own check, as Android's "Install app" asks it), the
manifest names the lobby as where the app opens and every icon it names is a PNG of the size it
says."""

from __future__ import annotations

import struct

import pytest

from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def png_size(body: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk (the first, after the 8-byte signature)."""
    assert body[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_chromium_finds_the_site_installable(open_page):
    page = open_page(None, "/", **PHONE)
    cdp = page.context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["errors"] == [], found["errors"]
    assert found["url"].endswith("/manifest.webmanifest")
    # Chromium's own installability check: what its "Install app" menu item asks. Playwright's
    # contexts are incognito ones, where chromium installs nothing: that one reason is the test's.
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e for e in errors if e["errorId"] != "in-incognito"] == [], errors
    cdp.detach()


def test_the_manifest_opens_on_the_lobby_and_its_icons_are_what_it_says(open_page, live_server):
    page = open_page(None, "/", **PHONE)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    answer = page.request.get(live_server.url + href)
    assert answer.status == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "UNO League"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/play/"
    purposes = set()
    for icon in manifest["icons"]:
        image = page.request.get(live_server.url + icon["src"])
        assert image.status == 200, icon
        assert image.headers["content-type"] == "image/png"
        width, height = png_size(image.body())
        assert f"{width}x{height}" == icon["sizes"], icon
        purposes.add(icon["purpose"])
    assert purposes == {"any", "maskable"}
    touch = page.locator("link[rel=apple-touch-icon]").get_attribute("href")
    assert png_size(page.request.get(live_server.url + touch).body()) == (180, 180)


def test_the_lobby_tells_a_phone_how_to_install_and_not_the_installed_app(open_page):
    page = open_page(make_user("ana"), "/play/", **PHONE)
    hint = page.locator(".install-hint")
    assert hint.is_visible()
    assert hint.inner_text().startswith("Add this site to your home screen")
    page.screenshot(path=str(ARTIFACTS / "install-hint-360x740.png"))
    # Opened from its icon (the manifest's standalone display), the site's style hides it
    # (chromium cannot emulate that display mode: the rule is read from the style sheet).
    hidden_when = page.evaluate(
        """() => [...document.styleSheets].flatMap(sheet => [...sheet.cssRules])
            .filter(rule => rule.media && rule.conditionText === "(display-mode: standalone)")
            .flatMap(rule => [...rule.cssRules].map(inner => inner.cssText))"""
    )
    assert ".install-hint { display: none; }" in hidden_when
    # A desktop has no home screen to add it to.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.emulate_media()
    assert not hint.is_visible()
