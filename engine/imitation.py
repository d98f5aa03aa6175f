"""Imitation learning from the open database (docs/database.md, docs/training.md): a file's
games as (observation, action) pairs, encoded as the training environment (engine/env.py)
encodes them.

The log records facts, not commands, so each game is replayed through the engine: at each point
the command that was sent is the one whose decision makes exactly the log's next events (the
engine is deterministic given the state, and the state holds the seed). Each seat's command
becomes one pair (a precommit one pair a lane slot, as the environment asks for it), its
observation built from that seat's view at that moment and its mask from its legal commands.
A declined chance leaves nothing in the log, so `wait` never appears; the system's
`next-hand` and `close-window` are replayed, not paired.

Needs the environment's optional packages (numpy, gymnasium, pettingzoo; docs/training.md)
and zstandard (engine/open_data.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from engine.commands import CLOSE_WINDOW, NEXT_HAND, PRECOMMIT, Command
from engine.env import ACTION_INDEX, LANE, Observation, UnoEnv, action_index
from engine.events import (
    FALLBACK_PLAYED,
    LANE_FILLED,
    MATCH_ENDED,
    PROMPTED,
    SEAT_FORFEITED,
    SEAT_HANDED_OVER,
    SERVICE_FACTS,
    Event,
)
from engine.open_data import Line, read_games
from engine.state import HAND_OVER, PLAYING, State
from engine.variant import Variant

# Which seats of a game to pair: (the game's line, seat) -> keep it. None keeps every seat.
SeatFilter = Callable[[Line, int], bool]
# How far past the next event a precommit's lane-filled may lie (an uno call may come first).
_LANE_LOOKAHEAD = 4


class Pair(NamedTuple):
    """One decision: what the seat observed and the action it took, and where it comes from.

    `default` is true for the default bot's moves (a timed-out turn's fallback, every move of
    a seat after it was forfeited or handed over): not the seat's player's choice."""

    observation: Observation  # {"observation": float32 vector, "action_mask": int8 vector}
    action: int
    game: int
    seat: int
    default: bool


class Unmatched(ValueError):
    """No command makes the log's next events: a log of other rules, or a damaged file."""


def load_pairs(path: str | Path, seat_filter: SeatFilter | None = None) -> Iterator[Pair]:
    """Every pair of every game of an open-database file, game by game, in the log's order."""
    for line in read_games(path):
        yield from game_pairs(line, seat_filter)


def people_only(line: Line, seat: int) -> bool:
    """A SeatFilter: the seats people played (not bots)."""
    return bool(line["seats"][seat]["kind"] == "person")


def game_pairs(line: Line, seat_filter: SeatFilter | None = None) -> Iterator[Pair]:
    """One game's pairs (its line of an open-database file)."""
    events: list[Event] = line["events"]
    variant = Variant.from_stream(events[0], line.get("variant"))
    # The match's opening (Variant.start: the first deal, up to its first prompt) is nobody's
    # command.
    opening = next(i for i, e in enumerate(events) if e["type"] == PROMPTED) + 1
    state = variant.replay(events[:opening])
    asker = _Asker(variant, state.seats)
    by_default: set[int] = set()
    fallback: set[int] = set()
    at = opening
    while at < len(events):
        event = events[at]
        ended_by_forfeit = event["type"] == MATCH_ENDED and events[at - 1]["type"] == SEAT_FORFEITED
        if (
            event["type"] in SERVICE_FACTS
            or ended_by_forfeit
            or state.status
            not in (
                PLAYING,
                HAND_OVER,
            )
        ):
            # Who plays a seat (folded as no-ops), the end forfeits that leave one seat playing
            # make (scoring.forfeit_end: no command's), or what follows the match's end.
            if event["type"] in (SEAT_FORFEITED, SEAT_HANDED_OVER):
                by_default.add(event["seat"])
            elif event["type"] == FALLBACK_PLAYED:
                fallback.add(event["seat"])
            state = variant.replay([event], state)
            at += 1
            continue
        command, count = _match(variant, state, events, at, line.get("game"))
        seat = command.get("seat")
        if seat is not None and (seat_filter is None or seat_filter(line, seat)):
            default = seat in by_default or seat in fallback
            yield from _pairs(asker, state, command, line["game"], default)
        if seat is not None:
            fallback.discard(seat)
        state = variant.replay(events[at : at + count], state)
        at += count


class _Asker:
    """The training environment itself, made to ask a seat at a state of the log: its own
    choice of actions, mask and observation (its core's select and offer, engine/env_core.py),
    so the pairs are encoded by the environment's code and stay as it encodes them."""

    def __init__(self, variant: Variant, seats: int) -> None:
        self.env = UnoEnv(variant.spec, seats=seats, max_steps=None)
        self.env.reset(seed=0)

    def ask(self, state: State, seat: int, optional: bool) -> Observation:
        env = self.env
        env._core.ask(state, seat, optional)
        return env.observe(env.possible_agents[seat])

    def choose(self, card: str, seat: int) -> Observation:
        """The next lane slot of the precommit being chosen: `card` taken, the next asked."""
        env = self.env
        env.chance.chosen.append(card)
        env._core.offer(env.chance)
        return env.observe(env.possible_agents[seat])


def _pairs(
    asker: _Asker, state: State, command: Command, game: int, default: bool
) -> Iterator[Pair]:
    seat: int = command["seat"]
    pending = state.pending or {}
    # The environment asks the first seat of to_act without a choice to wait, every other
    # chance (an uno call or catch, a jump-in, an open choice) with one.
    must = "seats" not in pending and bool(state.to_act) and state.to_act[0] == seat
    observation = asker.ask(state, seat, not must)
    if command["type"] != PRECOMMIT:
        yield Pair(observation, action_index(command, state.seats), game, seat, default)
        return
    cards = list(command["cards"])
    for slot, card in enumerate(cards):
        if slot:
            observation = asker.choose(cards[slot - 1], seat)
        last = slot == len(cards) - 1
        action = ACTION_INDEX[(LANE, card, last and bool(command.get("uno")))]
        yield Pair(observation, action, game, seat, default)


def _plain(value: Any) -> Any:
    """An engine event as JSON gives it back (tuples as lists)."""
    return json.loads(json.dumps(value))


def _match(
    variant: Variant, state: State, events: list[Event], at: int, game: Any
) -> tuple[Command, int]:
    """The command whose decision is the log's events from `at`, and how many events it made."""
    for command in _candidates(variant, state, events, at):
        try:
            decided = variant.decide(state, command)
        except ValueError:  # IllegalCommand, a shape the state refuses
            continue
        count = len(decided)
        if count and _plain(decided) == events[at : at + count]:
            return command, count
    raise Unmatched(
        f"game {game}: no command makes event {at + 1} ({events[at].get('type')}) of its log"
    )


def _candidates(variant: Variant, state: State, events: list[Event], at: int) -> Iterator[Command]:
    if state.status == HAND_OVER:
        yield {"type": NEXT_HAND}
        return
    named = events[at].get("seat")
    seats = sorted(range(state.seats), key=lambda s: s != named)
    for seat in seats:
        for command in variant.legal_commands(state, seat):
            if command["type"] != PRECOMMIT:
                yield command
    # A precommit: the one its lane-filled names (the engine lists only some orders).
    for event in events[at : at + _LANE_LOOKAHEAD]:
        if event["type"] == LANE_FILLED:
            for uno in (False, True):
                yield {
                    "type": PRECOMMIT,
                    "seat": event["seat"],
                    "cards": list(event["cards"]),
                    "uno": uno,
                }
    if state.pending is not None:
        yield {"type": CLOSE_WINDOW}
