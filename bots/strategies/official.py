"""`colour-control`: the official heuristic (also sound in basic-plus and as a censor's own turn).

- Plays so that the current colour is one it holds many of: every play is scored by how many
  of the cards left in hand will follow it (same colour, or same rank), plus the points it sheds.
- Holds black cards for when it is stuck, for the end (a black last card always goes out) and
  for an opponent about to go out; names the colour it holds most; does not bluff a
  wild-draw4 (official) unless the next seat is about to go out.
- Attacks the next seat with skip/draw2 (and a wild-draw4) when it is close to going out.
- Challenges a wild-draw4 when the offender still holds enough cards that it probably held the
  colour before (no bot sees the history, so the offender's hand size is the evidence);
  accepts otherwise.
- Calls uno with every play that leaves one card and catches every uncalled seat.
"""

from __future__ import annotations

import random

from bots.strategies.builtin import greedy
from bots.strategies.common import (
    Command,
    View,
    best_color,
    by_type,
    first,
    in_turn_only,
    next_seat,
    regular_size,
    uno_right,
    without,
)
from engine.cards import COLOR_OF, COLORS, POINTS, RANK_OF, WILD_DRAW4

# The chance that a hand of k cards holds no card of one given colour is about 0.75**k; a
# challenge pays (+4 for the offender, a turn for us) against a loss of 2 cards: worth it above
# roughly one chance in three against a careless player; against one that never bluffs every
# challenge costs 2 cards, so only a big hand is challenged.
CHALLENGE_FROM = 5
# Weights of a play's score (tuned against greedy, see docs/bots.md).
POINTS_WEIGHT = 0.01  # points only break ties: shedding tempo matters more
BLACK_PENALTY = 4.0


def danger(view: View) -> bool:
    """Someone else is about to go out."""
    me = view["seat"]
    return any(n <= 2 for s, n in enumerate(view["hand_sizes"]) if s != me)


def pick_color(view: View, hand: list[str]) -> str:
    return best_color(hand, default=view["color"])


def score_play(view: View, command: Command) -> float:
    """How good a play is for colour control (higher is better)."""
    card, hand = command["card"], view["hand"]
    rest = without(hand, card)
    color = command.get("color") or COLOR_OF[card] or pick_color(view, rest)
    rank = RANK_OF[card]
    nxt = next_seat(view, view["seat"])
    threat = view["hand_sizes"][nxt] <= 2
    # Control: the cards left that can follow this one if the colour holds.
    follow = sum(
        1 for c in rest if COLOR_OF[c] is not None and (COLOR_OF[c] == color or RANK_OF[c] == rank)
    )
    score = follow + POINTS[card] * POINTS_WEIGHT
    if not rest:
        return 1000.0  # Going out.
    if COLOR_OF[card] is None:
        # Black cards are kept for when nothing else plays, for the last card, and for danger.
        score -= 1.0 if danger(view) else BLACK_PENALTY
        if card == WILD_DRAW4:
            score += 3.0 if threat else 0.0
            if view["rules"] == "official" and any(COLOR_OF[c] == view["color"] for c in rest):
                score -= 3.0  # A bluff: a challenge would cost 4 cards.
    elif rank in ("skip", "draw2") or (rank == "reverse" and view["seats"] == 2):
        score += 2.5 if threat else 0.5
    if len(rest) == 1 and COLOR_OF[rest[0]] is None:
        score += 2.0  # A black last card always goes out.
    return score


def play_turn(view: View, legal: list[Command], rng: random.Random) -> Command | None:
    plays = uno_right(by_type(legal, "play"))
    hand = view["hand"]
    # A black card is listed once per colour: keep the colour this bot would name (worked out
    # once per card, not once per listed colour).
    named: dict[str, str] = {}
    kept = []
    for c in plays:
        color = c.get("color")
        if color is not None:
            card = c["card"]
            if card not in named:
                named[card] = pick_color(view, without(hand, card))
            if color != named[card]:
                continue
        kept.append(c)
    plays = kept
    fallback = first(legal, "pass") or first(legal, "draw")
    if not plays:
        return fallback
    return max(plays, key=lambda c: (score_play(view, c), rng.random()))


def challenge_or_accept(view: View, legal: list[Command]) -> Command | None:
    offender = view["pending"]["offender"]
    if regular_size(view, offender) >= CHALLENGE_FROM:
        return first(legal, "challenge")
    return first(legal, "accept")


@in_turn_only
def colour_control(
    view: View, legal: list[Command], rng: random.Random, kind: str | None
) -> Command | None:
    if kind in ("play", "drawn"):
        return play_turn(view, legal, rng)
    if kind == "color":
        color = pick_color(view, view["hand"])
        return next(c for c in legal if c["type"] == "choose-color" and c["color"] == color)
    if kind == "challenge":
        return challenge_or_accept(view, legal)
    return greedy(view, legal, rng)


__all__ = ["COLORS", "colour_control", "pick_color", "play_turn", "score_play"]
