"""Creating a game: its row, its seats (who sits there and who moves them) and its first hand
dealt, appended as the log's first events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from bots.strategies import find_strategy
from engine import Variant
from games.actors import SYSTEM, Actor, actor_label
from games.commands import append_decided
from games.errors import InvalidGame
from games.game_settings import GameSettings
from games.models import Bot, Game, Seat
from games.seats import seat_plays


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in one seat: a user, a built-in bot (by strategy name) or a registered Bot;
    `age` for newno."""

    user: Any = None  # a Person
    bot: str = ""
    age: int | None = None
    registered: Bot | None = None


def game_create(
    *,
    variant_spec: Mapping[str, Any],
    seats: Sequence[SeatSpec],
    seed: int | str | None = None,
    deck: list[str] | None = None,
    dealer: int | None = None,
    first: int | None = None,
    settings: GameSettings | None = None,
    reveal: str = Game.Reveal.AFTER_MATCH,
    actor: Actor = SYSTEM,
    seat_failed: bool = False,
) -> Game:
    """Create a game and deal its first hand (a random deal from `seed`, or a stacked `deck`).
    A bot that failed its validation is refused a seat, unless `seat_failed` (a tournament's
    round, which its draw made): then it is seated and the default bot plays it, as it plays a
    suspended bot's seat (games/seats.py REPLACED)."""
    try:
        variant = Variant.from_spec(variant_spec)
    except ValueError as error:
        raise InvalidGame(str(error), code="invalid-variant") from error
    if reveal not in Game.Reveal.values:
        raise InvalidGame(f"reveal must be one of {', '.join(Game.Reveal.values)}")
    plays = [_check_seat(number, spec, seat_failed) for number, spec in enumerate(seats)]
    ages = [spec.age for spec in seats if spec.age is not None] or None
    if ages is not None and len(ages) != len(seats):
        raise InvalidGame("give every seat an age, or none", code="invalid-seat")
    try:
        events = variant.start(
            len(seats), seed=seed, deck=deck, dealer=dealer, first=first, ages=ages
        )
    except ValueError as error:
        raise InvalidGame(str(error)) from error
    state = variant.replay(events)
    with transaction.atomic():
        game = Game.objects.create(
            variant=variant.spec,
            seat_count=len(seats),
            context=(settings or GameSettings()).as_context(),
            reveal=reveal,
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=number,
                user=spec.user,
                bot=strategy,
                registered_bot=spec.registered,
                controller=controller,
                age=spec.age,
            )
            for number, (spec, (controller, strategy)) in enumerate(zip(seats, plays, strict=True))
        )
        append_decided(game, variant, state, events, 0, None, actor_label(actor))
    game.refresh_from_db()
    return game


def _check_seat(number: int, spec: SeatSpec, seat_failed: bool) -> tuple[str, str]:
    """The seat's controller and strategy (games/seats.py `seat_plays`), once the spec names
    exactly one sitter, a bot that has not retired (nor failed, unless `seat_failed`), and a
    strategy there is."""
    if [spec.user is not None, bool(spec.bot), spec.registered is not None].count(True) != 1:
        raise InvalidGame(f"seat {number} needs a user or a bot (one of them)", code="invalid-seat")
    if (
        spec.registered is not None
        and spec.registered.status == Bot.Status.FAILED
        and not seat_failed
    ):
        raise InvalidGame(f"bot {spec.registered.name} failed its validation", code="bot-failed")
    if spec.registered is not None and spec.registered.status == Bot.Status.RETIRED:
        raise InvalidGame(
            f"bot {spec.registered.name} is retired: it plays no new game", code="bot-retired"
        )
    controller, strategy = seat_plays(bot=spec.bot, registered=spec.registered)
    if strategy:
        try:
            find_strategy(strategy)
        except ValueError as error:
            raise InvalidGame(str(error), code="unknown-bot") from error
    return controller, strategy
