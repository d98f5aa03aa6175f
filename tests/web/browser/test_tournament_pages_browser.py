"""The tournament pages as a person sees them on a phone (360 x 740) and on a desktop: an
arena's entrant pauses and resumes from its page, a knockout's page says how it was seeded,
the list and the new-tournament form, and a tournament game's play page marking each seat
person or bot and linking back to its tournament; nothing scrolls sideways."""

from __future__ import annotations

import pytest

from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import make_tournament
from tests.web.browser.clicks import scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS
from tournaments.models import Entry, TournamentGame
from tournaments.services import tournament_enter, tournament_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def test_an_arena_entrant_pauses_and_resumes_on_a_phone(open_page):
    ana = make_user("ana")
    arena = make_tournament(
        ana, name="Phone Arena", slug="phone-arena", format="arena", table_size=2
    )
    tournament_enter(arena, actor=ana, user=ana)
    for _ in range(3):
        tournament_enter(arena, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(arena, actor=ana)

    page = open_page(ana, "/tournaments/phone-arena/", **PHONE)
    assert page.get_by_role("heading", name="Leaderboard").is_visible()
    page.get_by_role("button", name="Pause", exact=True).click()
    assert page.get_by_text("You are paused in Phone Arena").is_visible()
    ana_row = page.locator("tr.standing", has_text="ana")
    assert "paused" in ana_row.inner_text()
    assert not scrolls_sideways(page), too_wide(page)
    assert Entry.objects.get(tournament=arena, user=ana).paused
    page.get_by_role("button", name="Resume", exact=True).click()
    assert page.get_by_text("You are back in Phone Arena").is_visible()
    assert not Entry.objects.get(tournament=arena, user=ana).paused

    # Ana's table: every seat says person or bot, on the phone too.
    table = next(
        t
        for t in TournamentGame.objects.filter(round__tournament=arena)
        if Entry.objects.get(tournament=arena, user=ana).pk in t.entries
    )
    game = open_page(ana, f"/games/{table.game_id}/", **PHONE)
    game.wait_for_selector("#game")
    kinds = game.locator(".seat [data-kind]").all_inner_texts()
    assert sorted(kinds) == ["bot", "person"]
    assert not scrolls_sideways(game), too_wide(game)
    game.get_by_role("link", name="Phone Arena").click()
    assert game.get_by_role("heading", name="Leaderboard").is_visible()


def test_a_knockouts_page_the_list_and_the_form_fit(open_page):
    """The three pages opened on a phone, then their tabs resized to a desktop."""
    ana = make_user("ana")
    cup = make_tournament(
        ana, name="Rated Knockout Cup", slug="rated-ko", format="knockout", table_size=2
    )
    tournament_enter(cup, actor=ana, user=ana)
    for _ in range(4):
        tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=ana)

    page = open_page(ana, "/tournaments/rated-ko/", **PHONE)
    listing = open_page(ana, "/tournaments/", **PHONE)
    form = open_page(ana, "/tournaments/new/", **PHONE)
    for size in (PHONE, DESKTOP):
        for tab in (page, listing, form):
            tab.set_viewport_size(size)
        assert "seeded by rating" in page.locator("main").inner_text()
        assert page.get_by_role("button", name="Withdraw yourself").is_visible()
        assert not scrolls_sideways(page), too_wide(page)
        assert listing.get_by_role("link", name="Rated Knockout Cup").is_visible()
        assert not scrolls_sideways(listing), too_wide(listing)
        assert form.get_by_label("Knockout seeding").is_visible()
        assert not scrolls_sideways(form), too_wide(form)
        ARTIFACTS.mkdir(exist_ok=True)
        for name, tab in (("cup", page), ("list", listing), ("form", form)):
            tab.screenshot(
                path=str(ARTIFACTS / f"knockout-{name}-{size['width']}.png"), full_page=True
            )


def test_a_swiss_standings_table_shows_every_column_on_a_phone(open_page):
    """The standings' Wins, Byes and Forfeits are on screen at 360 x 740 without scrolling the
    table sideways, as on a desktop."""
    ana = make_user("ana")
    cup = make_tournament(ana, name="Phone Swiss", slug="phone-swiss", table_size=3, rounds=2)
    tournament_enter(cup, actor=ana, user=ana)
    for _ in range(3):
        tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=ana)

    page = open_page(ana, "/tournaments/phone-swiss/", **PHONE)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        box = page.locator(".records .table-scroll").first
        page.get_by_role("heading", name="Standings").scroll_into_view_if_needed()
        assert box.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), box.evaluate(
            "el => [el.scrollWidth, el.clientWidth]"
        )
        for column in ("Points", "Played", "Wins", "Byes", "Forfeits"):
            header = page.get_by_role("columnheader", name=column)
            assert (
                header.is_visible()
                and header.bounding_box()["x"] + header.bounding_box()["width"] <= size["width"]
            ), column
        assert not scrolls_sideways(page), too_wide(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(
            path=str(ARTIFACTS / f"swiss-standings-{size['width']}.png"), full_page=True
        )


def test_a_tournament_games_lobby_card_and_the_forms_errors_on_a_phone(open_page):
    """The lobby card of a tournament game names its tournament and round, and the new form's
    error sits by its field, on a phone and a desktop (screenshots for the eye)."""
    ana = make_user("ana")
    cup = make_tournament(ana, name="Lobby Swiss", slug="lobby-swiss", table_size=2, rounds=1)
    tournament_enter(cup, actor=ana, user=ana)
    tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=ana)

    lobby = open_page(ana, "/play/", **PHONE)
    form = open_page(ana, "/tournaments/new/", **PHONE)
    form.get_by_label("Tournament name").fill("Late Cup")
    form.get_by_label("Entry closes (UTC)").fill("2020-01-01T10:00")
    form.get_by_role("button", name="Create the tournament").click()
    form.wait_for_selector("#id_entry_closes_error")
    for size in (PHONE, DESKTOP):
        for tab in (lobby, form):
            tab.set_viewport_size(size)
        mark = lobby.get_by_role("link", name="Lobby Swiss · round 1, table 1")
        assert mark.is_visible()
        assert not scrolls_sideways(lobby), too_wide(lobby)
        error = form.locator("#id_entry_closes_error")
        assert "has passed" in error.inner_text()
        field = form.get_by_label("Entry closes (UTC)").bounding_box()
        shown = error.bounding_box()
        # Just above its field.
        assert field and shown and 0 <= field["y"] - shown["y"] - shown["height"] < 40
        assert not scrolls_sideways(form), too_wide(form)
        ARTIFACTS.mkdir(exist_ok=True)
        lobby.screenshot(path=str(ARTIFACTS / f"tournament-lobby-{size['width']}.png"))
        error.scroll_into_view_if_needed()
        form.screenshot(path=str(ARTIFACTS / f"tournament-form-error-{size['width']}.png"))


def test_the_new_forms_date_and_time_box_stays_in_its_column(open_page):
    """The new form's "Entry closes" on a desktop: its date-and-time box as wide as its grid
    column, not wider (the browser's own width of a datetime-local box passed the column's),
    room for its whole value, and as styled as the boxes beside it; on a phone too."""
    ana = make_user("ana")
    for size in (DESKTOP, PHONE):
        form = open_page(ana, "/tournaments/new/", **size)
        box = form.get_by_label("Entry closes (UTC)")
        column = box.evaluate("el => el.closest('.field').getBoundingClientRect().right")
        shown = box.bounding_box()
        assert shown and shown["x"] + shown["width"] <= column + 0.5, (shown, column)
        # Room for the whole date and time ("12/01/2026, 06:38 PM"), its AM/PM not cut off.
        assert shown["width"] >= 250, shown
        beside = form.get_by_label("Most entrants")
        assert box.evaluate("el => getComputedStyle(el).borderTopColor") == beside.evaluate(
            "el => getComputedStyle(el).borderTopColor"
        )
        assert not scrolls_sideways(form), too_wide(form)
        box.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        form.screenshot(path=str(ARTIFACTS / f"tournament-form-entry-{size['width']}.png"))
