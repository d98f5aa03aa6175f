"""league.tasks.ladder_matchmaking: every ladder with matchmaking on, from celery beat."""

from __future__ import annotations

import logging

import pytest

from config.celery import app as celery_app
from games.models import Game
from league import tasks
from league.models import Competition
from tests.league.factories import enter_bots, make_competition

pytestmark = pytest.mark.django_db


def games_of(competition: Competition) -> int:
    return Game.objects.filter(context__competition=competition.pk).count()


def test_it_runs_matchmaking_for_every_ladder_with_matchmaking_on(eager_tasks):
    on = [make_competition(), make_competition(seats_per_game=3)]
    off = make_competition(matchmaking=False)
    league = make_competition(kind=Competition.Kind.LEAGUE)
    for competition in [*on, off, league]:
        enter_bots(competition, 3)

    tasks.ladder_matchmaking.delay()

    assert [games_of(ladder) for ladder in on] == [1, 1]
    assert (games_of(off), games_of(league)) == (0, 0)
    # Safe to run twice: everybody who could be seated is playing.
    tasks.ladder_matchmaking.delay()
    assert Game.objects.count() == 2


def test_one_ladders_trouble_does_not_stop_the_others(caplog):
    broken, fine = make_competition(), make_competition()
    for ladder in (broken, fine):
        enter_bots(ladder, 2)
    # A variant the rules no longer know (the check in competition_create bypassed).
    Competition.objects.filter(pk=broken.pk).update(variant={"rules": "retired"})

    with caplog.at_level(logging.ERROR, logger="league.tasks"):
        tasks.ladder_matchmaking()

    assert (games_of(broken), games_of(fine)) == (0, 1)
    assert f"competition {broken.pk}" in caplog.text


def test_beat_runs_it_every_league_matchmaking_seconds(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["ladder-matchmaking"]
    assert entry["schedule"] == settings.LEAGUE_MATCHMAKING_SECONDS
    # What a worker finds by autodiscovery (config/celery.py).
    celery_app.loader.import_default_modules()
    assert entry["task"] in celery_app.tasks
