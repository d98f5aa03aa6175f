"""Event types (facts, named in the past tense) and how each one changes a state.

Events are plain JSON-able dicts: `{"type": "card-played", "seat": 1, "card": "red-7", ...}`.
They are small, rule-agnostic facts (a card moved, a seat was prompted); every rule lives in the
deciders under `rules/`, which emit these facts. Folding therefore never fails and never needs
the rules: an old log replays the same under newer rule code. Randomness is never decided here:
shuffles arrive as the resulting order.

A fold never changes a list or dict of the state in place: the state it folds into may share
them with states already handed out (`State.fork`), so it puts a changed copy in instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.cards import COLOR_OF, DECK, WILD_DRAW4
from engine.state import HAND_OVER, MATCH_OVER, PLAYING, State, new_state

Event = dict[str, Any]

# seats, seed (hidden), ages (optional), variant, rules_version
MATCH_STARTED: Final = "match-started"
# hand, seats, dealer (None: basic-plus), first, hand_size, deck, commitment (the public hash
# of the deck and the seed, dealing.deal_commitment; None or absent in hands dealt before it)
HAND_STARTED: Final = "hand-started"
CARD_FLIPPED: Final = "card-flipped"  # card: the top of the draw pile turned onto the discard pile
# card, position: a flipped wild-draw4 back into the draw pile
CARD_REINSERTED: Final = "card-reinserted"
# order: the discard pile (less its top) as the new draw pile
PILE_RESHUFFLED: Final = "pile-reshuffled"
CARDS_DRAWN: Final = "cards-drawn"  # seat, cards, reason
# seat, card, color (named colour or None), source ("hand" | "lane")
CARD_PLAYED: Final = "card-played"
COLOR_CHOSEN: Final = "color-chosen"  # seat, color
DIRECTION_CHANGED: Final = "direction-changed"  # direction (1 clockwise, -1 counter-clockwise)
PROMPTED: Final = "prompted"  # to_act, pending: what the game now waits for
UNO_OWED: Final = "uno-owed"  # seat: down to one card without calling; catchable
UNO_CALLED: Final = "uno-called"  # seat
UNO_EXPIRED: Final = "uno-expired"  # seats: the catch window closed
UNO_CAUGHT: Final = "uno-caught"  # seat (catcher), target
UNO_PENALIZED: Final = "uno-penalized"  # seat, reason: a basic-plus false call or wrong catch
CHALLENGE_RESOLVED: Final = "challenge-resolved"  # seat (challenger), target, guilty, hand
LANE_FILLED: Final = "lane-filled"  # seat, cards: precommitted to the back of the lane
LANE_FLUSHED: Final = "lane-flushed"  # seat, cards: the lane back into the regular hand
HANDS_SWAPPED: Final = "hands-swapped"  # seat, target: two seats exchange hands (newno 7)
HANDS_ROTATED: Final = "hands-rotated"  # direction: every hand passes one seat that way (newno 0)
CARD_SUBMITTED: Final = "card-submitted"  # seat, dealer, card, color, uno: face down to the dealer
SUBMISSION_KEPT: Final = "submission-kept"  # seat (submitter), dealer, card: into the dealer's hand
CARD_RETURNED: Final = "card-returned"  # seat (submitter), dealer, card, submitted
TURN_PASSED: Final = "turn-passed"  # seat: a censorship dealer with nothing to play, not drawing
HAND_ENDED: Final = "hand-ended"  # winner, cards_left, points, gained, scores, hands_won
MATCH_ENDED: Final = "match-ended"  # winner, places, scores

# Facts about who plays a seat, written by the service (games/), never decided by the rules. They
# move no card, so the fold keeps them for the record only; the projections and the workers read
# them from the log (docs/event-store.md, "Seat facts").
# seat, reason: placed last; the default bot plays it from now
SEAT_FORFEITED: Final = "seat-forfeited"
# seat, reason: the default bot plays it from now, no forfeit
SEAT_HANDED_OVER: Final = "seat-handed-over"
FALLBACK_PLAYED: Final = "fallback-played"  # seat, reason: the default bot's move for it follows
VACATION_TAKEN: Final = "vacation-taken"  # seat, days, until: the seat's clock pauses until then
SEAT_FACTS: Final = frozenset({SEAT_FORFEITED, SEAT_HANDED_OVER, FALLBACK_PLAYED, VACATION_TAKEN})
# A league's ruling on a fixture's game (league/services.py); it moves no card either.
# deadline (ISO 8601), note: the fixture's deadline moved
FIXTURE_RETIMED: Final = "fixture-retimed"
# A staff ruling on a person's turn clock (staff/actions.py); it moves no card either.
# seat, deadline (ISO 8601), note: the turn's new end
DEADLINE_EXTENDED: Final = "deadline-extended"
SERVICE_FACTS: Final = SEAT_FACTS | {FIXTURE_RETIMED, DEADLINE_EXTENDED}
# A staff ruling that ends the match where it stands (staff/actions.py): no winner, no places,
# no match-ended, so no result, standing or rating counts the game. Not a service fact: it
# changes the state (the match is over), so a command decided before it is refused.
GAME_ABORTED: Final = "game-aborted"  # reason: why the staff ended it


# A to_act of one seat, shared (a tuple never changes); every seat a deal can have. Typed of any
# length: the compiled engine keeps a `tuple[int]` unboxed and would make a new tuple to store it.
ONE_SEAT: list[tuple[int, ...]] = [(seat,) for seat in range(len(DECK))]


def initial_state(event: Event) -> State:
    if event.get("type") != MATCH_STARTED:
        raise ValueError("a game's events begin with match-started")
    seats = event["seats"]
    state = new_state(seats, str(event["seed"]))
    state.scores = [0] * seats
    state.hands_won = [0] * seats
    state.hands = [[] for _ in range(seats)]
    state.lanes = [[] for _ in range(seats)]
    if event.get("ages") is not None:
        state.extra["ages"] = tuple(event["ages"])
    return state


def _match_started(state: State, event: Event) -> None:
    raise ValueError("match-started can only begin a game")


def _hand_started(state: State, event: Event) -> None:
    seats, size, deck = state.seats, event["hand_size"], event["deck"]
    state.hand_number = event["hand"]
    state.dealer = event["dealer"]
    state.first = first = event["first"]
    dealt = size * seats
    # Dealt one at a time, clockwise, starting with `first`: seat `first + k` gets every
    # seats-th card from the k-th.
    state.hands = [list(deck[(seat - first) % seats : dealt : seats]) for seat in range(seats)]
    state.lanes = [[] for _ in range(seats)]
    state.draw = deck[size * seats :][::-1]
    state.discard = []
    state.color = None
    state.direction = 1
    state.pending = None
    state.to_act = ()
    state.uncalled = frozenset()
    state.called = frozenset()
    state.challenge = None
    state.status = PLAYING
    state.shuffles = 0
    extra = state.extra
    if "last_hand" in extra or "submission" in extra:
        state.extra = {k: v for k, v in extra.items() if k not in ("last_hand", "submission")}


def _card_flipped(state: State, event: Event) -> None:
    draw = state.draw
    card = draw[-1]
    state.draw = draw[:-1]
    state.discard = state.discard + [card]
    state.color = COLOR_OF[card]


def _card_reinserted(state: State, event: Event) -> None:
    discard = state.discard
    card = discard[-1]
    state.discard = discard[:-1]
    draw = state.draw[:]
    draw.insert(len(draw) - event["position"], card)
    state.draw = draw
    state.color = None


def _pile_reshuffled(state: State, event: Event) -> None:
    state.draw = list(reversed(event["order"]))
    state.discard = state.discard[-1:]
    state.shuffles += 1


def _cards_drawn(state: State, event: Event) -> None:
    seat, n = event["seat"], len(event["cards"])
    if n:
        draw = state.draw
        hands = state.hands.copy()
        hands[seat] = hands[seat] + draw[-n:][::-1]
        state.hands = hands
        state.draw = draw[:-n]
    # A seat that draws holds more than one card: nothing is owed, no call stands.
    if seat in state.uncalled:
        state.uncalled = state.uncalled - {seat}
    if seat in state.called:
        state.called = state.called - {seat}


def _card_played(state: State, event: Event) -> None:
    seat, card = event["seat"], event["card"]
    source = event.get("source")
    if source == "lane":
        lanes = state.lanes[:]
        lane = lanes[seat][:]
        lane.pop(0)
        lanes[seat] = lane
        state.lanes = lanes
    elif source == "submission":
        state.extra = _without(state.extra, "submission")
    else:
        hands = state.hands.copy()  # a method call costs less than a slice object
        hand = hands[seat].copy()
        hand.remove(card)
        hands[seat] = hand
        state.hands = hands
    if card == WILD_DRAW4:
        state.challenge = (seat, state.color, tuple(state.hands[seat]))
    state.discard = state.discard + [card]
    state.color = event.get("color") or COLOR_OF[card]


def _color_chosen(state: State, event: Event) -> None:
    state.color = event["color"]


def _direction_changed(state: State, event: Event) -> None:
    state.direction = event["direction"]


def _prompted(state: State, event: Event) -> None:
    to_act = event["to_act"]
    # One seat (nearly every prompt): a shared tuple, not a new one.
    state.to_act = ONE_SEAT[to_act[0]] if len(to_act) == 1 else tuple(to_act)
    state.pending = event["pending"]


def _uno_owed(state: State, event: Event) -> None:
    state.uncalled = state.uncalled | {event["seat"]}
    state.called = state.called - {event["seat"]}


def _uno_called(state: State, event: Event) -> None:
    state.uncalled = state.uncalled - {event["seat"]}
    state.called = state.called | {event["seat"]}


def _uno_expired(state: State, event: Event) -> None:
    state.uncalled = state.uncalled - set(event["seats"])


def _uno_caught(state: State, event: Event) -> None:
    state.uncalled = state.uncalled - {event["target"]}


def _challenge_resolved(state: State, event: Event) -> None:
    state.challenge = None


def _lane_filled(state: State, event: Event) -> None:
    seat = event["seat"]
    hands, lanes = state.hands[:], state.lanes[:]
    hand = hands[seat][:]
    for card in event["cards"]:
        hand.remove(card)
    hands[seat] = hand
    lanes[seat] = [*lanes[seat], *event["cards"]]
    state.hands, state.lanes = hands, lanes


def _lane_flushed(state: State, event: Event) -> None:
    seat = event["seat"]
    hands, lanes = state.hands[:], state.lanes[:]
    hands[seat] = hands[seat] + lanes[seat]
    lanes[seat] = []
    state.hands, state.lanes = hands, lanes


def _hands_swapped(state: State, event: Event) -> None:
    a, b = event["seat"], event["target"]
    hands = state.hands[:]
    hands[a], hands[b] = hands[b], hands[a]
    state.hands = hands


def _hands_rotated(state: State, event: Event) -> None:
    step = event["direction"]
    n = state.seats
    hands = state.hands
    state.hands = [hands[(s - step) % n] for s in range(n)]


def _card_submitted(state: State, event: Event) -> None:
    seat = event["seat"]
    hands = state.hands[:]
    hand = hands[seat][:]
    hand.remove(event["card"])
    hands[seat] = hand
    state.hands = hands
    submission = {k: event[k] for k in ("seat", "card", "color", "uno")}
    state.extra = {**state.extra, "submission": submission}


def _submission_kept(state: State, event: Event) -> None:
    dealer = event["dealer"]
    card = state.extra["submission"]["card"]
    state.extra = _without(state.extra, "submission")
    hands = state.hands[:]
    hands[dealer] = [*hands[dealer], card]
    state.hands = hands


def _card_returned(state: State, event: Event) -> None:
    dealer, seat = event["dealer"], event["seat"]
    submitted = state.extra["submission"]["card"]
    state.extra = _without(state.extra, "submission")
    hands = state.hands[:]
    hand = [*hands[dealer], submitted]
    hand.remove(event["card"])
    hands[dealer] = hand
    hands[seat] = [*hands[seat], event["card"]]
    state.hands = hands
    if seat in state.uncalled:
        state.uncalled = state.uncalled - {seat}


def _hand_ended(state: State, event: Event) -> None:
    state.scores = list(event["scores"])
    state.hands_won = list(event["hands_won"])
    state.status = HAND_OVER
    state.to_act = ()
    state.pending = {"type": "next-hand"}
    state.uncalled = frozenset()
    last_hand = {k: event[k] for k in ("winner", "cards_left", "points", "gained")}
    state.extra = {**state.extra, "last_hand": last_hand}


def _match_ended(state: State, event: Event) -> None:
    state.status = MATCH_OVER
    state.winner = event["winner"]
    state.places = list(event["places"])
    state.pending = None
    # Nobody acts any more: after a hand-ended nobody did, but forfeits end a match mid-hand
    # (scoring.forfeit_end).
    state.to_act = ()
    state.uncalled = frozenset()


def _game_aborted(state: State, event: Event) -> None:
    # Over as far as every reader of the status is concerned (nobody moves it, every sweep
    # skips it), but without the places a match-ended would give.
    state.status = MATCH_OVER
    state.aborted = True
    state.winner = None
    state.places = None
    state.pending = None
    state.to_act = ()
    state.uncalled = frozenset()


def _without(extra: dict[str, Any], key: str) -> dict[str, Any]:
    """`extra` less `key` (a KeyError if it has none, as `del` would raise)."""
    new = dict(extra)
    del new[key]
    return new


def _nothing(state: State, event: Event) -> None:
    """Facts kept for the record (and for viewers) that change no state."""


EVOLVE: dict[str, Callable[[State, Event], None]] = {
    MATCH_STARTED: _match_started,
    HAND_STARTED: _hand_started,
    CARD_FLIPPED: _card_flipped,
    CARD_REINSERTED: _card_reinserted,
    PILE_RESHUFFLED: _pile_reshuffled,
    CARDS_DRAWN: _cards_drawn,
    CARD_PLAYED: _card_played,
    COLOR_CHOSEN: _color_chosen,
    DIRECTION_CHANGED: _direction_changed,
    PROMPTED: _prompted,
    UNO_OWED: _uno_owed,
    UNO_CALLED: _uno_called,
    UNO_EXPIRED: _uno_expired,
    UNO_CAUGHT: _uno_caught,
    UNO_PENALIZED: _nothing,
    CHALLENGE_RESOLVED: _challenge_resolved,
    LANE_FILLED: _lane_filled,
    LANE_FLUSHED: _lane_flushed,
    HANDS_SWAPPED: _hands_swapped,
    HANDS_ROTATED: _hands_rotated,
    CARD_SUBMITTED: _card_submitted,
    SUBMISSION_KEPT: _submission_kept,
    CARD_RETURNED: _card_returned,
    TURN_PASSED: _nothing,
    HAND_ENDED: _hand_ended,
    MATCH_ENDED: _match_ended,
    SEAT_FORFEITED: _nothing,
    SEAT_HANDED_OVER: _nothing,
    FALLBACK_PLAYED: _nothing,
    VACATION_TAKEN: _nothing,
    FIXTURE_RETIMED: _nothing,
    DEADLINE_EXTENDED: _nothing,
    GAME_ABORTED: _game_aborted,
}


def apply(state: State, event: Event) -> None:
    """Fold one event into `state` in place (only on a state the caller owns)."""
    try:
        handler = EVOLVE[event["type"]]
    except KeyError:
        raise ValueError(f"unknown event type {event.get('type')!r}") from None
    handler(state, event)


def evolve(state: State, event: Event) -> State:
    """Return the state after one event; `state` itself is left as it was."""
    new = state.fork()
    apply(new, event)
    return new
