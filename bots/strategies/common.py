"""What every strategy shares: the types, card arithmetic and the free out-of-turn moves.

A strategy sees only its seat's view (`hand`, `hand_sizes`, `top`, `color`, `pending`, `lane`,
`uncalled`, …) and its legal commands; these helpers read nothing else.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from engine.cards import COLOR_OF, COLORS, POINTS, RANK_OF

View = dict[str, Any]
Command = dict[str, Any]
Strategy = Callable[[View, list[Command], random.Random], Command | None]

OUT_OF_TURN = ("catch", "call-uno")


def worth_it(view: View, command: Command) -> bool:
    """Out-of-turn commands that cost nothing: a catch of a catchable seat, a call that is owed.

    (In basic-plus and newno a wrong catch or a false call is legal but costs cards.)
    """
    if command["type"] == "catch":
        return command["target"] in view["uncalled"]
    if command["type"] == "call-uno":
        return view["seat"] in view["uncalled"]
    return True


def free_calls(view: View, legal: list[Command]) -> Command | None:
    """The owed uno call first, then a catch of an uncalled seat (the one with fewest cards)."""
    calls = [c for c in legal if c["type"] == "call-uno" and worth_it(view, c)]
    if calls:
        return calls[0]
    catches = [c for c in legal if c["type"] == "catch" and worth_it(view, c)]
    if catches:
        return min(catches, key=lambda c: view["hand_sizes"][c["target"]])
    return None


TurnChoice = Callable[[View, list[Command], random.Random, "str | None"], "Command | None"]


def in_turn_only(choose: TurnChoice) -> Strategy:
    """A strategy from its in-turn choice: owed calls and free catches first, whenever they
    come; out of turn nothing else; in turn `choose(view, legal, rng, pending_type)`."""

    @functools.wraps(choose)
    def strategy(view: View, legal: list[Command], rng: random.Random) -> Command | None:
        call = free_calls(view, legal)
        if call is not None:
            return call
        if not in_turn(view):
            return None
        return choose(view, legal, rng, (view["pending"] or {}).get("type"))

    return strategy


def in_turn(view: View) -> bool:
    return view["seat"] in view["to_act"]


def open_choice(view: View) -> bool:
    """A newno open choice: several seats may act, and any of them may let it pass."""
    return "seats" in (view["pending"] or {})


def matches(card: str, top: str | None, color: str | None) -> bool:
    return (
        COLOR_OF[card] is None
        or COLOR_OF[card] == color
        or (top is not None and RANK_OF[card] == RANK_OF[top])
    )


def color_counts(cards: Iterable[str | None]) -> Counter[str]:
    return Counter(color for c in cards if c is not None and (color := COLOR_OF[c]) is not None)


# A card's share of its colour's score in best_color: the count first, then the points (a
# hand never holds 2**40 points, so the sum orders (count, points) as the tuples would).
_COUNTED = 1 << 40
_SCORE_OF: dict[str | None, tuple[str, int] | None] = {
    card: None if color is None else (color, _COUNTED + POINTS[card])
    for card, color in COLOR_OF.items()
}
_SCORE_OF[None] = None  # a hidden card


def held_color(cards: Iterable[str | None], default: str | None = None) -> str | None:
    """best_color's colour, or None when no coloured card is held."""
    scores = dict.fromkeys(COLORS, 0)
    held = False
    for card in cards:
        scored = _SCORE_OF[card]
        if scored is not None:
            scores[scored[0]] += scored[1]
            held = True
    if not held:
        return None
    # max(COLORS, key=(count, points, is the default)): the first of the highest keys.
    best, top = COLORS[0], (scores[COLORS[0]], COLORS[0] == default)
    for color in COLORS[1:]:
        key = (scores[color], color == default)
        if key > top:
            best, top = color, key
    return best


def best_color(cards: Iterable[str | None], default: str | None = None) -> str:
    """The colour held most (ties: the one with more points, so it is shed sooner)."""
    color = held_color(cards, default)
    if color is None:
        return default or COLORS[0]
    return color


def without(hand: list[str], card: str) -> list[str]:
    rest = list(hand)
    rest.remove(card)
    return rest


def uno_right(plays: list[Command]) -> list[Command]:
    """Of the plays listed with and without `uno`, keep the one that calls uno when it is due."""
    called = {(c["card"], c.get("color"), c.get("target")) for c in plays if c.get("uno")}
    return [
        c
        for c in plays
        if c.get("uno") or (c["card"], c.get("color"), c.get("target")) not in called
    ]


def by_type(legal: list[Command], kind: str) -> list[Command]:
    return [c for c in legal if c["type"] == kind]


def first(legal: list[Command], kind: str) -> Command | None:
    return next((c for c in legal if c["type"] == kind), None)


def next_seat(view: View, seat: int, steps: int = 1) -> int:
    step = 1 if view["direction"] == "clockwise" else -1
    seats: int = view["seats"]
    return (seat + step * steps) % seats


def regular_size(view: View, seat: int) -> int:
    """Cards in a seat's regular hand (precognitive: `hand_sizes` count the lane too)."""
    sizes: list[int] = view["hand_sizes"]
    return sizes[seat] - len(view["lane"][seat])


def fewest_others(view: View) -> int:
    me = view["seat"]
    sizes: list[int] = view["hand_sizes"]
    return min(n for s, n in enumerate(sizes) if s != me)
