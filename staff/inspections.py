"""Who may see a game's hidden cards in the inspector, and the audit of every look.

A staff member who plays in a game (a person's seat, or a seat of a bot they own) sees it in the
inspector as that seat does, while its cards are hidden from the players: during the match, and
after it for a game that never reveals its log or a ladder rotation whose set is still being
played (games/reveal.py `revealed`). Every other staff member sees the stored log whole, and
each such page is an AuditEntry (`inspect-hidden`), shown with the game's other staff actions.
Once a game's log is public there is nothing hidden to record.
"""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat
from games.reveal import revealed
from staff.actions import game_target, held_seats
from staff.models import AuditEntry

# The entry's reason: nobody is asked for one to read a page.
REASON = "inspected the game's hidden cards (the staff inspector)"


def own_seat(game: Game, user: Any) -> int | None:
    """The seat whose view `user` gets in the inspector, when they play in the game and its
    cards are hidden: their first person's seat, else the first seat of a bot they own. None
    when they may see the log whole."""
    held = held_seats(game.pk, user)
    if not held or revealed(game):
        return None
    return held[0]


def seat_bot(game: Game, seat: int, user: Any) -> str | None:
    """The name of `user`'s bot when their `seat` (own_seat's) is one of their bots' seats, not
    their own: the page then says that their bot plays, not they."""
    row = Seat.objects.select_related("registered_bot").get(game=game, number=seat)
    if row.user_id == user.pk or row.registered_bot is None:
        return None
    return row.registered_bot.name


def hidden(game: Game) -> bool:
    """Whether the game's log holds cards the players may not see now."""
    return game.version > 0 and not revealed(game)


def record(game: Game, user: Any, version: int) -> AuditEntry:
    """An inspection of the game's hidden cards, after event `version`, by `user`."""
    return AuditEntry.objects.create(
        actor=user,
        action=AuditEntry.Action.INSPECT_HIDDEN,
        target=game_target(game.pk),
        reason=REASON,
        details={"version": version, "game_version": game.version, "status": game.status},
    )


# The latest audit entries shown on the inspector.
SHOWN = 10


def entries(game: Game) -> list[AuditEntry]:
    """The game's latest audit entries (actions and inspections), newest first."""
    found = AuditEntry.objects.filter(target=game_target(game.pk)).select_related("actor")
    return list(found[:SHOWN])
