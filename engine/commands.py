"""Command types (imperative verbs) and their validation at the boundary.

Commands are JSON-able dicts, the vocabulary of docs/rules.md "Commands". `parse` checks a command's
shape (type, fields, card codes, seat numbers) before any rule looks at it, so that every decider
can trust its input. Anything wrong raises `IllegalCommand` with a stable `code`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, Final

from engine.cards import CARD_CODES, COLORS
from engine.shared import ReadOnlyDict

Command = dict[str, Any]

PLAY: Final = "play"
DRAW: Final = "draw"
PASS: Final = "pass"
CALL_UNO: Final = "call-uno"
CATCH: Final = "catch"
CHALLENGE: Final = "challenge"
ACCEPT: Final = "accept"
CHOOSE_COLOR: Final = "choose-color"
SWAP: Final = "swap"
PRECOMMIT: Final = "precommit"
SUBMIT: Final = "submit"
APPROVE: Final = "approve"
SUBSTITUTE: Final = "substitute"
RETURN: Final = "return"
NEXT_HAND: Final = "next-hand"
CLOSE_WINDOW: Final = "close-window"

SYSTEM_COMMANDS: Final = frozenset({NEXT_HAND, CLOSE_WINDOW})

# The fields each command needs, and those it may carry besides `type` and `seat`.
_OPTIONAL_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    PLAY: (frozenset({"card"}), frozenset({"color", "uno", "target"})),
    DRAW: (frozenset(), frozenset()),
    PASS: (frozenset(), frozenset()),
    CALL_UNO: (frozenset(), frozenset()),
    CATCH: (frozenset({"target"}), frozenset()),
    CHALLENGE: (frozenset(), frozenset()),
    ACCEPT: (frozenset(), frozenset()),
    CHOOSE_COLOR: (frozenset({"color"}), frozenset()),
    SWAP: (frozenset({"target"}), frozenset({"other"})),
    PRECOMMIT: (frozenset({"cards"}), frozenset({"uno"})),
    SUBMIT: (frozenset({"card"}), frozenset({"color", "uno"})),
    APPROVE: (frozenset(), frozenset()),
    SUBSTITUTE: (frozenset({"card"}), frozenset({"color"})),
    RETURN: (frozenset({"card"}), frozenset()),
    NEXT_HAND: (frozenset(), frozenset({"deck"})),
    CLOSE_WINDOW: (frozenset(), frozenset()),
}

# type -> (required fields, every allowed field): checked on every command, so precomputed.
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (required, required | optional | {"type", "seat"})
    for kind, (required, optional) in _OPTIONAL_FIELDS.items()
}


_LISTED_PLAY = frozenset({"type", "seat", "card", "uno"})


class IllegalCommand(ValueError):
    """A command the rules (or the command's own shape) do not allow; nothing was changed.

    `code` is stable and meant for programs (the API maps it to a response); `message` is for
    people.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _is_card(value: Any) -> bool:
    return isinstance(value, str) and value in CARD_CODES


def _seat_field(command: Command, name: str, seats: int) -> None:
    value = command[name]
    if type(value) is not int or not 0 <= value < seats:
        raise IllegalCommand("bad-seat", f"{name} must be a seat number from 0 to {seats - 1}")


def parse(command: Any, seats: int) -> Command:
    """Check the shape of a command; return it unchanged or raise IllegalCommand."""
    # A well-formed command in as few steps as possible; whatever this does not accept at
    # once goes through `_check`, which accepts it too or says what is wrong.
    if type(command) is dict or type(command) is ReadOnlyDict:  # listed: shared (engine/shared.py)
        kind = command.get("type")
        if type(kind) is str and (fields := FIELDS.get(kind)) is not None:
            keys = command.keys()
            if kind == PLAY and keys == _LISTED_PLAY:
                # The shape legal_commands lists a play in: three values to check.
                seat, card = command["seat"], command["card"]
                if (
                    type(seat) is int
                    and 0 <= seat < seats
                    and type(card) is str
                    and card in CARD_CODES
                    and type(command["uno"]) is bool
                ):
                    return command
            elif keys <= fields[1] and fields[0] <= keys:
                seat = command.get("seat")
                if kind in SYSTEM_COMMANDS:
                    if seat is None and _values_well_formed(command, kind, seats):
                        return command
                elif type(seat) is int and 0 <= seat < seats:
                    # type and seat only (draw, pass, accept, ...): nothing more to check
                    if len(command) == 2 or _values_well_formed(command, kind, seats):
                        return command
    return _check(command, seats)


def _values_well_formed(command: Command, kind: str, seats: int) -> bool:
    """True when `_check` accepts the values of `command`'s fields besides type and seat."""
    for name in ("target", "other"):
        if name in command:
            value = command[name]
            if type(value) is not int or not 0 <= value < seats:
                return False
    if "card" in command and not _is_card(command["card"]):
        return False
    color = command.get("color")
    if (color is not None or kind == CHOOSE_COLOR) and color not in COLORS:
        return False
    if "uno" in command and type(command["uno"]) is not bool:
        return False
    if "cards" in command:
        cards = command["cards"]
        if not isinstance(cards, list) or not all(_is_card(c) for c in cards):
            return False
    if "deck" in command and command["deck"] is not None:
        deck = command["deck"]
        if not isinstance(deck, list) or not all(_is_card(c) for c in deck):
            return False
    return True


# What an unknown type's refusal lists: a seat's commands, then the two the system sends.
_KNOWN: Final = (
    f"commands a seat sends: {', '.join(k for k in FIELDS if k not in SYSTEM_COMMANDS)}; "
    f"only the server sends: {', '.join(k for k in FIELDS if k in SYSTEM_COMMANDS)}"
)


def _check(command: Any, seats: int) -> Command:
    """`parse`, one check after the other: the first that fails says what is wrong."""
    if not isinstance(command, dict):
        raise IllegalCommand("malformed-command", "a command is a JSON object with a 'type'")
    kind = command.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise IllegalCommand("unknown-command", f"unknown command type {kind!r}; {_KNOWN}")
    required, allowed = FIELDS[kind]
    for key in command:
        if key not in allowed:
            extra = sorted(str(k) for k in command if k not in allowed)
            raise IllegalCommand(
                "malformed-command", f"{kind} has unknown field(s): {', '.join(extra)}"
            )
    for key in required:
        if key not in command:
            missing = sorted(k for k in required if k not in command)
            raise IllegalCommand(
                "malformed-command", f"{kind} needs the field(s): {', '.join(missing)}"
            )
    if kind in SYSTEM_COMMANDS:
        if command.get("seat") is not None:
            raise IllegalCommand("malformed-command", f"{kind} is a system command, with no seat")
    else:
        if "seat" not in command:
            raise IllegalCommand("malformed-command", f"{kind} needs the acting 'seat'")
        _seat_field(command, "seat", seats)
    for name in ("target", "other"):
        if name in command:
            _seat_field(command, name, seats)
    if "card" in command and not _is_card(command["card"]):
        raise IllegalCommand("unknown-card", f"{command['card']!r} is not a card code")
    color = command.get("color")
    if (color is not None or kind == CHOOSE_COLOR) and color not in COLORS:
        raise IllegalCommand("bad-color", f"{color!r} is not a colour; use {', '.join(COLORS)}")
    if "uno" in command and type(command["uno"]) is not bool:
        raise IllegalCommand("malformed-command", "uno must be true or false")
    if "cards" in command:
        cards = command["cards"]
        if not isinstance(cards, list) or not all(_is_card(c) for c in cards):
            raise IllegalCommand("unknown-card", "cards must be a list of card codes")
    if "deck" in command and command["deck"] is not None:
        deck = command["deck"]
        if not isinstance(deck, list) or not all(_is_card(c) for c in deck):
            raise IllegalCommand("bad-deck", "deck must be a list of 108 card codes")
    return command


def costs_nothing(command: Command, uncalled: Collection[int]) -> bool:
    """Whether a legal `command` costs its sender nothing. Only an uno call or a catch can cost:
    basic-plus and newno accept a `call-uno` from a seat that owes no call and a `catch` of a
    seat that owes none, and charge the sender the family's `uno_penalty` (docs/rules.md); the
    others refuse them, so their legal ones are all free. `uncalled`: the seats owing a call."""
    kind = command.get("type")
    if kind == CALL_UNO:
        return command.get("seat") in uncalled
    if kind == CATCH:
        return command.get("target") in uncalled
    return True


def free_commands(legal: Iterable[Command], uncalled: Collection[int]) -> list[Command]:
    """The commands of `legal` that cost their sender nothing (`costs_nothing`): what a seat can
    do without paying for it. Empty for a seat of a newno open choice with nothing to play, and
    for a newno jump-in chance a skipped seat may not take: such a seat is asked nothing
    (docs/bots-api.md, "Every decision can be answered")."""
    return [command for command in legal if costs_nothing(command, uncalled)]
