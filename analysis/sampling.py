"""Deals consistent with what one seat knew: pure Python, no Django.

`Knowledge` follows a log event by event and keeps, for every seat, the cards it knows to be in
each other seat's hand: cards it saw drawn, a hand a challenge showed it, the hand it gave away
in a newno swap or rotation, a lane it could see flushed back, a card it submitted that the
censor kept, a card the censor returned to it. Cards leave that knowledge when they are played,
submitted or committed to a lane.

`determinize` turns the true state into one a seat could not tell from it: every card the seat
cannot see (the other hands less the cards it knows there, the lanes hidden from it, the draw
pile, a submission it did not see) is gathered, put in a canonical order, shuffled with the
sample's generator and dealt back into the same places, so each hand keeps its size. What the
seat did not see never decides a sample: the gathered cards are the deck less what the seat
sees, and their places are public counts (tests/analysis/test_no_leak.py). The state's seed is
replaced by the sample's, so a reshuffle in a playout draws a new order, not the match's.
docs/analysis.md, "How a decision is valued".
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from engine import COLORS, State
from engine.cards import COLOR_OF, Card
from engine.events import (
    CARD_PLAYED,
    CARD_RETURNED,
    CARD_SUBMITTED,
    CARDS_DRAWN,
    CHALLENGE_RESOLVED,
    HAND_STARTED,
    HANDS_ROTATED,
    HANDS_SWAPPED,
    LANE_FILLED,
    LANE_FLUSHED,
    SUBMISSION_KEPT,
)

Event = dict[str, Any]
LaneVisible = Callable[[int, int | None], bool]


def _remove(cards: list[Card], gone: Iterable[Card]) -> list[Card]:
    """`cards` less one copy of each of `gone` that it holds."""
    rest = list(cards)
    for card in gone:
        if card in rest:
            rest.remove(card)
    return rest


class Knowledge:
    """What each seat knows of the others' regular hands, event by event."""

    def __init__(self, seats: int, lane_visible: LaneVisible) -> None:
        self.seats = seats
        self.lane_visible = lane_visible
        # known[viewer][owner]: cards `viewer` knows `owner` holds (viewer's own: unused).
        self.known: list[list[list[Card]]] = [[[] for _ in range(seats)] for _ in range(seats)]

    def copy(self) -> Knowledge:
        new = Knowledge(self.seats, self.lane_visible)
        new.known = [[list(cards) for cards in row] for row in self.known]
        return new

    def of(self, viewer: int) -> list[list[Card]]:
        return self.known[viewer]

    def see(self, event: Event, before: State) -> None:
        """Fold one event; `before` is the state just before it."""
        kind = event["type"]
        seats = range(self.seats)
        known = self.known
        if kind == HAND_STARTED:
            self.known = [[[] for _ in seats] for _ in seats]
        elif kind == CARD_PLAYED and event.get("source", "hand") == "hand":
            owner = event["seat"]
            for viewer in seats:
                if event["card"] in known[viewer][owner]:
                    known[viewer][owner] = _remove(known[viewer][owner], [event["card"]])
        elif kind == CHALLENGE_RESOLVED and event.get("hand") is not None:
            # The challenger (and the offender) saw the offender's whole regular hand.
            known[event["seat"]][event["target"]] = list(event["hand"])
        elif kind == HANDS_SWAPPED:
            a, b = event["seat"], event["target"]
            for viewer in seats:
                row = known[viewer]
                row[a], row[b] = row[b], row[a]
            # Each of the two knows the hand it gave: the other's now.
            known[a][b] = list(before.hands[a])
            known[b][a] = list(before.hands[b])
        elif kind == HANDS_ROTATED:
            step = event["direction"]
            n = self.seats
            for viewer in seats:
                row = known[viewer]
                known[viewer] = [row[(s - step) % n] for s in seats]
            for viewer in seats:
                known[viewer][(viewer + step) % n] = list(before.hands[viewer])
        elif kind == LANE_FILLED:
            owner = event["seat"]
            for viewer in seats:
                known[viewer][owner] = _remove(known[viewer][owner], event["cards"])
        elif kind == LANE_FLUSHED:
            owner = event["seat"]
            for viewer in seats:
                if viewer != owner and self.lane_visible(owner, viewer):
                    known[viewer][owner] = known[viewer][owner] + list(event["cards"])
        elif kind == CARD_SUBMITTED:
            owner = event["seat"]
            for viewer in seats:
                known[viewer][owner] = _remove(known[viewer][owner], [event["card"]])
        elif kind == SUBMISSION_KEPT:
            submitter, dealer = event["seat"], event["dealer"]
            card = (before.extra.get("submission") or {}).get("card")
            if card is not None:
                known[submitter][dealer] = known[submitter][dealer] + [card]
        elif kind == CARD_RETURNED:
            submitter, dealer = event["seat"], event["dealer"]
            submitted = (before.extra.get("submission") or {}).get("card")
            row = known[submitter]
            row[dealer] = _remove(row[dealer], [event["card"]])
            if submitted is not None:
                row[dealer] = row[dealer] + [submitted]
            known[dealer][submitter] = known[dealer][submitter] + [event["card"]]
        elif kind == CARDS_DRAWN:
            pass  # only the drawing seat sees its cards (engine/view.py)


def hidden_cards(
    state: State, seat: int, known: list[list[Card]], lane_visible: LaneVisible
) -> list[Card]:
    """Every card `seat` cannot see, in a canonical order (the deck less what it sees)."""
    pool: list[Card] = []
    for owner in range(state.seats):
        if owner != seat:
            seen = Counter(known[owner]) & Counter(state.hands[owner])
            pool += list((Counter(state.hands[owner]) - seen).elements())
        if state.lanes[owner] and not lane_visible(owner, seat):
            pool += state.lanes[owner]
    pool += state.draw
    submission = state.extra.get("submission")
    if submission is not None and seat not in (submission["seat"], state.dealer):
        pool.append(submission["card"])
    pool.sort()
    return pool


def determinize(
    state: State,
    seat: int,
    known: list[list[Card]],
    lane_visible: LaneVisible,
    rng: random.Random,
    sample_seed: str,
    keep: dict[int, list[Card]] | None = None,
) -> State:
    """A state `seat` could not tell from `state`: see the module's docstring. `keep`: cards
    an owner is taken to hold besides what `seat` knows (a card it is about to play, public
    once played)."""
    if keep:
        known = [known[owner] + keep.get(owner, []) for owner in range(state.seats)]
    pool = hidden_cards(state, seat, known, lane_visible)
    rng.shuffle(pool)
    new = state.copy()
    taken = 0
    for owner in range(state.seats):
        if owner != seat:
            hand = state.hands[owner]
            seen = list((Counter(known[owner]) & Counter(hand)).elements())
            unseen = len(hand) - len(seen)
            new.hands[owner] = seen + pool[taken : taken + unseen]
            taken += unseen
        lane = state.lanes[owner]
        if lane and not lane_visible(owner, seat):
            new.lanes[owner] = pool[taken : taken + len(lane)]
            taken += len(lane)
    new.draw = pool[taken : taken + len(state.draw)]
    taken += len(state.draw)
    submission = state.extra.get("submission")
    if submission is not None and seat not in (submission["seat"], state.dealer):
        card = pool[taken]
        taken += 1
        color = submission.get("color")
        if COLOR_OF[card] is not None:
            color = None
        elif color is None:
            color = rng.choice(COLORS)
        new.extra = {**new.extra, "submission": {**submission, "card": card, "color": color}}
    if new.challenge is not None:
        offender, before, _ = new.challenge
        new.challenge = (offender, before, tuple(new.hands[offender]))
    new.seed = sample_seed
    return new
