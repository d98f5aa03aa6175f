"""Helpers for the bot tests: a checking wrapper around a strategy, and small match runners."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bots.simulation import play_match
from bots.strategies import Strategy, find_strategy
from engine import Variant


class Checked:
    """Wraps a strategy: every command it returns must be legal; records what it answered.

    In turn a strategy returns one of `legal` (a `precommit` may be any ordered choice of the
    right number of cards of the regular hand, which the engine then checks when it decides it);
    None only in a newno open choice or out of turn.
    """

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.answered: Counter[str] = Counter()  # pending type -> commands returned
        self.jump_ins = 0

    def __call__(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random):
        command = self.strategy(view, legal, rng)
        pending = view["pending"] or {}
        mine = view["seat"] in view["to_act"]
        if command is None:
            assert not mine or "seats" in pending, f"no command in turn for {pending}"
            return None
        if command["type"] == "precommit":
            assert mine and pending["type"] == "precommit"
            assert len(command["cards"]) == pending["count"]
            assert not Counter(command["cards"]) - Counter(view["hand"])
            assert command["uno"] == (view["seat"] in view["uncalled"])
        else:
            assert command in legal, f"{command} is not legal here: {legal}"
        if mine:
            self.answered[pending["type"]] += 1
        elif command["type"] == "play":
            self.jump_ins += 1
        return command


def checked_matches(
    spec: dict[str, Any], names: list[str], seats: int, seeds: range
) -> list[Checked]:
    """Play full matches with every strategy wrapped; returns the wrappers, one per name."""
    variant = Variant.from_spec(spec)
    wrappers = {name: Checked(find_strategy(name)) for name in names}
    bots = [wrappers[names[s % len(names)]] for s in range(seats)]
    for seed in seeds:
        play_match(variant, bots, seed=seed, keep_events=False)
    return [wrappers[name] for name in names]


def win_shares(
    spec: dict[str, Any], names: list[str], seats: int, matches: int, seed: int = 0
) -> dict[str, float]:
    """The share of matches each strategy won (seats alternate between the names)."""
    variant = Variant.from_spec(spec)
    bots = [find_strategy(names[s % len(names)]) for s in range(seats)]
    wins: Counter[str] = Counter()
    for i in range(matches):
        places = play_match(variant, bots, seed=seed + i, keep_events=False).places
        firsts = [s for s, place in enumerate(places) if place == 1]
        for s in firsts:
            wins[names[s % len(names)]] += 1 / len(firsts)
    return {name: wins[name] / matches for name in names}


def ask(variant: Variant, state: Any, seat: int, name: str, seed: int = 0) -> dict[str, Any] | None:
    """What strategy `name` answers for `seat` in `state`."""
    strategy = find_strategy(name)
    legal = variant.legal_commands(state, seat)
    return strategy(variant.view(state, seat), legal, random.Random(seed))


def run(variant: Variant, state: Any, *commands: dict[str, Any]) -> Any:
    for command in commands:
        state = variant.replay(variant.decide(state, command), state)
    return state
