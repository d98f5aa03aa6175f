"""With scripts off the page still plays: plain forms, a redirect, the board as it is now."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from tests.games.factories import make_user
from tests.web.browser.clicks import click_a_move, version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_move_without_javascript_posts_and_comes_back(open_page):
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        seed=6,
    )
    url = reverse("web:play", args=[game.pk])
    page = open_page(ana, url, javascript=False)
    page.wait_for_selector(".status--mine")
    before = version(page)
    # The deadline shows as a time, not a countdown.
    assert "left" not in page.locator("time[data-deadline]").inner_text()

    with page.expect_navigation():
        assert click_a_move(page)

    assert page.url.endswith(url)
    after = version(page)
    assert after > before
    page.get_by_role("link", name="Refresh").click()
    assert version(page) == after
