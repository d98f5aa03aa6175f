"""The decision the training environment offers a seat (engine/env.py, docs/training.md):
`Chance`, the seat's legal commands by action and the precommit it is choosing slot by slot,
and the tables that give the listing's commands their actions without `action_index`'s lookup
(the usual turn's, its mask made from the listed cards alone). env_core.py's `Core` makes a
chance for each seat it asks and offers it; the command an action sends is the core's.

Compiled with the engine's hot modules where numpy is installed (docs/architecture.md, "The
compiled engine"), plain Python elsewhere. Like env_core.py, it imports numpy: only env.py and
env_core.py import this module, and nothing else in engine imports either.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from engine.cards import COLOR_OF, COLORS, Card
from engine.commands import DRAW, PLAY, Command
from engine.env_actions import ACTION_INDEX, ACTIONS, N_ACTIONS, PLAIN_PLAY, WAIT, action_index
from engine.env_spaces import MaskArray
from engine.state import State

# The actions of the commands that name no card, colour or seat: one lookup by their type.
PLAIN_KIND: Final[dict[str, int]] = {
    str(key[0]): index for index, key in enumerate(ACTIONS) if len(key) == 1 and key[0] != WAIT
}
# The actions are kept as the int objects of these tables (in the choices, the mask's list):
# a compiled int past 256 would be a new object each time it is used as a key or an index.
KIND_ACTION: Final[dict[str, object]] = {kind: index for kind, index in PLAIN_KIND.items()}
PLAIN_ACTIONS: Final[dict[str, tuple[object, object]]] = {
    card: (alone, with_uno) for card, (alone, with_uno) in PLAIN_PLAY.items()
}
# The usual turn (listing.plain_turn), listed without its commands: each listed card's
# actions in the listing's order (a black card's once per colour, no uno call), then the draw.
CARD_ACTIONS: Final[dict[str, tuple[object, ...]]] = {
    card: (
        (alone,)
        if COLOR_OF[card] is not None
        else tuple(ACTION_INDEX[(PLAY, card, color, None, False)] for color in COLORS)
    )
    for card, (alone, _) in PLAIN_PLAY.items()
}
DRAW_ACTION: Final[object] = PLAIN_KIND[DRAW]


class Chance:
    """The decision the selected agent is asked for: the legal commands by action, and the
    precommit being chosen slot by slot."""

    def __init__(
        self,
        seat: int,
        optional: bool,
        legal: list[Command] | None,
        choices: dict[Any, Command] | None,
        lane_count: int = 0,
        lane_uno: bool = False,
        chosen: list[Card] | None = None,
        mask: Any = None,
        variant: Any = None,
        state: State | None = None,
    ) -> None:
        self.seat = seat
        self.optional = optional
        # None for the usual turn (`plain`), its mask made from the listed cards: the legal
        # commands are listed when first read (`legal`), from the same state and variant.
        # Core (env_core.py) reads it itself in a step, without the call of `plain`.
        self._legal = legal
        self._choices = choices
        self.variant = variant
        self.state = state
        # > 0: a precommit of this many cards is among the legal commands.
        self.lane_count = lane_count
        # The precommit may carry the uno call (on its last slot).
        self.lane_uno = lane_uno
        self.chosen: list[Card] = [] if chosen is None else chosen
        self.mask: MaskArray = np.zeros(N_ACTIONS, np.int8) if mask is None else mask

    @property
    def plain(self) -> bool:
        """The usual turn, listed by its cards: its commands are made when needed."""
        return self._legal is None

    @property
    def legal(self) -> list[Command]:
        """The seat's legal commands (the engine's listing, listed once)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self.variant.legal_commands(self.state, self.seat)
        return legal

    @property
    def choices(self) -> dict[Any, Command]:
        """The legal commands by action (a precommit's first slot excepted: its slots are
        chosen one by one)."""
        choices = self._choices
        if choices is None:
            seats = self.state.seats if self.state is not None else 0
            choices = self._choices = {
                action_index(command, seats): command for command in self.legal
            }
        return choices
