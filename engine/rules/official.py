"""`official` (docs/rules.md "official").

The machinery in `base.Ruleset` already plays the official turn; this module adds the flip at
the start of a hand and the command handlers, which the other families reuse.
"""

from __future__ import annotations

from typing import ClassVar

from engine.cards import COLOR_OF, PLAYABLE_ON, RANK_OF, WILD_DRAW4, Card
from engine.commands import (
    ACCEPT,
    CALL_UNO,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    NEXT_HAND,
    PASS,
    PLAY,
    Command,
    IllegalCommand,
)
from engine.events import (
    CARD_REINSERTED,
    CHALLENGE_RESOLVED,
    COLOR_CHOSEN,
    DIRECTION_CHANGED,
    UNO_CAUGHT,
)
from engine.rules.base import Ruleset
from engine.rules.decision import Decision, Handler
from engine.rules.event_builders import turn_event
from engine.state import HAND_OVER

# The pendings a play answers (`expect`, checked in place on the usual path).
_PLAY_ANSWERS = ("play", "drawn")


class Official(Ruleset):
    name = "official"

    def resolve_flip(self, d: Decision, card: Card) -> None:
        state = d.state
        if card == WILD_DRAW4 and state.draw:
            # A flipped wild-draw4 goes back at a random place below the top card; flip again.
            position = self.rng(d, "reinsert").randint(1, len(state.draw))
            d.emit({"type": CARD_REINSERTED, "card": card, "position": position})
            self.flip(d)
            return
        dealer = state.dealer
        assert dealer is not None  # official and the families over it have a dealer
        left = state.next_seat(dealer)
        rank = RANK_OF[card]
        if rank == "skip":
            self.begin_turn(d, state.next_seat(left))
        elif rank == "draw2":
            self.draw_cards(d, left, 2, "draw2")
            self.begin_turn(d, state.next_seat(left))
        elif rank == "reverse":
            # The dealer plays first and play goes counter-clockwise.
            d.emit({"type": DIRECTION_CHANGED, "direction": -1})
            self.begin_turn(d, dealer)
        elif COLOR_OF[card] is None:
            # A flipped wild (or a wild-draw4 with no card left to flip): the seat left of the
            # dealer names the colour, then takes its turn.
            self.prompt(d, {"type": "color", "seat": left, "after": "turn"})
        else:
            self.begin_turn(d, left)

    # ---------------------------------------------------------------------------- handlers

    def on_play(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = state.pending
        if pending is None or pending["type"] not in _PLAY_ANSWERS or seat not in state.to_act:
            pending = self.expect(state, seat, *_PLAY_ANSWERS)  # raises the refusal
        if pending["type"] == "drawn" and command["card"] != pending["card"]:
            raise IllegalCommand(
                "must-play-drawn-card", f"after drawing only {pending['card']} may be played"
            )
        if self.plain_play and self.play_plainly(d, seat, command):
            return
        self.check_play(state, seat, command)
        self.play_card(d, seat, command)

    def on_draw(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = state.pending
        if pending is None or pending["type"] != "play" or seat not in state.to_act:
            self.expect(state, seat, "play")  # raises the refusal
        drawn = self.draw_cards(d, seat, 1, "draw")
        if (
            drawn
            and self.play_after_draw
            and (
                drawn[0] in PLAYABLE_ON[state.top, state.color]
                if self.plain_playable
                else self.playable(state, seat, drawn[0])
            )
        ):
            self.prompt(d, {"type": "drawn", "seat": seat, "card": drawn[0]})
        elif self.plain_turn:
            d.emit(turn_event((seat + state.direction) % state.seats))  # end_turn, inlined
        else:
            self.end_turn(d, seat, state.next_seat(seat))

    def on_pass(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = state.pending
        if pending is None or pending["type"] != "drawn" or seat not in state.to_act:
            self.expect(state, seat, "drawn")  # raises the refusal
        if self.plain_turn:
            d.emit(turn_event((seat + state.direction) % state.seats))  # end_turn, inlined
        else:
            self.end_turn(d, seat, state.next_seat(seat))

    def on_choose_color(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = self.expect(state, seat, "color")
        d.emit({"type": COLOR_CHOSEN, "seat": seat, "color": command["color"]})
        after = pending["after"]
        if after == "play":
            self.after_play(d, seat, state.top)  # type: ignore[arg-type]
        elif after == "flip-draw4":
            self.draw_cards(d, seat, 4, "wild-draw4")
            self.begin_turn(d, state.next_seat(seat))
        else:
            self.begin_turn(d, seat)

    def on_accept(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        self.expect(state, seat, "challenge")
        self.draw_cards(d, seat, 4, "wild-draw4")
        self.proceed(d, state.next_seat(seat), None)

    def on_challenge(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = self.expect(state, seat, "challenge")
        assert state.challenge is not None
        offender, before, hand = state.challenge
        # Honest only if the offender held no card of the colour current before the wild-draw4.
        guilty = before is not None and any(COLOR_OF[c] == before for c in hand)
        d.emit(
            {
                "type": CHALLENGE_RESOLVED,
                "seat": seat,
                "target": pending["offender"],
                "guilty": guilty,
                "hand": list(hand),
            }
        )
        if guilty:
            # docs/rules.md: a guilty wild-draw4 stays on the pile; the challenger then plays.
            self.draw_cards(d, offender, 4, "challenge")
            self.begin_turn(d, seat)
        else:
            self.draw_cards(d, seat, 6, "challenge")
            self.proceed(d, state.next_seat(seat), None)

    def on_call_uno(self, d: Decision, command: Command) -> None:
        self.call_uno(d, command["seat"])

    def on_catch(self, d: Decision, command: Command) -> None:
        state, seat, target = d.state, command["seat"], command["target"]
        if target == seat:
            raise IllegalCommand("bad-target", "a seat cannot catch itself")
        if target in state.uncalled:
            d.emit({"type": UNO_CAUGHT, "seat": seat, "target": target})
            self.draw_cards(d, target, self.options["uno_penalty"], "uno")
        elif self.wrong_catch_penalized:
            self.penalize(d, seat, "wrong-catch")
        else:
            raise IllegalCommand("not-catchable", f"seat {target} owes no uno call")

    def on_next_hand(self, d: Decision, command: Command) -> None:
        state = d.state
        if state.status != HAND_OVER:
            raise IllegalCommand("hand-not-over", "the next hand starts when this one is over")
        deck = command.get("deck")
        if deck is not None and len(deck) != 108:
            raise IllegalCommand("bad-deck", "a stacked deck must hold exactly the 108 cards")
        try:
            self.deal(d, state.hand_number + 1, self.next_anchor(state), deck)
        except ValueError as error:
            raise IllegalCommand("bad-deck", str(error)) from None

    handlers: ClassVar[dict[str, Handler]] = {
        PLAY: on_play,
        DRAW: on_draw,
        PASS: on_pass,
        CHOOSE_COLOR: on_choose_color,
        ACCEPT: on_accept,
        CHALLENGE: on_challenge,
        CALL_UNO: on_call_uno,
        CATCH: on_catch,
        NEXT_HAND: on_next_hand,
    }
