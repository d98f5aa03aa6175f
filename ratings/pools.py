"""The rating pools of people, pure Python: a game's pool from its variant spec, the pools'
names in words, and the places a game gives its people once the bots are left out.

A pool is a rules family (`official`, `basic-plus`, `newno`, `censorship`), or a family under
the precognitive modifier (`official-precognitive`, `basic-plus-precognitive`): lanes change
the game enough that a skill at one says little about the other, so each is rated apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

FAMILIES = ("official", "basic-plus", "newno", "censorship")
PRECOGNITIVE = "-precognitive"
# Every pool, in the order the pages list them.
POOLS = (*FAMILIES, *(f"{family}{PRECOGNITIVE}" for family in ("official", "basic-plus")))
NAMES = {
    "official": "Official",
    "basic-plus": "Basic-plus",
    "newno": "NEWNO",
    "censorship": "Censorship",
}


def pool_of(variant: Mapping[str, Any]) -> str:
    """The pool of a game of this (normalised) variant spec."""
    rules = str(variant.get("rules") or "official")
    return f"{rules}{PRECOGNITIVE}" if variant.get("precognitive") else rules


def pool_name(pool: str) -> str:
    """A pool in words: "Official", "Basic-plus + precognitive"."""
    if pool.endswith(PRECOGNITIVE):
        base = pool.removesuffix(PRECOGNITIVE)
        return f"{NAMES.get(base, base)} + precognitive"
    return NAMES.get(pool, pool)


def people_places(places: Sequence[int], people: Sequence[int]) -> list[int]:
    """The places of the seats `people` among themselves, from the whole table's places (1 is
    best, ties shared): the bots' seats are left out and the people closed up, so [2, 1, 3]
    with people at seats 0 and 2 gives [1, 2]."""
    kept = [places[seat] for seat in people]
    return [1 + sum(1 for other in kept if other < place) for place in kept]
