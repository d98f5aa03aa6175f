"""A newno table of one person and two bots, dealt from a stacked deck, for the out-of-turn
grace (bots/turns.py): the person (seat 0) may open on the flipped red-5 with red-6; then only
bot 1 can answer (red-8), and the person holds the other red-8, a jump-in."""

from __future__ import annotations

from typing import Any

from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Game
from tests.engine.decks import stacked

HANDS = [
    ["red-6", "red-8", "green-3", "green-7"],
    ["red-8", "yellow-3", "yellow-4", "yellow-9"],
    ["blue-1", "blue-2", "green-4", "blue-7"],
]


def jump_in_table(person: Any, *, grace: float | None = None) -> Game:
    """The game, dealt with seat 1 dealt first (the dealer is seat 0); bots play greedy."""
    deck = stacked(HANDS, "red-5", first=1)
    return game_create(
        variant_spec={"rules": "newno", "options": {"hand_size": 4, "target": 50}},
        seats=[SeatSpec(user=person), SeatSpec(bot="greedy"), SeatSpec(bot="greedy")],
        deck=deck,
        dealer=0,
        settings=GameSettings(grace_seconds=grace),
    )
