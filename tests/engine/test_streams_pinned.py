"""Event streams pinned by their SHA-256: the engine plays every family exactly as it did.

A count-style regression file in the manner of python-chess's perft: seeded matches of every
family (and the precognitive modifier over two bases), played by a seeded random policy, hashed
event by event with the legal commands seen on the way. Existing games are replayed from their
logs, so a representation change (docs/performance.md, "Engine") must leave every stream
byte-identical; a change of rules changes these hashes on purpose, together with
`RULES_VERSION`. The hashes were recorded with the engine before the speed work of issue 16.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from engine import IllegalCommand, Variant

OUT_OF_TURN = ("catch", "call-uno")
SPECS: dict[str, tuple[dict[str, Any], int]] = {
    "official-2": ({"rules": "official", "options": {"scoring": "single-hand"}}, 2),
    "official-4": ({"rules": "official", "options": {"target": 100}}, 4),
    "basic-plus-3": ({"rules": "basic-plus"}, 3),
    "newno-4": ({"rules": "newno", "options": {"hand_size": 4}}, 4),
    "censorship-4": ({"rules": "censorship"}, 4),
    "precognitive-official-3": ({"rules": "official", "precognitive": {"lane": 2}}, 3),
    "precognitive-basic-plus-3": (
        {"rules": "basic-plus", "precognitive": {"lane": "half-hand", "sight": "blind"}},
        3,
    ),
}
GAMES = 4
COMMAND_CAP = 300  # per match: enough to cross hands, reshuffles and uno windows

PINNED = {
    "basic-plus-3": [
        "9a9b342dc1a1a33c",
        "b7804446ffa0330b",
        "b3e36c76a9fbd75f",
        "563c17794752a721",
    ],
    "censorship-4": [
        "211732bfd87a2298",
        "651b54a0c36a0ba6",
        "bc2c40769afd0a81",
        "d7fdfec6aadf5296",
    ],
    "newno-4": ["6b90b892bfda8aef", "92ca62b849a24753", "2845a94b71dba868", "f1d2d49fe6eccb33"],
    "official-2": ["ec4b1785d4679363", "224c4e6439cec102", "3e1cd8440737a9a0", "6428690c34a09727"],
    "official-4": ["8ddd5a3ff2fccee4", "b6ad3c3d24710cb7", "fc581b0fed4c2a8d", "29127c10b02b0a8d"],
    "precognitive-basic-plus-3": [
        "11cff389593a0b8b",
        "9bf2c15f1d5f88d0",
        "a78b7110bd642d84",
        "a87b7096e0c15073",
    ],
    "precognitive-official-3": [
        "e59c5db19d559325",
        "d4644ac50094d596",
        "f6751f87280aeea1",
        "fea3df08f4d0008f",
    ],
}


def play(spec: dict[str, Any], seats: int, seed: int) -> str:
    """One seeded match (up to COMMAND_CAP commands), hashed: its events, every seat's legal
    commands at each step, and the refusal of a command it made up."""
    variant = Variant.from_spec(spec)
    rng = random.Random(f"pinned:{seed}")
    digest = hashlib.sha256()
    ages = list(range(seats)) if variant.spec["rules"] == "newno" else None
    events = variant.start(seats, seed=seed, ages=ages)
    digest.update(json.dumps(events, sort_keys=True).encode())
    state = variant.replay(events)
    for _ in range(COMMAND_CAP):
        if state.status == "match-over":
            break
        if state.status == "hand-over":
            (command,) = variant.legal_commands(state, None)
        else:
            legal = {seat: variant.legal_commands(state, seat) for seat in range(seats)}
            digest.update(json.dumps(legal).encode())
            movers = [seat for seat in range(seats) if legal[seat]]
            options = legal[rng.choice(movers)] if movers else [{"type": "close-window"}]
            eager = [c for c in options if c["type"] not in ("draw", "pass", *OUT_OF_TURN)]
            command = rng.choice(eager if eager and rng.random() < 0.7 else options)
        wrong = {"type": "play", "seat": rng.randrange(seats), "card": "red-7", "uno": False}
        try:
            digest.update(json.dumps(variant.decide(state, wrong), sort_keys=True).encode())
        except IllegalCommand as error:
            digest.update(f"{error.code}: {error.message}".encode())
        new = variant.decide(state, command)
        digest.update(json.dumps(new, sort_keys=True).encode())
        state = variant.replay(new, state)
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_streams_are_the_pinned_ones(name: str) -> None:
    spec, seats = SPECS[name]
    assert [play(spec, seats, seed) for seed in range(GAMES)] == PINNED[name]
