"""Set-up for the tournament tests: a Swiss tournament taking entries, and playing its rounds
out with the built-in bots' driver."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from django.utils import timezone

from bots import turns
from engine import MATCH_OVER
from games.models import Game
from tests.games.factories import make_user
from tournaments.models import Round, Tournament, TournamentGame
from tournaments.services import tournament_create

_numbers = itertools.count(1)

# Short matches: the official rules to 50 points.
FAST = {"rules": "official", "options": {"target": 50}}


def make_tournament(organiser: Any = None, **fields: Any) -> Tournament:
    number = next(_numbers)
    fields = {
        "name": f"Cup {number}",
        "slug": f"cup-{number}",
        "variant": FAST,
        "table_size": 4,
        "rounds": 3,
        "entry_closes": timezone.now() + datetime.timedelta(days=1),
        **fields,
    }
    return tournament_create(organiser=organiser or make_user(), **fields)


def play_out(game_id: int) -> None:
    for _ in range(300):
        if Game.objects.get(pk=game_id).status == MATCH_OVER:
            return
        turns.advance_game(game_id=game_id)
    raise AssertionError(f"game {game_id} did not end")


def current_round(tournament: Tournament) -> Round:
    found = Round.objects.filter(tournament=tournament).order_by("-number").first()
    assert found is not None
    return found


def play_round(tournament: Tournament) -> Round:
    played = current_round(tournament)
    for table in TournamentGame.objects.filter(round=played):
        play_out(table.game_id)
    return played
