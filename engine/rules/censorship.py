"""`censorship` (docs/rules.md "censorship"): the dealer rules on every card.

The dealer (the censor) plays its own turns; every other seat `submit`s a card face down and the
dealer `approve`s it, `substitute`s a legal card of its own, or, when nothing is legal,
`return`s a card. The card on the pile then acts as if the submitter had played it.

The pending submission is kept in `state.extra["submission"]` ({seat, card, color, uno}): out
of the submitter's hand, not yet in the dealer's.

Decisions written down where the texts are silent:
- A black card is submitted with its colour named (`color` is required), so that an approval
  plays it at once; a substituted black card takes the colour the dealer names.
- Submitting the last card goes out when the dealer approves it or keeps it (substitutes); when
  nothing is legal and the dealer returns a card, the submitter holds cards again and plays on.
- A flipped card acts as in official (the seat left of the dealer names the colour of a flipped
  wild, and so on); a standard seat never draws except after a return or as a penalty.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.cards import COLOR_OF, WILD_DRAW4, Card, matches
from engine.commands import (
    APPROVE,
    CALL_UNO,
    CATCH,
    CHOOSE_COLOR,
    DRAW,
    NEXT_HAND,
    PASS,
    PLAY,
    RETURN,
    SUBMIT,
    SUBSTITUTE,
    Command,
    IllegalCommand,
)
from engine.events import (
    CARD_PLAYED,
    CARD_RETURNED,
    CARD_SUBMITTED,
    SUBMISSION_KEPT,
    TURN_PASSED,
    UNO_CALLED,
    UNO_EXPIRED,
    UNO_OWED,
)
from engine.rules.decision import Decision, Handler
from engine.rules.listing import with_colors
from engine.rules.official import Official
from engine.rules.options import bool_option
from engine.state import Pending, Seat, State

RULINGS = (APPROVE, SUBSTITUTE, RETURN)


class Censorship(Official):
    name = "censorship"
    defaults: ClassVar[dict[str, Any]] = {
        **Official.defaults,
        "uno_penalty": 4,
        "dealer_draws": True,
    }
    option_checks: ClassVar[dict[str, Any]] = {
        **Official.option_checks,
        "dealer_draws": bool_option,
    }
    min_seats = 3
    challenge_wild_draw4 = False
    supports_precognitive = False

    # ------------------------------------------------------------------------- legality

    def legal_for(self, state: State, holder: Seat, card: Card) -> bool:
        """Whether `card` is a legal play for `holder` (its hand without the card itself)."""
        if not matches(card, state.top, state.color):  # type: ignore[arg-type]
            return False
        if card != WILD_DRAW4:
            return True
        # No bluffing: a wild-draw4 only for a player holding no card of the current colour.
        return not any(COLOR_OF[c] == state.color for c in state.hands[holder])

    def playable(self, state: State, seat: Seat, card: Card) -> bool:
        return self.legal_for(state, seat, card)

    def playable_cards(self, state: State, seat: Seat) -> list[Card]:
        return [c for c in dict.fromkeys(state.hands[seat]) if self.legal_for(state, seat, c)]

    def owes_uno(self, state: State, seat: Seat) -> bool:
        return seat != state.dealer  # The dealer never has to call uno.

    def closes_uno_window(self, state: State, seat: Seat | None, kind: str) -> bool:
        # The dealer's ruling does not close a submitter's catch window.
        return kind not in RULINGS and super().closes_uno_window(state, seat, kind)

    # ------------------------------------------------------------------------------ turns

    def begin_turn(self, d: Decision, seat: Seat) -> None:
        state = d.state
        if seat != state.dealer:
            self.prompt(d, {"type": "submit", "seat": seat})
        elif self.playable_cards(state, seat) or self.options["dealer_draws"]:
            self.prompt(d, {"type": "play", "seat": seat})
        else:
            # dealer_draws false: a dealer with no matching card does not draw.
            d.emit({"type": TURN_PASSED, "seat": seat})
            self.end_turn(d, seat, state.next_seat(seat))

    def on_play(self, d: Decision, command: Command) -> None:
        if command["seat"] != d.state.dealer:
            raise IllegalCommand("must-submit", "a standard seat submits its card to the dealer")
        super().on_play(d, command)

    def on_draw(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        if seat != state.dealer:
            raise IllegalCommand("must-submit", "a standard seat submits its card to the dealer")
        self.expect(state, seat, "play")
        if self.playable_cards(state, seat):
            raise IllegalCommand("must-play", "the dealer draws only when it has no matching card")
        super().on_draw(d, command)

    def on_pass(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = self.expect(state, seat, "drawn", "resubmit")
        if pending["type"] == "drawn":
            raise IllegalCommand(
                "must-play-drawn-card", f"the dealer must play the drawn {pending['card']}"
            )
        self.end_turn(d, seat, state.next_seat(seat))

    # ------------------------------------------------------------------------ submissions

    def on_submit(self, d: Decision, command: Command) -> None:
        state, seat, card = d.state, command["seat"], command["card"]
        pending = self.expect(state, seat, "submit", "resubmit")
        if pending["type"] == "resubmit" and card != pending["card"]:
            raise IllegalCommand(
                "must-play-drawn-card", f"only the drawn {pending['card']} may be submitted again"
            )
        if card not in state.hands[seat]:
            raise IllegalCommand("card-not-in-hand", f"seat {seat} holds no {card}")
        color = command.get("color")
        if (color is None) != (COLOR_OF[card] is not None):
            raise IllegalCommand(
                "bad-color", "a black card is submitted with its colour named, no other card"
            )
        left = state.cards_held(seat) - 1
        if command.get("uno") and left > 1:
            raise IllegalCommand("uno-not-due", "uno is called with the second-to-last card")
        d.emit(
            {
                "type": CARD_SUBMITTED,
                "seat": seat,
                "dealer": state.dealer,
                "card": card,
                "color": color,
                "uno": bool(command.get("uno")),
            }
        )
        if left == 1:
            d.emit({"type": UNO_CALLED if command.get("uno") else UNO_OWED, "seat": seat})
        elif left == 0 and seat in state.uncalled:
            # Its last card is with the dealer: a seat holding no card cannot be caught.
            d.emit({"type": UNO_EXPIRED, "seats": [seat]})
        self.prompt(d, {"type": "ruling", "seat": state.dealer, "submitter": seat})

    def rulable(self, state: State) -> tuple[dict[str, Any], bool, list[Card]]:
        """The submission, whether it is legal, and the dealer's legal cards."""
        submission = state.extra["submission"]
        legal = self.legal_for(state, submission["seat"], submission["card"])
        dealer = state.dealer
        assert dealer is not None  # censorship has a dealer
        return submission, legal, self.playable_cards(state, dealer)

    def on_approve(self, d: Decision, command: Command) -> None:
        state = d.state
        self.expect(state, command["seat"], "ruling")
        submission, legal, _ = self.rulable(state)
        if not legal:
            raise IllegalCommand(
                "illegal-submission",
                f"{submission['card']} is not legal here: substitute or return",
            )
        seat, card = submission["seat"], submission["card"]
        d.emit(
            {
                "type": CARD_PLAYED,
                "seat": seat,
                "card": card,
                "color": submission["color"],
                "source": "submission",
            }
        )
        self.ruled(d, seat, card)

    def on_substitute(self, d: Decision, command: Command) -> None:
        state, dealer, card = d.state, command["seat"], command["card"]
        self.expect(state, dealer, "ruling")
        submission = state.extra["submission"]
        if card not in state.hands[dealer]:
            raise IllegalCommand("card-not-in-hand", f"the dealer holds no {card}")
        if not self.legal_for(state, dealer, card):
            raise IllegalCommand("card-does-not-match", f"{card} is not a legal play here")
        color = command.get("color")
        if (color is None) != (COLOR_OF[card] is not None):
            raise IllegalCommand(
                "bad-color", "the dealer names the colour of a black card it substitutes"
            )
        d.emit(
            {
                "type": CARD_PLAYED,
                "seat": dealer,
                "card": card,
                "color": color,
                "source": "hand",
                "for": submission["seat"],
            }
        )
        d.emit(
            {
                "type": SUBMISSION_KEPT,
                "seat": submission["seat"],
                "dealer": dealer,
                "card": submission["card"],
            }
        )
        self.ruled(d, submission["seat"], card)

    def ruled(self, d: Decision, seat: Seat, card: Card) -> None:
        """A card reached the pile for `seat`: it acts as if `seat` had played it."""
        if d.state.cards_held(seat) == 0:
            self.go_out(d, seat, card)  # Submitting the last card is going out.
        else:
            self.after_play(d, seat, card)

    def on_return(self, d: Decision, command: Command) -> None:
        state, dealer, card = d.state, command["seat"], command["card"]
        self.expect(state, dealer, "ruling")
        submission, legal, own = self.rulable(state)
        if legal or own:
            raise IllegalCommand(
                "must-play", "a legal card exists: the dealer must approve or substitute"
            )
        if card not in state.hands[dealer] and card != submission["card"]:
            raise IllegalCommand("card-not-in-hand", f"the dealer holds no {card}")
        seat = submission["seat"]
        d.emit(
            {
                "type": CARD_RETURNED,
                "seat": seat,
                "dealer": dealer,
                "card": card,
                "submitted": submission["card"],
            }
        )
        drawn = self.draw_cards(d, seat, 1, "censored")
        if drawn and self.legal_for(state, seat, drawn[0]):
            self.prompt(d, {"type": "resubmit", "seat": seat, "card": drawn[0]})
        else:
            self.end_turn(d, seat, state.next_seat(seat))

    # ------------------------------------------------------------------ legal_commands

    def turn_options(self, state: State, seat: Seat, pending: Pending) -> list[Command]:
        kind = pending["type"]
        if kind in ("submit", "resubmit"):
            cards = [pending["card"]] if kind == "resubmit" else dict.fromkeys(state.hands[seat])
            left = state.cards_held(seat) - 1
            unos = (False, True) if left == 1 else (False,)
            submits = with_colors([{"type": SUBMIT, "seat": seat, "card": c} for c in cards])
            options = [{**option, "uno": uno} for option in submits for uno in unos]
            if kind == "resubmit":
                options.append({"type": PASS, "seat": seat})
            return options
        if kind == "ruling":
            submission, legal, own = self.rulable(state)
            options = [{"type": APPROVE, "seat": seat}] if legal else []
            options += with_colors([{"type": SUBSTITUTE, "seat": seat, "card": c} for c in own])
            if not legal and not own:
                cards = dict.fromkeys([*state.hands[seat], submission["card"]])
                options = [{"type": RETURN, "seat": seat, "card": c} for c in cards]
            return options
        if kind == "drawn":
            return self.play_options(state, seat, pending["card"])  # No pass for the dealer.
        if kind == "play":
            options = []
            for card in self.playable_cards(state, seat):
                options += self.play_options(state, seat, card)
            return options or [{"type": DRAW, "seat": seat}]
        return super().turn_options(state, seat, pending)

    def extra_view(self, state: State, viewer: Seat | None) -> dict[str, Any]:
        submission = state.extra.get("submission")
        if submission is None:
            return {"submission": None}
        seen = viewer in (submission["seat"], state.dealer)
        return {
            "submission": {
                "seat": submission["seat"],
                "card": submission["card"] if seen else None,
                "color": submission["color"] if seen else None,
            }
        }

    handlers: ClassVar[dict[str, Handler]] = {
        PLAY: on_play,
        DRAW: on_draw,
        PASS: on_pass,
        CHOOSE_COLOR: Official.on_choose_color,
        SUBMIT: on_submit,
        APPROVE: on_approve,
        SUBSTITUTE: on_substitute,
        RETURN: on_return,
        CALL_UNO: Official.on_call_uno,
        CATCH: Official.on_catch,
        NEXT_HAND: Official.on_next_hand,
    }
