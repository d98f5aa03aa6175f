"""The compiled engine's training run: games of every family played through the engine's public
API, which tools/build_engine.py runs once under an instrumented build of the compiled modules
so that the C compiler lays the final build out by what games do (profile-guided optimisation;
docs/architecture.md, "The compiled engine").

Run by the build in build/engine/, with its compiled modules importable (`engine.COMPILED`
must be true, or the run says so and fails). What it plays is what the service and bot authors
run: a seeded policy that plays a card when it can (as bots do; a random legal command would
draw half the time), the listing, the decision and the fold each step, the seat's view now and
then, for official (2 and 4 seats), basic-plus, newno and censorship, and a few thousand steps
of the training environment where numpy is installed. It is deterministic (fixed seeds) and
takes about a second.
"""

from __future__ import annotations

import random
import sys

import engine
from engine import Variant

# (spec, seats, games): about 50,000 commands in all. The precognitive modifier's lanes go the
# general way (the families are not compiled) over the same compiled fold the others use.
PLAYED = (
    ({"rules": "official", "options": {"scoring": "single-hand"}}, 2, 400),
    ({"rules": "official", "options": {"scoring": "single-hand"}}, 4, 150),
    ({"rules": "basic-plus", "options": {"scoring": "single-hand"}}, 3, 100),
    ({"rules": "newno", "options": {"scoring": "single-hand"}}, 4, 60),
    ({"rules": "censorship", "options": {"scoring": "single-hand"}}, 4, 60),
)
MAX_COMMANDS = 3000


# What the policy picks first: a card's play, then any other answer (a colour, a challenge, a
# submission), then a draw or a pass, and an uno call or a catch last (basic-plus lists them at
# every turn: a policy that took them at random would call forever).
LATER = ("draw", "pass", "call-uno", "catch")


def preferred(legal: list[dict]) -> list[dict]:
    """The commands of `legal` the policy chooses among."""
    for kinds in (("play",), None, ("draw", "pass"), ("call-uno", "catch")):
        if kinds is None:
            chosen = [c for c in legal if c["type"] not in LATER and c["type"] != "play"]
        else:
            chosen = [c for c in legal if c["type"] in kinds]
        if chosen:
            return chosen
    return legal


def play(spec: dict, seats: int, games: int, rng: random.Random) -> int:
    """`games` hands of `spec` at `seats`; the commands decided."""
    variant = Variant.from_spec(spec)
    decided = 0
    for seed in range(games):
        state = variant.replay(variant.start(seats=seats, seed=seed))
        for step in range(MAX_COMMANDS):
            if state.status != "playing":
                break
            seat = state.to_act[0] if state.to_act else None
            legal = variant.legal_commands(state, seat)
            if not legal:
                break
            command = rng.choice(preferred(legal))
            state = variant.replay(variant.decide(state, command), state)
            if step % 8 == 0:
                variant.view(state, seat)
            decided += 1
    return decided


def environment_steps(rng: random.Random, steps: int = 3000) -> None:
    """The training environment's steps (engine/env.py), random masked actions."""
    try:
        import numpy  # noqa: F401

        from engine.env import raw_env
    except ImportError:
        return
    env = raw_env(seats=2)
    env.reset(seed=0)
    for _ in range(steps):
        agent = env.agent_selection
        observation, _reward, done, truncated, _info = env.last()
        if done or truncated:
            env.step(None)
            if not env.agents:
                env.reset(seed=rng.randrange(1 << 30))
            continue
        env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
        del agent


def main() -> int:
    if not engine.COMPILED:
        print("engine_training: the compiled modules did not load", file=sys.stderr)
        return 1
    rng = random.Random(0)
    decided = sum(play(spec, seats, games, rng) for spec, seats, games in PLAYED)
    environment_steps(rng)
    print(f"engine_training: {decided} commands decided")
    return 0


if __name__ == "__main__":
    sys.exit(main())
