#!/usr/bin/env python3
"""Does the analysis measure skill? Bots of known strength, analysed (issue 35, item 4).

Plays `--matches` 4-seat matches (bots/simulation.py, the project's own runner) between the
random bot, greedy and the family's strongest built-in bot (docs/bots.md, "Measured strength"),
the three of them in every match and one of them twice, the line-up rotating so that each
bot sits in each seat equally often. Each match is analysed (analysis/evaluate.py) with
`--playouts` playouts per option, and every analysed decision's cost is put to the bot that
made it. It prints, per bot, its share of the matches won and its mean cost per decision with a
95% interval (over decisions; the interval over seats, each seat's match a unit, beside it), then
the CPU seconds an analysis of one 4-seat 500-point match takes (the strongest bot in every
seat; the median of `--rounds`), and last `separation: Z`: the z-score of random's mean cost
against the strongest's (positive when random's decisions cost more, as its win rate is lower).

Usage (from the repository root): PYTHONPATH=. .venv/bin/python bench/analysis.py
  [--rules official] [--matches 72] [--target 100] [--playouts N] [--rounds 3] [--jobs 1]
  [--smoke]
`--smoke`: two matches of one hand, two playouts, one CPU round on a 100-point match (seconds).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import _repo_first  # noqa: F401  # first: the repository before bench/ on sys.path

from analysis.evaluate import DEFAULT_PLAYOUTS, analyse_match, strongest_bot  # noqa: E402
from bots.simulation import play_match  # noqa: E402
from bots.strategies import find_strategy  # noqa: E402
from engine import Variant  # noqa: E402


def lineups(strongest: str) -> list[list[str]]:
    """Three line-ups, each bot twice in one of them, rotated over the four seats."""
    bots = ["random", "greedy", strongest]
    base = [[bots[0], bots[1], bots[2], bots[0]], [bots[1], bots[2], bots[0], bots[1]]]
    base.append([bots[2], bots[0], bots[1], bots[2]])
    return [line[r:] + line[:r] for r in range(4) for line in base]


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    if not values:
        return 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def one_match(
    spec: dict[str, object], lineup: list[str], seed: int, playouts: int
) -> tuple[list[int], int | None, int, dict[int, list[float]], int, float]:
    """Play and analyse one match: its places, winner, hands, each seat's decision costs, the
    number of decisions and the analysis's CPU seconds."""
    variant = Variant.from_spec(spec)
    result = play_match(variant, [find_strategy(n) for n in lineup], seed=seed)
    report = analyse_match(spec, result.events, seed=seed, playouts=playouts)
    costs = {seat: [d.cost for d in report.decisions if d.seat == seat] for seat in range(4)}
    return (
        result.places,
        result.winner,
        result.hands,
        costs,
        len(report.decisions),
        report.cpu_seconds,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="official")
    parser.add_argument("--matches", type=int, default=72)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes for the matches")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    options: dict[str, object] = {"target": args.target}
    rounds, cpu_target, playouts = args.rounds, 500, args.playouts
    if args.smoke:
        options = {"target": 1}
        args.matches, rounds, cpu_target, playouts = 2, 1, 100, 2
    spec = {"rules": args.rules, "options": options}
    variant = Variant.from_spec(spec)
    strongest = strongest_bot(variant)
    names = ["random", "greedy", strongest]
    costs: dict[str, list[float]] = {name: [] for name in names}
    seat_means: dict[str, list[float]] = {name: [] for name in names}
    wins: dict[str, float] = dict.fromkeys(names, 0.0)
    seats_of: dict[str, int] = dict.fromkeys(names, 0)
    cpu = 0.0
    plan = lineups(strongest)
    print(
        f"{args.matches} matches of {args.rules} to {options['target']} points, 4 seats, "
        f"{playouts} playouts per option; bots: {', '.join(names)}"
    )
    jobs = [(spec, plan[i % len(plan)], args.seed + i, playouts) for i in range(args.matches)]
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        results = pool.map(one_match, *zip(*jobs, strict=True))
        for i, (places, winner, hands, seat_costs, count, seconds) in enumerate(results):
            lineup = jobs[i][1]
            cpu += seconds
            first = [s for s, place in enumerate(places) if place == 1] or [0]
            for seat, name in enumerate(lineup):
                seats_of[name] += 1
                if seat in first:
                    wins[name] += 1 / len(first)
                mine = seat_costs[seat]
                costs[name] += mine
                if mine:
                    seat_means[name].append(statistics.fmean(mine))
            print(
                f"  match {i + 1}: {', '.join(lineup)}; winner seat {winner}, {hands} hand(s), "
                f"{count} decisions, {seconds:.1f} s CPU",
                flush=True,
            )
    print(f"analysis CPU over the matches: {cpu:.1f} s")
    print("| bot | seats | matches won | decisions | mean cost/decision (95%) | over seats (95%) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in names:
        mean, half = interval(costs[name])
        seat_mean, seat_half = interval(seat_means[name])
        print(
            f"| {name} | {seats_of[name]} | {wins[name]:.1f} | {len(costs[name])} | "
            f"{mean:.2f} ± {half:.2f} | {seat_mean:.2f} ± {seat_half:.2f} |"
        )
    timings = []
    cpu_spec = {"rules": args.rules, "options": {"target": cpu_target}}
    cpu_variant = Variant.from_spec(cpu_spec)
    for r in range(rounds):
        bots = [find_strategy(strongest)] * 4
        match = play_match(cpu_variant, bots, seed=1000 + r)
        began = time.process_time()
        report = analyse_match(cpu_spec, match.events, seed=r, playouts=playouts)
        timings.append(time.process_time() - began)
        print(
            f"  {cpu_target}-point match {r + 1}: {match.hands} hands, {len(match.events)} events, "
            f"{len(report.decisions)} decisions, {timings[-1]:.1f} s CPU",
            flush=True,
        )
    print(
        f"CPU per 4-seat {cpu_target}-point match ({playouts} playouts): "
        f"{statistics.median(timings):.1f} s (median of {rounds})"
    )
    r_mean, r_half = interval(costs["random"])
    s_mean, s_half = interval(costs[strongest])
    se = math.hypot(r_half / 1.96, s_half / 1.96)
    z = (r_mean - s_mean) / se if se and math.isfinite(se) else 0.0
    print(f"separation: {z:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
