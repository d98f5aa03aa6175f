"""The bot driver: which seat decides next, and asking its strategy. Pure Python, no Django.

One driver serves every place where bots play: in-process simulations (bots/simulation.py, the
benchmarks) and the workers (bots/turns.py), which hand it only the seats they move. It gives
chances in this order:

1. out of turn: uno calls and catches while someone owes a call (the owing seat first, then the
   others not in `to_act`), and newno jump-ins to every other seat holding the card on top while
   a window is open, in a random order;
2. an open choice (newno: a pending with several `seats`) to its seats in a random order; a
   strategy may let it pass (None), and when every eligible seat is driven and none acts, the
   system `close-window` (the Youngest Rule, docs/rules.md) at once; a remote bot's seat with
   nothing to play (only catches that would cost it cards) counts as one that let it pass;
3. the first seat of `to_act`, which must answer.

Seats the driver does not move may still be owed the out-of-turn chances of (1): registered remote
bots (webhook and pull) get them as windows the worker offers between appends
(bots/remote/windows.py). Given `Windows`, the driver asks those seats nothing; when one comes up
in the order of (1) with a chance that is new since the last step (a new uno debt, a new jump-in
window), it stops (`Run.window`), so what it decided is appended and the window offered before
anyone after it in that order acts. Without `Windows` (bot-only games, simulations) nothing of
this runs.

`step` decides one command and starts the next hand in the same step when the command ended one,
so nobody ever sees a game between hands. `play` runs steps until the next decision belongs to a
seat the driver does not move. `rng` is the only source of chance: a seeded run is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bots.strategies import Strategy
from engine import HAND_OVER, MATCH_OVER, PLAYING, IllegalCommand, State, Variant
from engine.commands import CLOSE_WINDOW, NEXT_HAND, free_commands
from engine.events import UNO_OWED

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


@dataclass(frozen=True, slots=True)
class Windows:
    """Seats the driver does not move that are owed out-of-turn windows (remote bots), and which
    chances in the state at hand are new: the seats whose uno debt is new, and whether the newno
    jump-in window is."""

    seats: frozenset[int]
    owed: frozenset[int] = frozenset()
    jump: bool = False
    # People at the table (a subset of `seats`): bots wait for them (a grace, bots/turns.py) at
    # a new out-of-turn chance of theirs before any bot acts on it, and at a new open choice
    # they are eligible for (`choice`).
    people: frozenset[int] = frozenset()
    choice: bool = False


class WindowDue:
    """`next_command`'s answer when a seat of `Windows` is to be offered a window first."""


WINDOW_DUE = WindowDue()


def chances(state: State, *, owed: frozenset[int] | None = None, jump: bool = True) -> list[int]:
    """The seats with an out-of-turn chance now, in the order the driver asks them: while seats
    owe an uno call (only those of `owed`, if given), the owing seats, then every other seat not
    in `to_act`; while a newno jump-in window is open (if `jump`), the other seats not in
    `to_act` holding its card. Each seat once."""
    if state.status != PLAYING:
        return []
    found: list[int] = []
    targets = state.uncalled if owed is None else state.uncalled & owed
    if targets:
        found += _uno_order(state, targets)
    if jump:
        found += [seat for seat in _jump_holders(state) if seat not in found]
    return found


def next_command(
    variant: Variant,
    state: State,
    strategies: Mapping[int, Strategy],
    rng: random.Random,
    windows: Windows | None = None,
) -> Command | WindowDue | None:
    """The next command the seats of `strategies` (or the system for them) send, None when the
    next decision belongs to another seat, or WINDOW_DUE when a seat of `windows` has a new
    chance before any of `strategies` would act."""
    if state.status == HAND_OVER:
        return {"type": NEXT_HAND}
    if state.status != PLAYING or not state.to_act:
        return None
    command = _out_of_turn(variant, state, strategies, rng, windows)
    if command is not None:
        return command
    if "seats" in (state.pending or {}):
        eligible = list(state.to_act)
        # A person at the table who may answer the new open choice gets their chance first; one
        # with no move that costs nothing (no card to play) holds nobody up (docs/rules.md).
        if (
            windows is not None
            and windows.choice
            and any(s in windows.people and variant.free_commands(state, s) for s in eligible)
        ):
            return WINDOW_DUE
        for seat in rng.sample(eligible, len(eligible)):
            if seat in strategies and (command := _ask(variant, state, seat, strategies, rng)):
                return command
        if all(
            seat in strategies or _stands_aside(variant, state, seat, windows) for seat in eligible
        ):
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
    variant: Variant,
    state: State,
    strategies: Mapping[int, Strategy],
    rng: random.Random,
    windows: Windows | None,
) -> Command | WindowDue | None:
    remote = windows.seats if windows is not None else frozenset()
    if state.uncalled:
        # A seat that owes the call has the first chance to make it (it may be in `to_act`, as
        # after an automatic precognitive lane play); then the others may catch it, a person at
        # the table with a new chance before any bot.
        order = _uno_order(state, state.uncalled)
        person_first = windows is not None and any(
            seat in windows.people and _new_uno_chance(variant, state, seat, windows)
            for seat in order
            if seat not in state.uncalled
        )
        for seat in order:
            if seat in strategies:
                if person_first and seat not in state.uncalled:
                    return WINDOW_DUE
                if command := _ask(variant, state, seat, strategies, rng):
                    return command
            elif seat in remote and _new_uno_chance(variant, state, seat, windows):
                return WINDOW_DUE
    if (state.pending or {}).get("jump") is not None:
        # Remote holders draw their place in the same random order as the driver's own seats.
        holders = [s for s in _jump_holders(state) if s in strategies or s in remote]
        if windows is not None and windows.jump:
            # A person at the table who may jump in gets the grace before any bot does.
            if any(s in windows.people and variant.free_commands(state, s) for s in holders):
                return WINDOW_DUE
        for seat in rng.sample(holders, len(holders)):
            if seat not in strategies:
                if windows is not None and windows.jump and variant.free_commands(state, seat):
                    return WINDOW_DUE
            elif command := _ask(variant, state, seat, strategies, rng):
                return command
    return None


def _stands_aside(variant: Variant, state: State, seat: int, windows: Windows | None) -> bool:
    """Whether `seat`, eligible for an open choice, is a remote bot with nothing to answer it
    with (no card to play: its only legal commands are catches that would cost it cards). Such
    a seat is not asked (bots/remote/pull_turns.py, bots/turns.py) and nobody waits for it."""
    remote_bot = windows is not None and seat in windows.seats and seat not in windows.people
    return remote_bot and not variant.free_commands(state, seat)


def nothing_to_answer(view: Mapping[str, Any], legal: list[Command]) -> bool:
    """Whether a bot's seat in `to_act`, shown `view` with `legal`, is asked nothing: it is
    eligible for a newno open choice (`pending.seats`) with no card to play, its only legal
    commands catches that would cost it cards. Nobody waits for it (`_stands_aside`)."""
    pending = view.get("pending") or {}
    return "seats" in pending and not free_commands(legal, view.get("uncalled") or ())


def _uno_order(state: State, owing: frozenset[int]) -> list[int]:
    """The owing seats, then the others not in `to_act` (who may catch them)."""
    first = sorted(owing)
    return first + [s for s in range(state.seats) if s not in owing and s not in state.to_act]


def _jump_holders(state: State) -> list[int]:
    window = (state.pending or {}).get("jump")
    if window is None:
        return []
    return [
        s
        for s in range(state.seats)
        if s not in state.to_act and s != window["by"] and window["card"] in state.hands[s]
    ]


def _new_uno_chance(variant: Variant, state: State, seat: int, windows: Windows | None) -> bool:
    """Whether `seat` may call or catch over a debt that is new (`windows.owed`)."""
    if windows is None or not windows.owed & state.uncalled:
        return False
    fresh = windows.owed & state.uncalled
    return (seat in fresh or bool(fresh - {seat})) and bool(variant.legal_commands(state, seat))


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
    # True when it stopped because a seat of `windows` is to be offered a window.
    window: bool = False


def play(
    variant: Variant,
    state: State,
    strategies: Mapping[int, Strategy],
    rng: random.Random,
    *,
    limit: int,
    keep_events: bool = True,
    on_events: Any = None,
    remote: frozenset[int] = frozenset(),
    people: frozenset[int] = frozenset(),
) -> Run:
    """Step the seats of `strategies` until the next decision is another seat's, the match is
    over, or `limit` commands; with `remote` seats, also when one of them has a new out-of-turn
    chance (`Run.window`; the state's own chances count as old: the caller offered them).
    `on_events(events)` sees each step's events. `people` (seats of people at the table) are
    treated as `remote`, and the run also stops before bots act on a new chance of theirs, or
    on a new open choice they may answer. Raises BotFailed when a strategy gives an illegal
    command."""
    run = Run(state)
    remote = remote | people
    windows = Windows(remote, people=people) if remote else None
    while run.commands < limit and run.state.status != MATCH_OVER:
        command = next_command(variant, run.state, strategies, rng, windows)
        if command is WINDOW_DUE:
            run.window = True
            break
        if command is None or isinstance(command, WindowDue):
            break
        before = run.state
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
        if windows is not None:
            windows = new_chances(remote, events, run.state, people, before)
    return run


def new_chances(
    remote: frozenset[int],
    events: list[Event],
    state: State,
    people: frozenset[int] = frozenset(),
    before: State | None = None,
) -> Windows:
    """The chances `events` opened: uno debts they record, and the jump-in window (one never
    outlives the command after the play that opened it, so an open one is always new); and
    whether they opened an open choice (one that `before`, the state they were decided in,
    did not have)."""
    owed = frozenset(e["seat"] for e in events if e["type"] == UNO_OWED)
    pending = state.pending or {}
    choice = "seats" in pending and (before is None or before.pending != pending)
    return Windows(remote, owed, "jump" in pending, people, choice)
