"""The listing of a turn's plays: the commonest `legal_commands` answer, in one function.

`Ruleset.turn_options` and `Ruleset.play_options` list plays with these functions, and for a
family that keeps every listing method of `Ruleset` and lists uno calls and catches only when
owed (official; not basic-plus) `quick_listing` answers the questions of a hand's play itself:
a seat asked for a play (the commonest: holding three cards or more, with nobody owing an uno
call), for a drawn card's play or pass, or for a challenge, with the uno calls and catches owed.
Anything else goes to the ruleset's own `legal_commands`. The listing is the same either way
(one statement of it, here); the quick one saves the calls between, which the compiled engine
turns into C (tools/build_engine.py).

The listed dicts are shared: one per seat and card, made the first time they are listed
(`with_card`) and handed out by every listing after, read-only (engine/shared.py): a listing
makes its list and nothing else (docs/engine.md, "Shared commands and events").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

from engine.cards import COLOR_OF, COLORS, DECK, PLAYABLE_ON, Card, Color
from engine.commands import ACCEPT, CALL_UNO, CATCH, CHALLENGE, DRAW, PASS, PLAY, Command
from engine.shared import ReadOnlyDict
from engine.state import PLAYING, Seat, State

_SEATS = range(len(DECK))
PLAY_TEMPLATES: Final[list[Command]] = [
    ReadOnlyDict({"type": PLAY, "seat": seat, "card": "", "uno": False}) for seat in _SEATS
]
PLAY_UNO_TEMPLATES: Final[list[Command]] = [
    ReadOnlyDict({"type": PLAY, "seat": seat, "card": "", "uno": True}) for seat in _SEATS
]
# Each seat's plays with their card set, made as a seat's cards come (`with_card`): a coloured
# card's play (a black card's names a colour: `black_plays`), the same with its uno call, and a
# black card's play that goes out (naming no colour).
PLAYS_BY_CARD: Final[list[dict[Card, Command]]] = [{} for _ in _SEATS]
PLAYS_UNO_BY_CARD: Final[list[dict[Card, Command]]] = [{} for _ in _SEATS]
BLACK_OUT_BY_CARD: Final[list[dict[Card, Command]]] = [{} for _ in _SEATS]
DRAW_TEMPLATES: Final[list[Command]] = [
    ReadOnlyDict({"type": DRAW, "seat": seat}) for seat in _SEATS
]
PASS_TEMPLATES: Final[list[Command]] = [
    ReadOnlyDict({"type": PASS, "seat": seat}) for seat in _SEATS
]
ACCEPT_TEMPLATES: Final[list[Command]] = [
    ReadOnlyDict({"type": ACCEPT, "seat": seat}) for seat in _SEATS
]
CHALLENGE_TEMPLATES: Final[list[Command]] = [
    ReadOnlyDict({"type": CHALLENGE, "seat": seat}) for seat in _SEATS
]
CALL_UNO_TEMPLATES: Final[list[Command]] = [
    ReadOnlyDict({"type": CALL_UNO, "seat": seat}) for seat in _SEATS
]
# A seat's catch of each target: CATCHES[seat][target].
CATCHES: Final[list[list[Command]]] = [
    [ReadOnlyDict({"type": CATCH, "seat": seat, "target": target}) for target in _SEATS]
    for seat in _SEATS
]
NO_UNO: Final = (False,)
BOTH: Final = (False, True)
# PLAYABLE_ON as plain dicts, top card -> colour in force -> the cards playable on them: two
# exact dicts' lookups cost less than making and hashing a tuple key. Only named colours: a dict
# of str keys alone answers about twice as fast, and what is in neither (no discard, no colour
# yet after a flipped wild, a colour no decision names) is asked of PLAYABLE_ON itself.
PLAYABLE_BY_TOP: Final[dict[Card, dict[Color, frozenset[Card]]]] = {}
for (_top, _color), _cards in PLAYABLE_ON.items():
    if _top is not None and _color is not None:
        PLAYABLE_BY_TOP.setdefault(_top, {})[_color] = _cards
Listing = Callable[[State, Any], list[Command]]

# Every method the quick listing stands for: a family that overrides any of them lists the
# general way only.
_STOOD_FOR = (
    "legal_commands",
    "turn_options",
    "uno_options",
    "play_options",
    "playable_cards",
    "playable",
    "owes_uno",
)


def with_card(
    made: list[dict[Card, dict[str, Any]]], templates: list[dict[str, Any]], seat: Seat, card: Card
) -> dict[str, Any]:
    """`templates[seat]` with `card` set, kept in `made[seat]` for the next time (shared,
    read-only)."""
    template = made[seat][card] = ReadOnlyDict({**templates[seat], "card": card})
    return template


@functools.cache
def black_plays(seat: Seat, card: Card, unos: tuple[bool, ...]) -> tuple[Command, ...]:
    """A black card's listed plays while it leaves cards in hand: once per colour, with each
    uno choice (shared, read-only)."""
    return tuple(
        ReadOnlyDict({"type": PLAY, "seat": seat, "card": card, "color": color, "uno": uno})
        for color in COLORS
        for uno in unos
    )


def uno_call(seat: Any) -> Command:
    """`seat`'s uno call: shared for a seat a deal can have (an asked seat is any value)."""
    if type(seat) is int and 0 <= seat < len(CALL_UNO_TEMPLATES):
        return CALL_UNO_TEMPLATES[seat]
    return {"type": CALL_UNO, "seat": seat}


def catch(seat: Any, target: Seat) -> Command:
    """`seat`'s catch of `target`: shared for a seat a deal can have."""
    if type(seat) is int and 0 <= seat < len(CATCHES):
        return CATCHES[seat][target]
    return {"type": CATCH, "seat": seat, "target": target}


def plain_turn(state: State, seat: Any) -> bool:
    """Whether `quick_listing`'s listing answers `seat` at `state` with `plain_plays`: a seat
    asked for a play, holding three cards or more, with nobody owing an uno call."""
    pending = state.pending
    return (
        type(seat) is int
        and pending is not None
        and not state.uncalled
        and state.status == PLAYING
        and pending["type"] == "play"
        and seat in state.to_act
        and len(state.hands[seat]) + len(state.lanes[seat]) > 2
    )


def listed_cards(state: State, seat: Seat) -> list[Card]:
    """The cards `plain_plays` lists plays of: each distinct playable card of the hand once,
    in hand order (the training environment's mask is made from these, engine/env_core.py)."""
    discard = state.discard
    color = state.color
    playable: frozenset[Card] | None = None
    if color is not None and discard:
        by_color = PLAYABLE_BY_TOP.get(discard[-1])
        if by_color is not None:
            playable = by_color.get(color)
    if playable is None:
        playable = PLAYABLE_ON[discard[-1] if discard else None, color]
    listed: list[Card] = []
    for card in state.hands[seat]:
        if card in playable and card not in listed:
            listed.append(card)
    return listed


def plain_plays(state: State, seat: Seat) -> list[Command]:
    """`seat`'s plays and its draw, for a family that keeps `Ruleset`'s `playable_cards` and
    `play_options`, while it holds more than two cards (no play leaves one, so no uno call is
    listed): each distinct playable card of the hand once, in hand order, a black card once
    per colour."""
    plain = PLAYS_BY_CARD[seat]
    options: list[Command] = []
    for card in listed_cards(state, seat):
        play = plain.get(card)
        if play is None:
            if COLOR_OF[card] is None:
                options.extend(black_plays(seat, card, NO_UNO))
                continue
            play = with_card(PLAYS_BY_CARD, PLAY_TEMPLATES, seat, card)
        options.append(play)
    options.append(DRAW_TEMPLATES[seat])
    return options


def card_plays(seat: Seat, card: Card, left: int, uno: bool) -> list[Command]:
    """The listed plays of `card` that leave `left` cards, with each uno choice when `uno`
    (a play that leaves one card, in a family where it owes a call): `Ruleset.play_options`."""
    if COLOR_OF[card] is not None:
        play = PLAYS_BY_CARD[seat].get(card) or with_card(PLAYS_BY_CARD, PLAY_TEMPLATES, seat, card)
        if not uno:
            return [play]
        call = PLAYS_UNO_BY_CARD[seat].get(card) or with_card(
            PLAYS_UNO_BY_CARD, PLAY_UNO_TEMPLATES, seat, card
        )
        return [play, call]
    if left == 0:  # a black card that goes out names no colour
        play = BLACK_OUT_BY_CARD[seat].get(card) or with_card(
            BLACK_OUT_BY_CARD, PLAY_TEMPLATES, seat, card
        )
        return [play]
    return list(black_plays(seat, card, BOTH if uno else NO_UNO))


def quick_listing(ruleset: Any, base: type) -> Listing | None:
    """`ruleset`'s legal_commands, quick for a seat asked for a play with three cards or more
    and nobody owing an uno call; None for a family that lists any way of its own (overrides a
    method of `base`, the `Ruleset` every family is made from). What it does not answer goes to
    the ruleset's own `legal_commands`, bound here."""
    cls = type(ruleset)
    if (
        any(getattr(cls, name) is not getattr(base, name) for name in _STOOD_FOR)
        or not cls.plain_listing
        or cls.uno_always_listed
    ):
        return None
    general: Listing = ruleset.legal_commands

    def legal_commands(state: State, seat: Any) -> list[Command]:
        """`Variant.legal_commands`: a seat asked for a play, a drawn card's play or pass, or a
        challenge, quickly (`Ruleset.legal_commands` and the listing methods it calls, as
        `Ruleset` has them); anything else the general way."""
        pending = state.pending
        if type(seat) is not int or pending is None or state.status != PLAYING:
            return general(state, seat)
        asked: Seat = seat  # typed: compiled, native int operations below
        if asked not in state.to_act:
            return general(state, seat)
        given_kind = pending["type"]
        if type(given_kind) is not str:
            return general(state, seat)
        kind: str = given_kind
        options: list[Command]
        if kind == "play":  # Ruleset.turn_options
            left = len(state.hands[asked]) + len(state.lanes[asked]) - 1
            if left > 1:
                options = plain_plays(state, asked)
                if not state.uncalled:  # the commonest answer: plain_turn's
                    return options
            else:
                options = []
                for card in listed_cards(state, asked):
                    options += card_plays(asked, card, left, left == 1)
                options.append(DRAW_TEMPLATES[asked])
        elif kind == "drawn":
            left = len(state.hands[asked]) + len(state.lanes[asked]) - 1
            options = card_plays(asked, pending["card"], left, left == 1)
            options.append(PASS_TEMPLATES[asked])
        elif kind == "challenge":
            options = [ACCEPT_TEMPLATES[asked], CHALLENGE_TEMPLATES[asked]]
        else:
            return general(state, seat)
        uncalled = state.uncalled
        if uncalled:  # Ruleset.uno_options, for a family that lists them only when owed
            if asked in uncalled:
                options.append(CALL_UNO_TEMPLATES[asked])
            catches = CATCHES[asked]
            for target in sorted(uncalled):
                if target != asked:
                    options.append(catches[target])
        return options

    return legal_commands


def with_colors(options: list[Command]) -> list[Command]:
    """Each option once per colour where its card is black (the colour named with it)."""
    return [
        {**option, "color": color} if COLOR_OF[option["card"]] is None else option
        for option in options
        for color in (COLORS if COLOR_OF[option["card"]] is None else (None,))
    ]
