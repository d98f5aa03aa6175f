"""Rated games for the ratings tests: a one-card deal that the first seat wins with its only
card, so a whole match is one command; and the projection run."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import projections
from games.actors import BotActor
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Game
from tests.engine.decks import stacked

# One card each, the match over with the first hand.
ONE_CARD = {"rules": "official", "options": {"hand_size": 1, "scoring": "single-hand"}}
CARDS = ["red-1", "blue-2", "green-3", "yellow-4", "blue-6", "green-7", "yellow-8", "blue-9"]


def one_card_game(
    seats: Sequence[Any],
    *,
    winner: int = 0,
    rated: bool = True,
    spec: dict[str, Any] | None = None,
    **settings: Any,
) -> Game:
    """A finished match at `seats` (users, or built-in strategy names for bots): the seat
    `winner` plays its red card on the red flip first and goes out; everyone else keeps one
    card of another colour, so the places follow the points left in hand."""
    specs = [SeatSpec(bot=s) if isinstance(s, str) else SeatSpec(user=s) for s in seats]
    hands = [[CARDS[1 + seat]] for seat in range(len(seats))]
    hands[winner] = ["red-1"]
    spec = spec or ONE_CARD
    # Official: the dealer sits right of the winner, so the winner plays first; basic-plus has
    # no dealer, and the winner opens.
    deal: dict[str, int] = (
        {"first": winner}
        if spec["rules"] == "basic-plus"
        else {"dealer": (winner - 1) % len(seats)}
    )
    deck = stacked(hands, "red-5", first=winner)
    game = game_create(
        variant_spec=spec,
        seats=specs,
        deck=deck,
        settings=GameSettings(rated=rated, **settings),
        **deal,
    )
    held = game.seats.get(number=winner)
    actor: Any = held.user if held.user_id else BotActor(held.bot)
    game_command(
        game_id=game.pk,
        actor=actor,
        command={"type": "play", "seat": winner, "card": "red-1"},
        expected_version=game.version,
    )
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER, game.status
    return game


def run_ratings() -> None:
    projections.run("game-results")
    projections.run("person-ratings")
