"""The shared machinery of every ruleset: a decision, the turn cycle, draws, uno, hands.

`Ruleset` plays the official rules through small hooks and class-level flags; a rule family
subclasses it and overrides only what differs (the python-chess pattern). Deciding a command
works on a private copy of the state: every fact is emitted and folded into that copy at once,
so later checks in the same decision see its effects, and an illegal command raises before
anything leaves the engine.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, cast

from engine.cards import (
    ACTION_RANKS,
    COLOR_OF,
    COLORS,
    DECK,
    PLAYABLE_ON,
    RANK_OF,
    WILD_DRAW4,
    Card,
    is_full_deck,
)
from engine.commands import (
    CALL_UNO,
    CATCH,
    CHOOSE_COLOR,
    NEXT_HAND,
    SYSTEM_COMMANDS,
    Command,
    IllegalCommand,
    parse,
)
from engine.dealing import choice_rng, deal_commitment, drawn_anchor, reshuffle_order, seeded_deck
from engine.events import (
    CARD_FLIPPED,
    CARD_PLAYED,
    CARDS_DRAWN,
    DIRECTION_CHANGED,
    HAND_STARTED,
    MATCH_STARTED,
    PILE_RESHUFFLED,
    PROMPTED,
    UNO_CALLED,
    UNO_EXPIRED,
    UNO_PENALIZED,
    Event,
    initial_state,
)
from engine.rules.decision import Decision, Handler
from engine.rules.event_builders import (
    drawn_event,
    plain_play_leaves,
    played_event,
    turn_event,
    uno_event,
)
from engine.rules.listing import (
    ACCEPT_TEMPLATES,
    CHALLENGE_TEMPLATES,
    DRAW_TEMPLATES,
    PASS_TEMPLATES,
    card_plays,
    catch,
    plain_plays,
    uno_call,
)
from engine.rules.options import choice_option, int_option
from engine.scoring import SCORINGS, hand_events
from engine.state import HAND_OVER, MATCH_OVER, PLAYING, Pending, Seat, State

# Cards with no action of their own (numbers and the wild): after them the next seat plays.
NO_ACTION: Final = frozenset(
    card for card in DECK if card != WILD_DRAW4 and RANK_OF[card] not in ACTION_RANKS
)
# The flags and tables read on every command (Ruleset.__init__).
_READ_OFTEN: Final = (
    "handlers",
    "plain_play",
    "plain_playable",
    "plain_turn",
    "plain_listing",
    "looks_after",
    "uno_always_listed",
    "play_after_draw",
    "challenge_wild_draw4",
    "false_uno_penalized",
)


class Ruleset:
    """The official rules; other families override flags and hooks."""

    name: ClassVar[str] = "official"
    defaults: ClassVar[dict[str, Any]] = {
        "hand_size": 7,
        "scoring": "winner-takes",
        "target": 500,
        "uno_penalty": 2,
    }
    option_checks: ClassVar[dict[str, Callable[[str, Any], Any]]] = {
        "hand_size": int_option(1, 15),
        "scoring": choice_option(*SCORINGS),
        "target": int_option(1, None),
        "uno_penalty": int_option(0, 20),
    }
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 10

    # Flags: what differs between families, read by the shared machinery.
    has_dealer: ClassVar[bool] = True
    play_after_draw: ClassVar[bool] = True  # a playable drawn card may be played at once
    challenge_wild_draw4: ClassVar[bool] = True
    reverse_skips_with_two: ClassVar[bool] = True
    uno_window: ClassVar[bool] = True  # the catch window closes when the next turn begins
    false_uno_penalized: ClassVar[bool] = False  # a false uno call costs the penalty
    wrong_catch_penalized: ClassVar[bool] = False  # a catch of a seat that owes nothing, too
    supports_precognitive: ClassVar[bool] = True
    handlers: ClassVar[dict[str, Handler]] = {}
    # Derived from the flags and overrides above (__init_subclass__).
    uno_always_listed: ClassVar[bool] = False  # call-uno and catches listed with nobody owing
    plain_playable: ClassVar[bool] = True  # playable is Ruleset's own
    plain_turn: ClassVar[bool] = True  # end_turn, proceed, begin_turn and prompt: Ruleset's
    plain_listing: ClassVar[bool] = True  # playable_cards and play_options are Ruleset's own
    looks_after: ClassVar[bool] = False  # after_command is overridden
    plain_play: ClassVar[bool] = True  # a play is checked and resolved as here (play_plainly)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Read on every command: computed once per family, not once per call.
        cls.uno_always_listed = cls.false_uno_penalized or cls.wrong_catch_penalized
        cls.plain_playable = cls.playable is Ruleset.playable
        cls.plain_turn = all(
            getattr(cls, name) is getattr(Ruleset, name)
            for name in ("end_turn", "proceed", "begin_turn", "prompt")
        )
        cls.plain_listing = all(
            getattr(cls, name) is getattr(Ruleset, name)
            for name in ("playable_cards", "play_options")
        )
        cls.looks_after = cls.after_command is not Ruleset.after_command
        cls.plain_play = all(
            getattr(cls, name) is getattr(Ruleset, name)
            for name in (
                "check_play",
                "playable",
                "check_target",
                "play_card",
                "resolve_play",
                "owes_uno",
            )
        )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        options = dict(options or {})
        if unknown := options.keys() - self.option_checks.keys():
            raise ValueError(
                f"unknown option(s) for {self.name}: {', '.join(sorted(map(str, unknown)))}; "
                f"known: {', '.join(self.option_checks)}"
            )
        merged = {**self.defaults, **options}
        self.options: dict[str, Any] = {
            name: self.option_checks[name](name, value) for name, value in merged.items()
        }
        # The flags read on every command, as the instance's own attributes: CPython reads an
        # instance's attribute in one specialised step, a class attribute through the instance
        # in a generic lookup (about twice the cost). The same values as the class's.
        vars(self).update({name: getattr(self, name) for name in _READ_OFTEN})

    # ----------------------------------------------------------------- the public surface

    def start_decision(
        self,
        *,
        seats: int,
        seed: int | str | None = None,
        deck: list[Card] | None = None,
        dealer: Seat | None = None,
        first: Seat | None = None,
        ages: list[int] | None = None,
    ) -> Decision:
        """The events that start a match and the state they fold into (Variant.start returns the
        events; Variant.replay hands the state over)."""
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise ValueError(
                f"{self.name} needs {self.min_seats} to {self.max_seats} seats, not {seats!r}"
            )
        if seats * self.options["hand_size"] + 1 > len(DECK):
            raise ValueError(f"{seats} hands of {self.options['hand_size']} do not fit the deck")
        seed = str(seed) if seed is not None else secrets.token_hex(8)
        anchor = self.first_anchor(seats, seed, dealer, first)
        started: Event = {"type": MATCH_STARTED, "seats": seats, "seed": seed}
        started.update(self.match_facts(seats, ages))
        decision = Decision(initial_state(started))
        decision.events.append(started)
        self.deal(decision, 1, anchor, deck)
        return decision

    def decide(self, state: State, command: Command) -> list[Event]:
        return self.decision(state, command).events

    def decision(self, state: State, command: Command) -> Decision:
        """Decide `command`: its events, and the state they fold into."""
        command = parse(command, state.seats)
        kind = command["type"]
        handler = self.handlers.get(kind)
        if handler is None or state.status != PLAYING:
            handler = self.out_of_play(state, kind, handler)
        decision = Decision(state.fork())
        if state.uncalled:
            seat = command.get("seat")
            if self.closes_uno_window(state, seat, kind):
                # closes_uno_window holds only for a seat in to_act, so never for None.
                expired = state.uncalled - {cast(Seat, seat)}
                if expired:
                    decision.emit({"type": UNO_EXPIRED, "seats": sorted(expired)})
        handler(self, decision, command)
        if self.looks_after:
            self.after_command(decision)
        return decision

    def out_of_play(self, state: State, kind: str, handler: Handler | None) -> Handler:
        """The handler of a command decided while no hand is being played (the system's
        next-hand), or the refusal of a command the family has no handler for."""
        if state.status == MATCH_OVER:
            raise IllegalCommand("game-over", "the match is over")
        if handler is None:
            raise IllegalCommand("unknown-command", f"{self.name} has no {kind!r} command")
        if kind not in SYSTEM_COMMANDS and state.status != PLAYING:
            raise IllegalCommand("hand-over", "the hand is over; the next hand has not started")
        return handler

    def after_command(self, d: Decision) -> None:
        """A last look at the decision's outcome (the precognitive modifier recounts here)."""

    def legal_commands(self, state: State, seat: Seat | None) -> list[Command]:
        if seat is None:
            return [{"type": NEXT_HAND}] if state.status == HAND_OVER else []
        if state.status != PLAYING:
            return []
        pending = state.pending
        if pending is not None and seat in state.to_act:
            options = self.turn_options(state, seat, pending)
            if state.uncalled or self.uno_always_listed:
                options += self.uno_options(state, seat)
            return options
        if state.uncalled or self.uno_always_listed:
            return self.uno_options(state, seat)
        return []

    def lane_visible(self, owner: Seat, viewer: Seat | None) -> bool:
        return owner == viewer

    def extra_view(self, state: State, viewer: Seat | None) -> dict[str, Any]:
        """Fields a family adds to every view (censorship: the pending submission)."""
        return {}

    # ------------------------------------------------------------------- hands and flips

    def match_facts(self, seats: int, ages: list[int] | None) -> dict[str, Any]:
        if ages is not None:
            raise ValueError(f"{self.name} has no seat ages")
        return {}

    def first_anchor(self, seats: int, seed: str, dealer: Seat | None, first: Seat | None) -> Seat:
        """The dealer of the first hand (basic-plus: the first seat)."""
        if first is not None:
            raise ValueError(f"{self.name} has a dealer: give dealer=, not first=")
        if dealer is None:
            return drawn_anchor(seed, "dealer", seats)
        if type(dealer) is not int or not 0 <= dealer < seats:
            raise ValueError(f"dealer must be a seat from 0 to {seats - 1}")
        return dealer

    def deal(self, d: Decision, hand: int, anchor: Seat, deck: list[Card] | None) -> None:
        state = d.state
        if deck is None:
            deck = seeded_deck(state.seed, hand)
        elif not is_full_deck(deck):
            raise ValueError("a stacked deck must hold exactly the 108 cards")
        if self.has_dealer:
            dealer, first = anchor, (anchor + 1) % state.seats
        else:
            dealer, first = None, anchor
        d.emit(
            {
                "type": HAND_STARTED,
                "hand": hand,
                "seats": state.seats,
                "dealer": dealer,
                "first": first,
                "hand_size": self.options["hand_size"],
                "deck": list(deck),
                # Public from the start, while the deck stays hidden: once the seed is
                # published anyone can check that this deck was fixed before any card was seen
                # (docs/verifying-deals.md).
                "commitment": deal_commitment(state.seed, hand, deck, codes=True),
            }
        )
        self.flip(d)

    def flip(self, d: Decision) -> None:
        card = d.state.draw[-1]
        d.emit({"type": CARD_FLIPPED, "card": card})
        self.resolve_flip(d, card)

    def resolve_flip(self, d: Decision, card: Card) -> None:
        raise NotImplementedError

    def next_anchor(self, state: State) -> Seat:
        # The dealer of the next hand is the seat left of the previous dealer.
        dealer = state.dealer
        assert dealer is not None  # a family with a dealer (basic-plus has its own anchor)
        return (dealer + 1) % state.seats

    def rng(self, d: Decision, purpose: str) -> random.Random:
        """A reproducible generator for a random choice the decider records in an event.

        Seeded from the game's hidden seed and where the decision stands, so that two choices
        made in one decision (two wild-draw4s flipped in a row) never repeat each other.
        """
        state = d.state
        return choice_rng(
            state.seed,
            state.hand_number,
            purpose,
            state.shuffles,
            len(state.draw),
            len(state.discard),
            len(d.events),
        )

    # --------------------------------------------------------------------- the turn cycle

    def prompt(self, d: Decision, pending: Pending) -> None:
        seats = pending.get("seats")
        to_act = list(seats) if seats is not None else [pending["seat"]]
        d.emit({"type": PROMPTED, "to_act": to_act, "pending": pending})

    def begin_turn(self, d: Decision, seat: Seat) -> None:
        self.prompt(d, {"type": "play", "seat": seat})

    def end_turn(self, d: Decision, seat: Seat, nxt: Seat, then: Pending | None = None) -> None:
        """`seat`'s turn is over; `nxt` takes a turn (or faces `then`, such as a challenge)."""
        self.proceed(d, nxt, then)

    def proceed(self, d: Decision, nxt: Seat, then: Pending | None) -> None:
        if then is not None:
            self.prompt(d, then)
        elif self.plain_turn:
            d.emit(turn_event(nxt))  # begin_turn and prompt, inlined
        else:
            self.begin_turn(d, nxt)

    def expect(self, state: State, seat: Seat, *pending: str) -> Pending:
        """The pending decision `seat` is asked for, if it is one of `pending`."""
        if seat not in state.to_act or state.pending is None:
            raise IllegalCommand("not-your-turn", f"the game is not waiting for seat {seat}")
        if state.pending["type"] not in pending:
            raise IllegalCommand(
                "unexpected-command",
                f"seat {seat} is asked for {describe(state.pending)}, not this command",
            )
        return state.pending

    # ----------------------------------------------------------------------- cards moving

    def draw_cards(self, d: Decision, seat: Seat, count: int, reason: str) -> list[Card]:
        """Draw up to `count` cards, reshuffling the discard pile when the draw pile runs out."""
        state = d.state
        if 0 < count <= len(state.draw):  # the usual draw, from the pile as it is
            cards = state.draw[-count:][::-1]
            d.emit(drawn_event(seat, cards, reason))
            return cards[:]  # the event keeps its own list
        drawn: list[Card] = []
        while len(drawn) < count:
            if not state.draw:
                if len(state.discard) <= 1:
                    break  # No card is left anywhere: the draw gets fewer cards.
                self.reshuffle(d)
            take = min(count - len(drawn), len(state.draw))
            cards = state.draw[-take:][::-1]
            d.emit({"type": CARDS_DRAWN, "seat": seat, "cards": cards, "reason": reason})
            drawn += cards
        return drawn

    def reshuffle(self, d: Decision) -> None:
        # Duplicate deals (docs/ladders.md): the order depends on which cards the pile holds,
        # never on the order they were played in (dealing.reshuffle_order).
        state = d.state
        order = reshuffle_order(state.seed, state.hand_number, state.shuffles, state.discard[:-1])
        d.emit({"type": PILE_RESHUFFLED, "order": order})

    # ------------------------------------------------------------------------------ plays

    def playable(self, state: State, seat: Seat, card: Card) -> bool:
        return card in PLAYABLE_ON[state.top, state.color]

    def playable_cards(self, state: State, seat: Seat) -> list[Card]:
        """The distinct cards of `seat`'s hand that `playable` allows, in hand order."""
        playable = PLAYABLE_ON[state.top, state.color]
        cards: list[Card] = []
        # A loop costs less here than a filter over dict.fromkeys (a hand is a few cards).
        for card in state.hands[seat]:
            if card in playable and card not in cards:
                cards.append(card)
        return cards

    def check_play(self, state: State, seat: Seat, command: Command) -> None:
        card = command["card"]
        if card not in state.hands[seat]:
            raise IllegalCommand("card-not-in-hand", f"seat {seat} holds no {card}")
        if not (
            card in PLAYABLE_ON[state.top, state.color]
            if self.plain_playable
            else self.playable(state, seat, card)
        ):
            raise IllegalCommand(
                "card-does-not-match", f"{card} does not match {state.top} ({state.color})"
            )
        if command.get("color") is not None and COLOR_OF[card] is not None:
            raise IllegalCommand("color-not-needed", "only a black card names a colour")
        if command.get("uno") and state.cards_held(seat) - 1 > 1 and not self.false_uno_penalized:
            raise IllegalCommand(
                "uno-not-due", "uno is called only on the play that leaves one card"
            )
        self.check_target(seat, command)

    def check_target(self, seat: Seat, command: Command) -> None:
        if command.get("target") is not None:
            raise IllegalCommand("bad-target", f"a play names no target in {self.name}")

    def play_card(self, d: Decision, seat: Seat, command: Command, source: str = "hand") -> None:
        card, color = command["card"], command.get("color")
        d.emit({"type": CARD_PLAYED, "seat": seat, "card": card, "color": color, "source": source})
        self.resolve_play(d, seat, card, color, bool(command.get("uno")))

    def play_plainly(self, d: Decision, seat: Seat, command: Command) -> bool:
        """The usual play in one step: a card that matches, with no target, its colour named if
        it is black, and a card or more left (`plain_play_leaves`). check_play, play_card and
        resolve_play would do exactly this (for a family that keeps them, `plain_play`); False
        (nothing done) for any other play, which goes the long way."""
        card = command["card"]
        color = command.get("color")
        uno = bool(command.get("uno"))
        if command.get("target") is None:
            left = plain_play_leaves(d.state, seat, card, color, uno)
            if left:
                d.emit(played_event(seat, card, color))
                if left == 1:
                    d.emit(uno_event(seat, uno))
                self.after_play(d, seat, card)
                return True
        return False

    def resolve_play(
        self, d: Decision, seat: Seat, card: Card, color: str | None, uno: bool
    ) -> None:
        """What follows a card reaching the pile: going out, uno, the colour, the card's action."""
        state = d.state
        left = len(state.hands[seat]) + len(state.lanes[seat])  # state.cards_held, inlined
        if left == 0:
            self.go_out(d, seat, card)
            return
        if left == 1:
            if self.owes_uno(state, seat):
                d.emit(uno_event(seat, uno))
        elif uno:
            self.penalize(d, seat, "false-call")  # basic-plus; elsewhere check_play refused it
        if COLOR_OF[card] is None and color is None:
            self.prompt(d, {"type": "color", "seat": seat, "after": "play"})
            return
        self.after_play(d, seat, card)

    def after_play(self, d: Decision, seat: Seat, card: Card) -> None:
        """The card's action, its colour settled; then the turn ends."""
        state = d.state
        nxt = (seat + state.direction) % state.seats
        if card in NO_ACTION:  # a number or a wild: the next seat's turn
            if self.plain_turn:
                d.emit(turn_event(nxt))  # end_turn, inlined: the commonest end of a command
            else:
                self.end_turn(d, seat, nxt)
            return
        rank = RANK_OF[card]
        if rank == "skip":
            self.end_turn(d, seat, state.next_seat(seat, 2))
        elif rank == "reverse":
            d.emit({"type": DIRECTION_CHANGED, "direction": -state.direction})
            # docs/rules.md: reverse with two players acts as skip.
            two = state.seats == 2 and self.reverse_skips_with_two
            self.end_turn(d, seat, seat if two else state.next_seat(seat))
        elif rank == "draw2":
            self.draw_cards(d, nxt, 2, "draw2")
            self.end_turn(d, seat, state.next_seat(seat, 2))
        elif card == WILD_DRAW4 and self.challenge_wild_draw4:
            self.end_turn(d, seat, nxt, {"type": "challenge", "seat": nxt, "offender": seat})
        else:  # a wild-draw4, unchallenged
            self.draw_cards(d, nxt, 4, "wild-draw4")
            self.end_turn(d, seat, state.next_seat(seat, 2))

    def go_out(self, d: Decision, seat: Seat, card: Card) -> None:
        # docs/rules.md: a last draw2 or wild-draw4 still makes the next seat draw, unchallenged.
        victim = d.state.next_seat(seat)
        if RANK_OF[card] == "draw2":
            self.draw_cards(d, victim, 2, "draw2")
        elif card == WILD_DRAW4:
            self.draw_cards(d, victim, 4, "wild-draw4")
        self.end_hand(d, seat)

    def end_hand(self, d: Decision, winner: Seat) -> None:
        options = self.options
        for event in hand_events(d.state, winner, options["scoring"], options["target"]):
            d.emit(event)

    # -------------------------------------------------------------------------------- uno

    def owes_uno(self, state: State, seat: Seat) -> bool:
        return True

    def closes_uno_window(self, state: State, seat: Seat | None, kind: str) -> bool:
        """docs/rules.md, the catch window: the next seat's command closes every other window."""
        return self.uno_window and seat in state.to_act and kind not in (CATCH, CALL_UNO)

    def penalize(self, d: Decision, seat: Seat, reason: str) -> None:
        d.emit({"type": UNO_PENALIZED, "seat": seat, "reason": reason})
        self.draw_cards(d, seat, self.options["uno_penalty"], "uno")

    def call_uno(self, d: Decision, seat: Seat) -> None:
        state = d.state
        if self.false_uno_penalized:
            if state.cards_held(seat) == 1:
                d.emit({"type": UNO_CALLED, "seat": seat})
            else:
                self.penalize(d, seat, "false-call")
        elif seat in state.uncalled:
            d.emit({"type": UNO_CALLED, "seat": seat})
        else:
            raise IllegalCommand("uno-not-owed", f"seat {seat} owes no uno call")

    def uno_options(self, state: State, seat: Seat) -> list[Command]:
        if not state.uncalled and not self.uno_always_listed:
            return []
        owed = self.false_uno_penalized or seat in state.uncalled
        calls = [uno_call(seat)] if owed else []
        if self.wrong_catch_penalized:
            targets = [t for t in range(state.seats) if t != seat]
        else:
            targets = sorted(t for t in state.uncalled if t != seat)
        return calls + [catch(seat, t) for t in targets]

    # ----------------------------------------------------------------- legal_commands parts

    def turn_options(self, state: State, seat: Seat, pending: Pending) -> list[Command]:
        kind = pending["type"]
        if kind == "play":
            if self.plain_listing and len(state.hands[seat]) + len(state.lanes[seat]) > 2:
                # playable_cards and play_options in one pass, for a hand that no play leaves
                # with one card (no uno to call).
                return plain_plays(state, seat)
            options: list[Command] = []
            for card in self.playable_cards(state, seat):
                options += self.play_options(state, seat, card)
            options.append(DRAW_TEMPLATES[seat])
            return options
        if kind == "drawn":
            options = self.play_options(state, seat, pending["card"])
            options.append(PASS_TEMPLATES[seat])
            return options
        if kind == "color":
            return [{"type": CHOOSE_COLOR, "seat": seat, "color": c} for c in COLORS]
        if kind == "challenge":
            return [ACCEPT_TEMPLATES[seat], CHALLENGE_TEMPLATES[seat]]
        return []

    def play_options(self, state: State, seat: Seat, card: Card) -> list[Command]:
        left = len(state.hands[seat]) + len(state.lanes[seat]) - 1  # state.cards_held, inlined
        return card_plays(seat, card, left, left == 1 and self.owes_uno(state, seat))


def describe(pending: Pending) -> str:
    kind: str = pending["type"]
    return {
        "play": "a play or a draw",
        "drawn": "a play of the drawn card or a pass",
        "color": "a colour",
        "challenge": "a challenge or an accept",
        "precommit": "a precommit",
    }.get(kind, kind)
