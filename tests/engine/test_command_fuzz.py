"""Bad commands against the engine: arbitrary JSON (any shape, wrong types, unknown types,
missing and unknown fields, huge numbers, NaN, nested junk) and legal commands bent one field at
a time, sent to `Variant.decide` for a real mid-game state of every family (official,
basic-plus, newno, censorship, and precognitive over official and basic-plus).

Each one is either legal (decide returns events) or refused with `IllegalCommand` carrying a
reason code and a message; never another exception. Either way the state passed in is the same
afterwards, and so is every seat's view (decide is pure: docs/rules.md, a refused command changes
nothing). The heavier run, more examples on more states, is marked slow (UNO_SLOW_TESTS=1).
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note

from engine import IllegalCommand, State, Variant
from tests.engine.junk import CODE, bad_commands

SPECS: dict[str, dict[str, Any]] = {
    "official": {"rules": "official"},
    "basic-plus": {"rules": "basic-plus"},
    "newno": {"rules": "newno"},
    "censorship": {"rules": "censorship"},
    "precognitive-official": {
        "rules": "official",
        "precognitive": {"lane": 2, "sight": "sighted"},
    },
    "precognitive-basic-plus": {
        "rules": "basic-plus",
        "precognitive": {"lane": "half-hand", "sight": "blind"},
    },
}
SEATS = 4


def legal_now(variant: Variant, state: State) -> list[dict[str, Any]]:
    """Every command any seat (or the system) may send now."""
    return [
        command
        for seat in [None, *range(state.seats)]
        for command in variant.legal_commands(state, seat)
    ]


def mid_game(family: str, moves: int, seed: int = 7) -> tuple[Variant, State, list[Any]]:
    """The state after `moves` legal commands drawn at random (fewer if the match ends), and
    the legal commands then: a real position, with cards in hands, piles and lanes."""
    variant = Variant.from_spec(SPECS[family])
    ages = list(range(SEATS)) if family == "newno" else None
    state = variant.replay(variant.start(SEATS, seed=seed, ages=ages))
    rng = random.Random(seed)
    for _ in range(moves):
        legal = legal_now(variant, state)
        if not legal or state.status == "match-over":
            break
        state = variant.replay(variant.decide(state, rng.choice(legal)), state)
    return variant, state, legal_now(variant, state)


def snapshot(variant: Variant, state: State) -> bytes:
    """The state and every view of it, as bytes to compare."""
    views = [variant.view(state, seat) for seat in [None, *range(state.seats)]]
    return pickle.dumps((state, views))


def check(variant: Variant, state: State, before: bytes, command: Any) -> None:
    try:
        variant.decide(state, command)
    except IllegalCommand as refusal:
        assert isinstance(refusal.code, str) and CODE.match(refusal.code), refusal.code
        assert isinstance(refusal.message, str) and refusal.message
        note(f"refused: {refusal.code}")
    else:
        note("legal")
    assert snapshot(variant, state) == before, "decide changed the state it was given"


def fuzz(family: str, moves: int, examples: int) -> None:
    variant, state, legal = mid_game(family, moves)
    before = snapshot(variant, state)

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(command=bad_commands(legal, json_only=False))
    def run(command: Any) -> None:
        check(variant, state, before, command)

    run()


@pytest.mark.parametrize("family", sorted(SPECS))
def test_a_bad_command_is_refused_with_a_code_and_changes_nothing(family):
    fuzz(family, moves=12, examples=150)


@pytest.mark.slow
@pytest.mark.parametrize("moves", [0, 3, 25, 60])
@pytest.mark.parametrize("family", sorted(SPECS))
def test_a_bad_command_is_refused_at_any_point_of_a_match(family, moves):
    fuzz(family, moves=moves, examples=2000)


@pytest.mark.parametrize("family", sorted(SPECS))
def test_every_family_is_mid_game_with_something_legal(family):
    """The fuzz above runs on a live position, not on a finished or empty one."""
    variant, state, legal = mid_game(family, moves=12)
    assert state.status == "playing" and legal
