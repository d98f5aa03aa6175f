"""A ladder simulated in-process: the leaderboard it ends with, the strategies' order, how
evenly pairs met and how close the tables were (league/ladder_simulation.py)."""

from __future__ import annotations

import statistics
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from bots.simulation import MatchDidNotEnd
from engine import Variant
from games.management.commands.simulate import add_variant_arguments, variant_spec
from league.ladder_simulation import simulate_ladder

# Each family's strongest heuristic (docs/bots.md), seated against greedy and random.
HEURISTIC = {
    "official": "colour-control",
    "basic-plus": "colour-control",
    "newno": "stacker",
    "censorship": "censor",
}


class Command(BaseCommand):
    help = "Simulate a rated ladder of built-in bots and print its board and matchmaking figures."

    def add_arguments(self, parser: CommandParser) -> None:
        add_variant_arguments(parser)
        parser.add_argument("--seats", type=int, default=4)
        parser.add_argument("--matches", type=int, default=2000)
        parser.add_argument(
            "--bots", help="strategies entered (default: random, greedy and the family's own)"
        )
        parser.add_argument("--copies", type=int, default=4, help="entrants per strategy")
        parser.add_argument("--no-duplicate", action="store_true", help="one game per table")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **opts: Any) -> None:
        spec = variant_spec(opts)
        own = "lane-planner" if "precognitive" in spec else HEURISTIC.get(opts["rules"], "greedy")
        names = (opts["bots"] or f"random,greedy,{own}").split(",")
        try:
            variant = Variant.from_spec(spec)
            with tqdm(total=opts["matches"], unit="match", file=self.stderr) as bar:
                report = simulate_ladder(
                    variant,
                    [name.strip() for name in names],
                    copies=opts["copies"],
                    seats=opts["seats"],
                    matches=opts["matches"],
                    duplicate=not opts["no_duplicate"],
                    seed=opts["seed"],
                    progress=bar.update,
                )
        except (ValueError, MatchDidNotEnd) as error:
            raise CommandError(str(error)) from None

        write = self.stdout.write
        write(f"variant: {variant.spec}")
        write(f"games: {report.games}  sets (rating events): {report.sets}")
        write(f"{'rank':>4}  {'entrant':<18} {'mu':>6} {'sigma':>6} {'ordinal':>8} "
              f"{'games':>6} {'win rate':>9}")  # fmt: skip
        for rank, e in enumerate(report.board(), 1):
            write(f"{rank:>4}  {e.name:<18} {e.skill.mu:>6.2f} {e.skill.sigma:>6.2f} "
                  f"{e.skill.ordinal:>8.2f} {e.games:>6} {e.win_rate:>8.1%}")  # fmt: skip
        write(f"strategies by mean ordinal: {' > '.join(report.strategy_order())}")
        counts = list(report.meetings.values())
        write(
            f"meetings per pair: min {min(counts)}, mean {statistics.fmean(counts):.1f}, "
            f"max {max(counts)}; pairs that never met: {counts.count(0)} of {len(counts)}"
        )
        write(
            f"mean rating gap at a table: {report.table_gap:.2f} mu "
            f"(tables drawn at random: {report.random_gap:.2f})"
        )
