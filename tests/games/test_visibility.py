"""visibility against the full check it shortcuts, on every family's seeded matches.

The log files an event public when a spectator sees it whole (`view_event(event, None) ==
event`). `ALWAYS_PUBLIC` skips that check for the types event_view never changes: every such
event must be public to every viewer, and every event of every type must be filed as the full
check files it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bots.simulation import play_match
from bots.strategies import find_strategy
from engine import Variant
from games.models import GameEvent
from games.visibility import ALWAYS_PUBLIC, visibility

FAMILIES: list[tuple[dict[str, Any], list[str]]] = [
    ({"rules": "official", "options": {"target": 500}}, ["colour-control", "greedy"]),
    ({"rules": "basic-plus"}, ["colour-control", "random"]),
    ({"rules": "newno"}, ["stacker", "random"]),
    ({"rules": "censorship"}, ["censor", "random"]),
    ({"rules": "official", "precognitive": {"lane": 1}}, ["lane-planner", "random"]),
    (
        {"rules": "basic-plus", "precognitive": {"lane": 2, "sight": "blind"}},
        ["lane-planner", "greedy"],
    ),
]


def full_check(variant: Variant, event: dict[str, Any]) -> str:
    if variant.view_event(event, None) == event:
        return GameEvent.Visibility.PUBLIC
    return GameEvent.Visibility.PRIVATE


@pytest.mark.parametrize(("spec", "names"), FAMILIES)
def test_visibility_is_the_full_check(spec: dict[str, Any], names: list[str]) -> None:
    variant = Variant.from_spec(spec)
    bots = [find_strategy(names[s % len(names)]) for s in range(4)]
    seen: set[str] = set()
    for seed in range(3):
        events = variant.start(4, seed=seed) + play_match(variant, bots, seed=seed).events
        for event in events:
            seen.add(event["type"])
            assert visibility(variant, event) == full_check(variant, event), event
            if event["type"] in ALWAYS_PUBLIC:
                for viewer in (None, 0, 1, 2, 3):
                    assert variant.view_event(event, viewer) == event, (viewer, event)
    # Private types are met too, so the full check is exercised on both answers.
    assert {"hand-started", "cards-drawn", "prompted"} <= seen


def test_every_always_public_type_is_met() -> None:
    """Every type of ALWAYS_PUBLIC occurs in the matches above (so each one is compared)."""
    met: set[str] = set()
    for spec, names in FAMILIES:
        variant = Variant.from_spec(spec)
        bots = [find_strategy(names[s % len(names)]) for s in range(4)]
        for seed in range(3):
            met.update(e["type"] for e in play_match(variant, bots, seed=seed).events)
    assert ALWAYS_PUBLIC <= met, ALWAYS_PUBLIC - met
