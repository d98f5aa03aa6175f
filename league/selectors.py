"""Reading clubs, seasons and fixtures as anyone may see them: the public side of a club (its
active members, its seasons), a season with its divisions and entrants, its fixtures by round
with their results. Nothing here writes; the tables and records are league/standings.py's.

Public means: no invitation code, nobody who has only asked to join, and no card (a result is
places and points, never a hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q, QuerySet

from games.models import Game, MatchResult
from league.errors import PlayerNotFound, SeasonNotFound
from league.models import Bye, Club, Division, Entry, Fixture, FixtureSeat, Membership, Season
from league.standings import (
    AllTimeLine,
    FamilyRecord,
    SeasonRecord,
    club_all_time,
    entrant_name,
    player_record,
)


@dataclass(frozen=True, slots=True)
class Entrant:
    """An entry as a table or a fixture shows it: a person (by username) or a bot (by name)."""

    entry: int
    name: str
    kind: str  # "person" or "bot"
    user_id: int | None

    @classmethod
    def of(cls, entry: Entry) -> Entrant:
        kind = "bot" if entry.bot_id else "person"
        return cls(entry.pk, entrant_name(entry), kind, entry.user_id)


def clubs() -> QuerySet[Club]:
    """Every club with `member_count` (active members) and `season_count`, by name."""
    active = Q(memberships__status=Membership.Status.ACTIVE)
    return Club.objects.annotate(
        member_count=Count("memberships", filter=active, distinct=True),
        season_count=Count("seasons", distinct=True),
    ).order_by("name", "pk")


@dataclass(frozen=True, slots=True)
class ClubPage:
    club: Club
    members: list[Membership]
    seasons: list[Season]
    all_time: list[AllTimeLine]
    # The id of the last season listed, for the next page (`before`); None on the last page.
    before: int | None = None


# Seasons a club's page and GET /api/clubs/<slug> list at once, newest first.
SEASONS_PAGE = 20


def club_seasons(
    club: Club, *, before: int | None = None, limit: int | None = None
) -> tuple[list[Season], int | None]:
    """The club's seasons, newest first (start date, then id), `limit` at a time (SEASONS_PAGE
    when not given): those after season `before` in that order, a keyset (never an offset), so
    a page costs the same however many seasons the club has had. Returns the page and the id of
    its last season when older ones follow (else None). Raises SeasonNotFound when `before` is
    no season of the club."""
    limit = limit or SEASONS_PAGE
    seasons = club.seasons.select_related("competition")
    if before is not None:
        mark = club.seasons.filter(pk=before).values_list("start_date", flat=True).first()
        if mark is None:
            raise SeasonNotFound(f"season {before} of {club.slug!r}")
        seasons = seasons.filter(Q(start_date__lt=mark) | Q(start_date=mark, pk__lt=before))
    found = list(seasons.order_by("-start_date", "-pk")[: limit + 1])
    return found[:limit], found[limit - 1].pk if len(found) > limit else None


def club_page(club: Club, *, before: int | None = None, limit: int | None = None) -> ClubPage:
    """The club's active members (oldest first), a page of its seasons (newest first,
    club_seasons) and its all-time table, in a constant number of queries."""
    members = club.memberships.filter(status=Membership.Status.ACTIVE).select_related("user")
    seasons, older = club_seasons(club, before=before, limit=limit)
    return ClubPage(club, list(members), seasons, club_all_time(club), older)


def player_page(
    user: Any, *, before: int | None = None, limit: int | None = None
) -> tuple[list[SeasonRecord], list[FamilyRecord], int | None]:
    """standings.player_record after season `before` (one the person entered). Raises
    SeasonNotFound when `before` is no season of theirs."""
    after = None
    if before is not None:
        mark = (
            Season.objects.filter(pk=before, divisions__members__entry__user=user)
            .values_list("start_date", flat=True)
            .first()
        )
        if mark is None:
            raise SeasonNotFound(f"season {before} of {user.get_username()!r}")
        after = (mark, before)
    return player_record(user, after=after, limit=limit)


def season_of(slug: str) -> Season:
    """The season whose competition has this slug (slugs are unique across clubs). Raises
    SeasonNotFound."""
    season = Season.objects.select_related("competition", "club").filter(competition__slug=slug)
    found = season.first()
    if found is None:
        raise SeasonNotFound(f"season {slug!r}")
    return found


@dataclass(frozen=True, slots=True)
class DivisionPage:
    division: Division
    entrants: list[Entrant]


@dataclass(frozen=True, slots=True)
class SeasonPage:
    season: Season
    previous: str | None
    next: str | None
    # The rounds the draw made (0 before the start); `season.rounds` is the setting.
    rounds_drawn: int
    divisions: list[DivisionPage]


def season_page(season: Season) -> SeasonPage:
    """The season with its neighbours' slugs and each division's entrants in entry order."""
    previous = season.previous.slug if season.previous else None
    following = Season.objects.filter(previous=season).select_related("competition").first()
    divisions = []
    for division in season.divisions.order_by("tier"):
        entries = (
            Entry.objects.filter(division_entry__division=division)
            .select_related("user", "bot")
            .order_by("pk")
        )
        divisions.append(DivisionPage(division, [Entrant.of(entry) for entry in entries]))
    last = Fixture.objects.filter(division__season=season).order_by("-round").first()
    return SeasonPage(
        season,
        previous,
        following.slug if following else None,
        last.round if last else 0,
        divisions,
    )


@dataclass(frozen=True, slots=True)
class FixtureRow:
    fixture: Fixture
    tier: int
    seats: list[Entrant]
    # "scheduled" (no game yet), "playing" or "finished".
    status: str
    # The match's result once the game-results projection has it.
    result: MatchResult | None
    # Whether the finished match's whole log is public (the game's reveal setting).
    replayable: bool


@dataclass(frozen=True, slots=True)
class ByeRow:
    tier: int
    entrant: Entrant


@dataclass(frozen=True, slots=True)
class RoundRows:
    round: int
    fixtures: list[FixtureRow]
    byes: list[ByeRow]


def season_fixtures(
    season: Season, *, round_number: int | None = None, tier: int | None = None
) -> list[RoundRows]:
    """The season's fixtures and byes grouped by round (then division tier, then table),
    optionally of one round and one division."""
    where: dict[str, Any] = {"division__season": season}
    if round_number is not None:
        where["round"] = round_number
    if tier is not None:
        where["division__tier"] = tier
    seats = FixtureSeat.objects.select_related("entry__user", "entry__bot").order_by("number")
    fixtures = list(
        Fixture.objects.filter(**where)
        .select_related("division__season__competition", "game")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("round", "division__tier", "table")
    )
    byes = (
        Bye.objects.filter(**where)
        .select_related("division", "entry__user", "entry__bot")
        .order_by("round", "division__tier", "entry")
    )
    results = {
        result.game_id: result
        for result in MatchResult.objects.filter(
            game_id__in=[f.game_id for f in fixtures if f.game_id is not None]
        )
    }
    rounds: dict[int, RoundRows] = {}
    for fixture in fixtures:
        game = fixture.game
        rows = rounds.setdefault(fixture.round, RoundRows(fixture.round, [], []))
        rows.fixtures.append(
            FixtureRow(
                fixture=fixture,
                tier=fixture.division.tier,
                seats=[Entrant.of(seat.entry) for seat in fixture.seats.all()],
                status=_fixture_status(game),
                result=results.get(fixture.game_id) if fixture.game_id else None,
                replayable=game is not None
                and game.status == Game.Status.MATCH_OVER
                and game.reveal == Game.Reveal.AFTER_MATCH,
            )
        )
    for bye in byes:
        rows = rounds.setdefault(bye.round, RoundRows(bye.round, [], []))
        rows.byes.append(ByeRow(bye.division.tier, Entrant.of(bye.entry)))
    return [rounds[number] for number in sorted(rounds)]


def _fixture_status(game: Game | None) -> str:
    if game is None:
        return "scheduled"
    return "finished" if game.status == Game.Status.MATCH_OVER else "playing"


def player_of(username: str) -> Any:
    """The person with this username. Raises PlayerNotFound."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise PlayerNotFound(f"player {username!r}")
    return user
