"""Out-of-turn chances reach a person playing against bots (bots/turns.py, the grace): the newno
open start and a jump-in, each with the bots' countdown on the page; a person away holds
nobody up. The table: tests/games/tables.py (the person may open with red-6; bot 1 answers
red-8; the person holds the twin red-8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from clocks import presence
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Game, GameEvent
from tests.engine.decks import stacked
from tests.games.factories import commit_play, make_user
from tests.games.tables import jump_in_table
from tests.web.browser.clicks import POLL_MS, version, wait_for_board_after

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def seated_and_present(person, grace: float) -> Game:
    """The game, its creator recorded at the table before its first append commits (as the
    new-game page does: games/lobby.py), so the open start waits for them."""
    with transaction.atomic():
        game = jump_in_table(person, grace=grace)
        presence.seen(person.pk, game.pk)
    return game


def plays(game: Game) -> list[tuple[int, str]]:
    return [
        (event.data["seat"], event.data["card"])
        for event in GameEvent.objects.filter(game=game, type="card-played").order_by("version")
    ]


def card(page, name: str):
    return page.locator(f".hand__card--live form:has(input[name=command][value*='\"{name}\"'])")


def test_a_person_opens_and_then_jumps_in_within_the_bots_grace(open_page):
    ana = make_user("ana")
    game = seated_and_present(ana, grace=20)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    grace = page.locator(".status__grace")
    assert "Anyone may move first: the bots wait for you" in grace.inner_text()
    page.wait_for_function(
        "() => /more seconds/.test(document.querySelector('[data-grace]').textContent)",
        polling=POLL_MS,
    )
    assert plays(game) == []

    old = version(page)
    card(page, "red-6").locator("button").click()
    wait_for_board_after(page, old)
    # Bot 1 answered with red-8, and the bots stopped there: ana holds the other red-8.
    assert plays(game) == [(0, "red-6"), (1, "red-8")]
    grace = page.locator(".status__grace")
    assert "You may move out of turn: the bots wait for you" in grace.inner_text()
    page.wait_for_function(
        "() => /more seconds/.test(document.querySelector('[data-grace]').textContent)",
        polling=POLL_MS,
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "jump-in-countdown.png"), full_page=True)

    old = version(page)
    card(page, "red-8").locator("button").click()
    wait_for_board_after(page, old)
    assert plays(game)[:3] == [(0, "red-6"), (1, "red-8"), (0, "red-8")]
    jumped = GameEvent.objects.get(game=game, type="card-played", version__gt=0, data__seat=0,
                                   data__card="red-8")  # fmt: skip
    assert jumped.data.get("jump") is True


def test_after_the_first_play_the_grace_says_what_is_open_now(open_page):
    # The open start, then bot 1 makes the first play (red 8): the second play is open to ana
    # and bot 2, its neighbours, and the bots wait for ana again. The grace line had gone on
    # saying "Anyone may move first" after the first move was made.
    ana = make_user("ana")
    game = seated_and_present(ana, grace=20)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    assert (
        page.locator(".status__grace")
        .inner_text()
        .startswith("Anyone may move first: the bots wait for you")
    )
    old = version(page)
    commit_play(game, 1, "red-8")
    wait_for_board_after(page, old)
    page.wait_for_selector("[data-grace-line]")
    assert page.locator(".status__line").inner_text().startswith("Second play:")
    grace = page.locator(".status__grace").inner_text()
    assert "Anyone may move first" not in grace
    assert grace.startswith("You may make the second play: the bots wait for you"), grace
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "second-play-grace-360.png"))


def test_the_open_start_waits_the_grace_then_the_page_lets_the_bots_move(open_page):
    ana = make_user("ana")
    # A grace of 2 s: the open start waits three times that (bots/turns.py
    # OPEN_START_GRACE_FACTOR), 6 s, well inside the board's wait below.
    game = seated_and_present(ana, grace=2)
    page = open_page(ana, reverse("web:play", args=[game.pk]))
    assert page.locator(".status__grace").count() == 1
    start = version(page)
    page.wait_for_timeout(1_500)
    # While the grace runs, nobody moves. (Read against the game's own clock, so a loaded
    # machine that took the whole grace to load the page does not make the check lie.)
    moved = plays(game)
    game.refresh_from_db()
    if game.grace_until is not None and timezone.now() < game.grace_until:
        assert moved == []
    # No broker and no sweep here: the page's poll ends the grace, and the bots open.
    if version(page) == start:
        wait_for_board_after(page, start, timeout=15_000)
    assert plays(game)[0] == (1, "red-8")


def test_a_person_away_holds_nobody_up(open_page):
    ana = make_user("ana")
    # Created without ana at the table (never seen): the bots take the open start at once.
    game = jump_in_table(ana, grace=20)
    assert plays(game)[0] == (1, "red-8")
    page = open_page(ana, reverse("web:play", args=[game.pk]))
    assert page.locator(".status__grace").count() == 0


def test_a_person_with_no_card_for_the_open_start_holds_nobody_up(open_page):
    # newno, ana and two bots: ana holds nothing for red 5, so she has no move at the open start
    # and the bots do not wait for her (the page said "the bots wait for you" for a minute
    # while she could do nothing): bot 1 opens with red 8 at once.
    ana = make_user("ana")
    hands = [
        ["green-3", "blue-3", "yellow-2", "blue-9"],
        ["red-8", "yellow-3", "yellow-4", "yellow-9"],
        ["blue-1", "blue-2", "green-4", "blue-7"],
    ]
    with transaction.atomic():
        game = game_create(
            variant_spec={"rules": "newno", "options": {"hand_size": 4, "target": 50}},
            seats=[SeatSpec(user=ana), SeatSpec(bot="greedy"), SeatSpec(bot="greedy")],
            deck=stacked(hands, "red-5", first=1),
            dealer=0,
            settings=GameSettings(grace_seconds=60),
        )
        presence.seen(ana.pk, game.pk)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_function(
        "() => !document.querySelector('.status').textContent.includes('Open start')",
        polling=POLL_MS,
    )
    assert plays(game)[0] == (1, "red-8")
    assert page.locator(".status__grace").count() == 0
