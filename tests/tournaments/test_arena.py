"""An arena of built-in bots: tables seated as entrants wait, until the arena's deadline; the
games then play out and it finishes; the leaderboard (place points, streaks doubled) a rebuild
of the log gives again (tournaments/services.py `_arena_seat`, tournaments/standings.py)."""

from __future__ import annotations

import datetime
import json

import pytest

from engine import MATCH_OVER
from games import projections
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import current_round, make_tournament, play_out
from tournaments.models import Tournament, TournamentGame
from tournaments.rounds import tournament_advance
from tournaments.services import tournament_enter, tournament_start
from tournaments.standings import live_standings, standings

pytestmark = pytest.mark.django_db


def unfinished(cup: Tournament) -> list[TournamentGame]:
    return list(
        TournamentGame.objects.filter(round__tournament=cup).exclude(game__status=MATCH_OVER)
    )


def test_an_arena_of_bots_seats_whoever_waits_until_its_deadline():
    organiser = make_user()
    cup = make_tournament(organiser, format="arena", table_size=2, round_seconds=3600)
    for strategy in ("greedy", "random", "greedy", "random", "greedy"):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy=strategy))
    tournament_start(cup, actor=organiser)
    arena = current_round(cup)
    # Five waiting at tables of two: two tables, the fifth waits for the next to finish.
    assert len(unfinished(cup)) == 2

    for minute in range(1, 4):
        first, *_ = unfinished(cup)
        play_out(first.game_id)
        # A table finished: its two join the one waiting; one more table sits down.
        assert tournament_advance(cup, now=arena.started_at + datetime.timedelta(minutes=minute))
        assert len(unfinished(cup)) == 2
    made = TournamentGame.objects.filter(round=arena).count()
    assert made == 5

    # Past the deadline nobody is seated; the games still playing end, then it finishes.
    after = arena.deadline + datetime.timedelta(seconds=1)
    for table in unfinished(cup):
        play_out(table.game_id)
    assert tournament_advance(cup, now=after)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert TournamentGame.objects.filter(round=arena).count() == made

    live = live_standings(cup)
    assert sum(line.played for line in live) == 2 * made
    assert live[0].rank == 1 and live[0].points >= live[-1].points

    projections.run("tournament-results")
    read = json.dumps([line.as_dict() for line in standings(cup)])
    assert read == json.dumps([line.as_dict() for line in live])
    projections.rebuild("tournament-results")
    assert json.dumps([line.as_dict() for line in standings(cup)]) == read
