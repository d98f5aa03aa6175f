"""The events of the usual moments, built from per-seat templates: a turn given, a card played
from the hand, cards drawn, a uno called or owed; and `plain_play_leaves`, the check that lets
`Ruleset.play_plainly` (engine/rules/base.py) emit a usual play with them in one step.
"""

from __future__ import annotations

from typing import Final

from engine.cards import COLOR_OF, DECK, PLAYABLE_ON, Card
from engine.events import CARD_PLAYED, CARDS_DRAWN, PROMPTED, UNO_CALLED, UNO_OWED, Event
from engine.state import Seat, State

# The dicts the usual moments list and emit, one per seat (every seat a deal can have): a new
# one is made from its template as `{**template, "card": card}`, which copies a dict of the same
# shape (about half the cost of building it from its keys): the same keys in the same order,
# a new dict every time.
_SEATS = range(len(DECK))
_TURN: Final = [{"type": "play", "seat": seat} for seat in _SEATS]
_PLAYED: Final = [
    {"type": CARD_PLAYED, "seat": seat, "card": "", "color": None, "source": "hand"}
    for seat in _SEATS
]
_DRAWN: Final = [{"type": CARDS_DRAWN, "seat": seat, "cards": [], "reason": ""} for seat in _SEATS]


def turn_event(seat: Seat) -> Event:
    """The event that gives `seat` its turn (a play or a draw)."""
    return {"type": PROMPTED, "to_act": [seat], "pending": _TURN[seat].copy()}


def played_event(seat: Seat, card: Card, color: str | None) -> Event:
    """The event of `seat` playing `card` from its hand (naming `color` for a black card)."""
    return {**_PLAYED[seat], "card": card, "color": color}


def drawn_event(seat: Seat, cards: list[Card], reason: str) -> Event:
    """The event of `seat` drawing `cards` (top of the pile first)."""
    return {**_DRAWN[seat], "cards": cards, "reason": reason}


def uno_event(seat: Seat, uno: bool) -> Event:
    """The event of a play that leaves `seat` one card: its uno called, or owed."""
    return {"type": UNO_CALLED if uno else UNO_OWED, "seat": seat}


def plain_play_leaves(state: State, seat: Seat, card: Card, color: str | None, uno: bool) -> int:
    """The cards a play decided in one step leaves in hand (`Ruleset.play_plainly`), or 0 for
    any other play: a card in the hand that matches, its colour named
    if and only if it is black, leaving one card with its uno called or not, or more with none
    called. check_play, play_card and resolve_play would accept it, emit the uno call or debt
    of a play that leaves one card (a family that keeps `owes_uno`) and end with after_play."""
    hand = state.hands[seat]
    discard = state.discard
    left = len(hand) + len(state.lanes[seat]) - 1
    if (
        (left > 1 and not uno or left == 1)
        and card in hand
        and (color is None) is (COLOR_OF[card] is not None)
        and card in PLAYABLE_ON[discard[-1] if discard else None, state.color]
    ):
        return left
    return 0
