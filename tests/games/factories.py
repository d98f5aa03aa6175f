"""Set-up for the games tests: users, games, and bots that play through the services."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from bots.strategies import find_strategy
from games.actors import SYSTEM, Actor, BotActor
from games.commands import CommandResult, game_command
from games.creation import SeatSpec, game_create
from games.models import Game
from games.repository import Loaded, repository
from games.visibility import game_view, view_of

# Short matches: two or three hands to 50 points.
SHORT = {"rules": "official", "options": {"target": 50}}

_names = itertools.count(1)


def make_user(username: str | None = None) -> Any:
    return get_user_model().objects.create_user(username=username or f"player{next(_names)}")


def make_game(
    *,
    players: int = 2,
    bots: Sequence[str] = (),
    spec: dict[str, Any] | None = None,
    seed: int = 1,
    **kwargs: Any,
) -> Game:
    """A game with `players` new users in the first seats and then the named built-in bots."""
    seats = [SeatSpec(user=make_user()) for _ in range(players)]
    seats += [SeatSpec(bot=name) for name in bots]
    return game_create(variant_spec=spec or SHORT, seats=seats, seed=seed, **kwargs)


def make_stream() -> Game:
    """A bare game row with no events, for the store's own tests."""
    return Game.objects.create(variant=SHORT, seat_count=2)


def notes(count: int, start: int = 0) -> list[dict[str, Any]]:
    """Placeholder events: the store keeps facts without reading them."""
    return [{"type": "note", "n": n} for n in range(start, start + count)]


def owner(game: Game, seat: int) -> Actor:
    """Whoever holds `seat`: its user, or its bot."""
    held = game.seats.get(number=seat)
    return held.user if held.user_id else BotActor(held.bot)


def commit_play(game: Game, seat: int, card: str) -> None:
    """`seat` plays `card` now, in a transaction of its own (its on-commit work, a page's next
    poll, sees it), as a bot or a person would from outside the test."""
    with transaction.atomic():
        game.refresh_from_db()
        game_command(
            game_id=game.pk,
            actor=owner(game, seat),
            command={"type": "play", "seat": seat, "card": card},
            expected_version=game.version,
        )


def bot_move(game_id: int, rng: random.Random, strategy: str = "greedy") -> tuple[Actor, dict, int]:
    """What the first seat to act would play now, chosen by a built-in strategy from its view:
    (the seat's owner, the command, the version it was chosen at)."""
    game = Game.objects.get(pk=game_id)
    seat = game.to_act[0]
    view = game_view(game_id=game_id, viewer=SYSTEM, seat=seat)
    command = find_strategy(strategy)(view, view["legal"], rng)
    return owner(game, seat), command, view["version"]


def play_turn(game_id: int, rng: random.Random, **kwargs: Any) -> CommandResult:
    actor, command, version = bot_move(game_id, rng)
    return game_command(
        game_id=game_id, actor=actor, command=command, expected_version=version, **kwargs
    )


def play_to_end(game_id: int, seed: int = 0, limit: int = 5000) -> int:
    """Play bot turns through the services until the match is over; return the commands sent.

    play_turn's moves, each decided from the state the last command left (its result's
    `loaded`) while no one else moved the game: inside a test's transaction no snapshot is
    kept, and a load folds the whole log."""
    rng = random.Random(seed)
    greedy = find_strategy("greedy")
    loaded: Loaded | None = None
    for turns in range(limit):
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.MATCH_OVER:
            return turns
        if loaded is None or loaded.version != game.version:
            loaded = repository.get(game_id, game=game)
        seat = game.to_act[0]
        view = view_of(loaded, seat)
        command = greedy(view, view["legal"], rng)
        loaded = game_command(
            game_id=game_id,
            actor=owner(game, seat),
            command=command,
            expected_version=loaded.version,
        ).loaded
    raise AssertionError(f"game {game_id} did not end in {limit} commands")


def take_turns(game: Game, *, person_away: bool = False, turns: int = 6) -> None:
    """Play `turns` turns of the game now: its people's own moves, or, `person_away`, their
    turns played by the system's default bot as past a deadline (the log names the system)."""
    rng = random.Random(3)
    for _ in range(turns):
        actor, command, version = bot_move(game.pk, rng)
        if person_away and getattr(actor, "is_authenticated", False):
            actor = SYSTEM
        game_command(game_id=game.pk, actor=actor, command=command, expected_version=version)
