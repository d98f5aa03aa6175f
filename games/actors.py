"""Who acts in a game, and who watches: a user, a built-in bot, a registered Bot, or the system.

A user or a bot acts only for the seats it holds (a registered Bot: the seats that name it).
The system (workers: the next hand, deadline fallbacks, closing windows) may send any command,
and is the only one to send system commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from .models import Bot, Seat


@dataclass(frozen=True, slots=True)
class BotActor:
    """A built-in bot, by strategy name; it holds every seat with `Seat.bot == name`."""

    name: str


class SystemActor:
    """The server itself: use the one SYSTEM instance (`actor is SYSTEM` is the whole test)."""

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM: Final = SystemActor()

# A user (any Django user model instance), a BotActor, a registered Bot or SYSTEM. A viewer may
# also be None or an anonymous user: a spectator.
Actor = Any


def actor_label(actor: Actor) -> str:
    """How the event log names an actor: "user:12", "bot:greedy", "bot:#3:name" or "system"."""
    if actor is SYSTEM:
        return "system"
    if isinstance(actor, BotActor):
        return f"bot:{actor.name}"
    if isinstance(actor, Bot):
        return f"bot:#{actor.pk}:{actor.name}"[:100]
    if getattr(actor, "is_authenticated", False):
        return f"user:{actor.pk}"
    raise TypeError(f"{actor!r} cannot act in a game")


def seats_held(actor: Actor, seats: Iterable[Seat]) -> list[int]:
    """The numbers of the seats `actor` holds, in order (none for a spectator or the system)."""
    if isinstance(actor, BotActor):
        return [seat.number for seat in seats if seat.bot == actor.name]
    if isinstance(actor, Bot):
        return [seat.number for seat in seats if seat.registered_bot_id == actor.pk]
    if getattr(actor, "is_authenticated", False):
        return [seat.number for seat in seats if seat.user_id == actor.pk]
    return []
