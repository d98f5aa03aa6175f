"""What the story (web/story.py) reads off the log's events: whose move an event tells, whether
it reached the viewer's hand or standing, and which events belong to the play before them (a
reverse's new direction, a swap) or to the play after them (newno's second play's direction).
Pure functions of events the viewer may already see."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import events as ev

Event = Mapping[str, Any]

# Events told as a clause of the play just before them, by the same seat.
CONSEQUENCES = frozenset({ev.HANDS_SWAPPED, ev.HANDS_ROTATED, ev.DIRECTION_CHANGED})


def again(events: Sequence[Mapping[str, Any]], index: int, seat: int) -> bool:
    """Whether the turn after the direction change at `index` is the playing seat's own again
    (in a two-seat game, official's reverse: docs/rules.md, "Reverse with two seats")."""
    for item in events[index + 1 :]:
        event = item["event"]
        if event["type"] == ev.PROMPTED:
            pending = event.get("pending") or {}
            return list(event.get("to_act") or ()) == [seat] and pending.get("type") == "play"
        if event["type"] not in CONSEQUENCES:
            return False
    return False


# What a window of the log may open on that belongs to a play before it.
OPENING = CONSEQUENCES | {ev.PROMPTED}


def sets_direction(events: Sequence[Mapping[str, Any]], index: int) -> bool:
    """Whether the event at `index` is a direction set by the play right after it: newno's
    second play sets the direction before its card is told (engine/rules/newno.py
    `set_direction`), where a reverse's turn comes after its card (and a precognitive lane may
    play at once after that turn: engine/rules/precognitive.py `begin_turn`)."""
    if events[index]["event"]["type"] != ev.DIRECTION_CHANGED or index + 1 >= len(events):
        return False
    after = events[index + 1]["event"]
    return bool(after["type"] == ev.CARD_PLAYED and after.get("source") != "lane")


# A seat's own moves, by the event that tells each (the seat in its `seat` field, the censor's
# ruling in `dealer`); a draw is the seat's own only when it chose to draw.
MOVES = frozenset(
    {
        ev.CARD_PLAYED,
        ev.COLOR_CHOSEN,
        ev.UNO_CALLED,
        ev.UNO_CAUGHT,
        ev.CHALLENGE_RESOLVED,
        ev.LANE_FILLED,
        ev.CARD_SUBMITTED,
        ev.TURN_PASSED,
        ev.VACATION_TAKEN,
    }
)
RULINGS = frozenset({ev.SUBMISSION_KEPT, ev.CARD_RETURNED})
# What reaches every seat's hand or standing: a deal, a hand's or the match's end, hands passed
# round, the staff's word on the whole match.
EVERYONE = frozenset(
    {
        ev.HAND_STARTED,
        ev.HAND_ENDED,
        ev.MATCH_ENDED,
        ev.HANDS_ROTATED,
        ev.FIXTURE_RETIMED,
        ev.GAME_ABORTED,
    }
)
# What reaches one seat's hand or standing, by the field naming that seat.
TO_SEAT: dict[str, str] = {
    ev.CARDS_DRAWN: "seat",
    ev.UNO_OWED: "seat",
    ev.UNO_CAUGHT: "target",
    ev.UNO_PENALIZED: "seat",
    ev.CHALLENGE_RESOLVED: "target",
    ev.LANE_FLUSHED: "seat",
    ev.CARD_RETURNED: "seat",
    ev.SUBMISSION_KEPT: "seat",
    ev.CARD_PLAYED: "for",
    ev.SEAT_FORFEITED: "seat",
    ev.SEAT_HANDED_OVER: "seat",
    ev.FALLBACK_PLAYED: "seat",
    ev.DEADLINE_EXTENDED: "seat",
}


def yours(event: Event, viewer: int | None) -> bool:
    """Whether `event` tells a move the viewer made (a lane's own play is not one)."""
    if viewer is None:
        return False
    kind = event["type"]
    if kind in RULINGS:
        return bool(event.get("dealer") == viewer)
    if kind == ev.CARDS_DRAWN:
        return event.get("reason") == "draw" and event.get("seat") == viewer
    if kind == ev.CARD_PLAYED and event.get("source") == "lane":
        return False
    return kind in MOVES and event.get("seat") == viewer


def news(event: Event, viewer: int | None) -> bool:
    """Whether `event` changed the viewer's hand or standing (a move of their own aside)."""
    if viewer is None:
        return False
    kind = event["type"]
    if kind in EVERYONE:
        return True
    if kind == ev.HANDS_SWAPPED:
        return viewer in (event.get("seat"), event.get("target"))
    if kind == ev.UNO_EXPIRED:
        return viewer in (event.get("seats") or [])
    field = TO_SEAT.get(kind)
    return field is not None and event.get(field) == viewer


def by_player(event: Event, played: Event) -> bool:
    """Whether `event` is what `played` did: its own swap, or a reverse's or 0's effect."""
    if event["type"] == ev.HANDS_SWAPPED:
        return bool(event["seat"] == played["seat"])
    return True
