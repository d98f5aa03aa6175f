"""A command being decided (Decision), and the handlers a family's table maps commands to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.commands import Command
from engine.events import EVOLVE, Event
from engine.state import State

# A command handler is an unbound method of the family whose `handlers` table lists it
# (`Newno.on_swap` takes a Newno). Any for that first argument: sibling families override the
# same ClassVar, which cannot name each one's own class; `decision` passes the right instance.
Handler = Callable[[Any, "Decision", Command], None]


class Decision:
    """A command being decided: a private working state and the facts emitted so far."""

    __slots__ = ("state", "events", "notes")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []
        # What a ruleset remembers between the steps of one decision (newno: the jump-in window).
        self.notes: dict[str, Any] = {}

    def emit(self, event: Event) -> None:
        self.events.append(event)
        EVOLVE[event["type"]](self.state, event)  # apply(), inlined: the hottest call
