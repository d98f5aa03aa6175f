"""A Swiss tournament in the browser, on a phone (360 x 740): a person enters from its page,
starts it, follows the link to their table, plays the round to its end against two built-in
bots, and finds the final standings with each entrant marked person or bot."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from engine import MATCH_OVER
from games.models import Game
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import make_tournament
from tests.web.browser.clicks import my_turn, play_a_turn, scrolls_sideways, too_wide
from tournaments.models import Tournament, TournamentGame
from tournaments.services import tournament_enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Two cards each and one hand: the round is a few turns long.
QUICK = {"rules": "official", "options": {"scoring": "single-hand", "hand_size": 2}}


def test_a_person_enters_a_swiss_and_plays_its_round_on_a_phone(open_page):
    ana = make_user("ana")
    cup = make_tournament(
        ana, name="Phone Swiss", slug="phone-swiss", variant=QUICK, table_size=3, rounds=1
    )
    for _ in range(2):
        tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))

    page = open_page(ana, "/tournaments/phone-swiss/", width=360, height=740)
    assert page.get_by_role("heading", level=1).inner_text() == "Phone Swiss"
    page.get_by_role("button", name="Enter yourself").click()
    assert page.get_by_text("You are entered in Phone Swiss.").is_visible()
    assert not scrolls_sideways(page), too_wide(page)
    # "Start now…" asks first, on a page of its own (web/tournaments.py `start`).
    page.get_by_role("link", name="Start now…").click()
    expect(page.get_by_role("heading", name="Start Phone Swiss now?")).to_be_visible()
    page.get_by_role("button", name="Start now").click()
    expect(page.get_by_text("Phone Swiss has started: round 1 is drawn.")).to_be_visible()

    (table,) = TournamentGame.objects.filter(round__tournament=cup)
    seats = page.locator(".tournament-tables .seat-list li").all_inner_texts()
    assert sorted(seat.split()[-1] for seat in seats) == ["bot", "bot", "person"]
    page.get_by_role("link", name=f"Table 1 (game {table.game_id})").click()
    page.wait_for_selector("#game")

    deadline = time.monotonic() + 60
    while Game.objects.get(pk=table.game_id).status != MATCH_OVER:
        assert time.monotonic() < deadline, "the round did not end"
        if my_turn(page):
            play_a_turn(page)
        else:
            page.wait_for_timeout(200)
            page.reload()
            page.wait_for_selector("#game")

    # The game's end finished the round, the tournament's only one (tournaments/dispatch.py).
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    page.goto(page.url.split("/games/")[0] + "/tournaments/phone-swiss/")
    assert page.get_by_role("heading", name="Final standings").is_visible()
    rows = page.get_by_role("table", name="Standings, best first").locator("tbody tr")
    assert rows.count() == 3
    names = rows.locator("th").all_inner_texts()
    assert sorted(name.split()[-1] for name in names) == ["bot", "bot", "person"]
    assert any(name.startswith("ana") for name in names)
    assert not scrolls_sideways(page), too_wide(page)
