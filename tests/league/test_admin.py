"""league admin: competitions listed, added and checked like competition_create; entries listed
and withdrawn, never added around competition_join."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import projections, turns
from games.models import Game
from league.models import Competition, Entry, Fixture
from league.seasons import season_enter, season_start
from tests.league.factories import enter_bots, make_bot, make_club, make_competition, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    user = django_user_model.objects.create_superuser("admin", password="pw")
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", ["competition", "entry"])
def test_every_league_page_lists_its_rows(staff, model):
    enter_bots(make_competition(), 2)

    response = staff.get(reverse(f"admin:league_{model}_changelist"))

    assert response.status_code == 200
    assert b"Competition " in response.content


def add_form(**fields):
    return {
        "name": "Club night",
        "slug": "club-night",
        "kind": "league",
        "variant": '{"rules": "official"}',
        "seats_per_game": "4",
        "turn_seconds": "3600",
        "bot_timeout": "1.0",
        "pull_timeout": "30",
        "vacation_days": "3",
        **fields,
    }


def test_a_competition_added_in_the_admin_is_checked_and_normalised(staff):
    response = staff.post(reverse("admin:league_competition_add"), add_form())

    assert response.status_code == 302
    competition = Competition.objects.get()
    assert competition.variant["options"]["target"] == 500
    assert competition.created_by.username == "admin"


@pytest.mark.parametrize(
    "fields",
    [
        {"variant": '{"rules": "speed-uno"}'},
        {"variant": '{"rules": "censorship"}', "seats_per_game": "2"},
    ],
)
def test_the_admin_refuses_what_competition_create_refuses(staff, fields):
    response = staff.post(reverse("admin:league_competition_add"), add_form(**fields))

    assert response.status_code == 200
    assert not Competition.objects.exists()


def test_entries_are_withdrawn_not_added_in_the_admin(staff):
    entries = enter_bots(make_competition(), 2)

    assert staff.get(reverse("admin:league_entry_add")).status_code == 403
    response = staff.post(
        reverse("admin:league_entry_changelist"),
        {"action": "withdraw", "_selected_action": [entries[0].pk]},
    )

    assert response.status_code == 302
    assert list(Entry.objects.filter(active=True)) == [entries[1]]


@pytest.mark.parametrize("model", ["club", "season", "fixture", "standing"])
def test_clubs_and_seasons_are_listed_and_never_added_here(staff, model):
    club, admin, _ = make_club()
    season = make_season(club, admin)
    for _ in range(2):
        season_enter(season=season, actor=admin, bot=make_bot())
    season_start(season=season, admin=admin)
    (fixture,) = Fixture.objects.filter(division__season=season)
    while Game.objects.get(pk=fixture.game_id).status != Game.Status.MATCH_OVER:
        turns.advance_game(game_id=fixture.game_id)
    for name in projections.PROJECTIONS:
        projections.run(name)

    response = staff.get(reverse(f"admin:league_{model}_changelist"))

    assert response.status_code == 200
    assert club.name.encode() in response.content or season.name.encode() in response.content
    assert staff.get(reverse(f"admin:league_{model}_add")).status_code == 403
