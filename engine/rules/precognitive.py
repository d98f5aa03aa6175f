"""The `precognitive` modifier (docs/rules.md "The precognitive modifier"), over a turn-based base.

`Precognitive.over(Base)` builds a ruleset class whose method resolution puts this modifier in
front of the base, so the base's own machinery calls the modifier's hooks (`begin_turn`,
`end_turn`): a wrapper with the base's whole interface. Only two moments of a turn change: its
beginning (the lane's front card is played or the lane is flushed) and its end (the precommit).

Decisions written down where the texts are silent:
- After a flush and its draw the seat precommits again, since that turn ended too (seed 000,
  rule 4: "She must then replace the precommit card").
- `legal_commands` lists every ordered choice of precommit cards while there are at most 720 of
  them; past that, one command per distinct front card with the rest of the slots in hand order.
  Any ordered choice of the right size from the regular hand is legal.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import permutations
from typing import Any, ClassVar

from engine.cards import Card, multiset_contains
from engine.commands import PRECOMMIT, Command, IllegalCommand
from engine.events import CARD_PLAYED, LANE_FILLED, LANE_FLUSHED, UNO_CALLED
from engine.rules.base import Ruleset
from engine.rules.decision import Decision
from engine.state import Pending, Seat, State

LANE_RULES = ("initial-hand", "half-hand", "fewest-in-any-hand")
SIGHTS = ("sighted", "blind", "telepathic")
PRECOMMIT_LISTING_LIMIT = 720


def parse_precognitive(spec: Any) -> dict[str, Any]:
    if spec is True:
        spec = {}
    if not isinstance(spec, dict):
        raise ValueError('precognitive must be an object such as {"lane": 2, "sight": "blind"}')
    if unknown := spec.keys() - {"lane", "sight"}:
        raise ValueError(f"unknown precognitive option(s): {', '.join(sorted(map(str, unknown)))}")
    lane = spec.get("lane", 1)
    if not (type(lane) is int and lane >= 1) and lane not in LANE_RULES:
        raise ValueError(
            f"precognitive lane must be a whole number of at least 1 or one of "
            f"{', '.join(LANE_RULES)}, not {lane!r}"
        )
    sight = spec.get("sight", "sighted")
    if sight not in SIGHTS:
        raise ValueError(f"precognitive sight must be one of {', '.join(SIGHTS)}, not {sight!r}")
    return {"lane": lane, "sight": sight}


class Precognitive(Ruleset):
    """The modifier's hooks; use `Precognitive.over(Base)` for a playable ruleset."""

    precognitive: ClassVar[dict[str, Any]] = {"lane": 1, "sight": "sighted"}

    @classmethod
    def over(cls, base: type[Ruleset], spec: Any) -> type[Ruleset]:
        if not base.supports_precognitive:
            raise ValueError(
                f"precognitive cannot wrap {base.name}: its open starts, jump-ins or dealer "
                "rulings have no single seat whose lane could act"
            )
        options = parse_precognitive(spec)
        handlers = {**base.handlers, PRECOMMIT: cls.on_precommit}
        name = f"Precognitive{base.__name__}"
        return type(name, (cls, base), {"precognitive": options, "handlers": handlers})

    # ------------------------------------------------------------------------------ hooks

    def lane_visible(self, owner: Seat, viewer: Seat | None) -> bool:
        sight = self.precognitive["sight"]
        return sight == "telepathic" or (sight == "sighted" and owner == viewer)

    def begin_turn(self, d: Decision, seat: Seat) -> None:
        state = d.state
        lane = state.lanes[seat]
        if not lane:
            super().begin_turn(d, seat)
            return
        card = lane[0]
        if self.playable(state, seat, card):
            d.emit(
                {"type": CARD_PLAYED, "seat": seat, "card": card, "color": None, "source": "lane"}
            )
            self.resolve_play(d, seat, card, None, False)
        else:
            d.emit({"type": LANE_FLUSHED, "seat": seat, "cards": list(lane)})
            self.draw_cards(d, seat, 1, "flush")
            self.end_turn(d, seat, state.next_seat(seat))

    def end_turn(self, d: Decision, seat: Seat, nxt: Seat, then: Pending | None = None) -> None:
        count = self.precommit_count(d.state, seat)
        if count == 0:
            super().end_turn(d, seat, nxt, then)
        else:
            self.prompt(
                d, {"type": "precommit", "seat": seat, "count": count, "next": nxt, "then": then}
            )

    def after_command(self, d: Decision) -> None:
        pending = d.state.pending
        if pending is not None and pending["type"] == "precommit":
            # A catch or a penalty while a seat is asked to precommit can change how many cards
            # fill its lane (its hand, or the fewest cards any seat holds): ask again.
            count = self.precommit_count(d.state, pending["seat"])
            if count != pending["count"]:
                self.prompt(d, {**pending, "count": count})

    def lane_size(self, state: State, seat: Seat) -> int:
        lane = self.precognitive["lane"]
        if lane == "initial-hand":
            return int(self.options["hand_size"])
        if lane == "half-hand":
            return max(1, state.cards_held(seat) // 2)
        if lane == "fewest-in-any-hand":
            return max(1, min(state.cards_held(s) for s in range(state.seats)))
        return int(lane)

    def precommit_count(self, state: State, seat: Seat) -> int:
        # A lane longer than a newly computed size keeps its cards.
        gap = self.lane_size(state, seat) - len(state.lanes[seat])
        return max(0, min(gap, len(state.hands[seat])))

    # ---------------------------------------------------------------------------- command

    def on_precommit(self, d: Decision, command: Command) -> None:
        state, seat, cards = d.state, command["seat"], command["cards"]
        pending = self.expect(state, seat, "precommit")
        if len(cards) != pending["count"]:
            raise IllegalCommand(
                "bad-precommit", f"precommit exactly {pending['count']} card(s) to fill the lane"
            )
        if not multiset_contains(state.hands[seat], cards):
            raise IllegalCommand("card-not-in-hand", _missing_from_hand(state.hands[seat], cards))
        if command.get("uno") and not self.false_uno_penalized and seat not in state.uncalled:
            raise IllegalCommand("uno-not-owed", f"seat {seat} owes no uno call")
        d.emit({"type": LANE_FILLED, "seat": seat, "cards": list(cards)})
        if command.get("uno"):
            if seat in state.uncalled or state.cards_held(seat) == 1:
                d.emit({"type": UNO_CALLED, "seat": seat})
            else:
                self.penalize(d, seat, "false-call")
        super().end_turn(d, seat, pending["next"], pending["then"])

    def turn_options(self, state: State, seat: Seat, pending: Pending) -> list[Command]:
        if pending["type"] != "precommit":
            return super().turn_options(state, seat, pending)
        hand, count = state.hands[seat], pending["count"]
        choices: list[tuple[Card, ...]]
        if math.perm(len(hand), count) <= PRECOMMIT_LISTING_LIMIT:
            choices = list(dict.fromkeys(permutations(hand, count)))
        else:
            choices = []
            for card in dict.fromkeys(hand):
                rest = list(hand)
                rest.remove(card)
                choices.append((card, *rest[: count - 1]))
        unos = (False, True) if seat in state.uncalled else (False,)
        return [
            {"type": PRECOMMIT, "seat": seat, "cards": list(choice), "uno": uno}
            for choice in choices
            for uno in unos
        ]


def _missing_from_hand(hand: list[Card], cards: list[Card]) -> str:
    """Which card of a precommit the regular hand lacks, said plainly: "red-7 is not in your
    regular hand", "the lane names red-7 twice, but your regular hand holds only 1"."""
    for card, named in Counter(cards).items():
        held = hand.count(card)
        if held < named:
            if held == 0:
                return f"{card} is not in your regular hand"
            times = "twice" if named == 2 else f"{named} times"
            return f"the lane names {card} {times}, but your regular hand holds only {held}"
    return "precommit cards from your regular hand"
