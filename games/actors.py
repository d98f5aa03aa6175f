"""Who acts in a game, and who watches: a user, a built-in bot, a registered Bot, or the system.

A user or a bot acts only for the seats it holds (a registered Bot: the seats that name it).
The system (workers: the next hand, deadline fallbacks, closing windows) may send any command,
and is the only one to send system commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, TypeGuard

from django.contrib.auth.models import AnonymousUser, User

from games.models import Bot, Seat


@dataclass(frozen=True, slots=True)
class BotActor:
    """A built-in bot, by strategy name; it holds every seat with `Seat.bot == name`."""

    name: str


@dataclass(frozen=True, slots=True)
class StaffActor:
    """A staff member ruling from the staff console (an abort, a forfeit, a longer deadline):
    the log names them `staff:<user id>`, apart from anything they do as a player. Holds no
    seat, so it can send no game command."""

    user_id: int


class SystemActor:
    """The server itself: use the one SYSTEM instance (`actor is SYSTEM` is the whole test)."""

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM: Final = SystemActor()

# A person is a signed-in user of the site: Django's user model (AUTH_USER_MODEL is not set).
Person = User
# Who may act in a game.
Actor = Person | BotActor | Bot | StaffActor | SystemActor
# Who may look at one: an actor, or a spectator (None, an anonymous user).
Viewer = Actor | AnonymousUser | None


def lock_person(person: Person) -> None:
    """Lock the person's row until the transaction ends: two requests that check a cap of the
    person's (open tables, running practice matches, API tokens) check it one after the other.
    Inside transaction.atomic()."""
    User.objects.select_for_update().filter(pk=person.pk).values_list("pk").first()


def is_person(actor: object) -> TypeGuard[Person]:
    """Whether `actor` is a signed-in person (not a bot, not the system, not anonymous)."""
    return isinstance(actor, User) and actor.is_authenticated


def actor_label(actor: Actor) -> str:
    """How the event log names an actor: "user:12", "bot:greedy", "bot:#3:name", "staff:12" or
    "system"."""
    if isinstance(actor, SystemActor):
        return "system"
    if isinstance(actor, StaffActor):
        return f"staff:{actor.user_id}"
    if isinstance(actor, BotActor):
        return f"bot:{actor.name}"
    if isinstance(actor, Bot):
        return f"bot:#{actor.pk}:{actor.name}"[:100]
    if is_person(actor):
        return f"user:{actor.pk}"
    raise TypeError(f"{actor!r} cannot act in a game")


def is_staff_label(label: str) -> bool:
    """Whether the log's actor `label` (actor_label) is a staff member ruling from the staff
    console (a StaffActor), not anyone acting as a player or a club's admin."""
    return label.startswith("staff:")


def actor_key(actor: Actor) -> str:
    """The actor's namespace for command ids: "user:12", "bot:greedy", "bot:#3", "staff:12" or
    "system".
    Stable for the actor's life (a registered bot's name may change, its id does not)."""
    if isinstance(actor, Bot):
        return f"bot:#{actor.pk}"
    return actor_label(actor)


def seats_held(actor: Viewer, seats: Iterable[Seat]) -> list[int]:
    """The numbers of the seats `actor` holds, in order (none for a spectator or the system)."""
    if isinstance(actor, BotActor):
        return [seat.number for seat in seats if seat.bot == actor.name]
    if isinstance(actor, Bot):
        return [seat.number for seat in seats if seat.registered_bot_id == actor.pk]
    if is_person(actor):
        return [seat.number for seat in seats if seat.user_id == actor.pk]
    return []
