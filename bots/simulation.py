"""Bot-versus-bot matches played in-process through the engine's public API (no database).

Used by `manage.py simulate`, the benchmarks and the tests. Every seat is a strategy, and the
driver (bots/driver.py, shared with the workers) decides who moves next; a step that ends a
hand starts the next one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.driver import play
from bots.strategies import Strategy
from engine import Variant
from engine.events import HAND_ENDED

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
    hand_points: list[list[int]] = []

    def count_hands(new: list[dict[str, Any]]) -> None:
        for event in new:
            if event["type"] == HAND_ENDED:
                hand_points.append(event["gained"])

    strategies = dict(enumerate(bots))
    run = play(
        variant,
        variant.replay(events),
        strategies,
        rng,
        limit=COMMAND_CAP + 1,
        keep_events=keep_events,
        on_events=count_hands,
    )
    state = run.state
    if run.commands > COMMAND_CAP:
        raise MatchDidNotEnd(f"match with seed {seed} passed {COMMAND_CAP} commands")
    return MatchResult(
        places=list(state.places or []),
        winner=state.winner,
        scores=list(state.scores),
        hands=state.hand_number,
        commands=run.commands,
        events=events + run.events if keep_events else [],
        hand_points=hand_points,
    )


def play_matches(
    variant: Variant, bots: Sequence[Strategy], matches: int, seed: int = 0
) -> Iterator[MatchResult]:
    for i in range(matches):
        yield play_match(variant, bots, seed=seed + i, keep_events=False)
