"""Reading people's ratings as anyone may see them: a person's rating in each pool, its history
and the rated games behind it, and a pool's leaderboard of people. Nothing here writes; the
numbers are the `person-ratings` projection's (ratings/projections.py), with the decay for time
away applied as of now, as the ladders show theirs (league/ratings.py).

A person is provisional in a pool until RATINGS_PROVISIONAL_GAMES rated games there: the figure
is shown, marked, and the leaderboard lists them apart, unranked. Only people are in these
pools: every line says `kind` "person", and a rated game's bots are shown as bots, never rated.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from games.lobby import SeatInfo, seat_listing
from games.models import Game
from league import ratings
from ratings.errors import PoolNotFound
from ratings.models import PersonRating, PersonRatingChange
from ratings.pools import POOLS, pool_name

PERSON = "person"
# The rating events a player page and the API show: the latest, so a page costs the same
# however long a person has played (as league.ladder_reads.HISTORY_POINTS).
HISTORY_POINTS = 200
# The rated games listed under each pool on the player page, newest first.
RATED_GAMES = 10


def provisional_games() -> int:
    return int(settings.RATINGS_PROVISIONAL_GAMES)


def check_pool(pool: str) -> str:
    """`pool` if it is one. Raises PoolNotFound."""
    if pool not in POOLS:
        raise PoolNotFound(pool)
    return pool


@dataclass(frozen=True, slots=True)
class PoolRating:
    """A person's rating in one pool, sigma decayed as of now."""

    family: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: float
    rated_at: datetime.datetime

    @property
    def rating(self) -> float:
        """The displayed figure: the ordinal, mu - 3 sigma, as the ladders show."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < provisional_games()

    @property
    def kind(self) -> str:
        return PERSON


def _pool_rating(row: PersonRating, now: datetime.datetime) -> PoolRating:
    skill = ratings.decayed(ratings.Skill(row.mu, row.sigma), row.rated_at, now)
    return PoolRating(
        family=row.family,
        name=pool_name(row.family),
        mu=skill.mu,
        sigma=skill.sigma,
        games=row.games,
        wins=row.wins,
        rated_at=row.rated_at,
    )


def person_ratings(user: Any, *, now: datetime.datetime | None = None) -> list[PoolRating]:
    """The person's rating in every pool they played a rated game in, in POOLS order."""
    now = now or timezone.now()
    rows = {row.family: row for row in PersonRating.objects.filter(user=user)}
    return [_pool_rating(rows[pool], now) for pool in POOLS if pool in rows]


def pool_ordinals(
    user_ids: list[int], pool: str, *, now: datetime.datetime | None = None
) -> dict[int, float]:
    """The displayed rating (the ordinal, decayed as of now) of each of these people who has
    one in the pool; the others are not in the answer (a tournament seeds them as newcomers)."""
    now = now or timezone.now()
    rows = PersonRating.objects.filter(user_id__in=user_ids, family=pool)
    return {row.user_id: _pool_rating(row, now).rating for row in rows}


def history(user: Any, pool: str, *, limit: int = HISTORY_POINTS) -> list[PersonRatingChange]:
    """The person's last `limit` rating changes in the pool, oldest first."""
    latest = PersonRatingChange.objects.filter(user=user, family=pool).order_by("-position")
    return list(latest[:limit])[::-1]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A rated game behind a rating: the change it made, and everyone at the table marked
    person or bot (the bots were not rated)."""

    change: PersonRatingChange
    game: Game
    seats: list[SeatInfo]

    @property
    def delta(self) -> float:
        return self.change.ordinal - self.change.ordinal_before

    def others(self, user_id: int) -> list[SeatInfo]:
        return [seat for seat in self.seats if seat.user_id != user_id]


def rated_games(user: Any, pool: str, *, limit: int = RATED_GAMES) -> list[RatedGame]:
    """The person's latest rated games in the pool, newest first."""
    changes = list(
        PersonRatingChange.objects.filter(user=user, family=pool)
        .select_related("game")
        .prefetch_related("game__seats__user", "game__seats__registered_bot")
        .order_by("-position")[:limit]
    )
    return [RatedGame(change, change.game, seat_listing(change.game)) for change in changes]


@dataclass(frozen=True, slots=True)
class BoardLine:
    """A person on a pool's leaderboard (sigma decayed as of now)."""

    rank: int | None  # None: provisional, unranked
    user_id: int
    username: str
    rating: PoolRating

    @property
    def kind(self) -> str:
        return PERSON


@dataclass(frozen=True, slots=True)
class Board:
    family: str
    name: str
    # Rated within BOARD_DAYS with at least RATINGS_PROVISIONAL_GAMES games: best first.
    ranked: list[BoardLine]
    # Rated within BOARD_DAYS, still provisional: unranked, best first.
    provisional: list[BoardLine]


def leaderboard(pool: str, *, now: datetime.datetime | None = None) -> Board:
    """The pool's people by the displayed figure (the ordinal, decayed as of now), best first;
    those not rated for BOARD_DAYS are left off (they keep their rating, shown on their page),
    the provisional ones listed apart. Ties share a rank. Raises PoolNotFound."""
    check_pool(pool)
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(days=ratings.BOARD_DAYS)
    rows = PersonRating.objects.filter(
        family=pool, rated_at__gte=cutoff, user__is_active=True
    ).select_related("user")
    lines = [
        BoardLine(None, row.user_id, row.user.username, _pool_rating(row, now)) for row in rows
    ]
    lines.sort(key=lambda line: (-line.rating.rating, line.username))
    settled = [line for line in lines if not line.rating.provisional]
    provisional = [line for line in lines if line.rating.provisional]
    ranked: list[BoardLine] = []
    for index, line in enumerate(settled):
        shared = ranked and round(ranked[-1].rating.rating, 6) == round(line.rating.rating, 6)
        rank = ranked[-1].rank if shared else index + 1
        ranked.append(BoardLine(rank, line.user_id, line.username, line.rating))
    return Board(pool, pool_name(pool), ranked, provisional)


def board_counts(*, now: datetime.datetime | None = None) -> dict[str, int]:
    """Each pool's people on its board (ranked or provisional), for the pools' index."""
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(days=ratings.BOARD_DAYS)
    found = (
        PersonRating.objects.filter(rated_at__gte=cutoff, user__is_active=True)
        .values_list("family")
        .annotate(people=Count("pk"))
        .order_by()
    )
    return {**dict.fromkeys(POOLS, 0), **dict(found)}


@dataclass(frozen=True, slots=True)
class PoolPeople:
    """Who is on a pool's board: ranked, and provisional (listed apart, unranked)."""

    ranked: int
    provisional: int

    @property
    def people(self) -> int:
        return self.ranked + self.provisional


def pool_people(*, now: datetime.datetime | None = None) -> dict[str, PoolPeople]:
    """Each pool's people on its board, the ranked and the provisional apart (the pools' page
    says both: a board of provisional people alone is not an empty one). One query over the
    board's rows, as `board_counts`."""
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(days=ratings.BOARD_DAYS)
    settled = Q(games__gte=provisional_games())
    found = (
        PersonRating.objects.filter(rated_at__gte=cutoff, user__is_active=True)
        .values_list("family")
        .annotate(ranked=Count("pk", filter=settled), provisional=Count("pk", filter=~settled))
        .order_by()
    )
    counts = {pool: PoolPeople(0, 0) for pool in POOLS}
    counts.update(
        {family: PoolPeople(ranked, provisional) for family, ranked, provisional in found}
    )
    return counts
