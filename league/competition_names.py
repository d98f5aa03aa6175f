"""Where a game is played, in words, for the emails that name one away from its page (a turn
email, the digest's lines: clocks/deadlines.py `whose_game`): a club season's fixture by its
club, season and round, a tournament's game by its tournament and round, a ladder's by its
ladder. Games know no competitions (their context holds ids only), so the names are read here."""

from __future__ import annotations

from games.game_settings import GameSettings
from games.models import Game
from league.models import Competition, Fixture
from tournaments.models import TournamentGame


def played_in(game: Game) -> str:
    """ "Friday Night UNO, Season 1, round 2" (a club season's fixture), "Spring Swiss, round 3"
    (a tournament's game), "Official ladder" (a ladder's game: its competition); "" for any
    other game, or one whose competition is gone."""
    found = GameSettings.of(game.context)
    if found.fixture is not None:
        fixture = (
            Fixture.objects.select_related("division__season__club")
            .filter(pk=found.fixture)
            .first()
        )
        if fixture is None:
            return ""
        season = fixture.division.season
        return f"{season.club.name}, {season.name}, round {fixture.round}"
    if found.tournament is not None:
        table = (
            TournamentGame.objects.select_related("round__tournament")
            .filter(round__tournament_id=found.tournament, game_id=game.pk)
            .first()
        )
        if table is None:
            return ""
        return f"{table.round.tournament.name}, round {table.round.number}"
    if found.competition is not None:
        name = Competition.objects.filter(pk=found.competition).values_list("name", flat=True)
        return name.first() or ""
    return ""
