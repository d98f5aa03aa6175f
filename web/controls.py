"""The viewer's controls: every legal command (the engine's `legal_commands`, and nothing else)
as a labelled option, grouped the way a person looks for it.

A card in hand carries the commands that use it (play, submit, substitute, return, a one-card
precommit); a card with one such command is a button, a card with several opens a small choice
(a wild card's colours, a play with or without the UNO call, a 7's swap target). The rest are
buttons: draw, pass, accept, colours, swaps, catches by the seat they catch. A precommit of
more than one card is a form of ordered slots, since its legal list can run to hundreds.
"""

from __future__ import annotations

import json
import keyword
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from web.cards import Face, card_name, sorted_faces
from web.names import Names

Command = Mapping[str, Any]

# Commands tied to one card of the hand, by the field naming it.
_CARD_COMMANDS = frozenset({"play", "submit", "substitute", "return"})


@dataclass(frozen=True, slots=True)
class Option:
    """One legal command: `label` says what it does, `command` is its JSON, `color` a colour
    it names (for a swatch). `confirm` is set for a command the public state already shows
    will cost its sender cards (a wrong catch, a false UNO call): why, and what it costs; the
    page then asks first, with `confirm_button` as the button that sends it anyway."""

    label: str
    command: str
    color: str = ""
    confirm: str = ""
    confirm_button: str = ""


@dataclass
class HandCard:
    face: Face
    options: list[Option] = field(default_factory=list)


@dataclass
class Precommit:
    """The lane to fill with `count` cards from `choices`, front first."""

    command: str
    count: int
    choices: list[Face]
    uno: bool
    # The cards a refused lane named, slot by slot: the form shows them again to be corrected.
    chosen: list[str] = field(default_factory=list)

    @property
    def slots(self) -> list[tuple[int, str]]:
        """Each slot's number and the card chosen in it ("" for none)."""
        codes = {face.code for face in self.choices}
        kept = [code if code in codes else "" for code in self.chosen[: self.count]]
        kept += [""] * (self.count - len(kept))
        return list(enumerate(kept, start=1))


@dataclass
class Controls:
    hand: list[HandCard]
    actions: list[Option] = field(default_factory=list)
    colors: list[Option] = field(default_factory=list)
    swaps: list[Option] = field(default_factory=list)
    catches: dict[int, Option] = field(default_factory=dict)
    # The dealer's return of the submitted card itself (not a card of its hand).
    submission: list[Option] = field(default_factory=list)
    precommit: Precommit | None = None

    @property
    def costly_calls(self) -> list[Option]:
        """The moves among `actions` that ask first (basic-plus's false UNO call): on a phone the
        dock asks them with the catches that would cost the viewer
        (templates/games/_asked_catches.html)."""
        return [option for option in self.actions if option.confirm]

    @property
    def hand_hint(self) -> str:
        """What picking an outlined card of the hand does now (a censor's cards replace or
        return the submission rather than being played)."""
        kinds = {
            json.loads(option.command)["type"] for card in self.hand for option in card.options
        }
        if kinds == {"substitute"}:
            return "As the censor you may put one of the outlined cards in its place: pick one."
        if kinds == {"return"}:
            return "As the censor you return a card to the submitter: pick one."
        return "Cards you can use now are outlined: pick one." if kinds else ""


def controls(
    legal: Sequence[Command], view: Mapping[str, Any], who: Names, *, uno_penalty: int = 0
) -> Controls:
    """Group `legal` (the viewer's legal commands) for the page; `view` is the viewer's view,
    `uno_penalty` the cards a caught seat (or a wrong catcher, a false caller) draws."""
    hand = [HandCard(card) for card in sorted_faces(view.get("hand") or [])]
    by_code: dict[str, list[Option]] = {}
    result = Controls(hand=hand)
    label = _Labels(view, who, uno_penalty)
    for command in legal:
        kind = command["type"]
        if kind == "call-uno" and label.called_already(command):
            # basic-plus lists a repeat call of a seat that already called (docs/rules.md "Uno":
            # it does no harm), and it does nothing else either: no event, no change. A button
            # whose only effect is nothing is left out (docs/web.md, "Catching and calling").
            continue
        option = Option(label(command), _json(command), command.get("color") or "")
        if kind in ("catch", "call-uno"):
            option = label.uno_option(command, option)
        card = _card_of(command)
        if card is not None and any(c.face.code == card for c in hand):
            by_code.setdefault(card, []).append(option)
        elif kind == "return":
            result.submission.append(option)
        elif kind == "precommit":
            if result.precommit is None:
                result.precommit = _precommit(command, view)
            elif command.get("uno"):
                result.precommit.uno = True
        elif kind == "choose-color":
            result.colors.append(option)
        elif kind == "swap":
            result.swaps.append(option)
        elif kind == "catch":
            result.catches[command["target"]] = option
        else:
            result.actions.append(option)
    for held in hand:
        held.options = by_code.get(held.face.code, [])
    return result


def _card_of(command: Command) -> str | None:
    """The card in hand a command is tied to, if any."""
    if command["type"] in _CARD_COMMANDS:
        return str(command["card"])
    if command["type"] == "precommit" and len(command["cards"]) == 1:
        return str(command["cards"][0])
    return None


def _precommit(command: Command, view: Mapping[str, Any]) -> Precommit:
    skeleton = {"type": "precommit", "seat": command["seat"]}
    hand = view.get("hand") or []
    return Precommit(
        command=_json(skeleton),
        count=len(command["cards"]),
        choices=sorted_faces(dict.fromkeys(hand)),
        uno=bool(command.get("uno")),
    )


def _json(command: Command) -> str:
    return json.dumps(dict(command), separators=(",", ":"))


class _Labels:
    """Labels for commands in one view: "Play red 7 and call UNO", "Catch Ben"."""

    def __init__(self, view: Mapping[str, Any], who: Names, uno_penalty: int = 0) -> None:
        self.view = view
        self.who = who
        self.pending = view.get("pending") or {}
        self.penalty = uno_penalty
        self.uncalled = set(view.get("uncalled") or [])

    def __call__(self, command: Command) -> str:
        kind = command["type"]
        name = kind.replace("-", "_")
        # `return` and `pass` are keywords: their methods end in an underscore.
        method = getattr(self, f"{name}_" if keyword.iskeyword(name) else name, None)
        text = method(command) if method is not None else kind.replace("-", " ").capitalize()
        if command.get("color") and kind != "choose-color":
            text += f" as {command['color']}"
        if command.get("target") is not None and kind == "play":
            text += f", swapping hands with {self.who.who(command['target'], start=False)}"
        if command.get("uno") and kind != "call-uno":
            text += " and call UNO"
        return str(text)

    def play(self, command: Command) -> str:
        card = card_name(command["card"])
        if command["seat"] not in self.view["to_act"]:
            return f"Jump in with {card}"
        return f"Play {card}"

    def submit(self, command: Command) -> str:
        return f"Submit {card_name(command['card'])} to the censor"

    def substitute(self, command: Command) -> str:
        return f"Play your {card_name(command['card'])} instead"

    def return_(self, command: Command) -> str:
        submitter = self.pending.get("submitter")
        return f"Return {card_name(command['card'])} to {self.who.who(submitter, start=False)}"

    def approve(self, command: Command) -> str:
        submission = self.view.get("submission") or {}
        if submission.get("card"):
            return f"Approve: play the submitted {card_name(submission['card'])}"
        return "Approve the submitted card"

    def precommit(self, command: Command) -> str:
        return f"Put {card_name(command['cards'][0])} in your lane"

    def draw(self, command: Command) -> str:
        return "Draw a card"

    def pass_(self, command: Command) -> str:
        if self.pending.get("type") == "resubmit":
            return "Keep the card: don't submit it again"
        return "Keep the card and pass"

    def accept(self, command: Command) -> str:
        if self.pending.get("type") == "stack":
            return f"Accept: draw {self.pending['total']}"
        return "Accept: draw 4"

    def challenge(self, command: Command) -> str:
        # Its price either way (docs/rules.md, official's wild draw four), as the accept's is.
        offender = int(self.pending["offender"])
        name = self.who.who(offender, start=False)
        return (
            f"Challenge {self.who.whose(offender, start=False)} wild draw four: {name} draws 4 "
            f"if {name} held a card of the colour before the wild, else you draw 6"
        )

    def choose_color(self, command: Command) -> str:
        return str(command["color"]).capitalize()

    # Calling and catching (docs/rules.md "Uno"): a catch succeeds exactly when its target is
    # in the view's public `uncalled`; the engine lists any other catch (basic-plus, newno) or a
    # call from a seat not holding one card (basic-plus) only where the sender pays for it.

    def call_uno(self, command: Command) -> str:
        seat = command["seat"]
        held = self._held(seat)
        if held != 1:
            return f"Call UNO ({_cards(held)}): you would draw {_cards(self.penalty)}"
        return (
            f"Call UNO: your last card (anyone who catches you first makes you draw "
            f"{_cards(self.penalty)})"
        )

    def called_already(self, command: Command) -> bool:
        """Whether a `call-uno` repeats a call made: one card held, nothing owed."""
        seat = command["seat"]
        return self._held(seat) == 1 and seat not in self.uncalled

    def catch(self, command: Command) -> str:
        target = command["target"]
        name = self.who.who(target, start=False)
        held = self._held(target)
        if target in self.uncalled:
            return f"Catch {name}: 1 card and no UNO called — {name} draws {_cards(self.penalty)}"
        why = f"{_cards(held)}" if held != 1 else "1 card, UNO called"
        return f"Catch {name} ({why}): you would draw {_cards(self.penalty)}"

    def uno_option(self, command: Command, option: Option) -> Option:
        """A catch or call that the public state shows will fail asks first, saying why."""
        seat, cost = command["seat"], _cards(self.penalty)
        if command["type"] == "catch":
            target = command["target"]
            if target in self.uncalled or not self.penalty:
                return option
            name = self.who.who(target)
            held = self._held(target)
            why = (
                f"{name} holds {_cards(held)}, so there is no UNO to catch"
                if held != 1
                else f"{name} has called UNO, so there is nothing to catch"
            )
            return replace(
                option,
                confirm=f"{why}: the catch fails and you draw {cost} as the penalty.",
                confirm_button=f"Catch {self.who.who(target, start=False)} anyway: draw {cost}",
            )
        held = self._held(seat)
        if held == 1 or not self.penalty:
            return option
        return replace(
            option,
            confirm=(
                f"You hold {_cards(held)}: UNO is called with one card left, so this call is "
                f"false and you draw {cost} as the penalty."
            ),
            confirm_button=f"Call UNO anyway: draw {cost}",
        )

    def _held(self, seat: int) -> int:
        sizes = self.view.get("hand_sizes") or []
        return int(sizes[seat]) if 0 <= seat < len(sizes) else 0

    def swap(self, command: Command) -> str:
        target = self.who.who(command["target"], start=False)
        if command.get("other") is not None:
            other = self.who.who(command["other"], start=False)
            return f"Swap {target}'s and {other}'s hands"
        return f"Swap hands with {target}"


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"
