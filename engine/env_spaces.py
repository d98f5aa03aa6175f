"""The observation encoding of the training environment (engine/env.py, docs/training.md): how a
seat's view becomes the observation vector (the action table is env_actions.py's). Pure tables,
functions of a view, and SeatEncoder, which keeps a seat's vector in place from the engine's
state (the same values); the environment's turn order and rewards are env.py's.

numpy is optional like pettingzoo and gymnasium (requirements-dev.txt): only the environment's
modules import this one, and nothing else in engine imports either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

import numpy as np
import numpy.typing as npt

from engine.cards import (
    COLORS,
    Card,
)
from engine.env_actions import CARD_INDEX, MAX_SEATS
from engine.rules.base import Ruleset
from engine.state import State

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


# The encoder's offsets, read once here rather than through FIELD_AT on every write (Final:
# the compiled module uses them as constants).
_HAND: Final = FIELD_AT["hand"]
_TOP: Final = FIELD_AT["top"]
_COLOR: Final = FIELD_AT["color"]
_DIRECTION: Final = FIELD_AT["direction"]
_PRESENT: Final = FIELD_AT["seat_present"]
_HAND_SIZES: Final = FIELD_AT["hand_sizes"]
_LANE_SIZES: Final = FIELD_AT["lane_sizes"]
_TO_ACT: Final = FIELD_AT["to_act"]
_UNCALLED: Final = FIELD_AT["uncalled"]
_DEALER: Final = FIELD_AT["dealer"]
_SCORES: Final = FIELD_AT["scores"]
_HANDS_WON: Final = FIELD_AT["hands_won"]
_LANE_FRONT: Final = FIELD_AT["lane_front"]
_LANE_CARDS: Final = FIELD_AT["lane_cards"]
_LANE_HIDDEN: Final = FIELD_AT["lane_hidden"]
_PENDING: Final = FIELD_AT["pending"]
_PENDING_ABOUT: Final = FIELD_AT["pending_about"]
_PENDING_CARD: Final = FIELD_AT["pending_card"]
_STACK_TOTAL: Final = FIELD_AT["stack_total"]
_PRECOMMIT_COUNT: Final = FIELD_AT["precommit_count"]
_PENDING_FLAGS: Final = FIELD_AT["pending_flags"]
_JUMP_CARD: Final = FIELD_AT["jump_card"]
_JUMP_BY: Final = FIELD_AT["jump_by"]
_SUBMISSION_SEAT: Final = FIELD_AT["submission_seat"]
_SUBMISSION_CARD: Final = FIELD_AT["submission_card"]
_SUBMISSION_COLOR: Final = FIELD_AT["submission_color"]
_LANE_CHOSEN: Final = FIELD_AT["lane_chosen"]
_LANE_TO_CHOOSE: Final = FIELD_AT["lane_to_choose"]
_OPTIONAL: Final = FIELD_AT["optional"]
_PILES: Final = FIELD_AT["piles"]
_HAND_NUMBER: Final = FIELD_AT["hand_number"]
_COLOR_AT = {color: i for i, color in enumerate(COLORS)}
# From this many cards on, a hand is counted by numpy rather than card by card (the two cost
# the same at about 16 cards).
_LONG_HAND = 16
_PENDING_AT = {kind: i for i, kind in enumerate(PENDING_TYPES)}
# Each card's entry of the top block; each colour's of the colour block (no colour: the
# direction's entry, which SeatEncoder.update writes after its one-hot entries).
_TOP_AT = {card: _TOP + i for card, i in CARD_INDEX.items()}
_COLOR_AT_ENTRY: dict[str | None, int] = {c: _COLOR + i for c, i in _COLOR_AT.items()}
_COLOR_AT_ENTRY[None] = _DIRECTION
# Each card's entry of the hand block.
_HAND_AT = {card: _HAND + i for card, i in CARD_INDEX.items()}
_PENDING_OTHER = len(PENDING_TYPES)
# The scalar entries SeatEncoder writes only when they change: stack total, precommit count,
# lane slots to choose, optional, hand number.
_SCALAR_AT: Final = (_STACK_TOTAL, _PRECOMMIT_COUNT, _LANE_TO_CHOOSE, _OPTIONAL, _HAND_NUMBER)
# The same as int objects made once (a compiled int past 256 used as an index is a new object
# each time), and the counts' float objects up to a deck's size.
_SCALAR_KEYS: Final[tuple[object, ...]] = _SCALAR_AT
_DRAW_KEY: Final[object] = _PILES
_DISCARD_KEY: Final[object] = _PILES + 1
_COUNT: Final[list[object]] = [float(n) for n in range(109)]
_ZERO: Final[object] = 0.0
_ONE: Final[object] = 1.0
_MINUS_ONE: Final[object] = -1.0
# The pending block of no pending.
_NO_PENDING: Final[tuple[Any, tuple[int, ...], float, float]] = (
    None,
    (_PENDING + _PENDING_OTHER,),
    0.0,
    0.0,
)


def encode(
    view: Mapping[str, Any],
    chosen: list[Card] | None = None,
    to_choose: int = 0,
    optional: bool = False,
) -> FloatArray:
    """The observation vector of a seat's view (OBSERVATION_FIELDS), a new array. It reads
    nothing but the view and the observer's own lane choice, so it can hold no card the seat may
    not see."""
    return encode_into(np.zeros(OBSERVATION_SIZE, np.float32), view, chosen, to_choose, optional)


def encode_into(
    out: FloatArray,
    view: Mapping[str, Any],
    chosen: list[Card] | None = None,
    to_choose: int = 0,
    optional: bool = False,
) -> FloatArray:
    """`encode`, written in place into `out` (a contiguous float32[OBSERVATION_SIZE], every
    entry overwritten), which it returns. Every value is within OBS_LOW..OBS_HIGH by
    construction: card counts come from one 108-card deck, the other counts are far below BIG.
    """
    out.fill(0)
    # An item written through the array's memoryview (format "f") costs half a numpy item
    # assignment.
    m = cast("memoryview[float]", out.data)
    ci = CARD_INDEX
    me, seats = view["seat"], view["seats"]
    hand = view["hand"]
    if len(hand) > _LONG_HAND:
        # Counted in C: half the time of the loop below for a hand of 40.
        at = np.fromiter(map(ci.__getitem__, hand), np.intp, len(hand))
        out[_HAND : _HAND + 54] = np.bincount(at, minlength=54)
    else:
        for code in hand:
            m[_HAND + ci[code]] += 1.0
    top = view["top"]
    if top is not None:
        m[_TOP + ci[top]] = 1.0
    color = view["color"]
    if color is not None:
        m[_COLOR + _COLOR_AT[color]] = 1.0
    m[_DIRECTION] = 1.0 if view["direction"] == "clockwise" else -1.0
    hand_sizes, scores, hands_won, lanes = (
        view["hand_sizes"],
        view["scores"],
        view["hands_won"],
        view["lane"],
    )
    for seat in range(seats):
        r = (seat - me) % seats
        m[_PRESENT + r] = 1.0
        m[_HAND_SIZES + r] = float(hand_sizes[seat])
        m[_SCORES + r] = float(scores[seat])
        m[_HANDS_WON + r] = float(hands_won[seat])
        lane = lanes[seat]
        if lane:
            m[_LANE_SIZES + r] = float(len(lane))
            if lane[0] is not None:
                m[_LANE_FRONT + r * 54 + ci[lane[0]]] = 1.0
            at, hidden = _LANE_CARDS + r * 54, 0
            for code in lane:
                if code is None:
                    hidden += 1
                else:
                    m[at + ci[code]] += 1.0
            m[_LANE_HIDDEN + r] = float(hidden)
    for seat in view["to_act"]:
        m[_TO_ACT + (seat - me) % seats] = 1.0
    for seat in view["uncalled"]:
        m[_UNCALLED + (seat - me) % seats] = 1.0
    if view["dealer"] is not None:
        m[_DEALER + (view["dealer"] - me) % seats] = 1.0
    pending = view.get("pending")
    if pending is None:
        m[_PENDING + _PENDING_OTHER] = 1.0
    else:
        _encode_pending(m, pending, me, seats)
    submission = view.get("submission")
    if submission is not None:
        if submission["seat"] is not None:
            m[_SUBMISSION_SEAT + (submission["seat"] - me) % seats] = 1.0
        if submission["card"] is not None:
            m[_SUBMISSION_CARD + ci[submission["card"]]] += 1.0
        if submission["color"] is not None:
            m[_SUBMISSION_COLOR + _COLOR_AT[submission["color"]]] = 1.0
    for code in chosen or ():
        m[_LANE_CHOSEN + ci[code]] += 1.0
    m[_LANE_TO_CHOOSE] = float(to_choose)
    m[_OPTIONAL] = 1.0 if optional else 0.0
    m[_PILES] = float(view["draw_pile"])
    m[_PILES + 1] = float(view["discard_pile"])
    m[_HAND_NUMBER] = float(view["hand_number"])
    return out


def _encode_pending(m: memoryview[float], pending: Mapping[str, Any], me: int, seats: int) -> None:
    kind = pending["type"]
    m[_PENDING + _PENDING_AT.get(kind, _PENDING_OTHER)] = 1.0
    for name in ABOUT:
        about = pending.get(name)
        if about is not None:
            m[_PENDING_ABOUT + (about - me) % seats] = 1.0
    if (kind == "drawn" or kind == "resubmit") and pending.get("card") is not None:
        m[_PENDING_CARD + CARD_INDEX[pending["card"]]] = 1.0
    m[_STACK_TOTAL] = float(pending.get("total") or 0)
    if kind == "precommit":
        m[_PRECOMMIT_COUNT] = float(pending["count"])
    if pending.get("leeway"):
        m[_PENDING_FLAGS] = 1.0
    if pending.get("forced"):
        m[_PENDING_FLAGS + 1] = 1.0
    if "seats" in pending:
        m[_PENDING_FLAGS + 2] = 1.0
    jump = pending.get("jump")
    if jump is not None:
        m[_JUMP_CARD + CARD_INDEX[jump["card"]]] = 1.0
        m[_JUMP_BY + (jump["by"] - me) % seats] = 1.0


# ------------------------------------------------------------ observations, kept in place


class SeatEncoder:
    """One seat's observation vector, kept in a buffer of its own and brought up to date from
    the engine's state directly (no view dict): equal, value for value, to
    `encode(view(state, seat), chosen, to_choose, optional)`, which tests/engine/test_env.py
    checks at every step of random matches of every family.

    The state is a value whose lists are never changed in place (engine/state.py): a hand, the
    lanes, the scores that are the same object as at the previous update are the same cards
    and figures, so their blocks are left as they are and only what changed is written. The
    one-hot entries of an update are compared with the previous update's: only those that
    went off are cleared and only those that came on are set, and a count is written only
    when it differs from the one written last. What the seat may see is what `state_view`
    shows it: its own hand, the lanes `lane_visible` lets it see, a drawn card only when it
    drew it, and the family's `extra_view` (censorship's submission).
    """

    def __init__(self, ruleset: Any, seats: int, seat: int) -> None:
        self.buffer: FloatArray = np.zeros(OBSERVATION_SIZE, np.float32)
        self._m = cast("memoryview[float]", self.buffer.data)
        self._ruleset = ruleset
        # The fields a family adds to its views (censorship: the pending submission), when it
        # adds any.
        plain = type(ruleset).extra_view is Ruleset.extra_view
        self._extra: Any = None if plain else ruleset.extra_view
        self._seat = seat
        self._seats = seats
        # Each seat's place relative to this one.
        self._rel: list[int] = [(s - seat) % seats for s in range(seats)]
        for r in self._rel:
            self._m[_PRESENT + r] = 1.0
        # The one-hot entries set by the last update, and which entries of the vector are on
        # (set by it) or kept (on in this update: a scratch list, all False between updates).
        self._hot: list[int] = []
        self._spare: list[int] = []
        self._on: list[bool] = [False] * OBSERVATION_SIZE
        self._keep: list[bool] = [False] * OBSERVATION_SIZE
        self._chosen_hot: list[int] = []
        self._lane_hot: list[int] = []
        self._hand: list[Card] = []
        # The counts written last, by relative seat, and the scalar entries'.
        self._sizes: list[int] = [0] * seats
        self._scalars: list[float] = [0.0] * len(_SCALAR_AT)
        self._scores: list[int] | None = None
        self._hands_won: list[int] | None = None
        self._lanes: list[list[Card]] | None = None
        # A usual pending's kind -> (the pending, its one-hot entries, stack total, precommit
        # count).
        self._pendings: dict[str, tuple[Any, tuple[int, ...], float, float]] = {}

    def update(
        self, state: State, chosen: list[Card], to_choose: int, optional: bool
    ) -> FloatArray:
        """The seat's observation of `state` (with its own lane choice), in `buffer`."""
        m, rel = self._m, self._rel
        raw: Any = m  # written with float objects made once (_ONE, _ZERO, _COUNT)
        hands, lanes = state.hands, state.lanes
        hand = hands[self._seat]
        if hand is not self._hand:
            self._encode_hand(hand)
        discard, to_act, pending, dealer = state.discard, state.to_act, state.pending, state.dealer
        # The one-hot entries of this update; an absent one (no discard yet, no colour) points
        # at the direction's entry, written after them.
        hot = self._spare  # the list of the update before last, filled anew
        hot.clear()
        hot.append(_TOP_AT[discard[-1]] if discard else _DIRECTION)
        hot.append(_COLOR_AT_ENTRY[state.color])
        hot.append(_DEALER + rel[dealer] if dealer is not None else _DIRECTION)
        for seat in to_act:
            hot.append(_TO_ACT + rel[seat])
        uncalled = state.uncalled
        if uncalled:
            for seat in uncalled:
                hot.append(_UNCALLED + rel[seat])
        if pending is not None and len(pending) == 2 and "seat" in pending:
            # The usual pending, a seat's turn of some kind: its entries depend on the kind
            # alone (the seats it waits for are to_act's).
            kind: str = pending["type"]
            known = self._pendings.get(kind)
            if known is None:
                known = self._pendings[kind] = self._encode_pending(pending)
        else:
            known = self._encode_pending(pending)
        for i in known[1]:
            hot.append(i)
        if self._extra is not None:
            self._encode_submission(state, hot)
        on, keep = self._on, self._keep
        for i in hot:
            keep[i] = True
        for i in self._hot:
            if not keep[i]:
                raw[i] = _ZERO
                on[i] = False
        for i in hot:
            keep[i] = False
            if not on[i]:
                raw[i] = _ONE
                on[i] = True
        self._spare = self._hot
        self._hot = hot
        if chosen or self._chosen_hot:
            for i in self._chosen_hot:
                m[i] = 0.0
            chosen_hot: list[int] = []
            for code in chosen:
                i = _LANE_CHOSEN + CARD_INDEX[code]
                m[i] += 1.0
                chosen_hot.append(i)
            self._chosen_hot = chosen_hot
        raw[_DIRECTION] = _ONE if state.direction == 1 else _MINUS_ONE
        sizes = self._sizes
        for seat in range(self._seats):
            size = len(hands[seat]) + len(lanes[seat])
            r = rel[seat]
            if sizes[r] != size:
                raw[_HAND_SIZES + r] = _COUNT[size] if size < 109 else float(size)
                sizes[r] = size
        scores, hands_won = state.scores, state.hands_won
        if scores is not self._scores:
            for seat in range(self._seats):
                m[_SCORES + rel[seat]] = float(scores[seat])
            self._scores = scores
        if hands_won is not self._hands_won:
            for seat in range(self._seats):
                m[_HANDS_WON + rel[seat]] = float(hands_won[seat])
            self._hands_won = hands_won
        if lanes is not self._lanes:
            self._encode_lanes(lanes)
        self._scalar(0, known[2])
        self._scalar(1, known[3])
        self._scalar(2, float(to_choose))
        self._scalar(3, 1.0 if optional else 0.0)
        self._scalar(4, float(state.hand_number))
        drawn, discarded = len(state.draw), len(discard)
        piles: Any = m  # written with index and value objects
        piles[_DRAW_KEY] = _COUNT[drawn] if drawn < 109 else float(drawn)
        piles[_DISCARD_KEY] = _COUNT[discarded] if discarded < 109 else float(discarded)
        return self.buffer

    def _scalar(self, at: int, value: float) -> None:
        """The scalar entry `_SCALAR_AT[at]`, written when it changed."""
        if self._scalars[at] != value:
            self._scalars[at] = value
            m: Any = self._m  # written with an index object
            m[_SCALAR_KEYS[at]] = value

    def _encode_submission(self, state: State, hot: list[int]) -> None:
        """The family's extra view's submission (censorship), as the seat is shown it."""
        submission = self._extra(state, self._seat).get("submission")
        if submission is None:
            return
        if submission["seat"] is not None:
            hot.append(_SUBMISSION_SEAT + self._rel[submission["seat"]])
        if submission["card"] is not None:
            hot.append(_SUBMISSION_CARD + CARD_INDEX[submission["card"]])
        if submission["color"] is not None:
            hot.append(_SUBMISSION_COLOR + _COLOR_AT[submission["color"]])

    def _encode_lanes(self, lanes: list[list[Card]]) -> None:
        m, ci, me, rel = self._m, CARD_INDEX, self._seat, self._rel
        for i in self._lane_hot:
            m[i] = 0.0
        hot = self._lane_hot
        hot.clear()
        visible = self._ruleset.lane_visible
        for seat, lane in enumerate(lanes):
            if not lane:
                continue
            r = rel[seat]
            hot.append(_LANE_SIZES + r)
            hot.append(_LANE_HIDDEN + r)
            m[_LANE_SIZES + r] = float(len(lane))
            if visible(seat, me):
                i = _LANE_FRONT + r * 54 + ci[lane[0]]
                m[i] = 1.0
                hot.append(i)
                at = _LANE_CARDS + r * 54
                for code in lane:
                    m[at + ci[code]] += 1.0
                    hot.append(at + ci[code])
            else:
                m[_LANE_HIDDEN + r] = float(len(lane))
        self._lanes = lanes

    def _encode_hand(self, hand: list[Card]) -> None:
        """The hand block, from the one encoded last: a card played (one fewer, the others in
        order) or cards drawn (more at the end) change one entry each; anything else is
        counted anew."""
        m, at, old = self._m, _HAND_AT, self._hand
        self._hand = hand
        n, k = len(old), len(hand)
        if k > n:
            i = 0
            while i < n and hand[i] == old[i]:
                i += 1
            if i == n:
                for j in range(n, k):
                    m[at[hand[j]]] += 1.0
                return
        elif k == n - 1:
            i = 0
            while i < k and hand[i] == old[i]:
                i += 1
            j = i
            while j < k and hand[j] == old[j + 1]:
                j += 1
            if j == k:
                m[at[old[i]]] -= 1.0
                return
        for code in old:
            m[at[code]] = 0.0
        for code in hand:
            m[at[code]] += 1.0

    def _encode_pending(
        self, pending: Mapping[str, Any] | None
    ) -> tuple[Any, tuple[int, ...], float, float]:
        """The pending block's entries: _encode_pending's, with the drawn card only for the
        seat that drew it (as state_view shows it)."""
        if pending is None:
            return _NO_PENDING
        rel = self._rel
        kind = pending["type"]
        hot = [_PENDING + _PENDING_AT.get(kind, _PENDING_OTHER)]
        for name in ABOUT:
            about = pending.get(name)
            if about is not None:
                hot.append(_PENDING_ABOUT + rel[about])
        if (
            (kind == "drawn" or kind == "resubmit")
            and pending.get("card") is not None
            and pending["seat"] == self._seat
        ):
            hot.append(_PENDING_CARD + CARD_INDEX[pending["card"]])
        if pending.get("leeway"):
            hot.append(_PENDING_FLAGS)
        if pending.get("forced"):
            hot.append(_PENDING_FLAGS + 1)
        if "seats" in pending:
            hot.append(_PENDING_FLAGS + 2)
        jump = pending.get("jump")
        if jump is not None:
            hot.append(_JUMP_CARD + CARD_INDEX[jump["card"]])
            hot.append(_JUMP_BY + rel[jump["by"]])
        return (
            pending,
            tuple(hot),
            float(pending.get("total") or 0),
            float(pending["count"]) if kind == "precommit" else 0.0,
        )
