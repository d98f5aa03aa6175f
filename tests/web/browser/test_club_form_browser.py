"""The new-club form refuses an emoji-only name at the name, on a phone and a desktop: the
summary above the form says why and links to the field; no empty box."""

from __future__ import annotations

import pytest

from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1200, 900)])
def test_an_emoji_name_is_refused_at_the_name(open_page, width, height):
    page = open_page(make_user("ana"), "/clubs/new/", width=width, height=height)
    page.get_by_label("Name").fill("🎲🃏🎲")
    page.get_by_role("button", name="Create the club").click()

    summary = page.locator(".form-errors")
    assert "Name: This name has no letter or digit" in summary.inner_text()
    assert "Give an address" not in page.content()
    page.screenshot(path=str(ARTIFACTS / f"club-emoji-name-{width}.png"), full_page=True)
