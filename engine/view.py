"""What one seat (or a spectator, `viewer=None`) may see of a state or of an event.

Every path that shows a game to a person or a bot goes through here. The state and the log
hold the whole truth (deck orders, every hand); these functions keep only what the viewer may
know, and put `None` where a card exists that the viewer may not see.
"""

from __future__ import annotations

from typing import Any

from engine.events import (
    CARD_REINSERTED,
    CARD_RETURNED,
    CARD_SUBMITTED,
    CARDS_DRAWN,
    CHALLENGE_RESOLVED,
    DEADLINE_EXTENDED,
    FALLBACK_PLAYED,
    GAME_ABORTED,
    HAND_STARTED,
    LANE_FILLED,
    LANE_FLUSHED,
    MATCH_STARTED,
    PILE_RESHUFFLED,
    PROMPTED,
    SUBMISSION_KEPT,
    VACATION_TAKEN,
    Event,
)
from engine.rules.base import Ruleset
from engine.state import Pending, Seat, State


def _pending(pending: Pending | None, viewer: Seat | None) -> Pending | None:
    if pending is None:
        return None
    if pending["type"] in ("drawn", "resubmit") and pending["seat"] != viewer:
        # Only the seat that drew knows which card it may now play (or submit again).
        return {**pending, "card": None}
    return dict(pending)


def state_view(ruleset: Ruleset, state: State, viewer: Seat | None) -> dict[str, Any]:
    seats = range(state.seats)
    hands, lanes, lane_visible = state.hands, state.lanes, ruleset.lane_visible
    view: dict[str, Any] = {
        "rules": ruleset.name,
        "seat": viewer,
        "seats": state.seats,
        "hand_sizes": [len(hands[s]) + len(lanes[s]) for s in seats],  # State.cards_held
        # Each lane a new list: its cards where the viewer may see them, else as many None.
        "lane": [
            (list(lanes[s]) if lane_visible(s, viewer) else [None] * len(lanes[s]))
            if lanes[s]
            else []
            for s in seats
        ],
        "top": state.top,
        "color": state.color,
        "direction": "clockwise" if state.direction == 1 else "counter-clockwise",
        "to_act": list(state.to_act),
        "pending": _pending(state.pending, viewer),
        "uncalled": sorted(state.uncalled),
        "draw_pile": len(state.draw),
        "discard_pile": len(state.discard),
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "hands_won": list(state.hands_won),
        "last_hand": state.extra.get("last_hand"),
        "status": state.status,
        "winner": state.winner,
        "places": state.places,
    }
    view.update(ruleset.extra_view(state, viewer))
    if viewer is not None:
        view["hand"] = list(state.hands[viewer])
    return view


def _hidden(cards: list[Any]) -> list[None]:
    return [None] * len(cards)


# Every kind of event that event_view below may show otherwise than it is; the others (most of
# a log: card-played, uno-called, turn changes …) are shown as they are, found in one lookup.
_SEEN_OTHERWISE = frozenset(
    {
        MATCH_STARTED,
        HAND_STARTED,
        CARDS_DRAWN,
        CARD_REINSERTED,
        PILE_RESHUFFLED,
        PROMPTED,
        CHALLENGE_RESOLVED,
        CARD_SUBMITTED,
        SUBMISSION_KEPT,
        CARD_RETURNED,
        LANE_FILLED,
        LANE_FLUSHED,
        FALLBACK_PLAYED,
        VACATION_TAKEN,
        DEADLINE_EXTENDED,
        GAME_ABORTED,
    }
)


def event_view(ruleset: Ruleset, event: Event, viewer: Seat | None) -> Event:
    """The event as `viewer` may see it (a copy; the stored event is never changed)."""
    kind = event["type"]
    try:
        if kind not in _SEEN_OTHERWISE:
            return event
    except TypeError:  # unhashable: equal to no kind below, so shown as it is
        return event
    if kind == MATCH_STARTED:
        return {k: v for k, v in event.items() if k != "seed"}
    if kind == HAND_STARTED:
        seen = {k: v for k, v in event.items() if k != "deck"}
        if viewer is not None:
            n, seats, deck = event["hand_size"], event["seats"], event["deck"]
            # Dealt one at a time, clockwise from `first`: the viewer's cards are every seats-th.
            start = (viewer - event["first"]) % seats
            seen["cards"] = deck[start : n * seats : seats]
        return seen
    if kind == CARDS_DRAWN and event["seat"] != viewer:
        return {**event, "cards": _hidden(event["cards"])}
    if kind == CARD_REINSERTED:
        return {k: v for k, v in event.items() if k != "position"}
    if kind == PILE_RESHUFFLED:
        return {**event, "order": _hidden(event["order"])}
    if kind == PROMPTED:
        return {**event, "pending": _pending(event["pending"], viewer)}
    if kind == CHALLENGE_RESOLVED and viewer not in (event["seat"], event["target"]):
        return {**event, "hand": _hidden(event["hand"])}
    if kind in (CARD_SUBMITTED, SUBMISSION_KEPT, CARD_RETURNED) and viewer not in (
        event["seat"],
        event["dealer"],
    ):
        # Submitted and returned cards are seen by the submitter and the dealer alone.
        return {**event, **{k: None for k in ("card", "color", "submitted") if k in event}}
    if kind == LANE_FILLED and not ruleset.lane_visible(event["seat"], viewer):
        return {**event, "cards": _hidden(event["cards"])}
    if (
        kind == LANE_FLUSHED
        and viewer != event["seat"]
        and not ruleset.lane_visible(event["seat"], viewer)
    ):
        return {**event, "cards": _hidden(event["cards"])}
    # Why the default bot moved for a seat (a person's timeout, a bot's failed call) and how
    # long a person is away are theirs: the others see only that it happened.
    if kind == FALLBACK_PLAYED and viewer != event["seat"]:
        return {**event, "reason": None}
    if kind == VACATION_TAKEN and viewer != event["seat"]:
        return {**event, "days": None, "until": None}
    if kind in (DEADLINE_EXTENDED, GAME_ABORTED):
        return staff_words(event, viewer)
    return event


def staff_words(event: Event, viewer: Seat | None) -> Event:
    """`event` without the staff's words `viewer` may not read, even in a log shown whole once
    the match is over (games/visibility.py): a deadline's `message` is its seat's alone, and an
    older event's staff reason (a deadline's `note`, an abort's `reason`, written before the
    staff's note and their message to the player were apart) is nobody's."""
    kind = event.get("type")
    if kind == DEADLINE_EXTENDED:
        hidden = ["note"] if viewer == event.get("seat") else ["note", "message"]
    elif kind == GAME_ABORTED:
        hidden = ["reason"]
    else:
        return event
    if not any(event.get(key) is not None for key in hidden):
        return event
    return {**event, **{key: None for key in hidden if key in event}}
