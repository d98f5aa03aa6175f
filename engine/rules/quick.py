"""Quick steps: a plain family's usual commands decided in one function.

Nine commands in ten are a play of a card that leaves a card or more in hand, a draw or a pass,
with nobody owing an uno call or with the seat to act closing the catch windows. For a family
that keeps the base machinery these moments are decided here in one pass: the command checked,
the events built and the state they fold into built next to them, with no parse, no Decision,
no emit and no hook in between. A play that goes out, an uno call and a catch are decided here
too (their events folded by the fold's own functions, as the general way folds them). Anything
else (any other command or pending, a draw that needs a reshuffle, a command in any other
shape) goes the general way (`Ruleset.decision`), which checks it fully: a quick step only ever
accepts a command the general way accepts, gives the same events, and folds them into an equal
state.
tests/engine/test_quick.py holds each step to the general way on every state of seeded matches,
with listed, bent and junk commands. Every listing is the general way's
(`Ruleset.legal_commands`, fast by its own templates).

These steps restate the usual moments of `Official`'s handlers and of the fold (events.py) for
speed: bench/engine.py's target needs them (docs/performance.md, "Engine"). A family that
overrides any method they stand for, or has an option outside `KNOWN_OPTIONS`, gets none: a
new option or hook makes a game slower until it is taught here, never different.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from engine.cards import (
    COLOR_OF,
    COLORS,
    DECK,
    RANK_OF,
    WILD_DRAW4,
    Card,
)
from engine.commands import ACCEPT, CALL_UNO, CATCH, CHALLENGE, DRAW, PASS, PLAY, Command
from engine.events import (
    CARD_PLAYED,
    CARDS_DRAWN,
    CHALLENGE_RESOLVED,
    DIRECTION_CHANGED,
    ONE_SEAT,
    PROMPTED,
    UNO_CALLED,
    UNO_CAUGHT,
    UNO_EXPIRED,
    UNO_OWED,
    Event,
    apply,
    initial_state,
)
from engine.rules.base import Ruleset
from engine.rules.listing import PLAYABLE_BY_TOP, with_card
from engine.rules.official import Official
from engine.scoring import hand_events
from engine.shared import ReadOnlyDict, ReadOnlyList
from engine.state import PLAYING, Pending, Seat, State

# (the state decided on (None: the start), its events, how many, the state they fold into):
# Variant's memo.
Decided = tuple[State | None, list[Event], int, State]
Decide = Callable[[State, Command], list[Event]]
Replay = Callable[[Iterable[Event], State | None], State]


# The events a quick step emits, shared and read-only (engine/shared.py): one per seat, or per
# seat and card (made the first time the card comes), handed out by every step after; a step
# builds only what varies otherwise (a black card's colour, the cards of a draw of two or
# more). Every seat a deal can have has its own.
_SEATS: Final = range(len(DECK))
_PLAYED: Final[list[Event]] = [
    ReadOnlyDict({"type": CARD_PLAYED, "seat": seat, "card": "", "color": None, "source": "hand"})
    for seat in _SEATS
]
_CARD_PLAYED: Final[list[dict[Card, Event]]] = [{} for _ in _SEATS]  # card set: with_card
# A seat's draw of one card, by the card: {type: cards-drawn, seat, cards: [card], reason: draw}.
_DREW: Final[list[dict[Card, Event]]] = [{} for _ in _SEATS]
# A seat asked to play or pass the card it drew, by the card: the prompt and its pending.
_DREW_PLAYABLE: Final[list[dict[Card, tuple[Event, Pending]]]] = [{} for _ in _SEATS]
_TURN: Final[list[Pending]] = [ReadOnlyDict({"type": "play", "seat": seat}) for seat in _SEATS]
# The turn given to a seat: {type: prompted, to_act: [seat], pending: _TURN[seat]}.
_PROMPTS: Final[list[Event]] = [
    ReadOnlyDict({"type": PROMPTED, "to_act": ReadOnlyList([seat]), "pending": _TURN[seat]})
    for seat in _SEATS
]
_UNO_CALLED: Final[list[Event]] = [
    ReadOnlyDict({"type": UNO_CALLED, "seat": seat}) for seat in _SEATS
]
_UNO_OWED: Final[list[Event]] = [ReadOnlyDict({"type": UNO_OWED, "seat": seat}) for seat in _SEATS]
_DIRECTION: Final[dict[int, Event]] = {
    way: ReadOnlyDict({"type": DIRECTION_CHANGED, "direction": way}) for way in (-1, 1)
}


def _drew(seat: Seat, card: Card) -> Event:
    """`seat`'s draw of `card` (shared, made the first time)."""
    event = _DREW[seat][card] = ReadOnlyDict(
        {"type": CARDS_DRAWN, "seat": seat, "cards": ReadOnlyList([card]), "reason": "draw"}
    )
    return event


def _drew_playable(seat: Seat, card: Card) -> tuple[Event, Pending]:
    """The prompt that asks `seat` to play or pass `card`, which it drew, and its pending
    (shared, made the first time)."""
    drawn = ReadOnlyDict({"type": "drawn", "seat": seat, "card": card})
    prompted = ReadOnlyDict({"type": PROMPTED, "to_act": ReadOnlyList([seat]), "pending": drawn})
    made = _DREW_PLAYABLE[seat][card] = (prompted, drawn)
    return made


# Every method a quick step stands for: a family that overrides any of them goes the general
# way for every command.
_STOOD_FOR = (
    "decision",
    "expect",
    "draw_cards",
    "playable",
    "play_plainly",
    "check_play",
    "check_target",
    "play_card",
    "resolve_play",
    "go_out",
    "end_hand",
    "after_play",
    "end_turn",
    "proceed",
    "begin_turn",
    "prompt",
    "after_command",
    "closes_uno_window",
    "owes_uno",
    "call_uno",
    "penalize",
)
# The options a quick step knows: none of them changes a usual moment (the deal's size, the
# scoring and the uno penalty, which a catch pays the general way). A family with any other
# option goes the general way for every command until its option is taught here (and to
# tests/engine/test_quick.py), so a new option can slow a game but never make the two ways
# disagree.
KNOWN_OPTIONS = frozenset({"hand_size", "scoring", "target", "uno_penalty"})
_HANDLED = {
    PLAY: Official.on_play,
    DRAW: Official.on_draw,
    PASS: Official.on_pass,
    ACCEPT: Official.on_accept,
    CHALLENGE: Official.on_challenge,
}


def quick_decide(ruleset: Ruleset, memo: list[Decided | None]) -> Decide | None:
    """`ruleset`'s decide, quick where it can be; None for a family that changes any step it
    stands for. It answers every call: what it does not know goes to the ruleset's own
    `decision`, bound here. It leaves what it decided in `memo[0]`, which `Variant.replay`
    hands over."""
    cls = type(ruleset)
    if (
        any(getattr(cls, name) is not getattr(Official, name) for name in _STOOD_FOR)
        or any(cls.handlers.get(kind) is not handler for kind, handler in _HANDLED.items())
        or not ruleset.options.keys() <= KNOWN_OPTIONS
    ):
        return None
    general_decision = ruleset.decision
    options = ruleset.options
    read_only = ReadOnlyDict  # a listed command's type, bound once
    # A call or a catch of a seat owing none is refused (no penalty), as Official handles them.
    uno_commands = (
        cls.handlers.get(CALL_UNO) is Official.on_call_uno
        and cls.handlers.get(CATCH) is Official.on_catch
        and not cls.false_uno_penalized
        and not cls.wrong_catch_penalized
    )
    after_draw = cls.play_after_draw
    two_skip = cls.reverse_skips_with_two
    challenges = cls.challenge_wild_draw4
    uno_window = cls.uno_window
    playable_on = PLAYABLE_BY_TOP  # a colour not in it (KeyError): the general way

    def general(state: State, command: Any) -> list[Event]:
        """The general way's decision (or refusal), left in memo."""
        decision = general_decision(state, command)
        events = decision.events
        memo[0] = (state, events, len(events), decision.state)
        return events

    def go_out(
        state: State,
        command: Any,
        events: list[Event],
        seat: Seat,
        card: Card,
        playable: frozenset[Card],
    ) -> list[Event]:
        """A play of the seat's last card (in hand, with no lane) that matches (`playable`, the
        cards that play now): `go_out`'s draw for the next seat and `end_hand`'s events, folded
        one by one as the general way folds them (a hand's end is rare: the fold's own
        functions, not a restatement)."""
        if state.lanes[seat]:
            return general(state, command)
        rank = RANK_OF[card]
        count = 2 if rank == "draw2" else 4 if card == WILD_DRAW4 else 0
        draw = state.draw
        if card not in playable or len(draw) < count:
            return general(state, command)
        played = _CARD_PLAYED[seat].get(card) or with_card(_CARD_PLAYED, _PLAYED, seat, card)
        events.append(played)
        if count:
            victim = (seat + state.direction) % state.seats
            reason = "draw2" if count == 2 else "wild-draw4"
            cards = draw[-count:][::-1]
            events.append({"type": CARDS_DRAWN, "seat": victim, "cards": cards, "reason": reason})
        new = state.fork()
        for event in events:
            apply(new, event)
        for event in hand_events(new, seat, options["scoring"], options["target"]):
            events.append(event)
            apply(new, event)
        memo[0] = (state, events, len(events), new)
        return events

    def uno_command(state: State, command: Any, seat: Seat, kind: str) -> list[Event]:
        """An uno call of a seat that owes one, or a catch of a seat that owes one (on_call_uno,
        on_catch; any seat, at any moment of a hand's play), folded by the fold's own
        functions."""
        uncalled = state.uncalled
        if not uno_commands or seat >= state.seats or seat < 0:
            return general(state, command)
        events: list[Event]
        if kind == CALL_UNO:
            if len(command) != 2 or seat not in uncalled:
                return general(state, command)
            events = [_UNO_CALLED[seat]]
        else:
            penalty = options["uno_penalty"]
            draw = state.draw
            try:
                target = command["target"]
            except KeyError:
                return general(state, command)
            if (
                len(command) != 3
                or type(target) is not int
                or target == seat
                or target not in uncalled
                or len(draw) < penalty
            ):
                return general(state, command)
            events = [{"type": UNO_CAUGHT, "seat": seat, "target": target}]
            if penalty:
                cards = draw[-penalty:][::-1]
                events.append(
                    {"type": CARDS_DRAWN, "seat": target, "cards": cards, "reason": "uno"}
                )
        new = state.fork()
        for event in events:
            apply(new, event)
        memo[0] = (state, events, len(events), new)
        return events

    def decide(state: State, command: Any) -> list[Event]:
        """`Variant.decide`: a usual play, draw, pass, accept or challenge in one pass, and
        anything else the general way."""
        pending = state.pending
        shape = type(command)
        if shape is not dict and shape is not read_only or pending is None:
            return general(state, command)
        if state.status != PLAYING:
            return general(state, command)
        given: dict[str, Any] = command  # a dict's own lookups, compiled
        try:  # a missing field: the general way names it
            given_seat = given["seat"]
            given_kind = given["type"]
        except KeyError:
            return general(state, command)
        if type(given_seat) is not int or type(given_kind) is not str:
            return general(state, command)
        seat: Seat = given_seat  # typed: compiled, native int and str operations below
        kind: str = given_kind
        if kind == CATCH or kind == CALL_UNO:
            return uno_command(state, command, seat, kind)
        if seat not in state.to_act:
            return general(state, command)
        events: list[Event]
        uncalled = state.uncalled
        if not uncalled:
            events = []
        elif uno_window and seat not in uncalled and kind != CATCH and kind != CALL_UNO:
            # Ruleset.decision: the seat to act closes every other seat's catch window.
            events = [{"type": UNO_EXPIRED, "seats": sorted(uncalled)}]
            uncalled = frozenset()
        else:
            return general(state, command)
        if kind == PLAY:
            # A play in a listed shape: type, seat, card, uno, and a colour where the card is
            # black; an uno call only on the play that leaves one card (check_play's checks).
            size = len(given)
            try:
                given_card = given["card"]
                uno = given["uno"]
                color = given["color"] if size == 5 else None
            except KeyError:
                return general(state, command)
            if type(given_card) is not str or (size != 4 and (size != 5 or color not in COLORS)):
                return general(state, command)
            card: Card = given_card
            what = pending["type"]
            if what != "play" and (what != "drawn" or card != pending["card"]):
                return general(state, command)
            hands = state.hands
            hand = hands[seat]
            discard = state.discard
            try:
                at = hand.index(card)  # where it is, for the play's hand below
            except ValueError:
                return general(state, command)
            in_force = state.color
            if not discard or in_force is None:  # (None: a flipped wild's colour not named yet)
                return general(state, command)
            try:
                playable = playable_on[discard[-1]][in_force]
            except KeyError:
                return general(state, command)
            if len(hand) == 1 and size == 4 and type(uno) is bool:
                # The last card: resolve_play's going out, a black card naming no colour and
                # an uno call allowed (check_play).
                return go_out(state, command, events, seat, card, playable)
            card_color = COLOR_OF[card]
            if (color is None) is (card_color is None):
                return general(state, command)
            held = len(hand)  # a lane's cards count too: the general way (state.cards_held)
            if state.lanes[seat] or uno is not False and (uno is not True or held != 2) or held < 2:
                return general(state, command)
            if card not in playable:
                return general(state, command)
            rank = RANK_OF[card]
            seats, direction = state.seats, state.direction
            draw = state.draw
            if (rank == "draw2" and len(draw) < 2) or (card == WILD_DRAW4 and not challenges):
                return general(state, command)
            played = _CARD_PLAYED[seat].get(card) or with_card(_CARD_PLAYED, _PLAYED, seat, card)
            if color is not None:  # the template names none
                played = {**played, "color": color}
            events.append(played)
            hands = hands.copy()  # a method call costs less than a slice object
            hand = hand.copy()
            hand.pop(at)
            hands[seat] = hand
            new = state.fork()
            new.hands = hands
            new.discard = discard + [card]
            new.color = color or card_color
            if held == 2:  # resolve_play: one card left, an uno call made or owed
                if uno:
                    events.append(_UNO_CALLED[seat])
                    new.called = state.called | {seat}
                else:
                    events.append(_UNO_OWED[seat])
                    uncalled = uncalled | {seat}
                    new.called = state.called - {seat}
            if rank == "skip":
                nxt = (seat + 2 * direction) % seats
            elif rank == "reverse":
                new.direction = direction = -direction
                events.append(_DIRECTION[direction])
                nxt = seat if seats == 2 and two_skip else (seat + direction) % seats
            elif rank == "draw2":
                victim = (seat + direction) % seats
                events.append(
                    {
                        "type": CARDS_DRAWN,
                        "seat": victim,
                        "cards": draw[-2:][::-1],
                        "reason": "draw2",
                    }
                )
                hands[victim] = hands[victim] + draw[-2:][::-1]
                new.draw = draw[:-2]
                if victim in new.called:
                    new.called = new.called - {victim}
                nxt = (seat + 2 * direction) % seats
            elif card == WILD_DRAW4:
                new.challenge = (seat, state.color, tuple(hand))
                nxt = (seat + direction) % seats
                then = {"type": "challenge", "seat": nxt, "offender": seat}
                events.append({"type": PROMPTED, "to_act": [nxt], "pending": then})
                new.to_act = ONE_SEAT[nxt]
                new.pending = then
                new.uncalled = uncalled
                memo[0] = (state, events, len(events), new)
                return events
            else:
                nxt = (seat + direction) % seats
        elif len(given) != 2:
            return general(state, command)
        elif kind == DRAW:
            draw = state.draw
            discard = state.discard
            if pending["type"] != "play" or not draw or not discard:
                return general(state, command)
            card = draw[-1]
            in_force = state.color
            if in_force is None:  # a flipped wild's colour not named yet: the general way
                return general(state, command)
            try:
                playable = playable_on[discard[-1]][in_force]
            except KeyError:
                return general(state, command)
            events.append(_DREW[seat].get(card) or _drew(seat, card))
            hands = state.hands.copy()
            hands[seat] = hands[seat] + [card]
            called = state.called
            new = state.fork()
            new.hands = hands
            new.draw = draw[:-1]
            if seat in called:
                new.called = called - {seat}
            if after_draw and card in playable:
                prompted, drawn = _DREW_PLAYABLE[seat].get(card) or _drew_playable(seat, card)
                events.append(prompted)
                new.to_act = ONE_SEAT[seat]
                new.pending = drawn
                new.uncalled = uncalled
                memo[0] = (state, events, len(events), new)
                return events
            nxt = (seat + state.direction) % state.seats
        elif kind == PASS:
            if pending["type"] != "drawn":
                return general(state, command)
            new = state.fork()
            nxt = (seat + state.direction) % state.seats
        elif kind == ACCEPT or kind == CHALLENGE:
            # on_accept, on_challenge: the draw from the pile as it is.
            challenge = state.challenge
            if pending["type"] != "challenge" or challenge is None:
                return general(state, command)
            if kind == ACCEPT:
                drawer, count, reason = seat, 4, "wild-draw4"
                nxt = (seat + state.direction) % state.seats
            else:
                offender, before, shown = challenge
                guilty = before is not None and any(COLOR_OF[c] == before for c in shown)
                if guilty:  # the challenger takes a normal turn
                    drawer, count, nxt = offender, 4, seat
                else:
                    drawer, count = seat, 6
                    nxt = (seat + state.direction) % state.seats
                reason = "challenge"
            draw = state.draw
            if len(draw) < count:
                return general(state, command)
            new = state.fork()
            if kind == CHALLENGE:
                new.challenge = None
                events.append(
                    {
                        "type": CHALLENGE_RESOLVED,
                        "seat": seat,
                        "target": pending["offender"],
                        "guilty": guilty,
                        "hand": list(shown),
                    }
                )
            events.append(
                {
                    "type": CARDS_DRAWN,
                    "seat": drawer,
                    "cards": draw[-count:][::-1],
                    "reason": reason,
                }
            )
            hands = state.hands.copy()
            hands[drawer] = hands[drawer] + draw[-count:][::-1]
            new.hands = hands
            new.draw = draw[:-count]
            if drawer in state.called:
                new.called = state.called - {drawer}
        else:
            return general(state, command)
        events.append(_PROMPTS[nxt])
        new.to_act = ONE_SEAT[nxt]
        new.pending = _TURN[nxt]
        new.uncalled = uncalled
        memo[0] = (state, events, len(events), new)
        return events

    return decide


def quick_replay(memo: list[Decided | None]) -> Replay:
    """`Variant.replay` for a variant whose `decide` leaves what it decided in `memo[0]`: the
    same fold, compiled with the quick steps (a call of the class's Python method costs about
    a twentieth of a step)."""

    def replay(events: Iterable[Event], state: State | None = None) -> State:
        """Fold `events` onto `state` (or from the start); `state` itself is not changed."""
        last = memo[0]
        if last is not None and state is last[0] and events is last[1]:
            known = last[1]
            if len(known) == last[2]:
                # `decide` already folded exactly these events into a private copy of exactly
                # this state (`start`: from the start, state None): hand that copy over (once)
                # instead of folding them a second time.
                memo[0] = None
                return last[3]
        it = iter(events)
        if state is None:
            try:
                state = initial_state(next(it))
            except StopIteration:
                raise ValueError("replay needs the match-started event to begin") from None
        else:
            state = state.fork()
        for event in it:
            apply(state, event)
        return state

    return replay
