"""The starters' default strategy, the same in both kits (starters/*/strategy.*), read through
their stdio mode: the first sensible legal command in turn, never a call or catch that costs
cards, a free call or catch out of turn and nothing else there."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.starters.kits import KITS, STARTERS, command


def decision(legal, *, uncalled=(), optional=False):
    view = {"rules": "basic-plus", "seat": 0, "uncalled": list(uncalled)}
    return {"game": 1, "seat": 0, "version": 9, "view": view, "legal": legal, "optional": optional}


PLAY = {"type": "play", "seat": 0, "card": "red-7", "uno": False}
PLAY_UNO = {"type": "play", "seat": 0, "card": "red-7", "uno": True}
DRAW = {"type": "draw", "seat": 0}
CALL = {"type": "call-uno", "seat": 0}
CATCH = {"type": "catch", "seat": 0, "target": 2}
JUMP_IN = {"type": "play", "seat": 0, "card": "blue-5", "uno": False}

CASES = [
    # In turn: a card before a draw, its uno call with it, never a call or catch not owed.
    (decision([CALL, CATCH, DRAW, PLAY]), PLAY),
    (decision([CALL, DRAW, PLAY, PLAY_UNO]), PLAY_UNO),
    (decision([CALL, CATCH, DRAW]), DRAW),
    # Out of turn: the call it owes, the catch of a seat that owes one; nothing costly, no
    # jump-in.
    (decision([CALL, CATCH], uncalled=[0], optional=True), CALL),
    (decision([CALL, CATCH], uncalled=[2], optional=True), CATCH),
    (decision([CALL, CATCH, JUMP_IN], optional=True), None),
]


@pytest.mark.parametrize("kit", KITS)
def test_the_default_strategy_plays_the_first_sensible_command(kit):
    lines = "".join(json.dumps(asked) + "\n" for asked, _ in CASES)
    run = subprocess.run(
        command(kit, "bot", "stdio"),
        cwd=STARTERS / kit,
        env=os.environ,
        input=lines,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert answers == [expected for _, expected in CASES]
