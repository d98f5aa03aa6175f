"""A tournament round's deadline and its games' turn clocks: no turn's clock runs past the
round's deadline (games/game_settings.py `turn_deadline`, clocks/deadlines.py), and a turn
longer than a round is refused where the deadline forfeits (tournaments/services.py)."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings

from clocks.deadlines import sync_deadlines
from games.models import Seat
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import make_tournament
from tournaments.errors import TournamentRefused
from tournaments.models import TournamentGame
from tournaments.services import tournament_enter, tournament_start

pytestmark = pytest.mark.django_db


def test_a_turns_clock_stops_at_the_rounds_deadline():
    ana = make_user("ana")
    cup = make_tournament(ana, table_size=2, rounds=1, round_seconds=86400, turn_seconds=86400)
    tournament_enter(cup, actor=ana, user=ana)
    tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=ana)
    (table,) = TournamentGame.objects.filter(round__tournament=cup)
    seat = Seat.objects.get(game_id=table.game_id, user=ana)
    game = seat.game
    game.to_act = [seat.number]
    game.save(update_fields=["to_act"])
    Seat.objects.filter(pk=seat.pk).update(deadline_at=None)
    # A turn starting an hour into the round would run an hour past it.
    later = table.round.started_at + datetime.timedelta(hours=1)
    assert sync_deadlines(game.pk, now=later) == [seat.number]
    seat.refresh_from_db()
    assert seat.deadline_at == table.round.deadline


def test_a_turn_longer_than_a_round_is_refused_and_the_default_fits():
    with pytest.raises(TournamentRefused, match=r"a turn \(259200 s\) is no longer than a round"):
        make_tournament(round_seconds=86400, turn_seconds=3 * 86400)
    assert settings.GAMES_TURN_SECONDS > 3600
    assert make_tournament(round_seconds=3600).turn_seconds == 3600
    # An arena's deadline forfeits nobody: its games play on, on the site's turn.
    arena = make_tournament(format="arena", table_size=2, round_seconds=3600)
    assert arena.turn_seconds == settings.GAMES_TURN_SECONDS
