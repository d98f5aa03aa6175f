"""Bot-versus-bot matches played in-process through the engine's public API (no database).

Used by `manage.py simulate`, the benchmarks and the tests. The driver gives out-of-turn
chances (uno calls, catches) while someone owes a call (the owing seat first), and (newno) a
chance to jump in to every other seat holding the card on top while a jump-in window is open;
then it asks the first seat in `to_act` for its move. An open choice (newno: a pending with
several `seats`) is offered to those seats in a random order; a bot may let it pass (None), and
when every seat does, the driver sends the system `close-window` (the Youngest Rule). When a
hand is over it sends the system `next-hand`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.bots import Strategy
from games.engine import MATCH_OVER, PLAYING, Variant
from games.engine.events import HAND_ENDED

# A match that runs past this many commands is reported as an error, never silently cut.
COMMAND_CAP = 200_000


class MatchDidNotEnd(RuntimeError):
    pass


@dataclass
class MatchResult:
    places: list[int]
    winner: int | None
    scores: list[int]
    hands: int
    commands: int
    events: list[dict[str, Any]] = field(repr=False)
    hand_points: list[list[int]] = field(default_factory=list)  # per hand, points gained per seat


def play_match(
    variant: Variant, bots: Sequence[Strategy], seed: int, keep_events: bool = True
) -> MatchResult:
    rng = random.Random(seed)
    events = variant.start(len(bots), seed=seed)
    state = variant.replay(events)
    commands = 0
    hand_points: list[list[int]] = []
    while state.status != MATCH_OVER:
        if commands > COMMAND_CAP:
            raise MatchDidNotEnd(f"match with seed {seed} passed {COMMAND_CAP} commands")
        command = None
        if state.status != PLAYING:
            command = {"type": "next-hand"}
        else:
            command = _out_of_turn(variant, state, bots, rng)
        if command is None and "seats" in (state.pending or {}):
            # An open choice: whoever wants to act first; nobody -> the Youngest Rule.
            for seat in rng.sample(state.to_act, len(state.to_act)):
                command = _ask(variant, state, seat, bots[seat], rng)
                if command is not None:
                    break
            else:
                command = {"type": "close-window"}
        if command is None:
            seat = state.to_act[0]
            command = _ask(variant, state, seat, bots[seat], rng)
            if command is None:
                raise RuntimeError(f"bot for seat {seat} returned no command in its turn")
        new = variant.decide(state, command)
        for event in new:
            if event["type"] == HAND_ENDED:
                hand_points.append(event["gained"])
        if keep_events:
            events += new
        state = variant.replay(new, state)
        commands += 1
    return MatchResult(
        places=list(state.places or []),
        winner=state.winner,
        scores=list(state.scores),
        hands=state.hand_number,
        commands=commands,
        events=events if keep_events else [],
        hand_points=hand_points,
    )


def _out_of_turn(variant: Variant, state: Any, bots: Sequence[Strategy], rng: random.Random) -> Any:
    """Uno calls and catches while someone owes a call; jump-ins while a window is open."""
    if state.uncalled:
        # A seat that owes the call has the first chance to make it (it may be in `to_act`,
        # as after an automatic precognitive lane play); then the others may catch it.
        owing = sorted(state.uncalled)
        for seat in owing + [s for s in range(state.seats) if s not in state.uncalled]:
            if seat in owing or seat not in state.to_act:
                command = _ask(variant, state, seat, bots[seat], rng)
                if command is not None:
                    return command
    window = (state.pending or {}).get("jump")
    if window is not None:
        holders = [
            s
            for s in range(state.seats)
            if s not in state.to_act and s != window["by"] and window["card"] in state.hands[s]
        ]
        for seat in rng.sample(holders, len(holders)):
            command = _ask(variant, state, seat, bots[seat], rng)
            if command is not None:
                return command
    return None


def _ask(variant: Variant, state: Any, seat: int, bot: Strategy, rng: random.Random) -> Any:
    legal = variant.legal_commands(state, seat)
    if not legal:
        return None
    return bot(variant.view(state, seat), legal, rng)


def play_matches(
    variant: Variant, bots: Sequence[Strategy], matches: int, seed: int = 0
) -> Iterator[MatchResult]:
    for i in range(matches):
        yield play_match(variant, bots, seed=seed + i, keep_events=False)
