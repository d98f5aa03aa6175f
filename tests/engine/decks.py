"""Stacked decks for exact rule tests: say which cards each seat holds and what comes next."""

from __future__ import annotations

from collections import Counter

from engine import DECK


def stacked(
    hands: list[list[str]],
    flip: str,
    draw: list[str] | None = None,
    first: int = 0,
) -> list[str]:
    """A full 108-card order that deals `hands[s]` to seat s and flips `flip`.

    `first` is the seat dealt first (official: the seat left of the dealer; basic-plus: the
    first seat). Every hand must have the same length. `draw` lists the top of the draw pile
    after the flip, top first; the remaining cards follow in the canonical order.
    """
    seats, size = len(hands), len(hands[0])
    if any(len(h) != size for h in hands):
        raise ValueError("every stacked hand needs the same number of cards")
    order: list[str] = []
    for i in range(size * seats):
        seat = (first + i) % seats
        order.append(hands[seat][i // seats])
    order.append(flip)
    order += draw or []
    rest = Counter(DECK)
    rest.subtract(order)
    if any(n < 0 for n in rest.values()):
        extra = [c for c, n in rest.items() if n < 0]
        raise ValueError(f"more copies than the deck holds: {extra}")
    order += [card for card in DECK if rest[card] > 0 and not rest.subtract([card])]
    return order
