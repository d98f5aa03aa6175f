"""The built-in strategies: `random` (random-legal) and `greedy`."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.engine.cards import COLOR_OF, COLORS, POINTS

View = dict[str, Any]
Command = dict[str, Any]
Strategy = Callable[[View, list[Command], random.Random], Command | None]

OUT_OF_TURN = ("catch", "call-uno")


def _worth_it(view: View, command: Command) -> bool:
    """Out-of-turn commands that cost nothing: a catch of a catchable seat, a call that is owed."""
    if command["type"] == "catch":
        return command["target"] in view["uncalled"]
    if command["type"] == "call-uno":
        return view["seat"] in view["uncalled"]
    return True


def random_legal(view: View, legal: list[Command], rng: random.Random) -> Command | None:
    """Any legal move, uniformly; catches and owed calls half the time when out of turn."""
    if view["seat"] in view["to_act"]:
        moves = [c for c in legal if c["type"] not in OUT_OF_TURN or _worth_it(view, c)]
        return rng.choice(moves) if moves else None
    extras = [c for c in legal if _worth_it(view, c)]
    return rng.choice(extras) if extras and rng.random() < 0.5 else None


def _best_color(hand: list[str]) -> str:
    counts = Counter(COLOR_OF[c] for c in hand if COLOR_OF[c] is not None)
    return counts.most_common(1)[0][0] if counts else COLORS[0]


def greedy(view: View, legal: list[Command], rng: random.Random) -> Command | None:
    """Shed the most points first, keep black cards for late, never miss an uno or a catch."""
    for command in legal:
        if command["type"] in OUT_OF_TURN and _worth_it(view, command):
            return command
    if view["seat"] not in view["to_act"]:
        return None
    hand = view["hand"]
    color = _best_color(hand)
    plays = [c for c in legal if c["type"] == "play" and c.get("color") in (None, color)]
    # Call uno whenever the play leaves one card.
    plays = [
        c
        for c in plays
        if c["uno"]
        or not any(o is not c and o.get("uno") and o["card"] == c["card"] for o in plays)
    ]
    if plays:
        late = len(hand) <= 3

        def value(command: Command) -> tuple[int, int]:
            black = COLOR_OF[command["card"]] is None
            return (0 if black and not late else 1, POINTS[command["card"]])

        return max(plays, key=value)
    by_type = {c["type"]: c for c in legal}
    if "choose-color" in by_type:
        return next(c for c in legal if c["type"] == "choose-color" and c["color"] == color)
    if "precommit" in by_type:
        # A front card that will surely match (black, or the colour now in play), then the
        # colour held most; ties broken at random, so a stuck hand does not commit the same
        # unplayable card for ever.
        owed = view["seat"] in view["uncalled"]

        def promise(command: Command) -> tuple[bool, bool, int, float]:
            front = COLOR_OF[command["cards"][0]]
            held = sum(COLOR_OF[x] == color for x in command["cards"])
            return (front is None, front == view["color"], held, rng.random())

        commits = [c for c in legal if c["type"] == "precommit" and c["uno"] == owed]
        return max(commits, key=promise)
    for kind in ("accept", "pass", "draw"):
        if kind in by_type:
            return by_type[kind]
    moves = [c for c in legal if c["type"] not in OUT_OF_TURN]
    return rng.choice(moves) if moves else None


STRATEGIES: dict[str, Strategy] = {"random": random_legal, "greedy": greedy}


def find_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(STRATEGIES)}") from None
