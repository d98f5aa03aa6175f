"""A game on the table for exact rule tests: start from a stacked deck, send commands, look.

`Table.do` sends a command and folds its events; `Table.reject` checks that a command is refused
with a given code and that nothing changed (the state, every view, and `decide`'s own input).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from engine import DECK, IllegalCommand, State, Variant
from tests.engine.decks import stacked

Event = dict[str, Any]


class Table:
    def __init__(self, variant: Variant, events: list[Event]) -> None:
        self.variant = variant
        self.events = list(events)
        self.state: State = variant.replay(self.events)

    @staticmethod
    def command(kind: str, seat: int | None, fields: dict[str, Any]) -> dict[str, Any]:
        command: dict[str, Any] = {"type": kind, **fields}
        if seat is not None:
            command["seat"] = seat
        return command

    def do(self, kind: str, seat: int | None = None, **fields: Any) -> list[Event]:
        """Send a command; return its events (and check that `decide` left its input alone)."""
        before = copy.deepcopy(self.state)
        new = self.variant.decide(self.state, self.command(kind, seat, fields))
        assert self.state == before, "decide changed the state it was given"
        self.events += new
        self.state = self.variant.replay(new, self.state)
        return new

    def reject(self, code: str, kind: str, seat: int | None = None, **fields: Any) -> None:
        self.reject_raw(code, self.command(kind, seat, fields))

    def reject_raw(self, code: str, command: Any) -> None:
        """`command` is refused with `code` and a message, and nothing changes."""
        before = copy.deepcopy(self.state)
        views = self.all_views()
        with pytest.raises(IllegalCommand) as info:
            self.variant.decide(self.state, command)
        assert info.value.code == code, info.value.message
        assert info.value.message
        assert self.state == before
        assert self.all_views() == views

    def all_views(self) -> list[dict[str, Any]]:
        return [self.view(s) for s in [None, *range(self.state.seats)]]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self.variant.view(self.state, seat)

    def hand(self, seat: int) -> list[str]:
        return self.view(seat)["hand"]

    def legal(self, seat: int | None) -> list[dict[str, Any]]:
        return self.variant.legal_commands(self.state, seat)

    def to_act(self) -> list[int]:
        return self.view()["to_act"]

    def replayed(self) -> State:
        """The state folded again from the first event: a replay must be exact."""
        return self.variant.replay(self.events)


def official(
    hands: list[list[str]],
    flip: str,
    draw: list[str] | None = None,
    *,
    dealer: int = 0,
    seed: int = 1,
    **options: Any,
) -> Table:
    """An official game dealt from a stacked deck; `hand_size` is the size of the hands.

    The seed is fixed too, so that the engine's own random choices (a reshuffle, the place of a
    re-inserted `wild-draw4`) are the same on every run.
    """
    variant = Variant.from_spec(
        {"rules": "official", "options": {"hand_size": len(hands[0]), **options}}
    )
    seats = len(hands)
    deck = stacked(hands, flip, draw, first=(dealer + 1) % seats)
    return Table(variant, variant.start(seats, deck=deck, dealer=dealer, seed=seed))


def basic_plus(
    hands: list[list[str]],
    flip: str,
    draw: list[str] | None = None,
    *,
    first: int = 0,
    **options: Any,
) -> Table:
    """A basic-plus game dealt from a stacked deck, `first` dealt first and playing first."""
    variant = Variant.from_spec(
        {"rules": "basic-plus", "options": {"hand_size": len(hands[0]), **options}}
    )
    deck = stacked(hands, flip, draw, first=first)
    return Table(variant, variant.start(len(hands), deck=deck, first=first, seed=1))


def filled(
    seats: int, size: int, given: dict[int, list[str]], reserved: list[str]
) -> list[list[str]]:
    """Hands of `size` cards: `given[s]` first, the rest from the deck less every named card."""
    rest = Counter(DECK)
    rest.subtract(reserved)
    for cards in given.values():
        rest.subtract(cards)
    spare = [card for card in DECK if rest[card] > 0 and not rest.subtract([card])]
    hands = []
    for seat in range(seats):
        hand = list(given.get(seat, []))
        while len(hand) < size:
            hand.append(spare.pop())
        hands.append(hand)
    return hands


def types(events: list[Event]) -> list[str]:
    return [event["type"] for event in events]


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event["type"] == kind]
