"""Bot-versus-bot matches in-process, with a progress bar and a results table."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from bots.simulation import MatchDidNotEnd, play_match
from bots.strategies import STRATEGIES, find_strategy
from engine import Variant


def parse_pairs(text: str | None) -> dict[str, Any] | None:
    """`lane=2,sight=blind` -> {"lane": 2, "sight": "blind"} (whole numbers become ints)."""
    if text is None:
        return None
    pairs: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise CommandError(f"expected key=value, got {item!r}")
        pairs[key.strip()] = int(value) if value.strip().isdigit() else value.strip()
    return pairs


def add_variant_arguments(parser: CommandParser) -> None:
    """--rules, --options and --precognitive: the variant of simulate, ladder_sim and arena."""
    parser.add_argument("--rules", default="official")
    parser.add_argument("--options", help="ruleset options, e.g. target=200,hand_size=5")
    parser.add_argument("--precognitive", help="the modifier, e.g. lane=2,sight=blind")


def variant_spec(opts: dict[str, Any]) -> dict[str, Any]:
    """The variant spec of add_variant_arguments' options."""
    spec: dict[str, Any] = {"rules": opts["rules"], "options": parse_pairs(opts["options"])}
    precognitive = parse_pairs(opts["precognitive"])
    if precognitive is not None:
        spec["precognitive"] = precognitive
    return spec


class Command(BaseCommand):
    help = "Play bot-versus-bot matches in-process and print win rates and speed."

    def add_arguments(self, parser: CommandParser) -> None:
        add_variant_arguments(parser)
        parser.add_argument("--seats", type=int, default=4)
        parser.add_argument("--matches", type=int, default=100)
        parser.add_argument(
            "--bots",
            default="random",
            help=f"strategies seated in turn, cycled over the seats ({', '.join(STRATEGIES)})",
        )
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **opts: Any) -> None:
        spec = variant_spec(opts)
        seats, matches = opts["seats"], opts["matches"]
        try:
            variant = Variant.from_spec(spec)
            names = [n.strip() for n in opts["bots"].split(",")]
            bots = [find_strategy(names[i % len(names)]) for i in range(seats)]
        except ValueError as error:
            raise CommandError(str(error)) from None
        if matches < 1:
            raise CommandError("--matches must be at least 1")

        wins = [0.0] * seats
        points = [0] * seats
        hands = commands = 0
        started = time.perf_counter()
        for i in tqdm(range(matches), desc="matches", unit="match", file=self.stderr):
            try:
                result = play_match(variant, bots, seed=opts["seed"] + i, keep_events=False)
            except (ValueError, MatchDidNotEnd) as error:
                raise CommandError(str(error)) from None
            firsts = [s for s, place in enumerate(result.places) if place == 1]
            for seat in firsts:
                wins[seat] += 1 / len(firsts)  # a shared first place shares the win
            for gained in result.hand_points:
                points = [a + b for a, b in zip(points, gained, strict=True)]
            hands += result.hands
            commands += result.commands
        elapsed = time.perf_counter() - started

        self.stdout.write(f"variant: {variant.spec}")
        width = max(10, *map(len, names))
        self.stdout.write(f"{'seat':>4}  {'bot':<{width}} {'win rate':>9} {'points/hand':>12}")
        for seat in range(seats):
            self.stdout.write(
                f"{seat:>4}  {names[seat % len(names)]:<{width}} {wins[seat] / matches:>9.1%} "
                f"{points[seat] / hands:>12.1f}"
            )
        # Per strategy: the share of matches won by any of its seats, and its points per hand
        # (an average over its seats).
        for name in dict.fromkeys(names[seat % len(names)] for seat in range(seats)):
            mine = [seat for seat in range(seats) if names[seat % len(names)] == name]
            self.stdout.write(
                f"by bot: {name:<{width}} {sum(wins[s] for s in mine) / matches:>9.1%} "
                f"{sum(points[s] for s in mine) / len(mine) / hands:>12.1f}  "
                f"({len(mine)} seat{'s' if len(mine) > 1 else ''})"
            )
        self.stdout.write(f"hands per match: {hands / matches:.2f}")
        self.stdout.write(f"commands per match: {commands / matches:.0f}")
        self.stdout.write(f"matches per second: {matches / elapsed:.2f}")
