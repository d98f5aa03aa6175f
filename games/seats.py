"""Who moves a seat: its controller, and the one rule for "a worker moves this seat".

A seat says who sits there (a person, a built-in strategy, a registered Bot) and who moves it
now (`Seat.controller`): the person, a worker playing a strategy in-process, a worker asking a
webhook, a pull bot polling the API, or the default bot (BOTS_FALLBACK_STRATEGY) once the seat
was forfeited or handed over. A registered bot that is suspended or failed is not asked any
more: the default bot plays its seats, whatever their controller says (`effective`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, NamedTuple

from django.db.models import Q

from engine import PLAYING
from games.game_settings import GameSettings
from games.models import Bot, Seat

Controller = Seat.Controller

# A registered bot in one of these states is not asked any more: the fallback plays its seats.
REPLACED = frozenset({Bot.Status.SUSPENDED, Bot.Status.FAILED})

# The controllers whose seats a worker moves: in-process strategies and webhook calls.
WORKER_CONTROLLERS = frozenset({Controller.BUILTIN, Controller.WEBHOOK, Controller.FALLBACK})


def controller_for(*, user: Any, bot: str, registered: Bot | None) -> str:
    """The controller of a new seat (services.game_create)."""
    if registered is not None:
        # A registered built-in bot plays its strategy in-process, like a plain built-in seat.
        return str(registered.kind)
    return Controller.BUILTIN if bot else Controller.PERSON


def effective(controller: str, bot_status: str | None) -> str:
    """Who moves the seat now: its controller, or the fallback for a replaced registered bot."""
    if bot_status in REPLACED:
        return Controller.FALLBACK
    return controller


def worker_moves(controller: str, bot_status: str | None) -> bool:
    """Whether a worker moves the seat (WORKER_SEATS says the same in SQL)."""
    return effective(controller, bot_status) in WORKER_CONTROLLERS


# worker_moves as a filter on Seat, for the sweeps that look across games.
WORKER_SEATS = Q(controller__in=WORKER_CONTROLLERS) | Q(registered_bot__status__in=REPLACED)
# The seats a pull bot moves itself (effective controller `pull`).
PULL_SEATS = Q(controller=Controller.PULL) & ~Q(registered_bot__status__in=REPLACED)


class SeatRow(NamedTuple):
    """A seat with what the dispatch decides on (turns.rows_of builds them from reads.seats_of)."""

    number: int
    controller: str
    deadline_at: datetime | None
    registered_bot__status: str | None
    game__status: str
    game__to_act: list[int] | None
    game__context: dict[str, Any]


SEAT_ROW = SeatRow._fields


def worker_to_act(rows: Iterable[SeatRow]) -> bool:
    """Whether the game waits for a seat a worker moves. Validation games played in-process
    (`inline`) are driven by bot_validate itself."""
    return any(
        row.game__status == PLAYING
        and row.number in (row.game__to_act or [])
        and not GameSettings.of(row.game__context).inline
        and worker_moves(row.controller, row.registered_bot__status)
        for row in rows
    )


def webhook_out_of_turn(rows: Iterable[SeatRow]) -> bool:
    """Whether a webhook bot's seat is out of turn in a playing game (SEAT_ROW rows): the append
    may have opened a window for it, which only a worker can offer. Validation games played
    in-process are left to bot_validate."""
    return any(
        row.game__status == PLAYING
        and row.number not in (row.game__to_act or [])
        and not GameSettings.of(row.game__context).inline
        and effective(row.controller, row.registered_bot__status) == Controller.WEBHOOK
        for row in rows
    )


def clocks_to_change(rows: Iterable[SeatRow]) -> bool:
    """Whether deadlines.sync_deadlines has anything to do: a person's seat in `to_act` with no
    deadline, or out of it with one. Most appends change no clock."""
    for row in rows:
        if row.controller != Controller.PERSON:
            continue
        to_act = row.game__to_act or [] if row.game__status == PLAYING else []
        if (row.number in to_act) == (row.deadline_at is None):
            return True
    return False
