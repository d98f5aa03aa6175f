"""The profile's API tokens in the browser, on a phone (360x740) and a desktop: making two named
tokens with their scopes from the profile's form, each key shown once, the list of tokens with
their names, prefixes and scopes, and a revoke button per token, which ends that key alone
(docs/web.md, "The profile")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import PersonalToken
from accounts.services import user_for_token
from tests.games.factories import make_user
from tests.web.browser.clicks import at_size, scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1200, "height": 900}}


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_token_pages-{name}.png"), full_page=True)


def make_token(page, name: str, play: bool) -> str:
    """Fill the profile's form for a new token and return the key the next page shows."""
    form = page.locator("form#new-token")
    form.get_by_label("Name").fill(name)
    bots = form.get_by_role("checkbox", name="bots")
    # As the bots guide says: `bots` ticked, `play` only if scripts should play your seats.
    assert bots.is_checked() and not form.get_by_role("checkbox", name="play").is_checked()
    if play:
        form.get_by_role("checkbox", name="play").check()
    form.get_by_role("button", name="Create the token").click()
    expect(page.get_by_role("heading", name=f"Your new API token “{name}”")).to_be_visible()
    return page.locator("#new-key").input_value()


def test_named_tokens_are_made_listed_and_revoked_one_by_one(open_page, live_server):
    """Made and revoked on a phone, then again in the same tab resized to a desktop."""
    ada = make_user("ada")
    page = None
    for size in SIZES:
        page = at_size(open_page, live_server, page, ada, "/accounts/profile/", **SIZES[size])
        assert page.get_by_text("You have no API token.").is_visible()
        snapshot(page, f"empty-{size}")

        ci = make_token(page, "ci", play=False)
        assert page.get_by_text("Its scopes: bots.").is_visible()
        assert not scrolls_sideways(page), too_wide(page)
        snapshot(page, f"new-{size}")
        page.get_by_role("link", name="Back to your profile").click()
        expect(page.locator("form#new-token")).to_be_visible()
        laptop = make_token(page, "laptop", play=True)
        assert page.get_by_text("Its scopes: bots, play.").is_visible()
        page.get_by_role("link", name="Back to your profile").click()

        tokens = page.locator("#api-tokens li")
        expect(tokens).to_have_count(2)
        assert tokens.count() == 2
        first, second = tokens.nth(0), tokens.nth(1)
        assert first.get_by_role("heading").inner_text() == "ci"
        assert first.locator("dt:has-text('Scopes') + dd").inner_text() == "bots"
        assert second.locator("dt:has-text('Scopes') + dd").inner_text() == "bots, play"
        assert ci not in page.content() and laptop not in page.content()
        assert not scrolls_sideways(page), too_wide(page)
        snapshot(page, f"list-{size}")
        page.locator("#api-tokens").screenshot(
            path=str(ARTIFACTS / f"test_token_pages-section-{size}.png")
        )

        # Its name says which token: "Revoke the token “ci”…" (the words after "Revoke" hidden).
        first.get_by_role("link", name="Revoke the token “ci”").click()
        expect(page.get_by_role("heading", name="Revoke the token “ci”?")).to_be_visible()
        snapshot(page, f"revoke-{size}")
        page.get_by_role("button", name="Revoke the token").click()
        expect(page.get_by_text("The token “ci” is revoked: it no longer works.")).to_be_visible()
        assert page.locator("#api-tokens li").count() == 1
        assert user_for_token(ci) is None and user_for_token(laptop) == ada

        page.get_by_role("link", name="Revoke the token “laptop”").click()
        page.get_by_role("button", name="Revoke the token").click()
        expect(
            page.get_by_text("The token “laptop” is revoked: it no longer works.")
        ).to_be_visible()
        assert not PersonalToken.objects.exists()
