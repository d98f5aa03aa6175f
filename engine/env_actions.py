"""The training environment's action table (engine/env.py, docs/training.md): every command shape
of every family once, its list index the action, and the action that sends an engine command
(`action_index`). Seats are named relative to the acting seat, so one policy fits every table
size. Pure tables; the observation encoding is env_spaces.py's.

Like env_spaces.py, only the environment's modules import this one (nothing else in engine).
"""

from __future__ import annotations

from itertools import combinations

from engine.cards import (
    ACTION_RANKS,
    CARD_CODES,
    COLOR_OF,
    COLORS,
    NUMBER_RANKS,
    RANK_OF,
    WILD,
    WILD_DRAW4,
    Card,
)
from engine.commands import (
    ACCEPT,
    APPROVE,
    CALL_UNO,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    PASS,
    PLAY,
    PRECOMMIT,
    RETURN,
    SUBMIT,
    SUBSTITUTE,
    SWAP,
    Command,
)

# The most seats any family takes; observations and actions are sized for it, so one policy
# fits every table size.
MAX_SEATS = 10
# Relative seats: offset k is the seat k places clockwise of the acting (or observing) seat.
OFFSETS = tuple(range(1, MAX_SEATS))

# Every card code once: red-0 … red-9, red-skip, red-reverse, red-draw2, then yellow, green,
# blue the same way, then wild and wild-draw4 (54 codes).
CARDS: tuple[Card, ...] = (
    *(f"{color}-{rank}" for color in COLORS for rank in (*NUMBER_RANKS, *ACTION_RANKS)),
    WILD,
    WILD_DRAW4,
)
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}
assert set(CARDS) == CARD_CODES and len(CARDS) == 54

# ------------------------------------------------------------------------------- actions

WAIT = "wait"
# A precommit's lane slots, one action each (`lane`, card, uno); see UnoEnv._lane_mask.
LANE = "lane"

ActionKey = tuple[str | int | bool | None, ...]


def _action_table() -> list[ActionKey]:
    """Every command shape of every family, once; the list index is the action."""
    keys: list[ActionKey] = [(WAIT,)]
    keys += [(kind,) for kind in (DRAW, PASS, CALL_UNO, CHALLENGE, ACCEPT, APPROVE)]
    keys += [(CHOOSE_COLOR, color) for color in COLORS]
    keys += [(CATCH, offset) for offset in OFFSETS]
    keys += [(SWAP, offset) for offset in OFFSETS]
    # A newno 7 jumper may swap two other seats: the pair, nearer seat first.
    keys += [(SWAP, a, b) for a, b in combinations(OFFSETS, 2)]
    colors: tuple[str | None, ...]
    for card in CARDS:
        black = COLOR_OF[card] is None
        # A black card names its colour with the play, or names none when it goes out.
        colors = (None, *COLORS) if black else (None,)
        targets = (None, *OFFSETS) if RANK_OF[card] == "7" else (None,)
        keys += [
            (PLAY, card, color, target, uno)
            for color in colors
            for target in targets
            for uno in (False, True)
        ]
    for card in CARDS:
        colors = COLORS if COLOR_OF[card] is None else (None,)
        keys += [(SUBMIT, card, color, uno) for color in colors for uno in (False, True)]
    for card in CARDS:
        colors = COLORS if COLOR_OF[card] is None else (None,)
        keys += [(SUBSTITUTE, card, color) for color in colors]
    keys += [(RETURN, card) for card in CARDS]
    keys += [(LANE, card, uno) for card in CARDS for uno in (False, True)]
    return keys


ACTIONS: list[ActionKey] = _action_table()
ACTION_INDEX: dict[ActionKey, int] = {key: i for i, key in enumerate(ACTIONS)}
N_ACTIONS = len(ACTIONS)
WAIT_ACTION = ACTION_INDEX[(WAIT,)]
# A play of a card with no colour or target named: its actions without and with the uno call.
PLAIN_PLAY: dict[Card, tuple[int, int]] = {
    card: (
        ACTION_INDEX[(PLAY, card, None, None, False)],
        ACTION_INDEX[(PLAY, card, None, None, True)],
    )
    for card in CARDS
}
assert len(ACTION_INDEX) == N_ACTIONS


def _offset(seat: int, other: int | None, seats: int) -> int | None:
    return None if other is None else (other - seat) % seats


def command_key(command: Command, seats: int) -> ActionKey:
    """The action shape of an engine command of `command["seat"]` at a table of `seats`.

    A precommit maps to its first lane slot (carrying the uno flag when it has one card)."""
    kind, seat = command["type"], command["seat"]
    if kind == PLAY:
        target = _offset(seat, command.get("target"), seats)
        return (PLAY, command["card"], command.get("color"), target, bool(command.get("uno")))
    if kind == SUBMIT:
        return (SUBMIT, command["card"], command.get("color"), bool(command.get("uno")))
    if kind == SUBSTITUTE:
        return (SUBSTITUTE, command["card"], command.get("color"))
    if kind == RETURN:
        return (RETURN, command["card"])
    if kind == CHOOSE_COLOR:
        return (CHOOSE_COLOR, command["color"])
    if kind == CATCH:
        return (CATCH, _offset(seat, command["target"], seats))
    if kind == SWAP:
        target = _offset(seat, command["target"], seats)
        other = _offset(seat, command.get("other"), seats)
        if other is None:
            return (SWAP, target)
        return (SWAP, *sorted((target, other)))  # type: ignore[type-var]
    if kind == PRECOMMIT:
        cards = command["cards"]
        return (LANE, cards[0], len(cards) == 1 and bool(command.get("uno")))
    return (kind,)


def action_index(command: Command, seats: int) -> int:
    """The action that sends `command` (for a precommit: its first lane slot)."""
    try:
        return ACTION_INDEX[command_key(command, seats)]
    except KeyError:
        raise ValueError(f"no action sends {command!r}") from None
