"""The profile's API token in the browser, on a phone (360x740) and a desktop: making a token
with its scopes ticked, the key shown once with them, the profile's Scopes line and the revoke
button, which ends the key (docs/web.md, "The profile")."""

from __future__ import annotations

import pytest

from accounts.models import PersonalToken
from tests.games.factories import make_user
from tests.web.browser.clicks import at_size, scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1200, "height": 900}}


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_token_pages-{name}.png"), full_page=True)


def test_a_token_is_made_with_its_scopes_and_revoked(open_page, live_server):
    """Made and revoked on a phone, then again in the same tab resized to a desktop."""
    ada = make_user("ada")
    page = None
    for size in SIZES:
        page = at_size(open_page, live_server, page, ada, "/accounts/profile/token/", **SIZES[size])

        bots = page.get_by_role("checkbox", name="bots")
        play = page.get_by_role("checkbox", name="play")
        # As the bots guide says: `bots`, and `play` only if scripts should play your seats.
        assert bots.is_checked() and not play.is_checked()
        assert not scrolls_sideways(page), too_wide(page)
        snapshot(page, f"confirm-{size}")
        page.get_by_role("button", name="Create the token").click()

        assert page.get_by_text("Its scopes: bots.").is_visible()
        key = page.locator("#new-key").input_value()
        assert PersonalToken.objects.get(user=ada).scopes == "bots"
        snapshot(page, f"new-{size}")

        page.get_by_role("link", name="Back to your profile").click()
        assert page.locator("dt:has-text('Scopes') + dd").inner_text() == "bots"
        assert key not in page.content()
        page.get_by_role("link", name="Revoke token…").click()
        page.get_by_role("button", name="Revoke the token").click()
        assert page.get_by_text("Your API token is revoked: it no longer works.").is_visible()
        assert not PersonalToken.objects.exists()
