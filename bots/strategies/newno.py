"""`stacker`: the newno heuristic (stack and jump-in tactics over colour control).

- Facing a stack it always stacks when it can (the draw passes on, bigger); in an open stack
  window it cannot answer it waits for the other neighbour (the Youngest Rule may still make it
  accept).
- Jumps in with every identical card it holds: a card shed out of turn, and the turn moves to it
  (a skip skips one more seat, a draw2 or wild-draw4 adds to the stack on the next seat).
- Plays a 7 only when the seat it swaps with (the one holding fewest cards) holds fewer cards
  than it will, and a 0 only when the hand it receives (the previous seat's, as hands pass in the
  direction of play) is smaller than its own; as a 7 jumper with nothing to gain it swaps the
  seat holding fewest cards with the one holding most.
- Takes the open first and second plays whenever it has a good card (a card shed for free).
- Otherwise plays for colour control (`colour-control`), always calls uno (again after a swap
  or a rotation leaves it one card) and challenges every uncalled seat, never a seat that owes
  nothing (that costs the penalty in newno).
"""

from __future__ import annotations

import random

from bots.strategies.common import (
    Command,
    View,
    by_type,
    first,
    free_calls,
    in_turn,
    open_choice,
    uno_right,
    without,
)
from bots.strategies.official import POINTS_WEIGHT, colour_control, pick_color, score_play
from engine.cards import COLOR_OF, POINTS, RANK_OF

# What one card more or less in hand is worth, against a play's colour-control score.
CARD_WEIGHT = 1.5


def receives_from(view: View) -> int:
    """The seat whose hand this seat receives when it plays a 0 now."""
    me: int = view["seat"]
    n: int = view["seats"]
    pending = view["pending"] or {}
    if pending.get("type") == "first-play":
        step = 1  # Before the direction is set hands pass clockwise.
    elif pending.get("type") == "second-play" or "first" in pending:
        # The second play sets the direction, from the first player towards this seat.
        step = 1 if me == (pending["first"] + pending["steps"]) % n else -1
    else:
        step = 1 if view["direction"] == "clockwise" else -1
    return (me - step) % n


def newno_score(view: View, command: Command) -> float:
    card: str = command["card"]
    hand: list[str] = view["hand"]
    sizes: list[int] = view["hand_sizes"]
    rest = len(hand) - 1
    rank = RANK_OF[card]
    if rest > 0 and rank == "7" and command.get("target") is not None:
        # The cards left go to the target; its hand comes back.
        return POINTS[card] * POINTS_WEIGHT + CARD_WEIGHT * (rest - sizes[command["target"]])
    if rest > 0 and rank == "0":
        return POINTS[card] * POINTS_WEIGHT + CARD_WEIGHT * (rest - sizes[receives_from(view)])
    return score_play(view, command)


def best_play(view: View, legal: list[Command], rng: random.Random) -> Command | None:
    hand = view["hand"]
    plays = [
        c
        for c in uno_right(by_type(legal, "play"))
        if c.get("color") is None or c["color"] == pick_color(view, without(hand, c["card"]))
    ]
    if not plays:
        return None
    return max(plays, key=lambda c: (newno_score(view, c), rng.random()))


def choose_swap(view: View, legal: list[Command]) -> Command:
    me, sizes = view["seat"], view["hand_sizes"]
    swaps = by_type(legal, "swap")
    mine = [c for c in swaps if "other" not in c]
    best = min(mine, key=lambda c: sizes[c["target"]])
    pairs = [c for c in swaps if "other" in c]
    if pairs and sizes[best["target"]] >= sizes[me]:
        # A 7 jumper with nothing to gain: the seat holding fewest cards gets the biggest hand.
        return max(pairs, key=lambda c: abs(sizes[c["target"]] - sizes[c["other"]]))
    return best


def stacker(view: View, legal: list[Command], rng: random.Random) -> Command | None:
    call = free_calls(view, legal)
    if call is not None:
        return call
    if not in_turn(view):
        return best_play(view, legal, rng)  # A jump-in whenever one is offered.
    pending = view["pending"] or {}
    kind = pending.get("type")
    if kind in ("stack", "first-play", "second-play", "play", "drawn"):
        play = best_play(view, legal, rng)
        if play is not None:
            if newno_score(view, play) < 0 and kind != "stack":
                # Only a bad 7 or 0 to offer: let the others act, or keep the drawn card.
                if open_choice(view):
                    return None
                if kind == "drawn":
                    return first(legal, "pass")
            return play
        if open_choice(view):
            return None  # Let the other seats act; the Youngest Rule may come back here.
        return first(legal, "accept") or first(legal, "pass") or first(legal, "draw")
    if kind == "swap":
        return choose_swap(view, legal)
    return colour_control(view, legal, rng)


__all__ = ["COLOR_OF", "newno_score", "receives_from", "stacker"]
