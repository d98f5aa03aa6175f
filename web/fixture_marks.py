"""The league fixture a game was made for, as a game's lobby card (web/lobby.py) and its play
page (web/play.py) name it: "Autumn League · Premier · round 2, table 1", linked to its round
on the season's page, with the fixture's own deadline. A module of its own: the play page's
module is imported by the season tables (web/season_tables.py), which the lobby reads for its
"Your seasons" (web/season_you.py)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.urls import reverse

from league.models import Fixture


@dataclass(frozen=True, slots=True)
class FixtureMark:
    """The league fixture a game was made for: "Autumn League · Premier · round 2, table 1"."""

    season: str
    division: str
    round: int
    table: int
    url: str  # the round on the season's page
    # The fixture's own deadline, and whether a ruling moved it off its round's (the round's
    # line on the season's page keeps the round's).
    deadline: datetime.datetime
    moved: bool


def fixture_mark(fixture: Fixture) -> FixtureMark:
    """A fixture as a game's lobby card and play page name it, linked to its round on the
    season's page (read with its division, season and competition)."""
    season = fixture.division.season
    drawn = fixture.opens_at + datetime.timedelta(days=season.round_days)
    url = reverse("web:season", args=[season.competition.slug])
    return FixtureMark(
        season=season.competition.name,
        division=fixture.division.name,
        round=fixture.round,
        table=fixture.table,
        url=f"{url}#division-{fixture.division.tier}-round-{fixture.round}",
        deadline=fixture.deadline,
        moved=fixture.deadline != drawn,
    )
