"""Who moves a seat: its controller, and the one rule for "a worker moves this seat".

A seat says who sits there (a person, a built-in strategy, a registered Bot) and who moves it
now (`Seat.controller`): the person, a worker playing a strategy in-process, a worker asking a
webhook, a pull bot polling the API, or the default bot (BOTS_FALLBACK_STRATEGY) once the seat
was forfeited or handed over. A registered bot that is suspended or failed is not asked any
more: the default bot plays its seats, whatever their controller says (`effective`).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from .models import Bot, Seat

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
