"""`censor`: the censorship heuristic, a censor's strategy as dealer and a submitter's as a
standard seat.

As the dealer (the censor) it rules on every submission by scoring each allowed ruling:
- `substitute` swaps one of its own cards for the submitted one: worth it when its card has
  more points than the submitted one (the points it would hold when someone goes out), when the
  submitted card is one it wants (a black card), and when the colour it can then name or play
  suits its own next turn;
- `approve` when the submitted card helps it (a low card it would not want, a colour it holds);
- never a draw2, skip or wild-draw4 that hits the dealer itself (the card acts as if the
  submitter played it, against the seat after the submitter);
- when nothing is legal, it `return`s its highest coloured card (black cards are kept).
Its own turns are `colour-control`'s.

As a submitter it weighs each card by the chance that it leaves its hand. A legal card always
does (approved, or kept by the dealer). An illegal card does only when the dealer holds a legal
card and so must substitute: nearly sure while the dealer holds many cards (each card matches
about one time in three), so it dumps its highest cards, legal or not; when the dealer is down to
a few cards it submits a legal card, keeping black cards (always legal) for that end game. A
drawn card that is legal is always submitted again.
"""

from __future__ import annotations

import random

from bots.strategies.common import (
    Command,
    View,
    best_color,
    by_type,
    first,
    in_turn_only,
    matches,
    next_seat,
    uno_right,
    without,
)
from bots.strategies.official import colour_control
from engine.cards import COLOR_OF, COLORS, POINTS, RANK_OF, WILD_DRAW4

# The chance that one unseen card is a legal play (its colour, its rank, or black).
MATCH_CHANCE = 0.36
BLACK_KEEP = 1.5  # what keeping a black card for the end is worth to a submitter
POINTS_WEIGHT = 1 / 25  # a card's points, against one card more or less in hand


def legal_for(card: str, hand: list[str], top: str | None, color: str | None) -> bool:
    """Whether `card` is legal for a holder of `hand` (the card itself excluded)."""
    if not matches(card, top, color):
        return False
    return card != WILD_DRAW4 or not any(COLOR_OF[c] == color for c in hand)


def dealer_has_legal(view: View) -> float:
    """The chance that the dealer holds a legal card, from the number of cards it holds."""
    held: int = view["hand_sizes"][view["dealer"]]
    return 1 - (1 - MATCH_CHANCE) ** held


# ------------------------------------------------------------------------------- submitter


def submit_value(view: View, command: Command) -> float:
    card, hand = command["card"], view["hand"]
    rest = without(hand, card)
    legal = legal_for(card, rest, view["top"], view["color"])
    leaves = 1.0 if legal else dealer_has_legal(view)
    shed = 1.0 + POINTS[card] * POINTS_WEIGHT
    if not rest:
        shed += 100  # Going out, unless the card comes back.
    if COLOR_OF[card] is None and len(rest) > 1:
        shed -= BLACK_KEEP
    if (
        legal
        and RANK_OF[card] in ("draw2", "skip")
        and next_seat(view, view["seat"]) != view["dealer"]
    ):
        shed += 0.5  # If approved it hits the next seat.
    return leaves * shed - (1 - leaves) * 1.5


def submitter(view: View, legal: list[Command], rng: random.Random) -> Command:
    kind = view["pending"]["type"]
    submits = uno_right(by_type(legal, "submit"))
    if kind == "resubmit" and submits:
        card = submits[0]["card"]
        color = best_color(without(view["hand"], card), default=view["color"])
        return next(c for c in submits if c.get("color") in (None, color))
    hand = view["hand"]
    submits = [
        c
        for c in submits
        if c.get("color") is None
        or c["color"] == best_color(without(hand, c["card"]), default=view["color"])
    ]
    return max(submits, key=lambda c: (submit_value(view, c), rng.random()))


# ---------------------------------------------------------------------------------- dealer


def _follow(cards: list[str], color: str, rank: str) -> int:
    return sum(
        1 for c in cards if COLOR_OF[c] is not None and (COLOR_OF[c] == color or RANK_OF[c] == rank)
    )


def ruling_value(view: View, command: Command) -> float:
    """The dealer's view of a ruling: the cards it keeps, the colour it leaves, who gets hit."""
    me, hand = view["seat"], view["hand"]
    submission = view["submission"]
    submitted = submission["card"]
    if command["type"] == "approve":
        card, color, keeps = submitted, submission["color"] or COLOR_OF[submitted], hand
    else:
        card = command["card"]
        color = command.get("color") or COLOR_OF[card]
        keeps = without(hand, card) + [submitted]
    # Points it will hold, and black cards it keeps for its own turns.
    score = -sum(POINTS[c] for c in keeps) * POINTS_WEIGHT
    score += 1.0 * sum(COLOR_OF[c] is None for c in keeps)
    victim = next_seat(view, submission["seat"])
    rank = RANK_OF[card]
    if rank == "reverse":
        victim = next_seat(view, submission["seat"], -1)
    if rank in ("draw2", "skip") or card == WILD_DRAW4:
        cost = {"draw2": 2.0, "skip": 1.0}.get(rank, 4.0)
        if victim == me:
            score -= cost + 1.0
        else:
            score += 0.5 * cost
    elif victim == me:
        # Its own turn comes next: a colour it can follow.
        # A colour of None (nothing named) matches no card: only the rank counts.
        score += 0.5 * _follow(keeps, color or "", rank or "")
    return score


def ruling(view: View, legal: list[Command], rng: random.Random) -> Command:
    returns = by_type(legal, "return")
    if returns:
        # Nothing is legal: hand back its highest coloured card (the colour it holds least).
        counts = {c: sum(COLOR_OF[x] == c for x in view["hand"]) for c in COLORS}
        return max(
            returns,
            key=lambda c: (
                COLOR_OF[c["card"]] is not None,
                POINTS[c["card"]],
                -counts.get(COLOR_OF[c["card"]] or "", 0),
            ),
        )
    return max(legal, key=lambda c: (ruling_value(view, c), rng.random()))


@in_turn_only
def censor(
    view: View, legal: list[Command], rng: random.Random, kind: str | None
) -> Command | None:
    if kind in ("submit", "resubmit"):
        return submitter(view, legal, rng)
    if kind == "ruling":
        rulings = [c for c in legal if c["type"] in ("approve", "substitute", "return")]
        return ruling(view, rulings, rng)
    return colour_control(view, legal, rng)


__all__ = ["censor", "first"]
