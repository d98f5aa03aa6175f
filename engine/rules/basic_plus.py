"""`basic-plus` (docs/rules.md "basic-plus"): no dealer, draw or discard, no challenge.

Decisions written down where the seed is silent:
- There is no catch window: a seat can be caught for as long as it holds one card and has not
  called since it went down to one (docs/rules.md "basic-plus" overrides the common catch window).
- `catch` names another seat; a seat catching itself is rejected as malformed, like in official.
- `legal_commands` lists `call-uno` and a `catch` of every other seat at all times, because they
  are legal (a wrong one costs the caller the penalty); play commands carry `uno: true` only
  where the play leaves one card.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.cards import RANK_OF, WILD, WILD_DRAW4, Card
from engine.dealing import drawn_anchor
from engine.events import DIRECTION_CHANGED
from engine.rules.decision import Decision
from engine.rules.official import Official
from engine.state import Seat, State


class BasicPlus(Official):
    name = "basic-plus"
    defaults: ClassVar[dict[str, Any]] = {
        "hand_size": 7,
        "scoring": "single-hand",
        "target": 500,
        "uno_penalty": 3,
    }
    has_dealer = False
    play_after_draw = False
    challenge_wild_draw4 = False
    reverse_skips_with_two = False
    uno_window = False
    false_uno_penalized = True
    wrong_catch_penalized = True

    def first_anchor(self, seats: int, seed: str, dealer: Seat | None, first: Seat | None) -> Seat:
        if dealer is not None:
            raise ValueError("basic-plus has no dealer: give first=, not dealer=")
        if first is None:
            return drawn_anchor(seed, "first", seats)
        if type(first) is not int or not 0 <= first < seats:
            raise ValueError(f"first must be a seat from 0 to {seats - 1}")
        return first

    def next_anchor(self, state: State) -> Seat:
        # The next hand starts with the seat left of the previous first seat.
        return (state.first + 1) % state.seats

    def resolve_flip(self, d: Decision, card: Card) -> None:
        # The flipped card acts as if the seat on the first seat's right had just played it.
        state = d.state
        first = state.first
        rank = RANK_OF[card]
        if rank == "skip":
            self.begin_turn(d, state.next_seat(first))
        elif rank == "draw2":
            self.draw_cards(d, first, 2, "draw2")
            self.begin_turn(d, state.next_seat(first))
        elif rank == "reverse":
            d.emit({"type": DIRECTION_CHANGED, "direction": -1})
            # From the seat on the first seat's right to the seat on *its* right.
            self.begin_turn(d, state.next_seat(first, 2))
        elif card == WILD:
            self.prompt(d, {"type": "color", "seat": first, "after": "turn"})
        elif card == WILD_DRAW4:
            self.prompt(d, {"type": "color", "seat": first, "after": "flip-draw4"})
        else:
            self.begin_turn(d, first)
