"""Quick steps: the commonest moments of a plain family's turn, each in one function.

Nine commands in ten are a play of a card that leaves more than two in hand, a draw or a pass,
with nobody owing an uno call; a listing is mostly a seat's plays and its draw. For a family
that keeps the base machinery these moments are answered here in one pass: the command checked,
the events built and the state they fold into built next to them, with no parse, no Decision,
no emit and no hook in between. Anything else (any other command or pending, an uno owed, a
play that leaves two cards or fewer, a draw that needs a reshuffle, a command in any other
shape) returns None here and goes the general way (`Ruleset.decision`, `legal_commands`), which
checks it fully: a quick step only ever accepts a command the general way accepts, gives the
same events, and folds them into an equal state. tests/engine/test_quick.py holds each step to
the general way on every state of seeded matches, with listed, bent and junk commands.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import COLOR_OF, COLORS, PLAYABLE_ON, RANK_OF, WILD_DRAW4, Card, Color
from ..commands import ACCEPT, CHALLENGE, DRAW, PASS, PLAY, Command
from ..events import CARD_PLAYED, CARDS_DRAWN, DIRECTION_CHANGED, PROMPTED, Event
from ..state import PLAYING, Seat, State
from .base import Ruleset
from .official import Official

# (the state decided on, its events, how many, the state they fold into): Variant's `_last`.
Decided = tuple[State, list[Event], int, State]
QuickDecide = Callable[[State, Command], Decided | None]
QuickLegal = Callable[[State, Seat | None], list[Command]]

# PLAYABLE_ON as a plain dict: an exact dict's lookup is the interpreter's quickest, and a
# colour no decision names is not in it (None: the general way asks PLAYABLE_ON itself).
_PLAYABLE: dict[tuple[Card | None, Color | None], frozenset[Card]] = dict(PLAYABLE_ON)
RED, YELLOW, GREEN, BLUE = COLORS

# Every method a quick step stands for: a family that overrides any of them goes the general
# way for every command.
_STOOD_FOR = (
    "decision",
    "legal_commands",
    "turn_options",
    "play_options",
    "uno_options",
    "expect",
    "draw_cards",
    "playable",
    "playable_cards",
    "play_plainly",
    "check_play",
    "check_target",
    "play_card",
    "resolve_play",
    "after_play",
    "end_turn",
    "proceed",
    "begin_turn",
    "prompt",
    "after_command",
    "closes_uno_window",
)
_HANDLED = {PLAY: Official.on_play, DRAW: Official.on_draw, PASS: Official.on_pass}


def quick_steps(ruleset: Ruleset) -> tuple[QuickLegal, QuickDecide] | None:
    """`ruleset`'s quick listing and quick decide, or None for a family that changes any step
    they stand for. The listing answers every call (the general way's own answer where it does
    not know one); decide returns None where the general way must decide."""
    cls = type(ruleset)
    if any(getattr(cls, name) is not getattr(Official, name) for name in _STOOD_FOR) or any(
        cls.handlers.get(kind) is not handler for kind, handler in _HANDLED.items()
    ):
        return None
    general_legal = ruleset.legal_commands
    after_draw = cls.play_after_draw
    two_skip = cls.reverse_skips_with_two
    challenges = cls.challenge_wild_draw4
    lists_uno = cls.uno_always_listed
    playable_on = _PLAYABLE.get

    def legal(state: State, seat: Seat | None) -> list[Command]:
        """`Ruleset.legal_commands` for a seat asked for a play or a drawn card's play."""
        pending = state.pending
        if (
            seat is None
            or pending is None
            or state.uncalled
            or lists_uno
            or state.status != PLAYING
            or seat not in state.to_act
        ):
            return general_legal(state, seat)
        hand = state.hands[seat]
        held = len(hand) + len(state.lanes[seat])
        if held <= 2:
            return general_legal(state, seat)
        kind = pending["type"]
        if kind == "play":
            discard = state.discard
            playable = playable_on((discard[-1], state.color)) if discard else None
            if playable is None:
                return general_legal(state, seat)
            cards = [card for card in hand if card in playable]
            if len(cards) > 1 and len(set(cards)) < len(cards):
                cards = list(dict.fromkeys(cards))  # each card once, in hand order
            options: list[Command] = []
            for card in cards:
                if COLOR_OF[card] is None:
                    options += (
                        {"type": PLAY, "seat": seat, "card": card, "color": RED, "uno": False},
                        {"type": PLAY, "seat": seat, "card": card, "color": YELLOW, "uno": False},
                        {"type": PLAY, "seat": seat, "card": card, "color": GREEN, "uno": False},
                        {"type": PLAY, "seat": seat, "card": card, "color": BLUE, "uno": False},
                    )
                else:
                    options.append({"type": PLAY, "seat": seat, "card": card, "uno": False})
            options.append({"type": DRAW, "seat": seat})
            return options
        if kind == "drawn":
            card = pending["card"]
            if COLOR_OF[card] is None:
                return [
                    {"type": PLAY, "seat": seat, "card": card, "color": RED, "uno": False},
                    {"type": PLAY, "seat": seat, "card": card, "color": YELLOW, "uno": False},
                    {"type": PLAY, "seat": seat, "card": card, "color": GREEN, "uno": False},
                    {"type": PLAY, "seat": seat, "card": card, "color": BLUE, "uno": False},
                    {"type": PASS, "seat": seat},
                ]
            return [
                {"type": PLAY, "seat": seat, "card": card, "uno": False},
                {"type": PASS, "seat": seat},
            ]
        if kind == "challenge":
            return [{"type": ACCEPT, "seat": seat}, {"type": CHALLENGE, "seat": seat}]
        return general_legal(state, seat)

    def decide(state: State, command: Command) -> Decided | None:
        """The events of a usual play, draw or pass and the state they fold into; None for
        any other command, which the general way decides (or refuses)."""
        if type(command) is not dict or state.uncalled or state.status != PLAYING:
            return None
        pending = state.pending
        seat = command.get("seat")
        if pending is None or type(seat) is not int or seat not in state.to_act:
            return None
        kind = command.get("type")
        if kind == PLAY:
            # A play in a listed shape: type, seat, card, uno false, and a colour where the
            # card is black (the check of play_plainly; check_play would agree).
            size = len(command)
            color = command.get("color") if size == 5 else None
            card = command.get("card")
            if (
                command.get("uno") is not False
                or type(card) is not str
                or (size != 4 and (size != 5 or color not in COLORS))
            ):
                return None
            what = pending["type"]
            if what != "play" and (what != "drawn" or card != pending["card"]):
                return None
            hands = state.hands
            hand = hands[seat]
            discard = state.discard
            if (
                card not in hand
                or (color is None) is (COLOR_OF[card] is None)
                or len(hand) + len(state.lanes[seat]) <= 2
                or not discard
            ):
                return None
            playable = playable_on((discard[-1], state.color))
            if playable is None or card not in playable:
                return None
            rank = RANK_OF[card]
            seats, direction = state.seats, state.direction
            draw = state.draw
            if (rank == "draw2" and len(draw) < 2) or (card == WILD_DRAW4 and not challenges):
                return None
            events: list[Event] = [
                {"type": CARD_PLAYED, "seat": seat, "card": card, "color": color, "source": "hand"}
            ]
            new = state.fork()
            hands = hands[:]
            hand = hand[:]
            hand.remove(card)
            hands[seat] = hand
            new.hands = hands
            new.discard = [*discard, card]
            new.color = color or COLOR_OF[card]
            if rank == "skip":
                nxt = (seat + 2 * direction) % seats
            elif rank == "reverse":
                new.direction = direction = -direction
                events.append({"type": DIRECTION_CHANGED, "direction": direction})
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
                if victim in state.called:
                    new.called = state.called - {victim}
                nxt = (seat + 2 * direction) % seats
            elif card == WILD_DRAW4:
                new.challenge = (seat, state.color, tuple(hand))
                nxt = (seat + direction) % seats
                then = {"type": "challenge", "seat": nxt, "offender": seat}
                events.append({"type": PROMPTED, "to_act": [nxt], "pending": then})
                new.to_act = (nxt,)
                new.pending = then
                return state, events, 2, new
            else:
                nxt = (seat + direction) % seats
        elif kind == DRAW:
            draw = state.draw
            discard = state.discard
            if len(command) != 2 or pending["type"] != "play" or not draw or not discard:
                return None
            card = draw[-1]
            playable = playable_on((discard[-1], state.color))
            if playable is None:
                return None
            events = [{"type": CARDS_DRAWN, "seat": seat, "cards": [card], "reason": "draw"}]
            new = state.fork()
            hands = state.hands[:]
            hands[seat] = [*hands[seat], card]
            new.hands = hands
            new.draw = draw[:-1]
            if seat in state.called:
                new.called = state.called - {seat}
            if after_draw and card in playable:
                drawn = {"type": "drawn", "seat": seat, "card": card}
                events.append({"type": PROMPTED, "to_act": [seat], "pending": drawn})
                new.to_act = (seat,)
                new.pending = drawn
                return state, events, 2, new
            nxt = (seat + state.direction) % state.seats
        elif kind == PASS:
            if len(command) != 2 or pending["type"] != "drawn":
                return None
            events = []
            new = state.fork()
            nxt = (seat + state.direction) % state.seats
        else:
            return None
        turn = {"type": "play", "seat": nxt}
        events.append({"type": PROMPTED, "to_act": [nxt], "pending": turn})
        new.to_act = (nxt,)
        new.pending = turn
        return state, events, len(events), new

    return legal, decide
