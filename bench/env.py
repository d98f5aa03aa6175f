#!/usr/bin/env python3
"""Throughput benchmark: our training environment (engine/env.py) against RLCard's UNO env.

Both sides step a whole game at a time with a uniformly random legal action, observations
included, in the same process and the same run:

- RLCard 1.2.0: the bare loop of its `Env` contract, `state, _ = env.step(rng.choice(list(
  state["legal_actions"])))` until `env.is_over()`, as bench/engine.py's `RLCardSide.play_steps`
  runs it (that class is reused here, not copied). Each `env.step` decodes the id, applies it
  and builds the next observation (its 4x4x15 numpy encoding and the legal ids).
- ours: `env(spec=…, seats=…)` as docs/training.md's random loop uses it (pettingzoo's
  order-enforcing wrapper included): `obs, … = env.last()` (the observation vector and the mask),
  then `env.step(rng.choice(obs["action_mask"].nonzero()[0]))` (`np.flatnonzero` is the
  same indices through two more calls); finished agents are stepped
  out with None (not counted). Official rules, single-hand scoring (RLCard's UNO is one hand).

Two and four seats. RLCard's `rlcard.make("uno", config=…)` ignores `game_num_players` (its
`Env` passes game configs only to the poker and blackjack games), so its 4-player figure comes
from the same env with `env.game.configure({"game_num_players": 4})`, which its UNO `Game`
supports (4 players take turns and the game ends).

A figure is agent steps per second of this process's CPU time (`time.process_time`), the median
of `--rounds` rounds (default 3); each round plays each side for at least `--steps` steps, the
four measurements interleaved. The ratio is ours / RLCard's at the same seat count; the last
line is `env ratio: R`, the lower of the two (the line before it says which).

Usage (from the repository root): PYTHONPATH=. .venv/bin/python bench/env.py [--steps N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

import _repo_first  # noqa: F401  # first: the repository before bench/ on sys.path

from bench.engine import EXIT_NOT_READY, RLCardSide, clock  # noqa: E402

SPEC = {"rules": "official", "options": {"scoring": "single-hand"}}
SEATS = (2, 4)
GAMES_PER_CALL = 20  # RLCard games per play_steps call (about 1,000 steps)


class RLCardSteps:
    """RLCard's env.step loop at a number of players, through bench/engine.py's RLCardSide."""

    def __init__(self, seed: int, players: int) -> None:
        self.side = RLCardSide(seed)
        env = self.side.step_env
        if players != env.num_players:
            env.game.configure({"game_num_players": players})
            env.num_players = env.game.get_num_players()
        assert env.num_players == players, env.num_players

    def measure(self, steps: int) -> tuple[int, float]:
        side = self.side
        side.step_loop_steps = 0
        elapsed = 0.0
        while side.step_loop_steps < steps:
            elapsed += side.play_steps(GAMES_PER_CALL)
        return side.step_loop_steps, elapsed


class OurSteps:
    """Our env through its public AEC loop, random masked actions."""

    def __init__(self, seed: int, seats: int) -> None:
        from engine.env import env as uno_env

        self.env = uno_env(spec=SPEC, seats=seats)
        self.rng = random.Random(seed)
        self.next_seed = seed

    def measure(self, steps: int) -> tuple[int, float]:
        env, choice = self.env, self.rng.choice
        last, step, agent_iter = env.last, env.step, env.agent_iter
        done = 0
        t0 = clock()
        while done < steps:
            env.reset(seed=self.next_seed)
            self.next_seed += 1
            for _ in agent_iter():
                obs, _, terminated, truncated, _ = last()
                if terminated or truncated:
                    step(None)
                    continue
                step(choice(obs["action_mask"].nonzero()[0]))
                done += 1
        return done, clock() - t0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=30_000, help="steps a side a round (%(default)s)")
    p.add_argument("--rounds", type=int, default=3, help="rounds; medians are taken (%(default)s)")
    p.add_argument("--seed", type=int, default=0, help="base seed (%(default)s)")
    args = p.parse_args(argv)
    if args.steps < 1 or args.rounds < 1 or args.seed < 0:
        p.error("--steps and --rounds must be >= 1, --seed >= 0")
    try:
        rlcard = {n: RLCardSteps(args.seed, n) for n in SEATS}
    except ImportError as exc:
        print(f"error: rlcard is not installed ({exc}): pip install -r requirements-bench.txt")
        return EXIT_NOT_READY
    ours = {n: OurSteps(args.seed, n) for n in SEATS}
    print(
        f"training env throughput: random legal actions with observations, {args.steps:,}+ "
        f"steps a side a round, {args.rounds} rounds, CPU time; {SPEC}"
    )
    for n in SEATS:  # warm-up, untimed
        rlcard[n].measure(1_000)
        ours[n].measure(1_000)
    rates: dict[tuple[str, int], list[float]] = {}
    for round_ in range(args.rounds):
        for n in SEATS:
            for name, side in (("rlcard", rlcard[n]), ("ours", ours[n])):
                steps, elapsed = side.measure(args.steps)
                rates.setdefault((name, n), []).append(steps / elapsed)
        figures = ", ".join(f"{k[0]} {k[1]}: {v[-1]:,.0f}" for k, v in rates.items())
        print(f"round {round_ + 1}: steps/s {figures}")
    ratios = {}
    for n in SEATS:
        rl, us = statistics.median(rates["rlcard", n]), statistics.median(rates["ours", n])
        ratios[n] = us / rl
        print(
            f"{n} seats: RLCard env.step loop {rl:10,.0f} steps/s   "
            f"ours (env.last + env.step) {us:10,.0f} steps/s   ratio {ratios[n]:.2f}"
        )
    low = min(SEATS, key=lambda n: ratios[n])
    print(f"the env ratio is the lower one, at {low} seats (ours / RLCard's, medians, CPU time)")
    print(f"env ratio: {ratios[low]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
