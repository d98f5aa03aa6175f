"""Quick steps: a plain family's two commonest commands, a plain play and a draw, decided in
one function.

Nine commands in ten are a play that leaves a card or more in hand or a draw from a pile that
needs no reshuffle, with nobody owing an uno call. For a family that keeps the machinery these
stand for (`quick_decide` checks), `Variant.decide` decides them here without the parse, the
Decision and the hooks between; anything else (every other command, a play that goes out or
names no colour, an uno owed, a reshuffle, a command in any other shape) goes the general way
(`Ruleset.decision`), which checks it fully. Every listing is the general way's
(`Ruleset.legal_commands`).

What the two ways share rather than restate: which play is plain and what it leaves
(`base.plain_play_leaves`, which `Ruleset.play_plainly` asks too), the events
(`base.played_event`, `uno_event`, `drawn_event`, `turn_event`) and how each folds into the
state (the fold functions of events.py, applied to a fork, as `Decision.emit` applies them).
What is written here a second time, in its plain case only: the card's action by rank
(`Ruleset.after_play`) and the drawn card's offer (`Official.on_draw`). A family that overrides
any method these stand for, or has an option outside `KNOWN_OPTIONS`, gets no quick steps: a
new option or hook makes a game slower until it is taught here, never different.
tests/engine/test_quick.py holds every quick answer to the general way's on every state of
seeded matches, with listed, bent and junk commands.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import COLOR_OF, COLORS, PLAYABLE_ON, RANK_OF, WILD_DRAW4
from engine.commands import DRAW, PLAY, Command
from engine.events import (
    CARDS_DRAWN,
    DIRECTION_CHANGED,
    EVOLVE,
    ONE_SEAT,
    PROMPTED,
    UNO_CALLED,
    UNO_OWED,
    Event,
)
from engine.rules.base import (
    NO_ACTION,
    Ruleset,
    drawn_event,
    plain_play_leaves,
    played_event,
    turn_event,
    uno_event,
)
from engine.rules.official import Official
from engine.state import PLAYING, State

# (the state decided on (None: the start), its events, how many, the state they fold into):
# Variant's memo.
Decided = tuple[State | None, list[Event], int, State]
Decide = Callable[[State, Command], list[Event]]

# Every method a quick step stands for: a family that overrides any of them decides every
# command the general way.
_STOOD_FOR = (
    "decision",
    "draw_cards",
    "playable",
    "play_plainly",
    "check_play",
    "check_target",
    "play_card",
    "resolve_play",
    "after_play",
    "owes_uno",
    "end_turn",
    "proceed",
    "begin_turn",
    "prompt",
    "after_command",
)
_HANDLED = {PLAY: Official.on_play, DRAW: Official.on_draw}
# The options a quick step knows: none of them changes a plain play or a draw (the deal's size,
# the scoring, the target, the uno penalty). A family with any other option decides every
# command the general way until its option is taught here (and to tests/engine/test_quick.py).
KNOWN_OPTIONS = frozenset({"hand_size", "scoring", "target", "uno_penalty"})

_fold_drawn = EVOLVE[CARDS_DRAWN]
_fold_direction = EVOLVE[DIRECTION_CHANGED]
_fold_prompted = EVOLVE[PROMPTED]
_fold_uno = {True: EVOLVE[UNO_CALLED], False: EVOLVE[UNO_OWED]}


def quick_decide(ruleset: Ruleset, memo: list[Decided | None]) -> Decide | None:
    """`ruleset`'s decide, quick for a plain play and a draw; None for a family that changes
    any step they stand for. It answers every call: what it does not decide goes to the
    ruleset's own `decision`. It leaves what it decided in `memo[0]`, which `Variant.replay`
    hands over."""
    cls = type(ruleset)
    if (
        any(getattr(cls, name) is not getattr(Official, name) for name in _STOOD_FOR)
        or any(cls.handlers.get(kind) is not handler for kind, handler in _HANDLED.items())
        or not ruleset.options.keys() <= KNOWN_OPTIONS
    ):
        return None
    general_decision = ruleset.decision
    after_draw = cls.play_after_draw
    two_skip = cls.reverse_skips_with_two
    challenges = cls.challenge_wild_draw4
    fork = State.fork

    def general(state: State, command: Command) -> list[Event]:
        """The general way's decision (or refusal), left in memo."""
        decision = general_decision(state, command)
        events = decision.events
        memo[0] = (state, events, len(events), decision.state)
        return events

    def decide(state: State, command: Command) -> list[Event]:
        """`Variant.decide`: a plain play or a draw in one pass, anything else the general way."""
        pending = state.pending
        if type(command) is not dict or pending is None or state.status != PLAYING:
            return general(state, command)
        seat = command.get("seat")
        if type(seat) is not int or seat not in state.to_act or state.uncalled:
            return general(state, command)
        kind = command.get("type")
        event: Event
        if kind == PLAY:
            # The shape legal_commands lists a plain play in: type, seat, card, uno false, and
            # a colour where the card is black; Official.on_play's pending.
            card = command.get("card")
            color = command.get("color")
            uno = command.get("uno")
            if (
                type(uno) is not bool
                or type(card) is not str
                or (len(command) != 4 if color is None else len(command) != 5)
                or (color is not None and color not in COLORS)
            ):
                return general(state, command)
            what = pending["type"]
            if what != "play" and (what != "drawn" or card != pending["card"]):
                return general(state, command)
            left = plain_play_leaves(state, seat, card, color, uno)
            if not left:
                return general(state, command)
            new = fork(state)
            event = played_event(seat, card, color)
            # events._card_played, inlined for a card from the hand (two plays in three).
            hands = state.hands.copy()
            hand = hands[seat].copy()
            hand.remove(card)
            hands[seat] = hand
            new.hands = hands
            if card == WILD_DRAW4:
                new.challenge = (seat, state.color, tuple(hand))
            new.discard = [*state.discard, card]
            new.color = color or COLOR_OF[card]
            events = [event]
            if left == 1:
                event = uno_event(seat, uno)
                _fold_uno[uno](new, event)
                events.append(event)
            # Ruleset.after_play, its plain case.
            seats, direction = state.seats, state.direction
            if card in NO_ACTION:
                nxt = (seat + direction) % seats
            else:
                rank = RANK_OF[card]
                if rank == "skip":
                    nxt = (seat + 2 * direction) % seats
                elif rank == "reverse":
                    direction = -direction
                    event = {"type": DIRECTION_CHANGED, "direction": direction}
                    _fold_direction(new, event)
                    events.append(event)
                    nxt = seat if seats == 2 and two_skip else (seat + direction) % seats
                elif rank == "draw2" and len(state.draw) >= 2:
                    victim = (seat + direction) % seats
                    event = drawn_event(victim, state.draw[-2:][::-1], "draw2")
                    _fold_drawn(new, event)
                    events.append(event)
                    nxt = (seat + 2 * direction) % seats
                elif rank == "wild-draw4" and challenges:
                    nxt = (seat + direction) % seats
                    then = {"type": "challenge", "seat": nxt, "offender": seat}
                    event = {"type": PROMPTED, "to_act": [nxt], "pending": then}
                    _fold_prompted(new, event)
                    events.append(event)
                    memo[0] = (state, events, len(events), new)
                    return events
                else:
                    return general(state, command)
        elif kind == DRAW:
            # Official.on_draw, from a pile that needs no reshuffle.
            draw, discard = state.draw, state.discard
            if len(command) != 2 or pending["type"] != "play" or not draw or not discard:
                return general(state, command)
            card = draw[-1]
            new = fork(state)
            event = drawn_event(seat, [card], "draw")
            _fold_drawn(new, event)
            events = [event]
            if after_draw and card in PLAYABLE_ON[discard[-1], state.color]:
                offer = {"type": "drawn", "seat": seat, "card": card}
                event = {"type": PROMPTED, "to_act": [seat], "pending": offer}
                _fold_prompted(new, event)
                events.append(event)
                memo[0] = (state, events, len(events), new)
                return events
            nxt = (seat + state.direction) % state.seats
        else:
            return general(state, command)
        event = turn_event(nxt)
        new.to_act = ONE_SEAT[nxt]  # events._prompted, inlined for one seat
        new.pending = event["pending"]
        events.append(event)
        memo[0] = (state, events, len(events), new)
        return events

    return decide
