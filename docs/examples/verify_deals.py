"""Check a finished UNO League game's deals against its published seed, with the standard library.

    curl -s https://uno.example.org/api/games/12/replay > game-12.json
    python3 docs/examples/verify_deals.py game-12.json          # or - for stdin, or the URL
    python3 docs/examples/verify_deals.py --json game-12.json   # the result as JSON

The input is the game's whole log, as GET /api/games/<id>/replay serves it once the match is
over and revealed ({"variant": …, "events": [{"version": 1, "event": {…}}, …]}); a bare list
of events, or of {"version", "event"} items, does too. For every hand it recomputes the deck
from the seed and checks the deck and its commitment (the hash published before any card was
seen), the dealer, every reshuffle and every reinsertion of a flipped wild-draw4, and follows
every card (flipped, drawn, played, precommitted to a lane, flushed, submitted, returned) to
check it came from where the log says. It prints what differs, and exits 0 when nothing does,
1 when something does, 2 when the input cannot be read. docs/verifying-deals.md explains what
this proves and what it does not.

It shares no code with the service: everything it needs is written out below, from the formulas
in docs/verifying-deals.md (the service's copy is engine/dealing.py). The shuffles are
CPython's `random` (Mersenne Twister seeded from a string, `shuffle`, `randrange`, `randint`),
the same in every Python 3 since 3.2. tests/games/test_verify_game.py runs this script on games
played by bots and checks it answers as `manage.py verify_game` does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import urllib.request
from collections import Counter
from typing import Any

RULES_VERSIONS = (1,)  # the rules versions whose dealing this script knows
COMMITMENT_TAG = "uno-deal-commitment/1"
MAX_FINDINGS = 50
COLORS = ("red", "yellow", "green", "blue")
WILD_DRAW4 = "wild-draw4"
# Events that move no card and hold none this script checks.
CARDLESS = {
    "color-chosen",
    "direction-changed",
    "prompted",
    "uno-owed",
    "uno-called",
    "uno-expired",
    "uno-caught",
    "uno-penalized",
    "turn-passed",
    "match-ended",
    "seat-forfeited",
    "seat-handed-over",
    "fallback-played",
    "vacation-taken",
    "fixture-retimed",
    "deadline-extended",
    "game-aborted",
}


def canonical_deck() -> list[str]:
    """The 108 cards in the order every shuffle starts from."""
    cards = []
    for color in COLORS:
        cards.append(f"{color}-0")
        for rank in [*map(str, range(1, 10)), "skip", "reverse", "draw2"]:
            cards += [f"{color}-{rank}"] * 2
    return cards + ["wild"] * 4 + [WILD_DRAW4] * 4


DECK = canonical_deck()


def seeded_deck(seed: str, hand: int) -> list[str]:
    deck = list(DECK)
    random.Random(f"{seed}:deal:{hand}").shuffle(deck)
    return deck


def commitment(seed: str, hand: int, deck: list[str]) -> str:
    canonical = json.dumps([COMMITMENT_TAG, seed, hand, deck], separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def reshuffle_order(seed: str, hand: int, shuffles: int, pile: list[str]) -> list[str]:
    # One seeded permutation of the 108 copies (the n-th copy of a card in the deck's canonical
    # order); the pile's n-th copy of a card takes that copy's place.
    slots, seen = [], Counter()
    for card in DECK:
        slots.append((card, seen[card]))
        seen[card] += 1
    random.Random(f"{seed}:{hand}:reshuffle:{shuffles}").shuffle(slots)
    rank = {slot: place for place, slot in enumerate(slots)}
    ordered, seen = [], Counter()
    for card in pile:
        ordered.append((rank[card, seen[card]], card))
        seen[card] += 1
    return [card for _, card in sorted(ordered)]


def read_log(source: str) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The events and the variant the input names beside them (for logs of old games)."""
    if source == "-":
        data = json.load(sys.stdin)
    elif source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=30) as answer:
            data = json.load(answer)
    else:
        with open(source, encoding="utf-8") as file:
            data = json.load(file)
    variant = None
    if isinstance(data, dict):
        variant = data.get("variant")
        data = data.get("events")
    if not isinstance(data, list):
        raise ValueError("expected the replay's JSON, or a list of events")
    events = [item["event"] if "event" in item else item for item in data]
    return events, variant


class Check:
    def __init__(self, events: list[dict[str, Any]], variant: dict[str, Any] | None) -> None:
        self.events = events
        self.variant = variant
        self.findings: list[dict[str, Any]] = []
        self.truncated = False
        self.counts = {"hands": 0, "committed": 0, "reshuffles": 0, "reinsertions": 0}
        self.uncommitted: list[int] = []
        self.version = 1
        self.hand = 0

    def find(self, check: str, message: str) -> None:
        if len(self.findings) >= MAX_FINDINGS:
            self.truncated = True
            return
        self.findings.append(
            {"version": self.version, "hand": self.hand, "check": check, "message": message}
        )

    def result(self) -> dict[str, Any]:
        return {
            "ok": not self.findings,
            **self.counts,
            "uncommitted": self.uncommitted,
            "findings": self.findings,
            "truncated": self.truncated,
        }

    def run(self) -> dict[str, Any]:
        events = self.events
        if not events or events[0].get("type") != "match-started":
            self.find("log", "a game's log begins with match-started")
            return self.result()
        started = events[0]
        if started.get("seed") is None:
            self.find("seed", "match-started holds no seed: a redacted copy of the log")
            return self.result()
        version = started.get("rules_version", 1)
        variant = started.get("variant", self.variant)
        if version not in RULES_VERSIONS:
            self.find("variant", f"rules version {version}: this script knows {RULES_VERSIONS}")
            return self.result()
        if not isinstance(variant, dict) or "rules" not in variant:
            self.find("variant", "the log names no variant")
            return self.result()
        self.seed = str(started["seed"])
        self.seats = started["seats"]
        self.has_dealer = variant["rules"] != "basic-plus"
        self.hand_size = (variant.get("options") or {}).get("hand_size", 7)
        self.hands: list[list[str]] = [[] for _ in range(self.seats)]
        self.lanes: list[list[str]] = [[] for _ in range(self.seats)]
        self.draw: list[str] = []  # top card last
        self.discard: list[str] = []  # top card last
        self.shuffles = 0
        self.dealer = self.first = None
        self.submission: str | None = None
        self.challenge: list[str] | None = None
        self.decision_start = 0
        for index in range(1, len(events)):
            event = events[index]
            self.version = index + 1
            kind = event.get("type")
            step = getattr(self, "on_" + str(kind).replace("-", "_"), None)
            if step is None and kind not in CARDLESS:
                self.find("log", f"an event of unknown type {kind!r}")
                break
            try:
                if step is not None:
                    step(index, event)
            except (KeyError, IndexError, TypeError, ValueError) as error:
                self.find("cards", f"the log does not fold here ({kind}: {error!r})")
                break
        return self.result()

    # Each step checks the event against the cards where they are, then moves them.

    def on_hand_started(self, index: int, event: dict[str, Any]) -> None:
        hand, seats, previous = event["hand"], self.seats, self.hand
        self.hand = hand
        self.decision_start = 0 if index == 1 else index
        self.counts["hands"] += 1
        if hand != previous + 1:
            self.find("hand", f"hand {hand} follows hand {previous}")
        if event["seats"] != seats:
            self.find("hand", f"dealt to {event['seats']} seats in a match of {seats}")
        if event["hand_size"] != self.hand_size:
            self.find("hand", f"hands of {event['hand_size']}; the variant deals {self.hand_size}")
        deck = list(event["deck"])
        expected = seeded_deck(self.seed, hand)
        if deck != expected:
            self.find(
                "deck", f"hand {hand}'s deck is not the seed's shuffle{differ(deck, expected)}"
            )
        if event.get("commitment") is None:
            self.uncommitted.append(hand)
        elif event["commitment"] == commitment(self.seed, hand, deck):
            self.counts["committed"] += 1
        else:
            self.find("commitment", f"hand {hand}'s commitment is not the hash of its deck")
        if hand == 1:
            purpose = "dealer" if self.has_dealer else "first"
            anchor = random.Random(f"{self.seed}:{purpose}").randrange(seats)
        else:
            anchor = ((self.dealer if self.has_dealer else self.first) + 1) % seats
        want = (anchor, (anchor + 1) % seats) if self.has_dealer else (None, anchor)
        if (event["dealer"], event["first"]) != want:
            self.find(
                "dealer",
                f"hand {hand}: dealer, first {event['dealer']}, {event['first']}; "
                f"expected {want[0]}, {want[1]}",
            )
        # Dealt one card at a time from the top, clockwise from `first`.
        self.dealer, self.first = event["dealer"], event["first"]
        self.hands = [[] for _ in range(seats)]
        for i in range(event["hand_size"] * seats):
            self.hands[(self.first + i) % seats].append(deck[i])
        self.lanes = [[] for _ in range(seats)]
        self.draw = deck[event["hand_size"] * seats :][::-1]
        self.discard, self.shuffles, self.submission, self.challenge = [], 0, None, None

    def on_match_started(self, index: int, event: dict[str, Any]) -> None:
        raise ValueError("match-started can only begin a game")

    def on_card_flipped(self, index: int, event: dict[str, Any]) -> None:
        top = self.draw[-1] if self.draw else None
        if event["card"] != top:
            self.find("cards", f"{event['card']} is flipped; the draw pile's top is {top}")
        self.discard.append(self.draw.pop())

    def on_card_reinserted(self, index: int, event: dict[str, Any]) -> None:
        self.counts["reinsertions"] += 1
        top = self.discard[-1] if self.discard else None
        if event["card"] != WILD_DRAW4 or top != event["card"]:
            self.find("cards", f"{event['card']} is reinserted; the discard pile's top is {top}")
        emitted = index - self.decision_start  # events of this decision before this one
        key = (
            f"{self.seed}:{self.hand}:reinsert:{self.shuffles}:{len(self.draw)}"
            f":{len(self.discard)}:{emitted}"
        )
        want = random.Random(key).randint(1, len(self.draw)) if self.draw else None
        if event["position"] != want:
            self.find("reinsert", f"reinserted at {event['position']}; the seed says {want}")
        card = self.discard.pop()
        self.draw.insert(len(self.draw) - event["position"], card)

    def on_pile_reshuffled(self, index: int, event: dict[str, Any]) -> None:
        self.counts["reshuffles"] += 1
        pile, order = self.discard[:-1], list(event["order"])
        if Counter(order) != Counter(pile):
            self.find("cards", "the reshuffled cards are not the discard pile less its top card")
        expected = reshuffle_order(self.seed, self.hand, self.shuffles, pile)
        if order != expected:
            self.find(
                "reshuffle",
                f"reshuffle {self.shuffles + 1} of hand {self.hand} is not "
                f"the seed's order{differ(order, expected)}",
            )
        self.draw = order[::-1]
        self.discard = self.discard[-1:]
        self.shuffles += 1

    def on_cards_drawn(self, index: int, event: dict[str, Any]) -> None:
        cards, n = list(event["cards"]), len(event["cards"])
        taken = self.draw[len(self.draw) - n :][::-1] if n <= len(self.draw) else None
        if cards != taken:
            self.find("cards", f"seat {event['seat']} draws {cards}; the draw pile holds {taken}")
        if n:
            self.hands[event["seat"]] += self.draw[-n:][::-1]
            del self.draw[-n:]

    def on_card_played(self, index: int, event: dict[str, Any]) -> None:
        seat, card, source = event["seat"], event["card"], event.get("source")
        if source == "lane":
            front = self.lanes[seat][0] if self.lanes[seat] else None
            if card != front:
                self.find("cards", f"seat {seat}'s lane plays {card}; its front is {front}")
            self.lanes[seat].pop(0)
        elif source == "submission":
            if card != self.submission:
                self.find("cards", f"{card} is played as the submission {self.submission}")
            if self.submission is None:
                raise KeyError("submission")
            self.submission = None
        else:
            if card not in self.hands[seat]:
                self.find("cards", f"seat {seat} plays {card}, which it does not hold")
            self.hands[seat].remove(card)
        if card == WILD_DRAW4:
            self.challenge = list(self.hands[seat])
        self.discard.append(card)

    def on_lane_filled(self, index: int, event: dict[str, Any]) -> None:
        seat = event["seat"]
        if Counter(event["cards"]) - Counter(self.hands[seat]):
            self.find("cards", f"seat {seat} precommits {event['cards']}, not all in its hand")
        for card in event["cards"]:
            self.hands[seat].remove(card)
        self.lanes[seat] += event["cards"]

    def on_lane_flushed(self, index: int, event: dict[str, Any]) -> None:
        seat = event["seat"]
        if list(event["cards"]) != self.lanes[seat]:
            self.find("cards", f"seat {seat}'s lane is flushed as {event['cards']}")
        self.hands[seat] += self.lanes[seat]
        self.lanes[seat] = []

    def on_hands_swapped(self, index: int, event: dict[str, Any]) -> None:
        a, b = event["seat"], event["target"]
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]

    def on_hands_rotated(self, index: int, event: dict[str, Any]) -> None:
        step, n = event["direction"], self.seats
        self.hands = [self.hands[(s - step) % n] for s in range(n)]

    def on_card_submitted(self, index: int, event: dict[str, Any]) -> None:
        seat, card = event["seat"], event["card"]
        if card not in self.hands[seat]:
            self.find("cards", f"seat {seat} submits {card}, which it does not hold")
        self.hands[seat].remove(card)
        self.submission = card

    def on_submission_kept(self, index: int, event: dict[str, Any]) -> None:
        if self.submission is None:
            raise KeyError("submission")
        self.hands[event["dealer"]].append(self.submission)
        self.submission = None

    def on_card_returned(self, index: int, event: dict[str, Any]) -> None:
        dealer, seat, card = event["dealer"], event["seat"], event["card"]
        if card not in [*self.hands[dealer], self.submission]:
            self.find("cards", f"the dealer returns {card}, which it does not hold")
        if self.submission is None:
            raise KeyError("submission")
        self.hands[dealer].append(self.submission)
        self.submission = None
        self.hands[dealer].remove(card)
        self.hands[seat].append(card)

    def on_challenge_resolved(self, index: int, event: dict[str, Any]) -> None:
        if list(event["hand"]) != self.challenge:
            self.find(
                "cards", f"the challenge shows {event['hand']}; the offender held {self.challenge}"
            )
        self.challenge = None

    def on_hand_ended(self, index: int, event: dict[str, Any]) -> None:
        left = [self.hands[s] + self.lanes[s] for s in range(self.seats)]
        if [list(cards) for cards in event["cards_left"]] != left:
            self.find("cards", f"the hand ends with {event['cards_left']} left; the log has {left}")


def differ(recorded: list[str], expected: list[str]) -> str:
    at = [
        i
        for i in range(max(len(recorded), len(expected)))
        if recorded[i : i + 1] != expected[i : i + 1]
    ]
    first = at[0]
    mine = recorded[first] if first < len(recorded) else None
    theirs = expected[first] if first < len(expected) else None
    return (
        f": {len(at)} position(s) differ, the first at position {first + 1} ({mine} "
        f"recorded, {theirs} from the seed)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", help="the replay's JSON: a file, - for stdin, or its URL")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    try:
        events, variant = read_log(args.source)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"cannot read {args.source}: {error}", file=sys.stderr)
        return 2
    result = Check(events, variant).run()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"checked {result['hands']} hand(s): {result['committed']} commitment(s) matched, "
            f"{result['reshuffles']} reshuffle(s), {result['reinsertions']} reinsertion(s)"
        )
        if result["uncommitted"]:
            print(
                f"note: hand(s) {', '.join(map(str, result['uncommitted']))} were dealt before "
                "commitments were recorded: checked against the seed only"
            )
        for f in result["findings"]:
            print(
                f"MISMATCH at event {f['version']} (hand {f['hand']}, {f['check']}): {f['message']}"
            )
        print(
            "OK: every deal, reshuffle and card matches the seed and the log"
            if result["ok"]
            else f"FAILED: {len(result['findings'])} difference(s)"
        )
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
