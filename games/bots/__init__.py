"""Built-in bots: pure functions of a seat's view and its legal commands.

A strategy is `choose(view, legal, rng) -> command | None`. When the seat is in `to_act` it must
return one of `legal`; out of turn (uno calls, catches) it may return None to do nothing.
`rng` is the only source of chance, so a seeded simulation is reproducible.
"""

from __future__ import annotations

from .builtin import STRATEGIES, Strategy, find_strategy

__all__ = ["STRATEGIES", "Strategy", "find_strategy"]
