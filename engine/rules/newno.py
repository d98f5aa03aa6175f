"""`newno` (docs/rules.md "newno"): open start, stacking, 7 and 0, jump-ins.

A hand opens with every seat in `to_act`; the first play and the second play (by a neighbour,
which sets the direction) are open choices that `close-window` hands to the youngest eligible
seat. Every play carries a context through the steps of its resolution (`ctx`: which phase of
the hand it was played in, the stack total it answered, the jump-in window it jumped into),
kept in the decision's notes and, when the resolution waits for a colour or a swap, in the
pending decision itself.

Decisions written down where the texts are silent:
- Jump-ins are possible once the direction is set (from the second play on): before that,
  "play continues from the jumper" has no direction. A seat cannot jump in on its own card, and
  the seat the game waits for plays normally instead (its identical card is a normal play).
- The leeway of the first play holds for any play on the flipped card: after the youngest seat
  draws and passes at the open start, the next seat's turn still has it.
- A second-play window is open only where two different seats may make it; with two seats, or
  after a first-play skip with four, the one eligible seat simply takes its turn (clockwise).
- The last card ends the hand at once: a last 7 or 0 swaps nothing, a last draw2 or
  wild-draw4 makes the next seat draw the whole stack.
- A 7 always swaps (with another seat). `legal_commands` lists a 7 once per target; a 7 played
  without a target is legal too (the seat then sends `swap`).
- On a flipped draw2 "no other draw2" means no draw2 at all, of any colour (a draw2 first play
  would start a stack the flipped card was spared).
- A forced second-play seat that cannot play and draws sets the direction towards itself, as a
  play would.
- A first play that goes out on a draw2 or wild-draw4 (hand_size 1) makes the clockwise seat
  draw: no direction is set yet.
- Seat ages default to equal, and a tie goes to the lowest seat number.
- A wrong challenge (`catch` of a seat that owes nothing) costs the challenger the penalty; a
  `call-uno` from a seat that owes nothing is rejected, as in official.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.cards import BLACK, COLOR_OF, RANK_OF, WILD_DRAW4, Card, matches
from engine.commands import (
    ACCEPT,
    CALL_UNO,
    CATCH,
    CHOOSE_COLOR,
    CLOSE_WINDOW,
    DRAW,
    NEXT_HAND,
    PASS,
    PLAY,
    SWAP,
    Command,
    IllegalCommand,
)
from engine.events import (
    CARD_PLAYED,
    COLOR_CHOSEN,
    DIRECTION_CHANGED,
    HANDS_ROTATED,
    HANDS_SWAPPED,
    UNO_EXPIRED,
    UNO_OWED,
)
from engine.rules.decision import Decision, Handler
from engine.rules.official import Official
from engine.state import Pending, Seat, State

STACKS = {"draw2": 2, WILD_DRAW4: 4}
OPEN = ("first-play", "second-play", "stack")


class Newno(Official):
    name = "newno"
    challenge_wild_draw4 = False
    reverse_skips_with_two = False
    uno_window = False
    wrong_catch_penalized = True
    supports_precognitive = False

    def match_facts(self, seats: int, ages: list[int] | None) -> dict[str, Any]:
        if ages is None:
            return {}
        if (
            not isinstance(ages, list)
            or len(ages) != seats
            or not all(type(a) is int for a in ages)
        ):
            raise ValueError(f"ages must be a list of {seats} whole numbers (smaller = younger)")
        return {"ages": list(ages)}

    # ------------------------------------------------------------------- the open start

    def resolve_flip(self, d: Decision, card: Card) -> None:
        # Nobody draws or is skipped for the flipped card; any seat may make the first play.
        self.prompt(d, {"type": "first-play", "seats": list(range(d.state.seats)), "leeway": True})

    def leeway(self, state: State, card: Card) -> bool:
        """docs/rules.md: what the first play may be, on each flipped card."""
        color = COLOR_OF[card]
        if color is None:
            return True  # Black cards are always allowed as the first play.
        flipped = state.top
        rank = RANK_OF[flipped]  # type: ignore[index]
        if flipped in BLACK:
            return True
        if rank == "draw2":
            return color == state.color and RANK_OF[card] != "draw2"
        if rank in ("skip", "reverse"):
            return color == state.color
        return matches(card, flipped, state.color)  # type: ignore[arg-type]

    def playable(self, state: State, seat: Seat, card: Card) -> bool:
        pending = state.pending or {}
        if pending.get("type") == "stack":
            # +2 only on +2, +4 only on +4. (Annotated: `str == Any` is Any to mypy.)
            kind: str = pending["kind"]
            return RANK_OF[card] == kind
        if pending.get("leeway"):
            return self.leeway(state, card)
        return matches(card, state.top, state.color)  # type: ignore[arg-type]

    def playable_cards(self, state: State, seat: Seat) -> list[Card]:
        return [c for c in dict.fromkeys(state.hands[seat]) if self.playable(state, seat, c)]

    def open_second(self, d: Decision, first: Seat, card: Card, ctx: dict[str, Any]) -> None:
        """After the first play: who may make the second play, and in which direction."""
        state = d.state
        rank = RANK_OF[card]
        # After a first-play skip the second play belongs to the seats two places away.
        steps = 2 if rank == "skip" else 1
        cw, ccw = state.next_seat(first, steps), (first - steps) % state.seats
        window: Pending = {"first": first, "steps": steps}
        if rank in STACKS:
            window.update(type="stack", total=ctx["total"] + STACKS[rank], kind=rank)
        else:
            window["type"] = "second-play"
        if cw != ccw:
            self.prompt(d, {**window, "seats": [cw, ccw]})
        elif rank in STACKS:
            self.prompt(d, {**window, "seat": cw})
        else:
            self.begin_turn(d, cw)  # One eligible seat: it plays, clockwise.

    def set_direction(self, d: Decision, window: dict[str, Any], seat: Seat) -> None:
        """The second play sets the direction: from the first player towards the second."""
        state = d.state
        direction = 1 if seat == state.next_seat(window["first"], window["steps"]) else -1
        if direction != state.direction:
            d.emit({"type": DIRECTION_CHANGED, "direction": direction})

    def context(self, pending: Pending) -> dict[str, Any]:
        kind = pending["type"]
        if kind == "drawn":
            return dict(pending["ctx"])
        if kind == "first-play":
            return {"phase": "first", "total": 0}
        if "first" in pending:
            window = {"first": pending["first"], "steps": pending["steps"]}
            return {"phase": "second", "window": window, "total": pending.get("total", 0)}
        return {"phase": "turn", "total": pending.get("total", 0)}

    # ------------------------------------------------------------------------------ plays

    def check_target(self, seat: Seat, command: Command) -> None:
        target = command.get("target")
        if target is not None and (RANK_OF[command["card"]] != "7" or target == seat):
            raise IllegalCommand("bad-target", "only a 7 names a target, another seat")

    def on_play(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        if seat not in state.to_act:
            self.jump_in(d, command)
            return
        pending = self.expect(state, seat, "first-play", "second-play", "stack", "play", "drawn")
        if pending["type"] == "drawn" and command["card"] != pending["card"]:
            raise IllegalCommand(
                "must-play-drawn-card", f"after drawing only {pending['card']} may be played"
            )
        self.check_play(state, seat, command)
        ctx = self.context(pending)
        if ctx["phase"] == "second":
            self.set_direction(d, ctx["window"], seat)
        self.start_play(d, seat, command, ctx)

    def start_play(self, d: Decision, seat: Seat, command: Command, ctx: dict[str, Any]) -> None:
        card = command["card"]
        d.notes["ctx"] = ctx
        d.notes["target"] = command.get("target")
        if ctx["phase"] != "first" and not (
            (card in BLACK and command.get("color"))
            or (RANK_OF[card] == "7" and "target" in command)
        ):
            # A jump-in window opens on this card; naming the colour or target with the play
            # closes it at once.
            d.notes["jump"] = {"card": card, "by": seat}
        self.play_card(d, seat, command)

    def prompt(self, d: Decision, pending: Pending) -> None:
        extra: dict[str, Any] = {}
        if pending["type"] in ("color", "swap") and "ctx" not in pending:
            ctx = d.notes["ctx"]
            extra["ctx"] = ctx
            if d.state.top == WILD_DRAW4:
                extra["total"] = ctx["total"] + 4  # what a wild-draw4 jumper adds to
        if "jump" in d.notes:
            extra["jump"] = d.notes["jump"]
        super().prompt(d, {**pending, **extra} if extra else pending)

    def after_command(self, d: Decision) -> None:
        pending = d.state.pending
        if pending is not None and "jump" in pending and "jump" not in d.notes:
            # docs/rules.md: a jump-in is possible until the next command is recorded.
            super().prompt(d, {k: v for k, v in pending.items() if k != "jump"})

    def after_play(self, d: Decision, seat: Seat, card: Card) -> None:
        if RANK_OF[card] == "7":
            jumped = d.notes.get("jumped")
            if jumped is not None:
                # A 7 jumper: the first player swaps first, then the jumper.
                self.prompt(
                    d,
                    {
                        **jumped,
                        "jumper": seat,
                        "jumper_target": d.notes["target"],
                        "jumper_ctx": d.notes["ctx"],
                    },
                )
                return
            target = d.notes.get("target")
            if target is None:
                self.prompt(d, {"type": "swap", "seat": seat})
                return
            self.swap(d, seat, target)
        self.continue_play(d, seat, card)

    def continue_play(self, d: Decision, seat: Seat, card: Card) -> None:
        """The card's action, its colour and swap settled; then whose turn it is."""
        state, ctx = d.state, d.notes["ctx"]
        rank = RANK_OF[card]
        if ctx["phase"] == "first":
            if rank == "0":  # Before the direction is set a 0 passes hands clockwise.
                self.rotate(d, 1)
            self.open_second(d, seat, card, ctx)
            return
        if rank == "0":
            self.rotate(d, state.direction)
        if rank == "reverse":
            # A reverse jump-in cancels the reverse: the direction flips back.
            d.emit({"type": DIRECTION_CHANGED, "direction": -state.direction})
            self.begin_turn(d, state.next_seat(seat))
        elif rank == "skip":
            earlier = ctx.get("prev") or {"skips": 0, "skipped": []}
            skips = earlier["skips"] + 1
            skipped = earlier["skipped"] + [state.next_seat(seat, i) for i in range(1, skips + 1)]
            d.notes["jump"] = {"card": card, "by": seat, "skips": skips, "skipped": skipped}
            self.begin_turn(d, state.next_seat(seat, skips + 1))
        elif rank in STACKS:
            total = ctx["total"] + STACKS[rank]
            self.prompt(
                d, {"type": "stack", "seat": state.next_seat(seat), "total": total, "kind": rank}
            )
        else:
            self.begin_turn(d, state.next_seat(seat))

    def go_out(self, d: Decision, seat: Seat, card: Card) -> None:
        # The last card ends the hand at once; a last draw2 or wild-draw4 still makes the next
        # seat draw the whole stack.
        rank = RANK_OF[card]
        if rank in STACKS:
            total = d.notes["ctx"]["total"] + STACKS[rank]
            self.draw_cards(d, d.state.next_seat(seat), total, "stack")
        self.end_hand(d, seat)

    # --------------------------------------------------------------------------- jump-ins

    def jump_in(self, d: Decision, command: Command) -> None:
        state, seat, card = d.state, command["seat"], command["card"]
        pending = state.pending or {}
        window = pending.get("jump")
        if window is None:
            raise IllegalCommand("not-your-turn", f"the game is not waiting for seat {seat}")
        if card != window["card"] or seat == window["by"]:
            raise IllegalCommand(
                "cannot-jump-in", f"only another seat's identical {window['card']} may jump in"
            )
        if card not in state.hands[seat]:
            raise IllegalCommand("card-not-in-hand", f"seat {seat} holds no {card}")
        if RANK_OF[card] == "skip" and seat in window.get("skipped", ()):
            raise IllegalCommand(
                "cannot-jump-in", "a seat the skips passed over cannot jump in with a skip"
            )
        if command.get("color") is not None and COLOR_OF[card] is not None:
            raise IllegalCommand("color-not-needed", "only a black card names a colour")
        if command.get("uno") and state.cards_held(seat) - 1 > 1:
            raise IllegalCommand("uno-not-due", "uno is called on the play that leaves one card")
        self.check_target(seat, command)
        ctx = {"phase": "jump", "total": pending.get("total", 0), "prev": window}
        if RANK_OF[card] == "7":
            d.notes["jumped"] = {k: v for k, v in pending.items() if k != "jump"}
        self.start_play(d, seat, {**command, "jump": True}, ctx)

    def play_card(self, d: Decision, seat: Seat, command: Command, source: str = "hand") -> None:
        event = {
            "type": CARD_PLAYED,
            "seat": seat,
            "card": command["card"],
            "color": command.get("color"),
            "source": source,
        }
        if command.get("jump"):
            event["jump"] = True
        d.emit(event)
        self.resolve_play(d, seat, command["card"], command.get("color"), bool(command.get("uno")))

    def jump_options(self, state: State, seat: Seat) -> list[Command]:
        pending = state.pending or {}
        window = pending.get("jump")
        if window is None or seat in state.to_act or seat == window["by"]:
            return []
        card = window["card"]
        if card not in state.hands[seat] or seat in window.get("skipped", ()):
            return []
        return self.play_options(state, seat, card)

    # ----------------------------------------------------------------------- 7s and 0s

    def swap(self, d: Decision, seat: Seat, target: Seat) -> None:
        d.emit({"type": HANDS_SWAPPED, "seat": seat, "target": target})
        self.refresh_uno(d, [seat, target])

    def rotate(self, d: Decision, direction: int) -> None:
        d.emit({"type": HANDS_ROTATED, "direction": direction})
        self.refresh_uno(d, range(d.state.seats))

    def refresh_uno(self, d: Decision, seats: Any) -> None:
        """A seat that receives a one-card hand must call uno (again)."""
        state = d.state
        for seat in seats:
            if state.cards_held(seat) == 1:
                d.emit({"type": UNO_OWED, "seat": seat})
            elif seat in state.uncalled:
                d.emit({"type": UNO_EXPIRED, "seats": [seat]})

    def on_swap(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = self.expect(state, seat, "swap")
        target, other = command["target"], command.get("other")
        if other is not None and "jumper_of" not in pending:
            raise IllegalCommand(
                "bad-target", "only a seat that jumped in with a 7 may swap two other seats"
            )
        if target == seat or other == seat or other == target:
            raise IllegalCommand("bad-target", "swap with another seat (or two other seats)")
        if other is None:
            self.swap(d, seat, target)
        else:
            self.swap(d, target, other)
        jumper = pending.get("jumper")
        if jumper is None:
            d.notes["ctx"] = pending["ctx"]
            self.continue_play(d, seat, state.top)  # type: ignore[arg-type]
            return
        d.notes["ctx"] = pending["jumper_ctx"]
        if pending["jumper_target"] is None:
            self.prompt(d, {"type": "swap", "seat": jumper, "jumper_of": seat})
        else:
            self.swap(d, jumper, pending["jumper_target"])
            self.continue_play(d, jumper, state.top)  # type: ignore[arg-type]

    # -------------------------------------------------------------------- other commands

    def on_choose_color(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = self.expect(state, seat, "color")
        d.emit({"type": COLOR_CHOSEN, "seat": seat, "color": command["color"]})
        d.notes["ctx"] = pending["ctx"]
        self.after_play(d, seat, state.top)  # type: ignore[arg-type]

    def on_draw(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = self.expect(state, seat, "first-play", "second-play", "play")
        if "seats" in pending:
            raise IllegalCommand(
                "cannot-draw", "nobody draws while the first or second play is open"
            )
        if pending["type"] != "first-play" and self.playable_cards(state, seat):
            # At the open start the youngest seat may draw even holding a playable card.
            raise IllegalCommand("cannot-draw", "only a seat that cannot play may draw")
        ctx = self.context(pending)
        if ctx["phase"] == "second":
            self.set_direction(d, ctx["window"], seat)
        drawn = self.draw_cards(d, seat, 1, "draw")
        # The Apex Gambit: a playable drawn card may be played at once.
        if drawn and self.playable(state, seat, drawn[0]):
            self.prompt(
                d,
                {
                    "type": "drawn",
                    "seat": seat,
                    "card": drawn[0],
                    "ctx": ctx,
                    "leeway": bool(pending.get("leeway")),
                },
            )
        else:
            self.turn_passes(d, seat, pending.get("leeway", False))

    def on_pass(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = self.expect(state, seat, "drawn")
        self.turn_passes(d, seat, pending["leeway"])

    def turn_passes(self, d: Decision, seat: Seat, leeway: bool) -> None:
        # At the open start play then goes clockwise from the youngest seat (the direction is
        # still clockwise); the flipped card keeps its leeway until someone plays on it.
        nxt = d.state.next_seat(seat)
        if leeway:
            self.prompt(d, {"type": "play", "seat": nxt, "leeway": True})
        else:
            self.begin_turn(d, nxt)

    def on_accept(self, d: Decision, command: Command) -> None:
        state, seat = d.state, command["seat"]
        pending = self.expect(state, seat, "stack")
        if "first" in pending:
            self.set_direction(d, pending, seat)
        self.draw_cards(d, seat, pending["total"], "stack")
        self.begin_turn(d, state.next_seat(seat))

    def on_close_window(self, d: Decision, command: Command) -> None:
        pending = d.state.pending
        if pending is None or "seats" not in pending:
            raise IllegalCommand("no-open-window", "no open choice is waiting to be closed")
        # The Youngest Rule: the youngest seat in to_act must act.
        ages = d.state.extra.get("ages") or [0] * d.state.seats
        youngest = min(pending["seats"], key=lambda s: (ages[s], s))
        forced = {k: v for k, v in pending.items() if k != "seats"}
        self.prompt(d, {**forced, "seat": youngest, "forced": True})

    # ------------------------------------------------------------------ legal_commands

    def legal_commands(self, state: State, seat: Seat | None) -> list[Command]:
        options = super().legal_commands(state, seat)
        if seat is None:
            if state.status == "playing" and "seats" in (state.pending or {}):
                options.append({"type": CLOSE_WINDOW})
        elif state.status == "playing":
            options += self.jump_options(state, seat)
        return options

    def turn_options(self, state: State, seat: Seat, pending: Pending) -> list[Command]:
        kind = pending["type"]
        if kind in ("first-play", "second-play", "stack", "play"):
            options = []
            for card in self.playable_cards(state, seat):
                options += self.play_options(state, seat, card)
            if kind == "stack":
                options.append({"type": ACCEPT, "seat": seat})
            elif "seats" not in pending and (kind == "first-play" or not options):
                options.append({"type": DRAW, "seat": seat})
            return options
        if kind == "swap":
            others = [t for t in range(state.seats) if t != seat]
            options = [{"type": SWAP, "seat": seat, "target": t} for t in others]
            if "jumper_of" in pending:
                options += [
                    {"type": SWAP, "seat": seat, "target": a, "other": b}
                    for a in others
                    for b in others
                    if a < b
                ]
            return options
        return super().turn_options(state, seat, pending)

    def play_options(self, state: State, seat: Seat, card: Card) -> list[Command]:
        options = super().play_options(state, seat, card)
        if RANK_OF[card] != "7" or state.cards_held(seat) == 1:
            return options
        targets = [t for t in range(state.seats) if t != seat]
        return [{**option, "target": t} for option in options for t in targets]

    handlers: ClassVar[dict[str, Handler]] = {
        PLAY: on_play,
        DRAW: on_draw,
        PASS: on_pass,
        CHOOSE_COLOR: on_choose_color,
        ACCEPT: on_accept,
        SWAP: on_swap,
        CALL_UNO: Official.on_call_uno,
        CATCH: Official.on_catch,
        NEXT_HAND: Official.on_next_hand,
        CLOSE_WINDOW: on_close_window,
    }
