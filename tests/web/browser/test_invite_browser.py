"""In a real browser, two people on phones (360x740): ada sets up a game on /play/new/ with
Mira_K in seat 2. Nothing starts: ada is told Mira_K is asked, and waits on the invitation's
page; Mira_K's bell says it once and her lobby asks her, Accept or Decline. She accepts, lands
in the game, and ada's page follows into it."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tables.models import Table
from tests.games.factories import make_user
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_person_named_on_the_new_game_form_is_asked_then_accepts(open_page):
    ada, mira = make_user("ada"), make_user("Mira_K")
    ARTIFACTS.mkdir(exist_ok=True)
    creator = open_page(ada, "/play/new/", width=360, height=740)
    creator.get_by_label("Seat 2", exact=True).select_option("person")
    creator.get_by_label("Seat 2 username").fill("Mira_K")
    creator.get_by_label("Seat 3", exact=True).select_option("")
    creator.get_by_label("Seat 4", exact=True).select_option("")
    creator.get_by_role("button", name="Start the game").click()
    creator.wait_for_url(re.compile(r"/tables/\d+/$"))
    assert not Game.objects.exists()
    said = creator.locator("main").inner_text()
    assert "Mira_K is asked; the game starts when they accept" in said
    assert "Waiting for Mira_K to accept" in creator.locator("#table-panel").inner_text()
    creator.screenshot(path=str(ARTIFACTS / "invite-sent-phone.png"), full_page=True)
    # The creator's lobby on a desktop lists it among their open tables, waiting for Mira_K.
    desk = open_page(ada, "/play/")
    mine = desk.locator(f'[data-table="{Table.objects.get(opener=ada).pk}"]')
    assert "waiting for Mira_K" in mine.inner_text() and "to answer" in mine.inner_text()
    desk.screenshot(path=str(ARTIFACTS / "invite-sent-lobby-desktop.png"), full_page=True)

    invited = open_page(mira, "/play/", width=360, height=740)
    assert invited.get_by_role("link", name=re.compile("Notifications, 1 unread")).count() == 1
    challenges = invited.locator(".challenges")
    assert "ada invites you to a game" in challenges.inner_text()
    invited.screenshot(path=str(ARTIFACTS / "invite-lobby-phone.png"), full_page=True)
    challenges.get_by_role("button", name="Accept ada's invitation").click()

    table = Table.objects.get(opener=ada)
    game = f"/games/{table.game_id}/"
    invited.wait_for_url(f"**{game}")
    creator.wait_for_url(f"**{game}", timeout=8_000)
    for page in (creator, invited):
        page.wait_for_selector("#game")
    invited.screenshot(path=str(ARTIFACTS / "invite-accepted-game-phone.png"), full_page=True)
    assert [s.user for s in Game.objects.get().seats.order_by("number")] == [ada, mira]
