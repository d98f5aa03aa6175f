"""A running season as one of its entrants sees it first: their place in their division's table
and their fixture now (open, with its state and the game's link) or next (when it opens), or
the round they sit out. The season page shows it at the top, before the tables and the
settings; the lobby (/play/) lists it for each running season the person plays in, so a person
who sits a round out or waits for the next one still finds the season there. Read from the
season's tables and fixtures as web/season_tables.py builds them for the viewer.
docs/web.md, "Clubs and seasons".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from league.models import Season
from web.season_tables import DivisionView, FixtureView, RoundView, season_tables_context
from web.sentences import ordinal


@dataclass(frozen=True, slots=True)
class YourFixture:
    round: RoundView
    view: FixtureView

    @property
    def opponents(self) -> list[str]:
        return [cell.name for cell in self.view.seats if not cell.mine]

    @property
    def waiting_for(self) -> list[str]:
        """The seats to play but the viewer's (a playing fixture's)."""
        return [cell.name for cell in self.view.seats if cell.to_act and not cell.mine]


@dataclass(frozen=True, slots=True)
class YourSeason:
    season: Season
    division: DivisionView
    rank: int
    shared: bool
    points: int
    played: int
    now: YourFixture | None  # open, the viewer's seat still playing
    next: YourFixture | None  # not open yet (shown when nothing is open)
    sitting_out: int | None  # the round being played that the viewer sits out

    @property
    def entrants(self) -> int:
        return len(self.division.rows)

    @property
    def place_said(self) -> str:
        """ "2nd of 5 in Premier", "joint 1st of 5 …" (level on everything the table counts)."""
        joint = "joint " if self.shared else ""
        where = f" in {self.division.division.name}" if self.season.divisions.count() > 1 else ""
        return f"{joint}{ordinal(self.rank)} of {self.entrants}{where}"

    @property
    def points_said(self) -> str:
        pts = f"{self.points} point{'s' if self.points != 1 else ''}"
        return f"{pts} from {self.played} match{'es' if self.played != 1 else ''}"

    @property
    def url(self) -> str:
        return reverse("web:season", args=[self.season.slug])

    @property
    def finished(self) -> bool:
        """Every fixture of the viewer's has finished (or forfeited)."""
        return self.now is None and self.next is None


def your_season(season: Season, tables: dict[str, Any]) -> YourSeason | None:
    """The viewer's place and fixtures in a started season, from its tables as
    `season_tables_context(season, viewer)` builds them; None when the viewer has no line."""
    for division in tables["season_tables"]["divisions"]:
        row = next((row for row in division.rows if row.mine), None)
        if row is None:
            continue
        now = following = None
        sitting_out = None
        for round_ in division.rounds:
            for view in round_.fixtures:
                if not any(cell.mine for cell in view.seats):
                    continue
                if now is None and view.status == "playing" and view.seated:
                    now = YourFixture(round_, view)
                elif following is None and view.status == "scheduled":
                    following = YourFixture(round_, view)
            under_way = any(view.status != "finished" for view in round_.fixtures)
            if round_.my_bye and round_.opened and under_way and sitting_out is None:
                sitting_out = round_.number
        line = row.line
        return YourSeason(
            season=season,
            division=division,
            rank=line.rank,
            shared=line.shared,
            points=line.league_points,
            played=line.played,
            now=now,
            next=following,
            sitting_out=sitting_out,
        )
    return None


def running_seasons(user: Any) -> list[YourSeason]:
    """Each running season `user` is entered in (as a person), as they stand in it: the lobby's
    "Your seasons"."""
    if user is None or not user.is_authenticated:
        return []
    found = (
        Season.objects.filter(
            status=Season.Status.RUNNING,
            competition__entries__user=user,
            competition__entries__active=True,
        )
        .select_related("competition", "club")
        .order_by("competition__name")
        .distinct()
    )
    seasons = []
    for season in found:
        mine = your_season(season, season_tables_context(season, user))
        if mine is not None:
            seasons.append(mine)
    return seasons
