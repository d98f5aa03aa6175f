"""The season page as a member sees it first (web/season_you.py): their place and fixture now or
next before the tables and the settings, their own line marked in the table, "Enter me" for an
admin too, why a member who joined late cannot enter; the lobby's "Your seasons"; a fixture's
forfeit refused to an admin who plays in it; a refusal's code never shown on a page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from league import seasons as league_seasons
from league.clubs import club_join
from league.errors import SeasonError
from league.models import Entry, Fixture
from league.seasons import fixture_forfeit, season_enter, season_start
from tests.games.factories import make_user
from tests.league.factories import make_club, make_season
from tests.web.clients import signed_in
from tests.web.league_pages import ONE_HAND, autumn_season, project, text

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def started(eager_tasks):
    """The autumn season started: round 1 is open (ada plays Greta, Rex sits it out in the
    Premier) and the bots have played theirs."""
    season, ada, ben = autumn_season()
    season = season_start(season=season, admin=ada)
    project()
    return season, ada, ben


def page(client, season) -> str:
    response = client.get(reverse("web:season", args=[season.slug]))
    assert response.status_code == 200
    return response.content.decode()


def ada_fixture(season, ada, *, open_only: bool = True) -> Fixture:
    found = Fixture.objects.filter(division__season=season, seats__entry__user=ada)
    if open_only:
        found = found.exclude(game=None).exclude(game__status=Game.Status.MATCH_OVER)
    return found.order_by("round").first()


def test_the_entrant_sees_their_place_and_open_fixture_before_the_tables_and_settings(started):
    season, ada, _ = started
    html = page(signed_in(ada), season)
    fixture = ada_fixture(season, ada)
    you = html.index('id="you"')
    # First after the header: before the tables, the settings after both.
    assert you < html.index('id="season-tables-heading"') < html.index('id="settings"')
    panel = text(html[you : html.index('id="season-tables-heading"')])
    assert "You in this season" in panel
    assert f"Now: round 1, table {fixture.table} against Greta" in panel
    assert "Your turn" in panel or "Playing" in panel
    game_url = reverse("web:play", args=[fixture.game_id])
    assert f'<a class="button primary" href="{game_url}">Play' in html
    # The settings are folded (a <details> closed) once the season runs.
    assert '<details class="panel settings" id="settings">' in html


def test_the_entrants_own_line_in_the_table_is_marked(started):
    season, ada, ben = started
    html = page(signed_in(ada), season)
    line = html[html.index('id="my-standing"') - 80 : html.index('id="my-standing"') + 400]
    assert "standing--mine" in line and '>ada</a> <strong class="you-mark">(you)</strong>' in line
    assert html.count("standing--mine") == 1
    # Nobody else's line is marked for someone not entered.
    assert "standing--mine" not in page(signed_in(ben), season)


def test_a_round_sat_out_and_the_next_game_are_said_on_the_page_and_in_the_lobby(eager_tasks):
    # Three people at tables of two: one sits each round out while the other two play.
    club, ada, members = make_club(admin=make_user("ada"), members=2)
    season = make_season(
        club,
        ada,
        name="Office League",
        slug="office",
        variant=ONE_HAND,
        start_date=timezone.localdate(),
    )
    for person in (ada, *members):
        season_enter(season=season, actor=ada, user=person)
    season = season_start(season=season, admin=ada)
    resting = season.divisions.get().byes.get(round=1).entry.user
    html = page(signed_in(resting), season)
    panel = text(html[html.index('id="you"') : html.index('id="season-tables-heading"')])
    following = Fixture.objects.get(division__season=season, round=2, seats__entry__user=resting)
    assert (
        "You sit out round 1: the others play it, and you have nothing to play until your "
        "next game opens." in panel
    )
    assert f"Next: round 2, table {following.table} against" in panel
    assert "or as soon as round 1 is done" in panel
    lobby = signed_in(resting).get(reverse("web:lobby")).content.decode()
    said = text(lobby[lobby.index('id="your-seasons-title"') :])
    assert "Your seasons Office League" in said
    assert "you sit out round 1; your next game, round 2, opens" in said
    assert f'href="{reverse("web:season", args=["office"])}#you"' in lobby


def test_the_lobby_says_nothing_of_seasons_to_someone_entered_in_none(started):
    season, _, ben = started
    lobby = signed_in(ben).get(reverse("web:lobby")).content.decode()
    assert "Your seasons" not in lobby


def test_a_member_who_joined_after_the_start_is_told_entries_closed(started):
    season, ada, _ = started
    late = make_user("latecomer")
    club_join(club=season.club, user=late, code=season.club.invite_code)
    said = text(page(signed_in(late), season))
    assert "Enter me" not in said
    assert "entries closed when it started on" in said
    assert "ask an admin of" in said


def test_an_admin_enters_herself_with_enter_me_on_a_draft(eager_tasks):
    club, ada, _ = make_club(admin=make_user("ada"))
    season = make_season(club, ada, name="Office League", slug="office")
    client = signed_in(ada)
    html = page(client, season)
    you = html[html.index('id="you"') : html.index('id="season-tables-heading"')]
    assert "Enter me" in you
    response = client.post(
        reverse("web:season-enter-member", args=[season.slug]), {"username": "ada"}
    )
    assert response.status_code == 302 and "#organiser" not in response["Location"]
    assert Entry.objects.filter(competition=season.competition, user=ada, active=True).exists()
    after = text(page(client, season))
    assert "You are entered" in after and "Withdraw me" in after


# --------------------------------------------------------------------------- own fixture


def test_an_admin_may_not_forfeit_a_seat_of_a_fixture_she_plays_in(started):
    season, ada, _ = started
    fixture = ada_fixture(season, ada)
    with pytest.raises(SeasonError) as refused:
        fixture_forfeit(fixture=fixture, actor=ada, seat=0)
    assert refused.value.code == "own-fixture"
    assert "another admin of the club, or the staff" in refused.value.message
    # Through the page: refused with a message in the fixture's box, nothing forfeited.
    client = signed_in(ada)
    url = reverse("web:fixture-forfeit", args=[season.slug, fixture.pk])
    response = client.post(url, {"seat": "0", "confirm": "1"}, follow=True)
    assert "Nothing was ruled: you play in this fixture" in text(response.content.decode())
    assert "own-fixture" not in text(response.content.decode())
    assert not league_seasons.seat_facts.facts_of(fixture.game_id).forfeited


def test_the_page_offers_no_forfeit_of_her_own_fixture_but_of_the_others(started):
    season, ada, _ = started
    html = page(signed_in(ada), season)
    mine = ada_fixture(season, ada)
    others = (
        Fixture.objects.filter(division__season=season)
        .exclude(seats__entry__user=ada)
        .exclude(game=None)
        .exclude(game__status=Game.Status.MATCH_OVER)
    )
    assert reverse("web:fixture-forfeit", args=[season.slug, mine.pk]) not in html
    assert "You play in this fixture, so you cannot forfeit a seat of it" in text(html)
    # Her retime stays offered, and another fixture's forfeit when one is open.
    assert reverse("web:fixture-retime", args=[season.slug, mine.pk]) in html
    for other in others:
        assert reverse("web:fixture-forfeit", args=[season.slug, other.pk]) in html


def test_staff_forfeit_the_admins_seat(started):
    season, ada, _ = started
    staff = make_user("referee")
    staff.is_staff = True
    staff.save()
    fixture = ada_fixture(season, ada)
    seat = fixture.seats.get(entry__user=ada).number
    assert fixture_forfeit(fixture=fixture, actor=staff, seat=seat) is True


# --------------------------------------------------------------------------- words, not codes


def test_a_running_seasons_edit_and_delete_pages_show_words_not_codes(started):
    season, ada, _ = started
    client = signed_in(ada)
    for name in ("web:season-edit", "web:season-delete"):
        response = client.get(reverse(name, args=[season.slug]))
        assert response.status_code == 409
        html = response.content.decode()
        assert "Autumn League has started" in text(html)
        assert "not-draft" not in text(html)
        assert 'data-code="not-draft"' in html
