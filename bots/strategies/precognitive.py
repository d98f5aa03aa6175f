"""`lane-planner`: the precognitive heuristic (lane planning over colour control).

A precommitted card plays by itself at the seat's next turn only if it matches what is on top
then; otherwise the whole lane is flushed back, the seat draws and loses the turn. So the
planner estimates, for every card it could commit, the chance that it will match:

- It follows the colour (and the rank on top) from now to its next turn through the seats that
  play in between: a lane it can see (telepathic) plays its front card if it matches, or is
  flushed and changes nothing; a seat it cannot see keeps the colour with some chance
  (`KEEP_TOP`, `SAME_COLOR`, measured) or changes it (`CHANGE`).
- Each later slot of the lane follows the card before it: a coloured card sets its colour, a
  black card lets the owner name the colour of the next card in the lane.
- It fills the lane slot by slot with the card most likely to play there (a chain of one colour
  behind a black card is the ideal lane), keeping black cards (which always play) for the slots
  where no coloured card is likely to, and for the end.
- When it names a colour (after a black card from its lane) it names the colour of its next lane
  card, or the colour it can commit best; telepathic, it also prefers a colour on which the
  next seat's visible front card does not match (that lane is flushed).
- It challenges a wild-draw4 when the offender's regular hand (lane excluded) has 2 cards or
  more: a lane plays its wild-draw4 whatever the hand holds, so it is often guilty.
- Its normal turns (an empty lane) and everything else are `colour-control`'s.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from bots.strategies.common import (
    Command,
    View,
    color_counts,
    first,
    in_turn_only,
    next_seat,
    regular_size,
)
from bots.strategies.official import colour_control
from engine.cards import COLOR_OF, COLORS, POINTS, RANK_OF

# A seat whose lane this bot cannot see, in one turn: nothing reaches the pile (a flush or a
# draw), a card of the same colour does, or the colour changes (to one of the other three).
# Measured over simulated games: 38-57% of turns play nothing, 34-54% keep the colour, 8-9%
# change it.
KEEP_TOP = 0.4
SAME_COLOR = 0.5
CHANGE = 0.1
# What it costs to spend a black card (it always plays) on a slot before the end.
BLACK_COST = 0.35
# With nothing left to draw: a black card only when no coloured card is likely to play either.
SCARCE_BLACK_COST = 0.9
CHALLENGE_FROM = 2

Odds = dict[tuple[str | None, str | None], float]  # (colour, rank on top) -> chance


def _hidden_turn(odds: Odds) -> Odds:
    out: Odds = defaultdict(float)
    for (color, rank), p in odds.items():
        out[(color, rank)] += p * KEEP_TOP
        out[(color, None)] += p * SAME_COLOR
        others = [c for c in COLORS if c != color]
        for other in others:
            out[(other, None)] += p * CHANGE / len(others)
    return out


def _visible_turn(odds: Odds, front: str) -> Odds:
    out: Odds = defaultdict(float)
    for (color, rank), p in odds.items():
        if COLOR_OF[front] is None:
            for c in COLORS:  # The owner names a colour we cannot guess.
                out[(c, None)] += p / 4
        elif COLOR_OF[front] == color or RANK_OF[front] == rank:
            out[(COLOR_OF[front], RANK_OF[front])] += p
        else:
            out[(color, rank)] += p  # Flushed: nothing changes.
    return out


def _between(view: View, nxt: int) -> list[int]:
    """The seats that play from `nxt` on until this seat's next turn."""
    me, seats = view["seat"], list[int]()
    seat = nxt
    while seat != me and len(seats) < view["seats"]:
        seats.append(seat)
        seat = next_seat(view, seat)
    return seats


def odds_at_next_turn(view: View, odds: Odds, nxt: int, first_round: bool = True) -> Odds:
    for seat in _between(view, nxt):
        lane = view["lane"][seat]
        if first_round and lane and lane[0] is not None:
            odds = _visible_turn(odds, lane[0])
        else:
            odds = _hidden_turn(odds)
    return odds


def chance(odds: Odds, card: str) -> float:
    if COLOR_OF[card] is None:
        return 1.0
    color, rank = COLOR_OF[card], RANK_OF[card]
    return sum(p for (c, r), p in odds.items() if c == color or r == rank)


def after_card(view: View, card: str | None, then: str | None) -> Odds:
    """The odds at this seat's following turn once `card` has played from its lane (`then`
    is the next card of the lane, whose colour a black card names)."""
    me = view["seat"]
    if card is None:  # A hidden lane card (blind): nothing is known.
        return {(c, None): 0.25 for c in COLORS}
    if COLOR_OF[card] is None:
        color = COLOR_OF[then] if then is not None and COLOR_OF[then] else None
        start: Odds = {(color, None): 1.0} if color else {(c, None): 0.25 for c in COLORS}
    else:
        start = {(COLOR_OF[card], RANK_OF[card]): 1.0}
    return odds_at_next_turn(view, start, next_seat(view, me), first_round=False)


def plan_lane(view: View, count: int) -> list[str]:
    """The `count` cards to add to the back of the lane, in order."""
    me, hand = view["seat"], list(view["hand"])
    lane = list(view["lane"][me])
    late = view["hand_sizes"][me] <= 3
    # With (nearly) nothing left to draw a flush costs only the turn, and a black card played
    # comes straight back to whoever flushes next: black cards are spent only when no coloured
    # card is likely to play (this also keeps every seat from passing the same black cards
    # round for ever).
    scarce = view["draw_pile"] + view["discard_pile"] - 1 < view["seats"]
    black_cost = SCARCE_BLACK_COST if scarce and not late else 0.0 if late else BLACK_COST
    pending = view["pending"]
    chosen: list[str] = []
    for _ in range(count):
        if not lane and not chosen:
            now: Odds = {(view["color"], RANK_OF[view["top"]] if view["top"] else None): 1.0}
            odds = odds_at_next_turn(view, now, pending["next"])
            prev = None
        else:
            prev = (lane + chosen)[-1]
            odds = after_card(view, prev, None)
        counts = color_counts(hand)

        def value(
            card: str, odds: Odds = odds, prev: str | None = prev, counts: Counter[str] = counts
        ) -> tuple[float, int, int]:
            if COLOR_OF[card] is None:
                p = 1.0 - black_cost
            elif prev is not None and COLOR_OF[prev] is None:
                # After a black card the owner names this card's colour.
                p = chance(after_card(view, prev, card), card)
            else:
                p = chance(odds, card)
            color = COLOR_OF[card]
            return (round(p, 6), counts[color] if color else 0, POINTS[card])

        card = max(hand, key=value)
        chosen.append(card)
        hand.remove(card)
        if not hand:
            break
    return chosen


def precommit(view: View, legal: list[Command]) -> Command:
    count = view["pending"]["count"]
    cards = plan_lane(view, count)
    return {
        "type": "precommit",
        "seat": view["seat"],
        "cards": cards,
        "uno": view["seat"] in view["uncalled"],
    }


def name_color(view: View, legal: list[Command], rng: random.Random) -> Command:
    me = view["seat"]
    lane = view["lane"][me]
    hand = view["hand"]
    front = lane[0] if lane and lane[0] is not None else None
    counts = color_counts(hand)
    nxt = next_seat(view, me)
    rank = RANK_OF[view["top"]] if view["top"] else None

    def value(color: str) -> float:
        odds = odds_at_next_turn(view, {(color, rank): 1.0}, nxt)
        if front is not None:
            score = chance(odds, front)
        else:
            score = max((chance(odds, c) for c in hand if COLOR_OF[c]), default=0.0)
        score += 0.05 * counts[color]
        their = view["lane"][nxt]
        if nxt != me and their and their[0] is not None and COLOR_OF[their[0]] is not None:
            if COLOR_OF[their[0]] != color and RANK_OF[their[0]] != rank:
                score += 0.5  # Their lane is flushed.
        return score

    # Ties at random: blind, with nothing left in its regular hand, it cannot know which colour
    # its next lane card needs, and always naming the same colour could flush it for ever.
    color = max(COLORS, key=lambda c: (round(value(c), 6), rng.random()))
    return next(c for c in legal if c["type"] == "choose-color" and c["color"] == color)


@in_turn_only
def lane_planner(
    view: View, legal: list[Command], rng: random.Random, kind: str | None
) -> Command | None:
    if kind == "precommit":
        return precommit(view, legal)
    if kind == "color" and any(view["lane"]):
        return name_color(view, legal, rng)
    if kind == "challenge":
        offender = view["pending"]["offender"]
        if regular_size(view, offender) >= CHALLENGE_FROM:
            return first(legal, "challenge")
        return first(legal, "accept")
    return colour_control(view, legal, rng)


__all__ = ["lane_planner", "plan_lane"]
