"""The bot driver: which seat decides next, and asking its strategy. Pure Python, no Django.

One driver serves every place where bots play: in-process simulations (games/simulation.py, the
benchmarks) and the workers (games/turns.py), which hand it only the seats they move. It gives
chances in this order:

1. out of turn: uno calls and catches while someone owes a call (the owing seat first, then the
   others not in `to_act`), and newno jump-ins to every other seat holding the card on top while
   a window is open, in a random order;
2. an open choice (newno: a pending with several `seats`) to its seats in a random order; a
   strategy may let it pass (None), and when every eligible seat is driven and none acts, the
   system `close-window` (the Youngest Rule, RULES.md) at once;
3. the first seat of `to_act`, which must answer.

`step` decides one command and starts the next hand in the same step when the command ended one,
so nobody ever sees a game between hands. `play` runs steps until the next decision belongs to a
seat the driver does not move. `rng` is the only source of chance: a seeded run is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.bots import Strategy
from games.engine import HAND_OVER, MATCH_OVER, PLAYING, IllegalCommand, State, Variant
from games.engine.commands import CLOSE_WINDOW, NEXT_HAND

Command = dict[str, Any]
Event = dict[str, Any]


class BotFailed(RuntimeError):
    """A built-in strategy gave no command, or an illegal one, in its own turn: a bug in it."""

    code = "bot-failed"


def step(variant: Variant, state: State, command: Command) -> tuple[list[Event], State]:
    """The events of `command` and the state after them, the next hand started in the same
    step when the command ended a hand. Raises IllegalCommand and changes nothing if illegal."""
    events = variant.decide(state, command)
    state = variant.replay(events, state)
    if state.status == HAND_OVER:
        more = variant.decide(state, {"type": NEXT_HAND})
        state = variant.replay(more, state)
        events = events + more
    return events, state


def next_command(
    variant: Variant, state: State, strategies: Mapping[int, Strategy], rng: random.Random
) -> Command | None:
    """The next command the seats of `strategies` (or the system for them) send, or None when
    the next decision belongs to another seat."""
    if state.status == HAND_OVER:
        return {"type": NEXT_HAND}
    if state.status != PLAYING or not state.to_act:
        return None
    command = _out_of_turn(variant, state, strategies, rng)
    if command is not None:
        return command
    if "seats" in (state.pending or {}):
        eligible = list(state.to_act)
        for seat in rng.sample(eligible, len(eligible)):
            if seat in strategies and (command := _ask(variant, state, seat, strategies, rng)):
                return command
        if all(seat in strategies for seat in eligible):
            return {"type": CLOSE_WINDOW}
        return None
    seat = state.to_act[0]
    if seat not in strategies:
        return None
    command = _ask(variant, state, seat, strategies, rng)
    if command is None:
        raise BotFailed(f"the bot in seat {seat} returned no command in its turn")
    return command


def _out_of_turn(
    variant: Variant, state: State, strategies: Mapping[int, Strategy], rng: random.Random
) -> Command | None:
    if state.uncalled:
        # A seat that owes the call has the first chance to make it (it may be in `to_act`, as
        # after an automatic precognitive lane play); then the others may catch it.
        owing = sorted(state.uncalled)
        for seat in owing + [s for s in range(state.seats) if s not in state.uncalled]:
            if seat in strategies and (seat in owing or seat not in state.to_act):
                if command := _ask(variant, state, seat, strategies, rng):
                    return command
    window = (state.pending or {}).get("jump")
    if window is not None:
        holders = [
            s
            for s in range(state.seats)
            if s in strategies
            and s not in state.to_act
            and s != window["by"]
            and window["card"] in state.hands[s]
        ]
        for seat in rng.sample(holders, len(holders)):
            if command := _ask(variant, state, seat, strategies, rng):
                return command
    return None


def _ask(
    variant: Variant,
    state: State,
    seat: int,
    strategies: Mapping[int, Strategy],
    rng: random.Random,
) -> Command | None:
    legal = variant.legal_commands(state, seat)
    if not legal:
        return None
    command: Command | None = strategies[seat](variant.view(state, seat), legal, rng)
    return command


@dataclass(slots=True)
class Run:
    """What `play` decided: the events (kept only if asked), the state after them, the commands
    sent and the seats that sent one."""

    state: State
    events: list[Event] = field(default_factory=list)
    commands: int = 0
    seats: set[int] = field(default_factory=set)


def play(
    variant: Variant,
    state: State,
    strategies: Mapping[int, Strategy],
    rng: random.Random,
    *,
    limit: int,
    keep_events: bool = True,
    on_events: Any = None,
) -> Run:
    """Step the seats of `strategies` until the next decision is another seat's, the match is
    over, or `limit` commands. `on_events(events)` sees each step's events. Raises BotFailed
    when a strategy gives an illegal command."""
    run = Run(state)
    while run.commands < limit and run.state.status != MATCH_OVER:
        command = next_command(variant, run.state, strategies, rng)
        if command is None:
            break
        try:
            events, run.state = step(variant, run.state, command)
        except IllegalCommand as error:
            raise BotFailed(f"{command} was refused: {error}") from error
        if keep_events:
            run.events += events
        if on_events is not None:
            on_events(events)
        run.commands += 1
        if "seat" in command:
            run.seats.add(command["seat"])
    return run
