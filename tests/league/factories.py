"""Set-up for the league tests: competitions, registered bots and their entries."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from games.models import Bot, Seat
from league.clubs import club_create, club_join
from league.models import Club, Competition, Entry, Season
from league.seasons import DivisionSpec, season_close, season_create, season_enter, season_next
from league.services import competition_create, competition_join
from tests.games.factories import SHORT, make_user

_numbers = itertools.count(1)


def make_competition(
    kind: str = Competition.Kind.LADDER, seats_per_game: int = 2, **fields: Any
) -> Competition:
    number = next(_numbers)
    fields = {"name": f"Competition {number}", "slug": f"competition-{number}", **fields}
    fields.setdefault("variant", SHORT)
    return competition_create(kind=kind, seats_per_game=seats_per_game, **fields)


def make_bot(
    status: str = Bot.Status.ACTIVE, kind: str = Bot.Kind.BUILTIN, owner: Any = None, **fields: Any
) -> Bot:
    """A bot of `owner` (a new user by default): a season's admin enters only their own."""
    if kind == Bot.Kind.BUILTIN:
        fields.setdefault("strategy", "greedy")
    fields.setdefault("name", f"bot{next(_numbers)}")
    return Bot.objects.create(owner=owner or make_user(), kind=kind, status=status, **fields)


def enter_bots(competition: Competition, count: int) -> list[Entry]:
    """`count` new active built-in bots, entered."""
    return [competition_join(competition, bot=make_bot()) for _ in range(count)]


def entrant_of(entry: Entry) -> tuple[str, int]:
    """("user" | "bot", id)."""
    return ("bot", entry.bot_id) if entry.bot_id else ("user", entry.user_id)


def seated_entrants(competition: Competition) -> list[tuple[str, int]]:
    """Every seat of the competition's games, as ("user" | "bot", id): one item per seat."""
    seats = Seat.objects.filter(game__context__competition=competition.pk)
    return [
        ("bot", seat.registered_bot_id) if seat.registered_bot_id else ("user", seat.user_id)
        for seat in seats
    ]


def make_club(admin: Any = None, members: int = 0) -> tuple[Club, Any, list[Any]]:
    """A club, its admin and `members` more members."""
    admin = admin or make_user()
    club = club_create(name=f"Club {next(_numbers)}", creator=admin)
    people = [make_user() for _ in range(members)]
    for person in people:
        club_join(club=club, user=person, code=club.invite_code)
    return club, admin, people


def make_season(club: Club, admin: Any, *, seats_per_game: int = 2, **fields: Any) -> Season:
    number = next(_numbers)
    fields = {"name": f"Season {number}", "slug": f"season-{number}", **fields}
    fields.setdefault("variant", SHORT)
    fields.setdefault("start_date", datetime.date(2026, 1, 5))
    return season_create(club=club, admin=admin, seats_per_game=seats_per_game, **fields)


def promotion_and_relegation() -> tuple[Season, Any, Any, Any]:
    """A club's closed two-division season and its draft next season: member `up` was promoted
    to the top division, member `down` relegated from it (nothing was played: the entry order
    settles the shared places). Returns (next season, admin, up, down)."""
    club, admin, (up, down) = make_club(members=2)
    divisions = [DivisionSpec("Premier", relegate=1), DivisionSpec("First", promote=1)]
    season = make_season(club, admin, divisions=divisions)
    season_enter(season=season, actor=admin, bot=make_bot(owner=admin), tier=1)
    season_enter(season=season, actor=admin, user=down, tier=1)
    season_enter(season=season, actor=admin, user=up, tier=2)
    season_enter(season=season, actor=admin, bot=make_bot(owner=admin), tier=2)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)
    season_close(season=season, admin=admin)
    number = next(_numbers)
    following = season_next(
        season=season,
        admin=admin,
        name=f"Season {number}",
        slug=f"season-{number}",
        start_date=datetime.date(2026, 4, 6),
    )
    return following, admin, up, down
