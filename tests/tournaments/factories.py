"""Set-up for the tournament tests: a Swiss tournament taking entries, and playing its rounds
out with the built-in bots' driver, or with people moving their own seats."""

from __future__ import annotations

import datetime
import itertools
import random
from typing import Any

from django.utils import timezone

from bots import turns
from engine import MATCH_OVER
from engine.events import HAND_STARTED
from games import event_reads
from games.models import Game, Seat
from tests.games.factories import make_user, play_turn
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


def first_deal(game_id: int) -> list[str]:
    """The first hand's deck, as dealt: the same seed deals the same cards."""
    (started, *_) = event_reads.load(game_id, types={HAND_STARTED})
    deck: list[str] = started["deck"]
    return deck


def current_round(tournament: Tournament) -> Round:
    found = Round.objects.filter(tournament=tournament).order_by("-number").first()
    assert found is not None
    return found


def play_round(tournament: Tournament) -> Round:
    played = current_round(tournament)
    for table in TournamentGame.objects.filter(round=played):
        play_out(table.game_id)
    return played


def play_out_with_people(game_id: int, seed: int = 0) -> int:
    """Play a game to its end as its people and its bots do: each turn of a seat a person moves
    is chosen by the greedy strategy from that seat's view and sent through games' command
    service as the person (tests/games/factories.py `play_turn`); the bots' turns (a forfeited
    seat's default bot among them) through their driver. Returns the people's commands."""
    rng = random.Random(seed)
    moves = 0
    for _ in range(3000):
        game = Game.objects.get(pk=game_id)
        if game.status == MATCH_OVER:
            return moves
        seat = Seat.objects.get(game_id=game_id, number=game.to_act[0])
        if seat.controller == Seat.Controller.PERSON:
            play_turn(game_id, rng)
            moves += 1
        else:
            turns.advance_game(game_id=game_id)
    raise AssertionError(f"game {game_id} did not end")


def play_round_with_people(tournament: Tournament) -> int:
    """Every game of the current round played by its people and bots; the people's commands."""
    return sum(
        play_out_with_people(table.game_id, seed=table.table * 10 + table.rotation)
        for table in TournamentGame.objects.filter(round=current_round(tournament))
    )
