"""Short matches for the analysis tests: a stacked deal played to its end by bots."""

from __future__ import annotations

import random
from typing import Any

from bots.driver import play, step
from bots.strategies import find_strategy
from engine import Variant

Event = dict[str, Any]


def finish(
    variant: Variant, events: list[Event], seed: int = 0, bot: str = "greedy"
) -> list[Event]:
    """`events` played on to the end of the match by `bot` in every seat."""
    state = variant.replay(events)
    strategies = dict.fromkeys(range(state.seats), find_strategy(bot))
    run = play(variant, state, strategies, random.Random(seed), limit=100_000)
    return events + run.events


def after(variant: Variant, events: list[Event], command: dict[str, Any]) -> list[Event]:
    """`events` and those of `command` (the next hand started if it ends one)."""
    new, _ = step(variant, variant.replay(events), command)
    return events + new
