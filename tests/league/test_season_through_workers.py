"""A whole season of bots played through a real `celery worker` process, real Redis and
PostgreSQL: the rounds open as the ones before them finish (league.tasks.open_rounds, as beat
runs it), the projections run in the worker, and the final table equals a rebuild from 0."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator

import pytest

from engine import MATCH_OVER
from games import projections
from games import tasks as game_tasks
from games.models import MatchResult
from league import tasks
from league.models import Fixture, Season
from league.seasons import season_close, season_enter, season_start
from league.standings import division_table
from tests.games.conftest import needs_postgresql
from tests.games.workers import Worker, assert_finished_whole, sending_to, wait_for
from tests.league.factories import make_bot, make_club, make_season

pytestmark = [needs_postgresql, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(django_db_setup, redis_url) -> Iterator[Worker]:
    worker = Worker(redis_url)
    worker.start()
    with sending_to(worker):
        yield worker


def unfinished(season: Season) -> int:
    return Fixture.objects.filter(division__season=season).exclude(game__status=MATCH_OVER).count()


def test_a_season_of_bots_ends_with_the_table_a_rebuild_gives(worker):
    club, admin, _ = make_club()
    # Five bots at tables of three (newno, whose Youngest Rule needs the seats' ages): one
    # table a round, two byes.
    season = make_season(
        club, admin, seats_per_game=3, variant={"rules": "newno", "options": {"target": 60}}
    )
    for strategy in ("greedy", "random", "greedy", "random", "greedy"):
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin, strategy=strategy))
    season_start(season=season, admin=admin)

    def season_over() -> bool:
        tasks.open_rounds.delay()
        return unfinished(season) == 0

    wait_for(
        season_over,
        timeout=240,
        what=lambda: f"the season to end; worker log:\n{worker.output()[-3000:]}",
    )
    fixtures = list(Fixture.objects.filter(division__season=season))
    for fixture in fixtures:
        assert_finished_whole(fixture.game_id)
    played = sum(fixture.seats.count() for fixture in fixtures)
    # The worker's own projection runs (games.tasks.run_projections) catch the table up.
    game_tasks.run_projections.delay()
    (division,) = season.divisions.all()
    wait_for(
        lambda: sum(line.played for line in division_table(division)) == played,
        timeout=60,
        what="the standings to count every fixture",
    )
    assert MatchResult.objects.filter(game__fixture__division=division).count() == len(fixtures)
    live = json.dumps([line.as_dict() for line in division_table(division)])
    projections.rebuild("league-standings")
    assert json.dumps([line.as_dict() for line in division_table(division)]) == live
    closed = season_close(season=season, admin=admin)
    assert closed.status == Season.Status.CLOSED
    assert division.__class__.objects.get(pk=division.pk).final_table == json.loads(live)
    assert closed.closed_at is not None and closed.closed_at <= datetime.datetime.now(datetime.UTC)
