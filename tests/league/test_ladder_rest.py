"""The ladders' brakes (league/rest.py): an entrant's budget of sets a day, and matchmaking that
rests while nobody visits the site (as under `make run`), woken by a visit to a page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from league import tasks
from league.ladders import idle_entries, ladder_matchmaking
from league.models import Competition, LadderSet, SiteVisit
from tests.league.factories import enter_bots, make_competition
from tests.league.test_ladder_matchmaking import play_out

pytestmark = pytest.mark.django_db


def games_of(competition: Competition) -> int:
    return Game.objects.filter(context__competition=competition.pk).count()


def ladder_after_sets(sets: int) -> Competition:
    """A ladder of two bots, one game a set (no duplicate deals), after `sets` sets played."""
    ladder = make_competition(seats_per_game=2, duplicate=False)
    enter_bots(ladder, 2)
    for _ in range(sets):
        [game] = ladder_matchmaking(ladder)
        play_out(game)
    return ladder


def test_an_entrant_who_started_its_budget_of_sets_today_waits_a_day(settings):
    settings.LEAGUE_LADDER_SETS_PER_DAY = 2
    ladder = ladder_after_sets(2)

    # Both are idle (their games are over) but have started two sets in the last day.
    assert ladder_matchmaking(ladder) == []
    assert list(idle_entries(ladder)) == []
    # A day after the first set, one set of the day is left: they are seated again.
    first = LadderSet.objects.filter(competition=ladder).order_by("pk")[0]
    LadderSet.objects.filter(pk=first.pk).update(
        created_at=timezone.now() - timedelta(days=1, seconds=1)
    )
    assert len(ladder_matchmaking(ladder)) == 1


def test_no_budget_when_it_is_zero(settings):
    settings.LEAGUE_LADDER_SETS_PER_DAY = 0
    ladder = ladder_after_sets(3)
    assert len(ladder_matchmaking(ladder)) == 1


def test_beat_seats_nobody_while_nobody_visits_and_a_page_wakes_it(settings, client):
    settings.LEAGUE_LADDER_REST_SECONDS = 600
    ladder = make_competition(seats_per_game=2)
    enter_bots(ladder, 2)

    tasks.ladder_matchmaking()
    assert games_of(ladder) == 0

    # Someone opens the lobby: the site has a visitor, and the next run seats the table.
    assert client.get("/").status_code == 200
    tasks.ladder_matchmaking()
    assert games_of(ladder) == 1


def test_a_visit_older_than_the_rest_lets_it_rest_again(settings, client):
    settings.LEAGUE_LADDER_REST_SECONDS = 600
    ladder = make_competition(seats_per_game=2)
    enter_bots(ladder, 2)
    client.get("/")
    SiteVisit.objects.update(seen_at=timezone.now() - timedelta(seconds=601))

    tasks.ladder_matchmaking()

    assert games_of(ladder) == 0


def test_health_checks_are_not_visits(settings, client):
    settings.LEAGUE_LADDER_REST_SECONDS = 600
    client.get("/api/health")
    assert not SiteVisit.objects.exists()


def test_without_a_rest_nothing_is_recorded_and_beat_always_seats(settings, client):
    settings.LEAGUE_LADDER_REST_SECONDS = 0
    ladder = make_competition(seats_per_game=2)
    enter_bots(ladder, 2)
    client.get("/")
    assert not SiteVisit.objects.exists()
    tasks.ladder_matchmaking()
    assert games_of(ladder) == 1
