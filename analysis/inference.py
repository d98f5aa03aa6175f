"""The commands behind a finished match's log, found again: pure Python, no Django.

The store keeps events, not commands. `infer_commands` folds the log and, at each point where
a command was decided, finds the legal command (of a seat, or of the system) whose events are
exactly the log's next events: deciding a command on the true state (the match's own seed in
it) reproduces every shuffle and reinsertion it made, so the comparison is exact. Facts the
service wrote (a seat handed over, a deadline moved) change no card and are folded as they
come. docs/analysis.md, "How a decision is valued".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine import HAND_OVER, PLAYING, IllegalCommand, State, Variant
from engine.commands import CLOSE_WINDOW, NEXT_HAND
from engine.events import (
    GAME_ABORTED,
    LANE_FILLED,
    MATCH_ENDED,
    SEAT_FORFEITED,
    SERVICE_FACTS,
    apply,
)

Command = dict[str, Any]
Event = dict[str, Any]


class LogNotUnderstood(ValueError):
    """A log whose next events no legal command produces (not a log this engine wrote)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One command of the log: where it starts (`version`, the number of events before it),
    the state it was decided in, who sent it (None: the system), the command, the legal
    commands its seat had then, and how many events it produced."""

    version: int
    state: State
    seat: int | None
    command: Command
    legal: list[Command]
    events: int


def _candidates(variant: Variant, state: State) -> Iterator[tuple[int | None, list[Command]]]:
    """Who may have sent the next command, the likeliest first: the seats asked to act, the
    others (out of turn), then the system."""
    if state.status == HAND_OVER:
        yield None, [{"type": NEXT_HAND}]
        return
    asked = list(state.to_act)
    for seat in asked + [s for s in range(state.seats) if s not in asked]:
        legal = variant.legal_commands(state, seat)
        if legal:
            yield seat, legal
    if state.pending is not None and "seats" in state.pending:
        yield None, [{"type": CLOSE_WINDOW}]


def _precommits(state: State, event: Event) -> list[Command]:
    """A precommit the engine did not list (past its listing limit), from the lane it filled."""
    seat = event["seat"]
    return [
        {"type": "precommit", "seat": seat, "cards": list(event["cards"]), "uno": uno}
        for uno in (False, True)
    ]


def _produces(variant: Variant, state: State, command: Command, log: list[Event], at: int) -> int:
    """How many of the log's events from `at` `command` produces, or 0 when it does not."""
    try:
        events = variant.decide(state, command)
    except IllegalCommand:
        return 0
    n = len(events)
    if n and log[at : at + n] == events:
        return n
    return 0


def infer_commands(variant: Variant, log: list[Event]) -> Iterator[tuple[Step, State]]:
    """Each command of the log with the state after it, in order. Raises LogNotUnderstood
    where no command reproduces the log."""
    state = variant.replay(log[:1])
    at = 1
    # The first hand's deal and flip come with match-started (Variant.start).
    while at < len(log) and log[at]["type"] != "prompted":
        apply(state, log[at])
        at += 1
    if at < len(log):
        apply(state, log[at])
        at += 1
    while at < len(log):
        event = log[at]
        if (
            event["type"] in SERVICE_FACTS
            or event["type"] == GAME_ABORTED
            # Forfeits that leave one seat playing end the match (engine/scoring.py
            # `forfeit_end`): no command's, as a rules' match-ended follows a hand-ended.
            or (event["type"] == MATCH_ENDED and log[at - 1]["type"] == SEAT_FORFEITED)
        ):
            state = state.fork()
            apply(state, event)
            at += 1
            continue
        if state.status not in (PLAYING, HAND_OVER):
            raise LogNotUnderstood(f"event {at} follows the end of the match")
        found = _find(variant, state, log, at)
        if found is None:
            raise LogNotUnderstood(f"no legal command produces event {at} ({event['type']})")
        seat, command, legal, n = found
        after = variant.replay(log[at : at + n], state)
        yield Step(at, state, seat, command, legal, n), after
        state = after
        at += n


def _find(
    variant: Variant, state: State, log: list[Event], at: int
) -> tuple[int | None, Command, list[Command], int] | None:
    for seat, legal in _candidates(variant, state):
        for command in legal:
            n = _produces(variant, state, command, log, at)
            if n:
                return seat, command, legal, n
        filled = next(
            (e for e in log[at : at + 4] if e["type"] == LANE_FILLED and e["seat"] == seat), None
        )
        if filled is not None:
            for command in _precommits(state, filled):
                n = _produces(variant, state, command, log, at)
                if n:
                    return seat, command, legal, n
    return None
