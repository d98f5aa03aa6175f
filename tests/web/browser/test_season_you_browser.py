"""An office club's running season on a phone (360x740) and a desk (1280x800): the member's own
place and fixture come first on the season page, on the first screen, with the game one tap
away; their line in the table is marked; the settings are folded below the tables. A member
who sits the round out finds the season in the lobby too (web/season_you.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from league.clubs import member_role
from league.models import Bye, Fixture
from league.seasons import season_enter, season_start
from tests.games.factories import make_user
from tests.league.factories import make_club, make_season
from tests.web.browser.conftest import ARTIFACTS
from tests.web.league_pages import ONE_HAND

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def office(eager_tasks):
    """Five people at tables of two, three rounds: round 1 has two games open and one
    person sitting it out."""
    club, ada, members = make_club(admin=make_user("ada"), members=4)
    season = make_season(
        club,
        ada,
        name="Office League",
        slug="office",
        variant=ONE_HAND,
        rounds=3,
        start_date=timezone.localdate(),
    )
    for person in (ada, *members):
        season_enter(season=season, actor=ada, user=person)
    return season_start(season=season, admin=ada), ada


@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_a_player_sees_their_fixture_and_place_on_the_first_screen(
    open_page, office, width, height
):
    season, _ = office
    fixture = Fixture.objects.filter(division__season=season, round=1).first()
    player = fixture.seats.get(number=0).entry.user
    page = open_page(player, reverse("web:season", args=[season.slug]), width=width, height=height)
    you = page.locator("#you")
    play = you.get_by_role("link", name="Play")
    assert play.get_attribute("href") == reverse("web:play", args=[fixture.game_id])
    # The button is on the first screen, without a scroll.
    box = play.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height
    assert f"Now: round 1, table {fixture.table}" in you.inner_text()
    # Their line in the table is marked, and only theirs.
    mine = page.locator("tr.standing--mine")
    assert mine.count() == 1 and f"{player.username} (you)" in mine.inner_text()
    # The settings are folded, below the tables.
    assert not page.locator("#settings dl").is_visible()
    page.locator("#settings summary").click()
    assert page.locator("#settings dl").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"season-you-settings-{width}.png"))
    page.locator("#settings summary").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"season-you-playing-{width}.png"))


def test_the_one_sitting_out_is_told_on_the_season_page_and_in_the_lobby(open_page, office):
    season, _ = office
    resting = Bye.objects.get(division__season=season, round=1).entry.user
    page = open_page(resting, reverse("web:season", args=[season.slug]), width=360, height=740)
    said = page.locator("#you").inner_text()
    assert "You sit out round 1" in said and "Next: round 2" in said
    assert page.locator("#you").bounding_box()["y"] < 740
    page.screenshot(path=str(ARTIFACTS / "season-you-bye-360.png"))
    lobby = open_page(resting, reverse("web:lobby"), width=360, height=740)
    seasons = lobby.get_by_role("region", name="Your seasons")
    assert "you sit out round 1; your next game, round 2, opens" in seasons.inner_text()
    lobby.screenshot(path=str(ARTIFACTS / "season-you-lobby-360.png"))
    seasons.get_by_role("link", name="Office League").click()
    lobby.wait_for_url(f"**/seasons/{season.slug}/#you")


def test_the_admin_is_offered_no_forfeit_in_her_own_fixture_and_no_code_on_a_refusal(
    open_page, office
):
    season, founder = office
    # A member seated in round 1 made an admin too: she rules, but not on her own fixture.
    fixture = Fixture.objects.filter(division__season=season, round=1).first()
    ada = fixture.seats.get(number=0).entry.user
    if ada != founder:
        member_role(club=season.club, admin=founder, user=ada, role="admin")
    page = open_page(ada, reverse("web:season", args=[season.slug]), width=360, height=740)
    box = page.locator(f"#fixture-{fixture.pk}")
    box.locator("details.rule > summary").click()
    assert box.get_by_role("button", name="Forfeit the seat").count() == 0
    assert "You play in this fixture, so you cannot forfeit a seat of it" in box.inner_text()
    assert box.get_by_role("button", name="Move the deadline").is_visible()
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "season-you-own-fixture-360.png"))
    edit = open_page(
        ada,
        reverse("web:season-edit", args=[season.slug]),
        width=360,
        height=740,
        allow=("409",),
    )
    said = edit.get_by_role("alert").inner_text()
    assert said == "Office League has started: its settings change only while a season is a draft."
    edit.screenshot(path=str(ARTIFACTS / "season-you-edit-refused-360.png"))


@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_the_admin_enters_herself_from_the_first_screen_of_a_draft(open_page, width, height):
    club, ada, _ = make_club(admin=make_user("ada"), members=1)
    season = make_season(club, ada, name="Office League", slug="office")
    page = open_page(ada, reverse("web:season", args=[season.slug]), width=width, height=height)
    enter = page.locator("#you").get_by_role("button", name="Enter me")
    box = enter.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height
    page.screenshot(path=str(ARTIFACTS / f"season-you-draft-admin-{width}.png"))
    with page.expect_navigation():
        enter.click()
    assert "You are entered." in page.locator("main").inner_text()
    assert page.locator("#you").get_by_role("button", name="Withdraw me").is_visible()
