"""The player page (/players/<username>/): the seasons the person entered (club, season,
family, division, rank and league points), their rating in each pool with its history chart and
the rated games behind it (web/ratings.py), their record per family over all their finished
games (league.standings.player_record; the seasons a page at a time), and their latest
finished games with links to the replays. Public, like the season tables that link to it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from frontdoor import boundary
from games.actors import seats_held
from games.game_settings import PRACTICE_KEY
from games.models import Bot, Game, MatchResult
from games.variant_text import family_name, variant_title
from league import selectors
from league.errors import SeasonNotFound
from league.models import Fixture, Season
from league.standings import FamilyRecord, SeasonRecord
from ratings.reads import provisional_games
from web import analysis, follows
from web.names import names_at
from web.ratings import person_panels
from web.season_tables import club_url, season_url
from web.sentences import ordinal

RECENT_GAMES = 10
SEASON_STATUS = {"draft": "not started", "running": "running", "closed": "final"}


@dataclass(frozen=True, slots=True)
class SeasonLine:
    record: SeasonRecord
    club_url: str
    season_url: str
    family: str
    status: str
    rank: str  # "2=" for a shared place; "" before the season starts

    @property
    def season(self) -> Season:
        return self.record.season

    @property
    def points(self) -> int | None:
        line = self.record.line
        return line.league_points if line is not None else None


def season_lines(records: list[SeasonRecord]) -> list[SeasonLine]:
    lines = []
    for record in records:
        season, line = record.season, record.line
        started = season.status != Season.Status.DRAFT
        lines.append(
            SeasonLine(
                record=record,
                club_url=club_url(season.club),
                season_url=season_url(season),
                family=variant_title(season.competition.variant),
                status=SEASON_STATUS.get(season.status, season.status),
                rank=f"{line.rank}{'=' if line.shared else ''}" if line and started else "",
            )
        )
    return lines


@dataclass(frozen=True, slots=True)
class FamilyLine:
    name: str
    record: FamilyRecord

    @property
    def win_rate(self) -> str:
        return f"{self.record.win_rate:.0%}"

    @property
    def points_per_hand(self) -> str:
        # No hand played (matches that forfeits ended in their first hand): no average to say.
        return f"{self.record.points_per_hand:.1f}" if self.record.hands else "–"


@dataclass(frozen=True, slots=True)
class RecentGame:
    game: Game
    title: str
    # "Riverside Autumn League, Premier, round 2" for a fixture's game.
    fixture: str
    finished: datetime.datetime | None
    others: list[str]
    place: str  # "1st"; "" until the results are counted
    score: int | None
    # A seed its creator chose (games/lobby.py): listed, but left out of the record.
    practice: bool = False

    @property
    def replay_url(self) -> str:
        return reverse("web:replay", args=[self.game.pk])


def recent_games(person: User) -> list[RecentGame]:
    """The person's latest finished games, newest first."""
    games = list(
        Game.objects.filter(seats__user=person, status=Game.Status.MATCH_OVER)
        .distinct()
        .prefetch_related("seats__user", "seats__registered_bot")
        .order_by("-last_activity", "-pk")[:RECENT_GAMES]
    )
    ids = [game.pk for game in games]
    results = {result.game_id: result for result in MatchResult.objects.filter(game_id__in=ids)}
    fixtures = {
        fixture.game_id: fixture
        for fixture in Fixture.objects.filter(game_id__in=ids).select_related(
            "division__season__competition"
        )
    }
    shown = []
    for game in games:
        held = seats_held(person, game.seats.all())
        seat = held[0] if held else None
        result = results.get(game.pk)
        fixture = fixtures.get(game.pk)
        shown.append(
            RecentGame(
                game=game,
                title=variant_title(game.variant),
                fixture=(
                    f"{fixture.division.season.name}, {fixture.division.name}, "
                    f"round {fixture.round}"
                    if fixture
                    else ""
                ),
                finished=game.last_activity,
                others=[name for seat, name in enumerate(names_at(game)) if seat not in held],
                place=ordinal(result.places[seat]) if result and seat is not None else "",
                score=result.scores[seat] if result and seat is not None else None,
                practice=PRACTICE_KEY in game.context,
            )
        )
    return shown


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A person's seasons, records per family and latest finished games."""
    person = User.objects.filter(username=username, is_active=True).first()
    if person is None:
        raise Http404(f"nobody is called {username!r}")
    # A page of their seasons, newest first; the next after the last shown (`?before=`).
    try:
        seasons, families, older = selectors.player_page(
            person, before=boundary.integer(request.GET, "before")
        )
    except SeasonNotFound as error:
        raise Http404(error.message) from error
    context = {
        "person": person,
        "seasons": season_lines(seasons),
        # The id of the last season listed when older ones follow (the next page's `before`).
        "older_seasons": older,
        "families": [FamilyLine(family_name(record.family), record) for record in families],
        "recent": recent_games(person),
        # Their rating in each pool, its chart and its rated games (web/ratings.py).
        "ratings": person_panels(person),
        "provisional_games": provisional_games(),
        # Their cost per decision per family over time, from the analyses (web/analysis.py).
        "decision_costs": analysis.decision_costs(person.pk),
        # Their bots' pages carry the bots' ladder ratings (web/bots.py).
        "bots": Bot.objects.filter(owner=person).order_by("name", "pk"),
        "mine": request.user.is_authenticated and request.user.pk == person.pk,
        # The follow button, the counts and their games still being played (web/follows.py).
        **follows.player_context(request, person),
    }
    return render(request, "leagues/player.html", context)
