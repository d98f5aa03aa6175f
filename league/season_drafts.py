"""A draft season's organisers change their mind: edit its settings (the new-season form's,
prefilled) or delete it, both only while it is a draft (made, not started) and only by whoever
may create a season of the club (its admins, staff). Once started the settings are frozen and
the season stays: SeasonError `not-draft`.

No HTTP here; the errors are league/errors.py's. docs/leagues.md, "Seasons".
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from accounts.models import Profile
from league import scheduling
from league.clubs import check_admin
from league.errors import EntryRefused, SeasonError, SeasonNotFound
from league.models import Division, DivisionEntry, Entry, Season
from league.seasons import DivisionSpec, check_settings
from league.services import competition_update
from social.models import Notification
from social.notifications import notify


def _locked_draft(season: Season, doing: str) -> Season:
    """The season's row, locked (a start waits for this, or this for the start), if it is
    still a draft; SeasonError `not-draft` once it has started."""
    locked = Season.objects.select_for_update().select_related("competition", "club")
    found = locked.filter(pk=season.pk).first()
    if found is None:  # deleted meanwhile (a second click, another organiser)
        raise SeasonNotFound(f"season {season.name} any more: it was deleted")
    season = found
    if season.status != Season.Status.DRAFT:
        raise SeasonError(
            f"{season.name} has started: {doing} only while a season is a draft",
            code="not-draft",
        )
    return season


def season_edit(
    *,
    season: Season,
    admin: Any,
    name: str,
    slug: str,
    variant: Mapping[str, Any],
    start_date: datetime.date,
    seats_per_game: int = 4,
    placement_points: Sequence[int] | None = None,
    round_days: int = 7,
    rounds: int | None = None,
    turn_seconds: int | None = None,
    vacation_days: int = 0,
    divisions: Sequence[DivisionSpec] | None = None,
) -> Season:
    """Change a draft season's settings: season_create's keywords, with the same defaults and
    checks. Its entrants stay entered, each in the division of their tier; a division taken
    away must have nobody in it (`division-not-empty`), and rules of newno need every person
    entered to have given a birth date (`birth-date-missing`). The draw's seed is kept. Raises
    NotClubAdmin, SeasonError (`not-draft`, `invalid-season`, `division-not-empty`),
    InvalidCompetition (rules, table size, `slug-taken`), EntryRefused; changes nothing then."""
    check_admin(season.club, admin)
    points = list(placement_points or scheduling.default_points(seats_per_game))
    check_settings(points, seats_per_game, round_days, rounds, divisions)
    specs = list(divisions or [DivisionSpec("Division 1")])
    with transaction.atomic():
        season = _locked_draft(season, "its settings change")
        if variant.get("rules") == "newno":
            _check_born(season)
        competition_update(
            season.competition,
            name=name,
            slug=slug,
            variant=variant,
            seats_per_game=seats_per_game,
            turn_seconds=turn_seconds,
            vacation_days=vacation_days,
        )
        season.placement_points = points
        season.start_date = start_date
        season.round_days = round_days
        season.rounds = rounds
        season.save(update_fields=["placement_points", "start_date", "round_days", "rounds"])
        _set_divisions(season, specs)
    return season


def _check_born(season: Season) -> None:
    """Newno's Youngest Rule needs each person's age (as competition_join asks on entry)."""
    unborn = (
        Entry.objects.filter(competition=season.competition, active=True, user__isnull=False)
        .exclude(user__in=Profile.objects.filter(birth_date__isnull=False).values("user"))
        .select_related("user")
        .order_by("pk")
        .first()
    )
    if unborn is not None and unborn.user is not None:
        raise EntryRefused(
            f"{unborn.user.get_username()} has given no birth date, which newno's Youngest Rule "
            "needs (profile page): withdraw them or choose other rules",
            code="birth-date-missing",
        )


def _set_divisions(season: Season, specs: list[DivisionSpec]) -> None:
    """The divisions as `specs` say, tier 1 first: a tier kept keeps its entrants. The season's
    row is locked (`_locked_draft`), as an entry locks it (league/seasons.py `_enter`), so an
    entrant added meanwhile is counted here or waits and finds the divisions as this left them."""
    existing = {division.tier: division for division in season.divisions.select_for_update()}
    for tier, division in existing.items():
        if tier <= len(specs):
            continue
        entrants = DivisionEntry.objects.filter(division=division, entry__active=True).count()
        if entrants:
            raise SeasonError(
                f"{division.name} has {entrants} entrant{'' if entrants == 1 else 's'}: "
                "move or withdraw them before taking the division away",
                code="division-not-empty",
            )
        division.delete()
    for tier, spec in enumerate(specs, start=1):
        division = existing.get(tier) or Division(season=season, tier=tier)
        division.name = spec.name
        division.promote = spec.promote if tier > 1 else 0
        division.relegate = spec.relegate if tier < len(specs) else 0
        division.save()


def season_delete(*, season: Season, admin: Any) -> str:
    """Delete a draft season with its divisions, entries and competition; the people entered
    in it (but whoever deletes it) hear it under the bell. Returns its name. Raises
    NotClubAdmin, SeasonError (`not-draft`: a season that started is kept, closed or not)."""
    check_admin(season.club, admin)
    with transaction.atomic():
        season = _locked_draft(season, "it can be deleted")
        competition, club, name, season_id = season.competition, season.club, season.name, season.pk
        people = set(
            Entry.objects.filter(
                competition=competition, active=True, user__isnull=False
            ).values_list("user_id", flat=True)
        )
        season.delete()
        # The entries go with their competition (and their divisions' rows with the season).
        competition.delete()
        for user_id in sorted(people - {admin.pk}):
            notify(
                user_id,
                Notification.Kind.SEASON,
                f"{name} of {club.name} was called off before it started: its organisers "
                "deleted it",
                url=f"/clubs/{club.slug}/",
                key=f"season-deleted:{season_id}",
            )
    return name
