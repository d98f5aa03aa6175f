#!/usr/bin/env python3
"""Throughput benchmark: our UNO engine vs RLCard's UNO environment.

Both sides play 2-seat games with random legal agents following the same policy
(a uniformly random legal move; a draw only when no card is playable, which is
what RLCard's action space allows; see ``same_policy_as_rlcard``), in the same
process and the same run.  A "game" is one hand played to its end on both
sides (RLCard's UNO is single-hand; ours runs with scoring "single-hand").

Usage (from the repository root):

    pip install -r requirements-bench.txt
    python3 bench/engine.py [--games N] [--seed S] [--rounds R]

The engine runs compiled when its extension is built (`make engine`, tools/build_engine.py;
docs/architecture.md "The compiled engine"): then the same bench runs a second time in a child
process with UNO_ENGINE_PURE=1, the pure-Python engine against RLCard measured anew in that
run, and its ratio is printed as ``pure-Python ratio: X.XX`` before the last line (the
compiled engine's). ``--no-pure`` skips that second run.

Output: RLCard games/s through its two public loops (``env.run`` with agents, and the bare
``env.step`` loop), our games/s, our mean commands per game, our replay throughput (events/s,
target >= 300,000), and as the very last line ``ratio: X.XX`` = our games/s / the games/s of
the FASTER of the two RLCard loops.

Exit status 2 (after printing the RLCard figures) when ``engine`` is not
importable yet, or when rlcard is not installed.

What is measured on the RLCard side, and why it is fair
-------------------------------------------------------
We measure RLCard's normal public path, exactly as its own examples
(examples/run_random.py) and ``rlcard.utils.tournament`` use it:

    env = rlcard.make('uno', config={'seed': seed})
    agent = rlcard.agents.RandomAgent(num_actions=env.num_actions)
    env.set_agents([agent, agent])
    trajectories, payoffs = env.run(is_training=False)   # = one hand

``env.run`` is how an RLCard user plays a game with agents: each step builds
the observation (``_extract_state``: numpy 4x4x15 encoding + legal action
ids), asks the agent (``RandomAgent.eval_step``, np.random over the legal
ids), decodes and applies the action, and records the trajectory.  That is the
public-API cost of one RLCard game, just as our side pays for the full public
API on every step (``legal_commands`` + ``decide`` + ``replay``), with no
shortcuts on either side.

RLCard users who train without agent objects drive the env directly, and that
loop is about 2.4x faster than ``env.run`` (no trajectories, no
``eval_step``'s probability table).  It is measured too, as RLCard 1.2.0's own
``Env.step`` contract defines it:

    state, player_id = env.reset()
    while not env.is_over():
        state, player_id = env.step(rng.choice(list(state['legal_actions'])))

``env.step`` decodes the action id against the legal ids, applies it and
builds the next observation (``_extract_state``, legal ids included), which is
what the next choice needs: nothing is skipped and nothing is done twice.  The
random choice uses ``random.Random`` (seeded), as our agent does.  The ratio
is taken against whichever RLCard loop is faster in the run.
Our loop is that loop's counterpart: it binds ``legal_commands``, ``decide`` and ``replay``
once, runs ``same_policy_as_rlcard`` inline (the same filter and the same ``rng.choice``, so
the same commands) and keeps no log of the timed games (the replay figure plays them again
for their logs, untimed), as the step loop keeps no trajectory.
``--rlcard-raw`` additionally prints (for information only, not used in the
ratio) a game-level loop that bypasses the env wrapper
(``rlcard.games.uno.Game`` + ``get_legal_actions`` + ``step``), which builds
no observation at all.

Time is this process's CPU time (``time.process_time``): on a shared machine a
side is not charged for waiting for a core.  The wall-clock ratio is printed on
an info line.

Note the rules differ: RLCard's UNO is simplified (a drawn card that matches
is auto-played, no wild-draw-4 challenge, no UNO call, wild-draw-4 only when
nothing else is playable), so steps per game differ between the two sides;
both means are printed.  Seeds: RLCard's env RNG (deck/shuffles) is seeded
via ``config['seed']`` / ``env.seed``, and the RandomAgent's global numpy RNG
via ``np.random.seed`` (what ``rlcard.utils.set_seed`` does, minus torch and
its ``pip freeze`` subprocess).  Ours: game i uses ``seed=S+i`` for the deal,
and the agent one ``random.Random(S)`` for the whole run, as RLCard's step loop
has one.  To limit drift between the two measurements (CPU frequency, noisy
neighbours), the games are played in ``--rounds`` alternating chunks (RLCard
chunk, our chunk, ...) and the times summed per side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
import traceback
from pathlib import Path

# First: the repository before bench/ on sys.path (this file would shadow the `engine` package).
import _repo_first  # noqa: E402, F401

REPLAY_TARGET = 300_000  # events/s our replay must fold
MAX_COMMANDS_PER_GAME = 100_000  # guard against a non-terminating game
WARMUP_GAMES = 30  # per side, not timed
EXIT_NOT_READY = 2
# Timed by this process's CPU time: on a shared machine a side waiting for a core is not
# charged for the wait (wall-clock figures moved 2-3x with the others' load, and a side's
# chunk could land in a busy second). The wall-clock ratio is printed too, for information.
clock = time.process_time
WALL = {"run": 0.0, "step": 0.0, "ours": 0.0}  # wall-clock seconds of the timed loops


# --------------------------------------------------------------------------
# RLCard side
# --------------------------------------------------------------------------


class RLCardSide:
    """RLCard UNO via the public env path: rlcard.make + RandomAgent + env.run, and
    rlcard.make + the bare env.reset / env.step loop (a second env, seeded alike)."""

    def __init__(self, seed: int):
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent

        self.np = np
        self.seed = seed
        self.env = rlcard.make("uno", config={"seed": seed})
        assert self.env.num_players == 2, self.env.num_players
        agent = RandomAgent(num_actions=self.env.num_actions)
        self.env.set_agents([agent for _ in range(self.env.num_players)])
        self.step_env = rlcard.make("uno", config={"seed": seed})
        self.step_rng = random.Random(seed)
        self.versions = f"numpy {np.__version__}, rlcard {_dist_version('rlcard')}"
        self.steps = 0
        self.step_loop_steps = 0

    def reseed(self) -> None:
        self.env.seed(self.seed)  # env/game RNG: deck shuffles, wild colours
        self.np.random.seed(self.seed)  # RandomAgent + env fallback use global np.random
        random.seed(self.seed)
        self.step_env.seed(self.seed)
        self.step_rng.seed(self.seed)

    def warm_up(self, n: int) -> None:
        for _ in range(n):
            self.env.run(is_training=False)
        self.play_steps(n)
        self.step_loop_steps = 0
        self.reseed()  # measured games do not depend on the warm-up count

    def play_steps(self, n: int) -> float:
        """Play n games through env.reset / env.step with a uniformly random legal action id
        (no agent objects); return elapsed seconds.  Adds steps to self.step_loop_steps."""
        env = self.step_env
        reset, step, is_over = env.reset, env.step, env.is_over
        choice = self.step_rng.choice
        steps = 0
        w0, t0 = time.perf_counter(), clock()
        for _ in range(n):
            state, _ = reset()
            while not is_over():
                state, _ = step(choice(list(state["legal_actions"])))
                steps += 1
        elapsed = clock() - t0
        WALL["step"] += time.perf_counter() - w0
        self.step_loop_steps += steps
        return elapsed

    def play(self, n: int) -> float:
        """Play n games; return elapsed seconds.  Adds steps to self.steps."""
        env = self.env
        run = env.run
        steps = 0
        w0, t0 = time.perf_counter(), clock()
        for _ in range(n):
            run(is_training=False)
            steps += len(env.action_recorder)  # reset by env.reset() each game
        elapsed = clock() - t0
        WALL["run"] += time.perf_counter() - w0
        self.steps += steps
        return elapsed

    def play_raw(self, n: int) -> tuple[float, int]:
        """Informational: game-level loop without the env wrapper."""
        from rlcard.games.uno import Game

        game = Game(num_players=2)
        game.np_random = self.np.random.RandomState(self.seed)
        rng = random.Random(self.seed)
        steps = 0
        t0 = time.perf_counter()
        for _ in range(n):
            game.init_game()
            while not game.is_over():
                game.step(rng.choice(game.get_legal_actions()))
                steps += 1
        return time.perf_counter() - t0, steps


# --------------------------------------------------------------------------
# Our side
# --------------------------------------------------------------------------


def same_policy_as_rlcard(legal: list[dict], rng: random.Random) -> dict:
    """A uniformly random legal command, drawing (or passing) only when nothing else is legal.

    RLCard's RandomAgent picks uniformly among RLCard's legal actions, and RLCard only offers
    "draw" when no card is playable (and plays a matching drawn card itself). Under the
    official rules a draw is legal at any time, so a uniform choice over *our* legal commands
    would draw about 40% of the time and make games ~20x longer (about 1,000 commands against
    46 steps): the games/s ratio would measure the agents, not the engines. This agent keeps
    RLCard's policy while every command still goes through the full official rules (uno calls
    and catches, wild-draw4 challenges, drawn-card play or pass, scoring).

    `OurSide._play_one` runs this inline (the same filter and the same `rng.choice`, so the
    same commands), as RLCard's step loop calls `rng.choice` inline: two Python calls a step
    less (the function's and its comprehension's), the engine's work unchanged.
    """
    plays = [c for c in legal if c["type"] not in ("draw", "pass")]
    return rng.choice(plays or legal)


class OurSide:
    """Our engine through its public API: start / legal_commands / decide / replay."""

    SPEC = {"rules": "official", "options": {"scoring": "single-hand"}}

    def __init__(self, seed: int, variant_cls):
        self.variant = variant_cls.from_spec(self.SPEC)
        self.seed = seed
        self.next_game = 0
        self.commands = 0
        # The policy's generator, one for the side and seeded once, as RLCard's step loop has
        # its `step_rng` (seeding a generator costs about 3% of a game: `random_seed`'s
        # init_by_array, which RLCard's side does not pay a game either). Each timed chunk
        # records the generator's state at its start, so the same games can be played again.
        self.rng = random.Random(seed)
        # The measured chunks: (first game seed, games, the policy generator's state).
        self.measured: list[tuple[int, int, object]] = []
        self.final_status: list[str] = []

    def _play_one(
        self, game_seed: int, rng: random.Random, keep_log: bool = False
    ) -> tuple[list[dict], int, str]:
        """Play one game, its deal from `game_seed` and its commands drawn from `rng`; its log
        (every event) only with keep_log: the timed games keep none, as RLCard's step loop
        keeps none (the replay figure plays the same games again for their logs, untimed)."""
        variant = self.variant
        events = variant.start(seats=2, seed=game_seed)
        log = list(events) if keep_log else []
        state = variant.replay(events)
        legal_commands, decide, replay = variant.legal_commands, variant.decide, variant.replay
        choice = rng.choice
        n = 0
        cmd = None
        try:
            while state.status == "playing":
                # same_policy_as_rlcard, inlined (the same filter and the same rng.choice)
                legal = legal_commands(state, state.to_act[0])
                plays = []
                for c in legal:
                    kind = c["type"]
                    if kind != "draw" and kind != "pass":  # not in ("draw", "pass")
                        plays.append(c)
                cmd = choice(plays or legal)
                new = decide(state, cmd)
                state = replay(new, state)
                if keep_log:
                    log.extend(new)
                n += 1
                if n > MAX_COMMANDS_PER_GAME:
                    raise RuntimeError(f"game did not end after {n} commands")
        except Exception as exc:
            exc.add_note(
                f"[bench] game seed={game_seed}, after {n} commands, last command: {cmd!r}"
            )
            raise
        return log, n, state.status

    def warm_up(self, n: int) -> None:
        # Seeds disjoint from the measured ones (measured: seed .. seed+games-1), and a policy
        # generator of their own: the measured games do not depend on the warm-up count.
        rng = random.Random(self.seed + 10_000_000)
        for j in range(n):
            self._play_one(self.seed + 10_000_000 + j, rng)

    def play(self, n: int) -> float:
        # The timed games keep no log, as RLCard's step loop keeps none (env.run's trajectories
        # are dropped when its game ends): keeping every log alive while timing would measure
        # the garbage collector walking a growing heap (about 15% here), and a game's own log
        # about 2% more, not the engine. The replay figure plays the same seeded games again
        # for their logs, untimed.
        commands = 0
        statuses = []
        start = self.seed + self.next_game
        rng = self.rng
        self.measured.append((start, n, rng.getstate()))
        w0, t0 = time.perf_counter(), clock()
        for game_seed in range(start, start + n):
            _, c, status = self._play_one(game_seed, rng)
            commands += c
            statuses.append(status)
        elapsed = clock() - t0
        WALL["ours"] += time.perf_counter() - w0
        self.next_game += n
        self.commands += commands
        self.final_status.extend(statuses)
        return elapsed

    def replay_throughput(self) -> tuple[int, float]:
        """Fold each collected game log through variant.replay in one call.

        The logs are round-tripped through JSON first (outside the timing), as
        they would be when loaded from storage; this also checks that events
        are JSON-able and that replay does not rely on object identity.
        """
        # The measured games again (the same seeds and the policy generator in the same state,
        # so the same games), untimed, for their logs.
        logs = []
        for start, n, rng_state in self.measured:
            rng = random.Random()
            rng.setstate(rng_state)
            logs += [self._play_one(s, rng, keep_log=True)[0] for s in range(start, start + n)]
        logs = json.loads(json.dumps(logs))
        replay = self.variant.replay
        n_events = sum(len(log) for log in logs)
        # Short warm-up on a few logs.
        for log in logs[:10]:
            replay(log)
        statuses = []
        t0 = clock()
        for log in logs:
            statuses.append(replay(log).status)
        elapsed = clock() - t0
        if statuses != self.final_status:
            pairs = enumerate(zip(statuses, self.final_status, strict=True))
            bad = next(i for i, (a, b) in pairs if a != b)
            raise RuntimeError(
                f"replay of game seed={self.seed + bad} ended in status "
                f"{statuses[bad]!r}, live play ended in {self.final_status[bad]!r}"
            )
        return n_events, elapsed


def import_our_engine():
    """Return (Variant, None) or (None, error text)."""
    sys.dont_write_bytecode = True  # leave no __pycache__ behind in games/
    try:
        from engine import IllegalCommand, Variant  # noqa: F401
    except Exception:  # ImportError, or a SyntaxError etc. while it is being written
        return None, traceback.format_exc()
    return Variant, None


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------


def _dist_version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:
        return "?"


def _chunks(total: int, rounds: int) -> list[int]:
    rounds = max(1, min(rounds, total))
    base, extra = divmod(total, rounds)
    return [base + (1 if i < extra else 0) for i in range(rounds)]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # Default sized for ~10 s in all on 2 cores: with RLCard's policy (see
    # same_policy_as_rlcard) one of our games is ~66 commands against ~46 RLCard steps, and
    # fewer games than this leave each timed side well under a second (noisy).
    p.add_argument(
        "--games",
        type=int,
        default=2000,
        help="games per side (default: %(default)s, ~10 s total on 2 cores)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="base seed; our game i uses seed+i (default: %(default)s)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="alternate the two sides in this many chunks (default: %(default)s)",
    )
    p.add_argument(
        "--no-pure",
        action="store_true",
        help="with the compiled engine, do not run the pure-Python engine's bench after it",
    )
    p.add_argument(
        "--rlcard-raw",
        action="store_true",
        help="also print RLCard's game-level loop speed (info only, not in ratio)",
    )
    args = p.parse_args(argv)
    if args.games < 1 or args.seed < 0:
        p.error("--games must be >= 1 and --seed >= 0")

    try:
        rl = RLCardSide(args.seed)
    except ImportError as exc:
        print(
            f"error: rlcard is not installed ({exc}); run: pip install -r requirements-bench.txt",
            file=sys.stderr,
        )
        return EXIT_NOT_READY

    Variant, import_error = import_our_engine()
    ours = None
    our_error = None  # traceback text if our engine raised while playing
    if Variant is not None:
        try:
            ours = OurSide(args.seed, Variant)
        except Exception:
            our_error = traceback.format_exc()

    print(
        f"UNO throughput: 2 seats, random legal agents, {args.games} games per side, "
        f"seed {args.seed}, {args.rounds} alternating rounds"
    )
    print(f"python {platform.python_version()} ({platform.python_implementation()}), {rl.versions}")
    compiled = ours is not None and sys.modules["engine"].COMPILED
    print(
        "engine: compiled (mypyc)"
        if compiled
        else "engine: pure Python (UNO_ENGINE_PURE=1, or no compiled extension built)"
    )
    sys.stdout.flush()

    # Warm up both sides (untimed), then measure in alternating chunks.
    # If our engine raises, the RLCard half still completes and is printed,
    # then our traceback is printed verbatim and the exit status is 1.
    rl.warm_up(WARMUP_GAMES)
    if ours is not None:
        try:
            ours.warm_up(WARMUP_GAMES)
        except Exception:
            our_error, ours = traceback.format_exc(), None

    rl_time = rl_step_time = our_time = 0.0
    for n in _chunks(args.games, args.rounds):
        rl_time += rl.play(n)
        rl_step_time += rl.play_steps(n)
        if ours is not None:
            try:
                our_time += ours.play(n)
            except Exception:
                our_error, ours = traceback.format_exc(), None

    rl_run_gps = args.games / rl_time
    rl_step_gps = args.games / rl_step_time
    print(
        f"{'RLCard (env.run + RandomAgent):':40s}{rl_run_gps:10.1f} games/s  "
        f"(mean {rl.steps / args.games:.1f} steps/game, "
        f"{rl.steps / rl_time:,.0f} steps/s, {rl_time:.2f} s)"
    )
    print(
        f"{'RLCard (env.reset/env.step loop):':40s}{rl_step_gps:10.1f} games/s  "
        f"(mean {rl.step_loop_steps / args.games:.1f} steps/game, "
        f"{rl.step_loop_steps / rl_step_time:,.0f} steps/s, {rl_step_time:.2f} s)"
    )
    rl_gps = max(rl_run_gps, rl_step_gps)
    if args.rlcard_raw:
        raw_time, raw_steps = rl.play_raw(args.games)
        print(
            f"{'  info, RLCard game-level loop:':40s}{args.games / raw_time:10.1f} games/s  "
            f"(mean {raw_steps / args.games:.1f} steps/game; not used in ratio)"
        )

    if our_error is not None:
        sys.stdout.flush()
        print("\nour engine raised while playing (RLCard half above is valid):", file=sys.stderr)
        print(our_error.rstrip(), file=sys.stderr)
        return 1
    if ours is None:
        sys.stdout.flush()
        print(
            "\nour engine is not importable yet (from engine import Variant failed); "
            "only the RLCard half was run.",
            file=sys.stderr,
        )
        print(import_error.rstrip(), file=sys.stderr)
        return EXIT_NOT_READY

    our_gps = args.games / our_time
    print(
        f"{'ours (legal_commands/decide/replay):':40s}{our_gps:10.1f} games/s  "
        f"(mean {ours.commands / args.games:.1f} commands/game, "
        f"{ours.commands / our_time:,.0f} commands/s, {our_time:.2f} s)"
    )
    sys.stdout.flush()

    n_events, replay_time = ours.replay_throughput()
    eps = n_events / replay_time
    verdict = "OK" if eps >= REPLAY_TARGET else "BELOW TARGET"
    print(
        f"{'ours replay fold (variant.replay):':40s}{eps:10,.0f} events/s  "
        f"(target >= {REPLAY_TARGET:,}: {verdict}; "
        f"{n_events:,} events, mean {n_events / args.games:.1f}/game, {replay_time:.2f} s)"
    )
    faster = "env.step loop" if rl_step_gps >= rl_run_gps else "env.run"
    per_step = (ours.commands / our_time) / (rl.step_loop_steps / rl_step_time)
    print(
        f"info, per step: our commands/s / RLCard env.step loop steps/s = {per_step:.2f} "
        f"(our games have more steps: uno calls, challenges, drawn-card choices)"
    )
    wall = WALL["ours"] and min(WALL["run"], WALL["step"]) / WALL["ours"]
    print(
        f"info, wall clock (others' load included): ours / the faster RLCard loop = {wall:.2f} "
        f"(env.run {WALL['run']:.2f} s, env.step loop {WALL['step']:.2f} s, "
        f"ours {WALL['ours']:.2f} s)"
    )
    print(f"the ratio is our games/s / the faster RLCard loop's ({faster}), in CPU time")
    if compiled and not args.no_pure:
        print(f"compiled ratio, this run: {our_gps / rl_gps:.2f}")
        sys.stdout.flush()
        pure = pure_ratio(argv)
        print(f"pure-Python ratio: {pure}" if pure else "pure-Python ratio: (its run failed)")
    print(f"ratio: {our_gps / rl_gps:.2f}")
    return 0


def pure_ratio(argv: list[str] | None) -> str | None:
    """The same bench with the pure-Python engine (UNO_ENGINE_PURE=1), in a child process: its
    ratio, or None if it failed. Its RLCard figures and ours are printed indented."""
    args = sys.argv[1:] if argv is None else list(argv)
    env = {**os.environ, "UNO_ENGINE_PURE": "1"}
    run = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args, "--no-pure"],
        capture_output=True,
        text=True,
        env=env,
    )
    lines = run.stdout.splitlines()
    for line in lines:
        if line.startswith(("RLCard (env.reset", "ours (", "engine:")):
            print(f"  pure run: {line}")
    if run.returncode != 0 or not lines or not lines[-1].startswith("ratio: "):
        print(run.stderr[-2000:], file=sys.stderr)
        return None
    return lines[-1].removeprefix("ratio: ")


if __name__ == "__main__":
    sys.exit(main())
