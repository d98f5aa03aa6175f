"""Built-in bots: pure functions of a seat's view and its legal commands.

A strategy is `choose(view, legal, rng) -> command | None`. When the seat is in `to_act` it must
return a legal command, except in a newno open choice (a pending with several `seats`), where
None lets the choice pass to the other seats (and, when nobody acts, to the Youngest Rule). Out
of turn (uno calls, catches, newno jump-ins) it may return None to do nothing. A `precommit` may
be any ordered choice of `count` cards of the regular hand, as the engine allows, even when
`legal` lists only some of them. `rng` is the only source of chance, so a seeded simulation is
reproducible. docs/bots.md describes each strategy and its measured strength.
"""

from __future__ import annotations

from bots.strategies.builtin import greedy, random_legal
from bots.strategies.censorship import censor
from bots.strategies.common import Strategy
from bots.strategies.newno import stacker
from bots.strategies.official import colour_control
from bots.strategies.precognitive import lane_planner

STRATEGIES: dict[str, Strategy] = {
    "random": random_legal,
    "greedy": greedy,
    "colour-control": colour_control,
    "lane-planner": lane_planner,
    "stacker": stacker,
    "censor": censor,
}

# Each built-in bot in one line, with the families it is made for: the new-game form shows these
# where a person picks a bot (web/new_game.py), and docs/bots.md's table says the same (a test,
# tests/web/test_new_game.py, holds them together).
STRATEGY_LINES: dict[str, tuple[str, str]] = {
    "random": ("every family", "any legal move, uniformly"),
    "greedy": ("every family", "sheds its highest card, keeps black cards for late"),
    "colour-control": ("official, basic-plus", "plays to keep the colour it holds most"),
    "lane-planner": ("precognitive", "commits the cards most likely to play from its lane"),
    "stacker": ("newno", "stacks, jumps in, swaps with 7 and 0 when it gains"),
    "censor": ("censorship", "a censor's rulings and a submitter's dumping"),
}


def find_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(STRATEGIES)}") from None


__all__ = ["STRATEGIES", "STRATEGY_LINES", "Strategy", "find_strategy"]
