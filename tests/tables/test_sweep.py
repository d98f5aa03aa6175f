"""The tables' periodic sweep (tables/services.py sweep, tables/tasks.py sweep_tables): open tables
whose bot-fill time came start with built-in bots in the empty seats; open tables past their time
expire; the task is on the beat schedule and run_periodic runs it without a broker."""

from __future__ import annotations

import datetime
import logging

import pytest
from django.conf import settings
from django.utils import timezone

from games.game_settings import GameSettings
from games.management.commands.run_periodic import PeriodicRunner
from social.models import Notification
from tables import listings, services
from tables.models import Table
from tables.tasks import sweep_tables
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db


def opened(person, **kwargs) -> Table:
    kwargs.setdefault("variant_spec", {"rules": "official"})
    kwargs.setdefault("seats", 4)
    return services.open_table(opener=person, **kwargs)


def due(table: Table, **fields: datetime.datetime) -> None:
    Table.objects.filter(pk=table.pk).update(**fields)


def test_a_table_whose_fill_time_came_starts_with_bots_in_the_empty_seats():
    ana, ben = make_user("ana"), make_user("ben")
    table = opened(ana, fill_with_bots_after=5, rated=True, turn_seconds=60)
    services.join(table_id=table.pk, person=ben)
    assert services.sweep().filled == [], "not yet: five minutes to go"
    due(table, fills_at=timezone.now())
    swept = services.sweep()
    assert swept.filled == [table.pk]
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED and table.game is not None
    seats = list(table.game.seats.order_by("number"))
    assert sorted(seat.user.username for seat in seats if seat.user) == ["ana", "ben"]
    bots = [seat.bot for seat in seats if seat.user is None]
    assert len(bots) == 2 and set(bots) <= {"greedy", "colour-control"}
    found = GameSettings.of(table.game.context)
    assert (found.rated, found.table, found.turn_seconds) == (True, table.pk, 60)
    for person in (ana, ben):
        assert Notification.objects.filter(user=person, kind="table-started").count() == 1
    # Run twice: nothing more happens.
    assert services.sweep().filled == []


def test_the_opener_alone_plays_the_bots_of_the_family():
    ana = make_user("ana")
    table = opened(
        ana,
        variant_spec={"rules": "official", "precognitive": {}},
        seats=3,
        fill_with_bots_after=1,
    )
    due(table, fills_at=timezone.now())
    services.sweep()
    table.refresh_from_db()
    bots = [seat.bot for seat in table.game.seats.all() if seat.user is None]
    assert len(bots) == 2 and set(bots) <= {"greedy", "lane-planner"}


def test_tables_past_their_time_expire_and_no_game_starts():
    ana, ben = make_user("ana"), make_user("ben")
    lapsed = opened(ana)
    services.join(table_id=lapsed.pk, person=ben)
    fresh = opened(ana)
    challenge = opened(ana, seats=2, challenge="ben")
    due(lapsed, expires_at=timezone.now())
    due(challenge, expires_at=timezone.now())
    assert services.sweep().expired == 2
    statuses = dict(Table.objects.values_list("pk", "status"))
    assert statuses == {lapsed.pk: "expired", fresh.pk: "open", challenge.pk: "expired"}
    assert Table.objects.get(pk=lapsed.pk).game is None
    # The expired challenge is no longer ben's to answer.
    assert listings.challenges_for(ben) == []


def test_a_cancelled_table_is_never_filled():
    ana = make_user("ana")
    table = opened(ana, fill_with_bots_after=1)
    services.cancel(table_id=table.pk, person=ana)
    due(table, fills_at=timezone.now(), expires_at=timezone.now())
    swept = services.sweep()
    assert swept.filled == [] and swept.expired == 0
    assert Table.objects.get(pk=table.pk).status == "cancelled"


# run_periodic closes the connections around each task, as a long-lived process must.
@pytest.mark.django_db(transaction=True)
def test_the_task_runs_on_the_beat_schedule_and_under_run_periodic(eager_tasks):
    assert settings.CELERY_BEAT_SCHEDULE["sweep-tables"]["task"] == "tables.tasks.sweep_tables"
    ana = make_user("ana")
    table = opened(ana, fill_with_bots_after=1)
    due(table, fills_at=timezone.now())
    # run_periodic's runner (make run, without a broker) finds the task by its name and runs it.
    schedule = {"sweep-tables": settings.CELERY_BEAT_SCHEDULE["sweep-tables"]}
    runner = PeriodicRunner(schedule, run_level=logging.DEBUG)
    runner.run_due()
    assert Table.objects.get(pk=table.pk).status == "started"
    # And the task itself, as a worker runs it.
    other = opened(ana)
    due(other, expires_at=timezone.now())
    sweep_tables.apply()
    assert Table.objects.get(pk=other.pk).status == "expired"
