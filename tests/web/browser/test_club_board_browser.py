"""An office club on a phone (360x740, touch): the admin's bell names everyone who replied to
their announcement and the member's own new post, "@omar" reaches omar, and the club's page
lists its finished tournament with its winner (chat/board.py, tournaments/services.py
`recent_finished`). Screenshots in test-artifacts/."""

from __future__ import annotations

import pytest

from chat import board
from games import projections
from league.clubs import club_create, club_join
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import make_tournament, play_round
from tests.web.browser.conftest import ARTIFACTS
from tournaments.rounds import tournament_advance
from tournaments.services import tournament_enter, tournament_start
from tournaments.standings import standings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_club_board-{name}.png"), full_page=True)


def test_the_bells_of_an_office_club_and_its_finished_tournament_on_a_phone(open_page):
    ada = make_user("ada")
    club = club_create(name="Office UNO", creator=ada)
    people = {name: make_user(name) for name in ("lena", "sam", "omar", "ben")}
    for person in people.values():
        club_join(club=club, user=person, code=club.invite_code)
    news = board.post(club=club, author=ada, text="Finals on Friday at 6", announcement=True)
    board.post(club=club, author=people["lena"], text="Count me in", reply_to=news.pk)
    board.post(
        club=club, author=people["sam"], text="Me too, @omar bring the deck", reply_to=news.pk
    )
    board.post(club=club, author=people["ben"], text="Where do we play?")

    cup = make_tournament(
        ada, name="Office Cup", slug="office-cup", club=club, table_size=2, rounds=1
    )
    for _ in range(2):
        tournament_enter(cup, actor=ada, bot=make_bot(owner=ada, strategy="greedy"))
    tournament_start(cup, actor=ada)
    play_round(cup)
    tournament_advance(cup)
    projections.run("tournament-results")
    (winner,) = [line.name for line in standings(cup) if line.rank == 1]

    bell = open_page(ada, "/notifications/", width=360, height=740, touch=True)
    listed = bell.inner_text("main")
    assert "lena and sam replied to your post on the board of Office UNO" in listed
    assert "ben posted on the board of Office UNO" in listed
    snapshot(bell, "admin-bell")

    mentioned = open_page(people["omar"], "/notifications/", width=360, height=740, touch=True)
    assert "sam mentioned you on the board of Office UNO" in mentioned.inner_text("main")
    snapshot(mentioned, "omar-bell")

    page = open_page(ada, f"/clubs/{club.slug}/", width=360, height=740, touch=True)
    panel = page.locator(".tournaments-panel")
    assert "Office Cup\nSwiss · finished" in panel.inner_text()
    assert f"won by {winner}" in panel.inner_text()
    panel.get_by_role("link", name="Office Cup").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "test_club_board-club-tournaments.png"))
    snapshot(page, "club-page")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    desk = open_page(ada, f"/clubs/{club.slug}/")
    snapshot(desk, "club-page-desktop")
    panel.get_by_role("link", name="Office Cup").click()
    page.wait_for_url("**/tournaments/office-cup/")
