"""The simple strategies, for every family: `random` (random-legal) and `greedy`."""

from __future__ import annotations

import random

from bots.strategies.common import (
    OUT_OF_TURN,
    Command,
    Strategy,
    View,
    by_type,
    color_counts,
    first,
    free_calls,
    held_color,
    in_turn,
    matches,
    open_choice,
    uno_right,
    worth_it,
)
from engine.cards import COLOR_OF, COLORS, POINTS

__all__ = ["Command", "Strategy", "View", "greedy", "random_legal"]


def random_legal(view: View, legal: list[Command], rng: random.Random) -> Command | None:
    """Any legal move, uniformly; out of turn, half the time, a free call, catch or jump-in.

    Out of turn it never makes a move that costs it cards (a wrong catch or a false uno call,
    legal in basic-plus and newno).
    """
    if in_turn(view):
        moves = [c for c in legal if c["type"] not in OUT_OF_TURN or worth_it(view, c)]
        return rng.choice(moves) if moves else None
    extras = [c for c in legal if worth_it(view, c)]
    return rng.choice(extras) if extras and rng.random() < 0.5 else None


def _play_value(view: View, command: Command) -> tuple[int, int, int]:
    """Greedy's order: coloured cards before black ones (until 3 cards are left), then points;
    a newno 7 swaps with the seat holding fewest cards."""
    card = command["card"]
    black = COLOR_OF[card] is None
    late = len(view["hand"]) <= 3
    target = command.get("target")
    return (
        0 if black and not late else 1,
        POINTS[card],
        -view["hand_sizes"][target] if target is not None else 0,
    )


def _greedy_play(view: View, legal: list[Command], color: str) -> Command | None:
    plays = uno_right([c for c in legal if c["type"] == "play" and c.get("color") in (None, color)])
    return max(plays, key=lambda c: _play_value(view, c)) if plays else None


def greedy(view: View, legal: list[Command], rng: random.Random) -> Command | None:
    """Shed the most points first, keep black cards for late, never miss an uno or a catch.

    Every family: it stacks when it can, jumps in whenever it can (a card shed out of turn),
    swaps hands with the seat holding fewest cards, submits its highest card (a legal one first)
    and, as a censorship dealer, plays its highest legal card unless the submission is worth more.
    """
    call = free_calls(view, legal)
    if call is not None:
        return call
    hand = view["hand"]
    # With no coloured card (a precognitive hand all in its lane) any colour may be right: pick
    # one at random rather than always the same.
    color = held_color(hand)
    if color is None:
        color = rng.choice(COLORS)
    if not in_turn(view):
        return _greedy_play(view, legal, color)  # a jump-in, when one is offered
    kind = (view["pending"] or {}).get("type")
    play = _greedy_play(view, legal, color)
    if play is not None:
        return play
    if kind == "color":
        return next(c for c in legal if c["type"] == "choose-color" and c["color"] == color)
    if kind == "precommit":
        return _greedy_precommit(view, rng)
    if kind in ("submit", "resubmit"):
        submits = by_type(legal, "submit")
        submits = uno_right([c for c in submits if c.get("color") in (None, color)])

        def worth(command: Command) -> tuple[bool, int]:
            return (matches(command["card"], view["top"], view["color"]), POINTS[command["card"]])

        return max(submits, key=worth)
    if kind == "ruling":
        return _greedy_ruling(view, legal, color)
    if kind == "swap":
        swaps = [c for c in by_type(legal, "swap") if "other" not in c]
        return min(swaps, key=lambda c: view["hand_sizes"][c["target"]])
    if kind == "stack" and open_choice(view):
        return None  # Cannot stack: let the other neighbour decide first.
    for move in ("accept", "pass", "draw"):
        command = first(legal, move)
        if command is not None:
            return command
    moves = [c for c in legal if c["type"] not in OUT_OF_TURN]
    return rng.choice(moves) if moves else None


def _greedy_precommit(view: View, rng: random.Random) -> Command:
    """Black cards first, then the colour in play, then the colours held most, one colour after
    the other (ties at random, so a stuck hand does not commit the same card for ever).

    With (nearly) nothing left to draw, a black card played comes straight back to whoever
    flushes next: then the colour in play goes first and black cards next (else every seat may
    pass the same black cards round for ever).
    """
    hand = view["hand"]
    counts = color_counts(hand)
    scarce = view["draw_pile"] + view["discard_pile"] - 1 < view["seats"]

    def order(card: str) -> tuple[bool, bool, bool, int, str, float]:
        color = COLOR_OF[card]
        black = color is None
        return (
            black and not scarce,
            color == view["color"],
            black,
            counts[color or ""],
            color or "",
            rng.random(),
        )

    cards = sorted(hand, key=order, reverse=True)[: view["pending"]["count"]]
    return {
        "type": "precommit",
        "seat": view["seat"],
        "cards": cards,
        "uno": view["seat"] in view["uncalled"],
    }


def _greedy_ruling(view: View, legal: list[Command], color: str) -> Command:
    """The dealer keeps the lower card: it plays its highest legal card unless the submitted
    card is worth more; with nothing legal it returns its highest card."""
    submitted = (view.get("submission") or {}).get("card")
    own = [c for c in by_type(legal, "substitute") if c.get("color") in (None, color)]
    approve = first(legal, "approve")
    if own:
        best = max(own, key=lambda c: POINTS[c["card"]])
        if approve is None or submitted is None or POINTS[best["card"]] > POINTS[submitted]:
            return best
    if approve is not None:
        return approve
    returns = by_type(legal, "return")
    return max(returns, key=lambda c: (COLOR_OF[c["card"]] is not None, POINTS[c["card"]]))
