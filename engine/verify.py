"""Check a whole game log against its published seed (docs/verifying-deals.md).

`verify_log(events)` folds the log from the start and, at each event where chance or a hidden
card enters, recomputes what the decider would have made from the seed (`dealing.py`) and
compares:

- `hand-started`: the hand's number, seats and hand size; the deck (the seed's shuffle for that
  hand); the commitment (the hash of that deck, recorded before any card was seen); the dealer
  (the first hand's drawn from the seed, each later one the seat after the last);
- `card-reinserted`: the flipped wild-draw4 and the place it went back to;
- `pile-reshuffled`: the new order, from the cards the folded discard pile holds;
- every card that moves (flipped, drawn, played from a hand, a lane or a submission, put in or
  flushed from a precognitive lane, submitted, returned, shown in a challenge, left at a hand's
  end): it is where the fold of the log so far says it is. So a card changed anywhere in a deck
  or a reshuffle shows up, and every precognitive lane is the cards its seat precommitted.

It needs the unredacted log (the seed and the decks): the replay of a revealed match. Pure, so
the management command and the tests share it; docs/examples/verify_deals.py is its
standard-library twin for players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import WILD_DRAW4, Card
from engine.dealing import choice_rng, deal_commitment, drawn_anchor, reshuffle_order, seeded_deck
from engine.events import (
    CARD_FLIPPED,
    CARD_PLAYED,
    CARD_REINSERTED,
    CARD_RETURNED,
    CARD_SUBMITTED,
    CARDS_DRAWN,
    CHALLENGE_RESOLVED,
    EVOLVE,
    HAND_ENDED,
    HAND_STARTED,
    LANE_FILLED,
    LANE_FLUSHED,
    MATCH_STARTED,
    PILE_RESHUFFLED,
    Event,
    initial_state,
)
from engine.rules.base import Ruleset
from engine.state import State
from engine.variant import Variant

# Where the recorded and the recomputed differ, at most this many findings are kept: past the
# first few, a changed card only echoes through every later draw.
MAX_FINDINGS = 50


@dataclass(frozen=True, slots=True)
class Finding:
    """One place where the log and what its seed makes differ."""

    version: int  # the event's place in the log, from 1 (match-started)
    hand: int
    check: str  # seed, variant, hand, deck, commitment, dealer, reinsert, reshuffle, cards
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "hand": self.hand,
            "check": self.check,
            "message": self.message,
        }


@dataclass(slots=True)
class Verification:
    """What `verify_log` checked and every difference it found."""

    hands: int = 0
    committed: int = 0  # hands whose commitment was recorded and matches
    uncommitted: list[int] = field(default_factory=list)  # hands dealt before commitments
    reshuffles: int = 0
    reinsertions: int = 0
    findings: list[Finding] = field(default_factory=list)
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return not self.findings

    def lines(self) -> list[str]:
        """The report for people: what was checked, then the verdict or each difference."""
        lines = [
            f"checked {self.hands} hand(s): {self.committed} commitment(s) matched, "
            f"{self.reshuffles} reshuffle(s), {self.reinsertions} reinsertion(s)"
        ]
        if self.uncommitted:
            hands = ", ".join(map(str, self.uncommitted))
            lines.append(
                f"note: hand(s) {hands} were dealt before commitments were recorded: their decks "
                "are checked against the seed, but nothing shows they were fixed before the deal"
            )
        for finding in self.findings:
            lines.append(
                f"MISMATCH at event {finding.version} (hand {finding.hand}, {finding.check}): "
                f"{finding.message}"
            )
        if self.truncated:
            lines.append(f"… only the first {MAX_FINDINGS} differences are listed")
        lines.append(
            "OK: every deal, dealer, reshuffle and reinsertion is the seed's and every card moved "
            "as the log says"
            if self.ok
            else f"FAILED: {len(self.findings)} difference(s) between the log and its seed"
        )
        return lines

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "hands": self.hands,
            "committed": self.committed,
            "uncommitted": list(self.uncommitted),
            "reshuffles": self.reshuffles,
            "reinsertions": self.reinsertions,
            "findings": [finding.as_dict() for finding in self.findings],
            "truncated": self.truncated,
        }


def verify_log(events: Sequence[Event], spec: Mapping[str, Any] | None = None) -> Verification:
    """Check `events`, a whole unredacted log, against its seed. `spec` serves streams whose
    match-started names no variant (Variant.from_stream)."""
    result = Verification()
    if not events or events[0].get("type") != MATCH_STARTED:
        _find(result, 1, 0, "log", "a game's log begins with match-started")
        return result
    started = events[0]
    if started.get("seed") is None:
        _find(
            result,
            1,
            0,
            "seed",
            "match-started holds no seed: this is a redacted copy of the log (a seat's view, "
            "or a match not yet revealed)",
        )
        return result
    try:
        ruleset = Variant.from_stream(started, spec).ruleset
    except ValueError as error:
        _find(result, 1, 0, "variant", str(error))
        return result
    _Walk(ruleset, initial_state(started), result).run(events)
    return result


def _find(result: Verification, version: int, hand: int, check: str, message: str) -> None:
    if len(result.findings) >= MAX_FINDINGS:
        result.truncated = True
        return
    result.findings.append(Finding(version, hand, check, message))


class _Walk:
    """The fold of one log with a check before each event."""

    def __init__(self, ruleset: Ruleset, state: State, result: Verification) -> None:
        self.ruleset = ruleset
        self.state = state
        self.seed = state.seed
        self.result = result
        # The index of the first event of the decision being checked: a reinsertion's place is
        # drawn from the number of events its decision emitted before it (Ruleset.rng).
        self.decision_start = 0
        self.version = 1
        self.hand = 0  # the hand a finding is filed under

    def find(self, check: str, message: str) -> None:
        _find(self.result, self.version, self.hand, check, message)

    def run(self, events: Sequence[Event]) -> None:
        checks = {
            HAND_STARTED: self.hand_started,
            CARD_FLIPPED: self.card_flipped,
            CARD_REINSERTED: self.card_reinserted,
            PILE_RESHUFFLED: self.pile_reshuffled,
            CARDS_DRAWN: self.cards_drawn,
            CARD_PLAYED: self.card_played,
            LANE_FILLED: self.lane_filled,
            LANE_FLUSHED: self.lane_flushed,
            CARD_SUBMITTED: self.card_submitted,
            CARD_RETURNED: self.card_returned,
            CHALLENGE_RESOLVED: self.challenge_resolved,
            HAND_ENDED: self.hand_ended,
        }
        for index in range(1, len(events)):
            event = events[index]
            self.version = index + 1
            self.hand = self.state.hand_number
            kind = event.get("type")
            fold = EVOLVE.get(kind) if isinstance(kind, str) else None
            if fold is None:
                self.find("log", f"an event of unknown type {kind!r}")
                return
            check = checks.get(kind)  # type: ignore[arg-type]
            try:
                if check is not None:
                    check(index, event)
                fold(self.state, event)
            except (KeyError, IndexError, TypeError, ValueError) as error:
                # The log no longer folds (a card removed from a hand that does not hold it):
                # nothing after this point can be checked.
                self.find("cards", f"the log does not fold here ({kind}: {error!r})")
                return

    # -------------------------------------------------------------------------- the deal

    def hand_started(self, index: int, event: Event) -> None:
        state, ruleset, seed = self.state, self.ruleset, self.seed
        hand = self.hand = event["hand"]
        # The first hand is dealt in the decision that starts the match, after match-started;
        # every later one by a next-hand decision of its own.
        self.decision_start = 0 if index == 1 else index
        self.result.hands += 1
        if hand != state.hand_number + 1:
            self.find("hand", f"hand {hand} follows hand {state.hand_number}")
        if event["seats"] != state.seats:
            self.find("hand", f"dealt to {event['seats']} seats in a match of {state.seats}")
        if event["hand_size"] != ruleset.options["hand_size"]:
            self.find(
                "hand",
                f"hands of {event['hand_size']} cards; the variant deals "
                f"{ruleset.options['hand_size']}",
            )
        deck = list(event["deck"])
        expected = seeded_deck(seed, hand)
        if deck != expected:
            differ = [
                i for i in range(max(len(deck), len(expected))) if _at(deck, i) != _at(expected, i)
            ]
            first = differ[0]
            self.find(
                "deck",
                f"hand {hand}'s deck is not the seed's shuffle: {len(differ)} position(s) differ, "
                f"the first at position {first + 1} ({_at(deck, first)} recorded, "
                f"{_at(expected, first)} from the seed)",
            )
        commitment = event.get("commitment")
        if commitment is None:
            self.result.uncommitted.append(hand)
        elif commitment == deal_commitment(seed, hand, deck):
            self.result.committed += 1
        else:
            self.find(
                "commitment",
                f"hand {hand}'s commitment is not the hash of its recorded deck and the seed",
            )
        if hand == 1:
            purpose = "dealer" if ruleset.has_dealer else "first"
            anchor = drawn_anchor(seed, purpose, state.seats)
        else:
            anchor = ruleset.next_anchor(state)
        if ruleset.has_dealer:
            dealer, first = anchor, (anchor + 1) % state.seats
        else:
            dealer, first = None, anchor
        if (event["dealer"], event["first"]) != (dealer, first):
            drawn = "drawn from the seed" if hand == 1 else "the seat after the last"
            self.find(
                "dealer",
                f"hand {hand} has dealer {event['dealer']} and first seat {event['first']}; "
                f"{drawn} gives dealer {dealer} and first seat {first}",
            )

    def card_flipped(self, index: int, event: Event) -> None:
        self.expect_top(event["card"], "flipped")

    def card_reinserted(self, index: int, event: Event) -> None:
        state = self.state
        self.result.reinsertions += 1
        card = event["card"]
        if card != WILD_DRAW4 or state.top != card:
            self.find("cards", f"{card} is reinserted; the top of the discard pile is {state.top}")
        rng = choice_rng(
            self.seed,
            state.hand_number,
            "reinsert",
            state.shuffles,
            len(state.draw),
            len(state.discard),
            index - self.decision_start,
        )
        position = rng.randint(1, len(state.draw)) if state.draw else None
        if event["position"] != position:
            self.find(
                "reinsert",
                f"the flipped wild-draw4 went back at position {event['position']}; "
                f"the seed puts it at {position}",
            )

    def pile_reshuffled(self, index: int, event: Event) -> None:
        state = self.state
        self.result.reshuffles += 1
        pile = state.discard[:-1]
        order = list(event["order"])
        if Counter(order) != Counter(pile):
            self.find("cards", "the reshuffled cards are not the discard pile less its top card")
        expected = reshuffle_order(self.seed, state.hand_number, state.shuffles, pile)
        if order != expected:
            differ = [
                i
                for i in range(max(len(order), len(expected)))
                if _at(order, i) != _at(expected, i)
            ]
            first = differ[0]
            self.find(
                "reshuffle",
                f"reshuffle {state.shuffles + 1} of hand {state.hand_number} is not the seed's "
                f"order: {len(differ)} position(s) differ, the first at position {first + 1} "
                f"({_at(order, first)} recorded, {_at(expected, first)} from the seed)",
            )

    # ---------------------------------------------------------------- cards on the move

    def expect_top(self, card: Any, what: str) -> None:
        draw = self.state.draw
        top = draw[-1] if draw else None
        if card != top:
            self.find("cards", f"{card} is {what}; the top of the draw pile is {top}")

    def cards_drawn(self, index: int, event: Event) -> None:
        cards, draw = list(event["cards"]), self.state.draw
        taken = draw[len(draw) - len(cards) :][::-1] if len(cards) <= len(draw) else None
        if cards != taken:
            self.find(
                "cards",
                f"seat {event['seat']} draws {cards}; the draw pile's top holds {taken}",
            )

    def card_played(self, index: int, event: Event) -> None:
        state, seat, card = self.state, event["seat"], event["card"]
        source = event.get("source")
        if source == "lane":
            lane = state.lanes[seat]
            front = lane[0] if lane else None
            if card != front:
                self.find("cards", f"seat {seat}'s lane plays {card}; its front card is {front}")
        elif source == "submission":
            submitted = state.extra.get("submission", {}).get("card")
            if card != submitted:
                self.find("cards", f"{card} is played as the submission {submitted}")
        elif card not in state.hands[seat]:
            self.find("cards", f"seat {seat} plays {card}, which it does not hold")

    def lane_filled(self, index: int, event: Event) -> None:
        seat = event["seat"]
        cards: list[Card] = list(event["cards"])
        if Counter(cards) - Counter(self.state.hands[seat]):
            self.find("cards", f"seat {seat} precommits {event['cards']}, which it does not hold")

    def lane_flushed(self, index: int, event: Event) -> None:
        seat, lane = event["seat"], self.state.lanes[event["seat"]]
        if list(event["cards"]) != lane:
            self.find(
                "cards", f"seat {seat}'s lane is flushed as {event['cards']}; it holds {lane}"
            )

    def card_submitted(self, index: int, event: Event) -> None:
        seat, card = event["seat"], event["card"]
        if card not in self.state.hands[seat]:
            self.find("cards", f"seat {seat} submits {card}, which it does not hold")

    def card_returned(self, index: int, event: Event) -> None:
        state, dealer, card = self.state, event["dealer"], event["card"]
        submitted = state.extra.get("submission", {}).get("card")
        if card not in [*state.hands[dealer], submitted]:
            self.find("cards", f"the dealer returns {card}, which it does not hold")

    def challenge_resolved(self, index: int, event: Event) -> None:
        challenge = self.state.challenge
        hand = list(challenge[2]) if challenge is not None else None
        if list(event["hand"]) != hand:
            self.find("cards", f"the challenge shows {event['hand']}; the offender held {hand}")

    def hand_ended(self, index: int, event: Event) -> None:
        state = self.state
        left = [state.hands[s] + state.lanes[s] for s in range(state.seats)]
        if [list(cards) for cards in event["cards_left"]] != left:
            self.find(
                "cards", f"the hand ends with {event['cards_left']} left; the fold has {left}"
            )


def _at(cards: list[Any], index: int) -> Any:
    return cards[index] if index < len(cards) else None
