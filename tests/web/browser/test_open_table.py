"""Two people who do not know each other meet at an open table: one opens it on a phone, the
other joins it from the lobby on a desktop with one click, and both land in the game (the opener's
table page follows the table by its poll)."""

from __future__ import annotations

import re

import pytest

from tables.models import Table
from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_one_opens_a_table_on_a_phone_the_other_joins_from_the_lobby_both_land_in_the_game(
    open_page,
):
    ana, ben = make_user("ana"), make_user("ben")
    phone = open_page(ana, "/tables/new/", width=360, height=740)
    phone.get_by_label("Rated: the result moves ratings").check()
    phone.get_by_label("Time for a turn").select_option("3600")
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "open-table-form-phone.png"), full_page=True)
    phone.get_by_role("button", name="Open the table").click()
    phone.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get(opener=ana)
    assert (
        "Waiting for 1 more person: 1 of 2 seats taken."
        in phone.locator("#table-panel").inner_text()
    )
    phone.screenshot(path=str(ARTIFACTS / "open-table-waiting-phone.png"), full_page=True)

    desktop = open_page(ben, "/play/")
    row = desktop.locator(f'[data-table="{table.pk}"]')
    assert "by ana" in row.inner_text() and "rated" in row.inner_text()
    desktop.screenshot(path=str(ARTIFACTS / "open-table-lobby-desktop.png"), full_page=True)
    # The lobby on a phone too, as a third person sees it.
    small = open_page(make_user("cy"), "/play/#open-tables", width=360, height=740)
    small.screenshot(path=str(ARTIFACTS / "open-table-lobby-phone.png"), full_page=True)
    row.get_by_role("button", name=f"Join ana's table {table.pk}").click()

    table.refresh_from_db()
    game = f"/games/{table.game_id}/"
    desktop.wait_for_url(f"**{game}")
    # The opener's page polls every 2 s and follows the table into the game.
    phone.wait_for_url(f"**{game}", timeout=8_000)
    for page in (phone, desktop):
        page.wait_for_selector("#game")
        names = page.locator(".seats, .seat").all_inner_texts()
        assert any("ana" in text for text in names) and any("ben" in text for text in names)


def test_a_challenge_from_a_player_page_accepted_from_the_lobby(open_page):
    ana, ben = make_user("ana"), make_user("ben")
    phone = open_page(ana, "/players/ben/", width=360, height=740)
    phone.get_by_role("link", name="Challenge ben").click()
    phone.wait_for_url("**/tables/new/?challenge=ben")
    assert phone.get_by_label("Challenge a person (username)").input_value() == "ben"
    phone.get_by_role("button", name="Send the challenge").click()
    phone.wait_for_url(re.compile(r"/tables/\d+/$"))
    assert "Waiting for ben to accept." in phone.locator("#table-panel").inner_text()
    phone.screenshot(path=str(ARTIFACTS / "challenge-sent-phone.png"), full_page=True)

    desktop = open_page(ben, "/play/")
    challenges = desktop.locator(".challenges")
    assert "ana challenges you" in challenges.inner_text()
    desktop.screenshot(path=str(ARTIFACTS / "challenge-lobby-desktop.png"), full_page=True)
    challenges.get_by_role("button", name="Accept ana's challenge").click()
    table = Table.objects.get(opener=ana)
    desktop.wait_for_url(f"**/games/{table.game_id}/")
    phone.wait_for_url(f"**/games/{table.game_id}/", timeout=8_000)
    phone.wait_for_selector("#game")
