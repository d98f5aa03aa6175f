"""The action table and the observation encoding of the training environment (engine/env.py,
docs/training.md): which command shape each action index sends, and how a seat's view becomes
the observation vector. Pure tables and functions of a view; the environment's turn order and
rewards are env.py's.

numpy is optional like pettingzoo and gymnasium (requirements-dev.txt): only env.py imports this
module, and nothing else in engine imports either.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

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


# --------------------------------------------------------------------------- observations

# A bound for counts that have none in the rules (scores, cards held); values are clipped to it.
BIG = 1e9
PENDING_TYPES = (
    "play",
    "drawn",
    "color",
    "challenge",
    "precommit",
    "first-play",
    "second-play",
    "stack",
    "swap",
    "submit",
    "resubmit",
    "ruling",
)
# The seat a pending decision is about, beside the seats asked: the wild-draw4's offender, the
# submitter awaiting a ruling, the first player of a newno second play, the seat whose 7 a
# jumper's swap follows.
ABOUT = ("offender", "submitter", "first", "jumper_of")

# (name, size, low, high), in order. Seat blocks are indexed by relative seat (0 = the observer,
# k = k seats clockwise); card blocks by CARDS; colour blocks by COLORS.
OBSERVATION_FIELDS: tuple[tuple[str, int, float, float], ...] = (
    ("hand", 54, 0, 108),  # copies of each card in the observer's regular hand
    ("top", 54, 0, 1),  # the top discard
    ("color", 4, 0, 1),  # the current colour
    ("direction", 1, -1, 1),  # 1 clockwise, -1 counter-clockwise
    ("seat_present", MAX_SEATS, 0, 1),  # 1 for each seat at the table
    ("hand_sizes", MAX_SEATS, 0, BIG),  # cards held, lane included
    ("lane_sizes", MAX_SEATS, 0, BIG),  # precognitive lane lengths
    ("to_act", MAX_SEATS, 0, 1),  # the seats the game waits for
    ("uncalled", MAX_SEATS, 0, 1),  # seats that owe an uno call (catchable)
    ("dealer", MAX_SEATS, 0, 1),  # the dealer (censorship: the censor); none in basic-plus
    ("scores", MAX_SEATS, 0, BIG),  # match totals
    ("hands_won", MAX_SEATS, 0, BIG),
    ("lane_front", MAX_SEATS * 54, 0, 1),  # per seat: its lane's front card, when visible
    ("lane_cards", MAX_SEATS * 54, 0, 108),  # per seat: visible lane cards, front included
    ("lane_hidden", MAX_SEATS, 0, BIG),  # per seat: lane cards the observer may not see
    ("pending", len(PENDING_TYPES) + 1, 0, 1),  # what is awaited; last: anything else / none
    ("pending_about", MAX_SEATS, 0, 1),  # see ABOUT
    ("pending_card", 54, 0, 1),  # a drawn card that may be played / resubmitted (own only)
    ("stack_total", 1, 0, BIG),  # newno: cards a pending stack (or a wild-draw4) makes draw
    ("precommit_count", 1, 0, BIG),  # cards the pending precommit must fill
    ("pending_flags", 3, 0, 1),  # newno leeway (first play), forced (Youngest Rule), open
    ("jump_card", 54, 0, 1),  # newno: the card an open jump-in window is for
    ("jump_by", MAX_SEATS, 0, 1),  # newno: who played it
    ("submission_seat", MAX_SEATS, 0, 1),  # censorship: who submitted the pending card
    ("submission_card", 54, 0, 1),  # … and the card (submitter and dealer only)
    ("submission_color", 4, 0, 1),  # … and its named colour (submitter and dealer only)
    ("lane_chosen", 54, 0, 108),  # the observer's precommit slots chosen so far
    ("lane_to_choose", 1, 0, BIG),  # slots of that precommit still to choose
    ("optional", 1, 0, 1),  # 1: this chance may be declined (`wait` is legal)
    ("piles", 2, 0, 108),  # draw pile, discard pile
    ("hand_number", 1, 0, BIG),
)
FIELD_AT: dict[str, int] = {}
_at = 0
for _name, _size, _, _ in OBSERVATION_FIELDS:
    FIELD_AT[_name] = _at
    _at += _size
OBSERVATION_SIZE = _at
OBS_LOW = np.concatenate([np.full(size, lo, np.float32) for _, size, lo, _ in OBSERVATION_FIELDS])
OBS_HIGH = np.concatenate([np.full(size, hi, np.float32) for _, size, _, hi in OBSERVATION_FIELDS])

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def encode(
    view: Mapping[str, Any],
    chosen: list[Card] | None = None,
    to_choose: int = 0,
    optional: bool = False,
) -> FloatArray:
    """The observation vector of a seat's view (OBSERVATION_FIELDS). It reads nothing but the
    view and the observer's own lane choice, so it can hold no card the seat may not see."""
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    me, seats = view["seat"], view["seats"]

    def at(name: str, index: int = 0) -> int:
        return FIELD_AT[name] + index

    def rel(seat: int) -> int:
        return int((seat - me) % seats)

    def card(name: str, code: Card | None, offset: int = 0) -> None:
        if code is not None:
            obs[at(name, offset + CARD_INDEX[code])] += 1

    def seat_flag(name: str, seat: int | None) -> None:
        if seat is not None:
            obs[at(name, rel(seat))] = 1

    for code in view["hand"]:
        card("hand", code)
    card("top", view["top"])
    if view["color"] is not None:
        obs[at("color", COLORS.index(view["color"]))] = 1
    obs[at("direction")] = 1 if view["direction"] == "clockwise" else -1
    for seat in range(seats):
        r = rel(seat)
        obs[at("seat_present", r)] = 1
        obs[at("hand_sizes", r)] = view["hand_sizes"][seat]
        obs[at("scores", r)] = view["scores"][seat]
        obs[at("hands_won", r)] = view["hands_won"][seat]
        lane = view["lane"][seat]
        obs[at("lane_sizes", r)] = len(lane)
        if lane:
            card("lane_front", lane[0], r * 54)
        for code in lane:
            card("lane_cards", code, r * 54)
        obs[at("lane_hidden", r)] = sum(code is None for code in lane)
    for seat in view["to_act"]:
        seat_flag("to_act", seat)
    for seat in view["uncalled"]:
        seat_flag("uncalled", seat)
    seat_flag("dealer", view["dealer"])
    _encode_pending(obs, view.get("pending"), rel)
    submission = view.get("submission")
    if submission is not None:
        seat_flag("submission_seat", submission["seat"])
        card("submission_card", submission["card"])
        if submission["color"] is not None:
            obs[at("submission_color", COLORS.index(submission["color"]))] = 1
    for code in chosen or ():
        card("lane_chosen", code)
    obs[at("lane_to_choose")] = to_choose
    obs[at("optional")] = optional
    obs[at("piles")] = view["draw_pile"]
    obs[at("piles", 1)] = view["discard_pile"]
    obs[at("hand_number")] = view["hand_number"]
    return np.clip(obs, OBS_LOW, OBS_HIGH)


def _encode_pending(obs: FloatArray, pending: Mapping[str, Any] | None, rel: Any) -> None:
    kind = pending["type"] if pending is not None else None
    index = PENDING_TYPES.index(kind) if kind in PENDING_TYPES else len(PENDING_TYPES)
    obs[FIELD_AT["pending"] + index] = 1
    if pending is None:
        return
    for name in ABOUT:
        if pending.get(name) is not None:
            obs[FIELD_AT["pending_about"] + rel(pending[name])] = 1
    if kind in ("drawn", "resubmit") and pending.get("card") is not None:
        obs[FIELD_AT["pending_card"] + CARD_INDEX[pending["card"]]] = 1
    obs[FIELD_AT["stack_total"]] = pending.get("total") or 0
    if kind == "precommit":
        obs[FIELD_AT["precommit_count"]] = pending["count"]
    flags = (bool(pending.get("leeway")), bool(pending.get("forced")), "seats" in pending)
    for i, flag in enumerate(flags):
        obs[FIELD_AT["pending_flags"] + i] = flag
    jump = pending.get("jump")
    if jump is not None:
        obs[FIELD_AT["jump_card"] + CARD_INDEX[jump["card"]]] = 1
        obs[FIELD_AT["jump_by"] + rel(jump["by"])] = 1
