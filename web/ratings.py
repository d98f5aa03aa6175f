"""People's ratings on the site: the pools (/ratings/), a pool's leaderboard of people
(/ratings/<family>/), and the Ratings section of the player page (`person_panels`, for
web/players.py): each pool's figure (provisional marked), its history as a chart and the rated
games behind it. The numbers are ratings.reads' (the `person-ratings` projection, decayed as of
now). docs/web.md, "Ratings".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.lobby import SeatInfo
from league.ratings import BOARD_DAYS
from ratings import reads
from ratings.errors import PoolNotFound
from ratings.pools import POOLS, pool_name
from web.charts import HistoryChart, history_chart
from web.sentences import ordinal


def board_url(pool: str) -> str:
    return reverse("web:ratings-board", args=[pool])


def player_url(username: str) -> str:
    return reverse("web:player", args=[username])


@dataclass(frozen=True, slots=True)
class ShownGame:
    """A rated game behind a rating, as the player page lists it."""

    rated: reads.RatedGame
    others: list[SeatInfo]

    @property
    def url(self) -> str:
        return reverse("web:replay", args=[self.rated.game.pk])

    @property
    def place(self) -> str:
        change = self.rated.change
        return f"{ordinal(change.place)} of {change.people}"

    @property
    def delta(self) -> str:
        return f"{self.rated.delta:+.2f}"

    @property
    def rising(self) -> bool:
        return self.rated.delta >= 0


@dataclass(frozen=True, slots=True)
class Panel:
    """One pool on the player page."""

    rating: reads.PoolRating
    chart: HistoryChart | None
    games: list[ShownGame]

    @property
    def board_url(self) -> str:
        return board_url(self.rating.family)

    @property
    def chart_id(self) -> str:
        return f"rating-chart-{self.rating.family}"


def person_panels(person: Any) -> list[Panel]:
    """The person's pools, each with its chart and its latest rated games."""
    panels = []
    for rating in reads.person_ratings(person):
        changes = reads.history(person, rating.family)
        games = [
            ShownGame(rated, rated.others(person.pk))
            for rated in reads.rated_games(person, rating.family)
        ]
        panels.append(Panel(rating, history_chart(changes), games))
    return panels


@dataclass(frozen=True, slots=True)
class PoolRow:
    family: str
    name: str
    people: reads.PoolPeople
    url: str


NOBODY = reads.PoolPeople(0, 0)


@require_GET
def pools(request: HttpRequest) -> HttpResponse:
    """Every pool with who is on its board: the ranked and the provisional apart."""
    counts = reads.pool_people()
    rows = [PoolRow(pool, pool_name(pool), counts[pool], board_url(pool)) for pool in POOLS]
    context = {
        "pools": rows,
        "provisional_games": reads.provisional_games(),
        "board_days": BOARD_DAYS,
    }
    return render(request, "ratings/pools.html", context)


@dataclass(frozen=True, slots=True)
class ShownLine:
    line: reads.BoardLine

    @property
    def url(self) -> str:
        return player_url(self.line.username)


@require_GET
def board(request: HttpRequest, family: str) -> HttpResponse:
    """A pool's leaderboard: the ranked people, then the provisional ones."""
    try:
        found = reads.leaderboard(family)
    except PoolNotFound as error:
        raise Http404(error.message) from error
    context = {
        "board": found,
        "ranked": [ShownLine(line) for line in found.ranked],
        "provisional": [ShownLine(line) for line in found.provisional],
        "pools": [PoolRow(pool, pool_name(pool), NOBODY, board_url(pool)) for pool in POOLS],
        "provisional_games": reads.provisional_games(),
        "board_days": BOARD_DAYS,
    }
    return render(request, "ratings/board.html", context)
