"""A draft season edited or deleted by its organisers (league/season_drafts.py): only while it
is a draft, only by the club's admins and staff, every refusal typed and changing nothing."""

from __future__ import annotations

import datetime
import threading
import time
from typing import Any
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.db import connection

from league import seasons
from league.errors import (
    EntryRefused,
    InvalidCompetition,
    NotClubAdmin,
    SeasonError,
    SeasonNotFound,
)
from league.models import Competition, Division, DivisionEntry, Entry, Season
from league.season_drafts import season_delete, season_edit
from league.seasons import DivisionSpec, season_enter, season_start
from social.models import Notification
from tests.games.factories import make_user
from tests.league.factories import make_bot, make_club, make_season

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 1, 5, 9, 0, tzinfo=datetime.UTC)


def draft() -> tuple[Season, Any, Any]:
    """A draft of tables of two in two divisions: ben (a member) in the lower one, two of the
    admin's bots in the top one."""
    club, admin, (ben,) = make_club(members=1)
    season = make_season(
        club,
        admin,
        name="Autumn League",
        slug="autumn",
        divisions=[DivisionSpec("Premier", relegate=1), DivisionSpec("Challenger", promote=1)],
    )
    for _ in range(2):
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin), tier=1)
    season_enter(season=season, actor=ben, user=ben)
    return season, admin, ben


def settings(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "name": "Winter League",
        "slug": "winter",
        "variant": {"rules": "basic-plus", "options": {"scoring": "single-hand"}},
        "start_date": datetime.date(2026, 2, 2),
        "seats_per_game": 3,
        "placement_points": [3, 1, 0],
        "round_days": 5,
        "rounds": 4,
        "turn_seconds": 3600,
        "vacation_days": 2,
        "divisions": [DivisionSpec("Top", relegate=2), DivisionSpec("Bottom", promote=2)],
    }
    return fields | changes


def snapshot(season: Season) -> tuple:
    season = Season.objects.select_related("competition").get(pk=season.pk)
    competition = season.competition
    return (
        competition.name,
        competition.slug,
        competition.variant,
        competition.seats_per_game,
        competition.turn_seconds,
        season.placement_points,
        season.round_days,
        list(season.divisions.values_list("tier", "name", "promote", "relegate")),
        sorted(
            DivisionEntry.objects.filter(division__season=season).values_list(
                "division__tier", "entry"
            )
        ),
    )


def test_an_admin_edits_a_drafts_settings_and_its_entrants_stay():
    season, admin, ben = draft()
    entries = sorted(DivisionEntry.objects.values_list("division__tier", "entry"))

    edited = season_edit(season=season, admin=admin, **settings())

    competition = Competition.objects.get(pk=season.competition_id)
    assert (competition.name, competition.slug, competition.seats_per_game) == (
        "Winter League",
        "winter",
        3,
    )
    assert competition.variant["rules"] == "basic-plus"
    assert competition.variant["options"]["scoring"] == "single-hand"
    assert (competition.turn_seconds, competition.vacation_days) == (3600, 2)
    season = Season.objects.get(pk=edited.pk)
    assert (season.placement_points, season.round_days, season.rounds) == ([3, 1, 0], 5, 4)
    assert season.start_date == datetime.date(2026, 2, 2)
    assert list(season.divisions.values_list("tier", "name", "promote", "relegate")) == [
        (1, "Top", 0, 2),
        (2, "Bottom", 2, 0),
    ]
    assert sorted(DivisionEntry.objects.values_list("division__tier", "entry")) == entries


def test_blank_settings_take_the_same_defaults_as_a_new_season():
    season, admin, _ = draft()

    season_edit(
        season=season,
        admin=admin,
        **settings(placement_points=None, rounds=None, turn_seconds=None, seats_per_game=4),
    )

    season = Season.objects.select_related("competition").get(pk=season.pk)
    assert season.placement_points == [4, 2, 1, 0]
    assert season.rounds is None
    assert season.competition.turn_seconds == django_settings.GAMES_TURN_SECONDS


def test_only_the_clubs_admins_and_staff_edit_or_delete_a_draft():
    season, admin, ben = draft()
    before = snapshot(season)
    stranger = make_user()
    for person in (ben, stranger):
        with pytest.raises(NotClubAdmin):
            season_edit(season=season, admin=person, **settings())
        with pytest.raises(NotClubAdmin):
            season_delete(season=season, admin=person)
    assert snapshot(season) == before

    staff = make_user()
    staff.is_staff = True
    staff.save()
    season_edit(season=season, admin=staff, **settings())
    assert Competition.objects.get(pk=season.competition_id).name == "Winter League"


def test_a_started_season_is_neither_edited_nor_deleted():
    season, admin, ben = draft()
    season_enter(season=season, actor=admin, bot=make_bot(owner=admin), tier=2)
    season_start(season=season, admin=admin, now=NOW)
    before = snapshot(season)

    with pytest.raises(SeasonError) as edited:
        season_edit(season=season, admin=admin, **settings())
    with pytest.raises(SeasonError) as deleted:
        season_delete(season=season, admin=admin)

    assert (edited.value.code, deleted.value.code) == ("not-draft", "not-draft")
    assert edited.value.message == (
        "Autumn League has started: its settings change only while a season is a draft"
    )
    assert deleted.value.message == (
        "Autumn League has started: it can be deleted only while a season is a draft"
    )
    assert snapshot(season) == before
    assert Season.objects.filter(pk=season.pk).exists()


@pytest.mark.parametrize(
    ("changes", "error", "code"),
    [
        # ben is in the Challenger, the second division.
        ({"divisions": [DivisionSpec("Only")]}, SeasonError, "division-not-empty"),
        ({"placement_points": [1, 2, 0]}, SeasonError, "invalid-season"),
        (
            {"variant": {"rules": "censorship"}, "seats_per_game": 2, "placement_points": None},
            InvalidCompetition,
            "invalid-setting",
        ),
        ({"variant": {"rules": "newno"}}, EntryRefused, "birth-date-missing"),
    ],
)
def test_a_refused_edit_says_why_and_changes_nothing(changes, error, code):
    season, admin, _ = draft()
    before = snapshot(season)

    with pytest.raises(error) as raised:
        season_edit(season=season, admin=admin, **settings(**changes))

    assert raised.value.code == code
    assert snapshot(season) == before


def test_a_taken_address_is_refused():
    season, admin, _ = draft()
    make_season(season.club, admin, slug="winter")

    with pytest.raises(InvalidCompetition) as raised:
        season_edit(season=season, admin=admin, **settings())

    assert raised.value.code == "slug-taken"
    assert Competition.objects.get(pk=season.competition_id).slug == "autumn"


def test_deleting_a_draft_takes_it_all_away_and_tells_the_people_entered():
    season, admin, ben = draft()
    other = make_season(season.club, admin, slug="spring")

    assert season_delete(season=season, admin=admin) == "Autumn League"

    assert list(Season.objects.all()) == [other]
    assert not Competition.objects.filter(pk=season.competition_id).exists()
    assert not Entry.objects.filter(competition_id=season.competition_id).exists()
    assert not Division.objects.filter(season_id=season.pk).exists()
    (notice,) = Notification.objects.filter(user=ben)
    assert notice.text == (
        f"Autumn League of {season.club.name} was called off before it started: its organisers "
        "deleted it"
    )
    assert notice.url == f"/clubs/{season.club.slug}/"
    assert not Notification.objects.filter(user=admin).exclude(kind="club-members").exists()


def test_a_second_delete_of_the_same_draft_is_a_typed_refusal():
    season, admin, _ = draft()
    # A double click: the second request read the season before the first deleted it.
    season_delete(season=Season.objects.get(pk=season.pk), admin=admin)

    with pytest.raises(SeasonNotFound) as raised:
        season_delete(season=season, admin=admin)

    assert raised.value.code == "not-found"
    assert raised.value.message == "there is no season Autumn League any more: it was deleted"


@pytest.mark.django_db(transaction=True)
def test_an_entry_and_an_edit_at_once_take_turns_on_the_season():
    """An edit that takes the (empty) lowest division away while a member enters it: the entry
    locks the season first, so the edit waits, finds the new entrant there and is refused;
    before, the entry wrote its row into a division deleted meanwhile (a 500 at its commit)."""
    club, admin, (ben,) = make_club(members=1)
    season = make_season(
        club,
        admin,
        name="Autumn League",
        slug="autumn",
        divisions=[DivisionSpec("Premier", relegate=1), DivisionSpec("Challenger", promote=1)],
    )
    joining, refused = threading.Event(), []
    join = seasons.competition_join

    def slow_join(*args: Any, **kwargs: Any) -> Entry:
        joining.set()
        time.sleep(0.5)  # the edit starts meanwhile, in its own transaction
        return join(*args, **kwargs)

    def edit() -> None:
        joining.wait(5)
        try:
            season_edit(season=season, admin=admin, **settings(divisions=[DivisionSpec("One")]))
        except SeasonError as error:
            refused.append(error.code)
        finally:
            connection.close()

    with mock.patch.object(seasons, "competition_join", slow_join):
        editor = threading.Thread(target=edit)
        editor.start()
        entry = season_enter(season=season, actor=ben, user=ben)
        editor.join(10)

    assert refused == ["division-not-empty"]
    assert DivisionEntry.objects.get(entry=entry).division.name == "Challenger"
    assert season.divisions.count() == 2
