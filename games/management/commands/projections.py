"""Run, rebuild or inspect the projections (games/projections.py)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import projections


class Command(BaseCommand):
    help = (
        "run [NAME…]: apply the events each projection has not applied yet (all by default); "
        "rebuild [NAME…]: empty their read models and fold the whole log again (all by default); "
        "status: each projection's checkpoint and lag in events."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        run = actions.add_parser("run", help="catch the projections up with the log")
        run.add_argument("names", nargs="*", metavar="NAME")
        rebuild = actions.add_parser("rebuild", help="rebuild projections from position 0")
        rebuild.add_argument("names", nargs="*", metavar="NAME")
        actions.add_parser("status", help="checkpoint, head and lag of every projection")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            if opts["action"] == "run":
                for name in opts["names"] or sorted(projections.PROJECTIONS):
                    self.timed(f"{name}: applied", projections.run, name)
            elif opts["action"] == "rebuild":
                for name in opts["names"] or sorted(projections.PROJECTIONS):
                    self.timed(f"{name}: rebuilt", projections.rebuild, name)
            else:
                self.print_status()
        except projections.UnknownProjection as error:
            raise CommandError(str(error)) from None

    def timed(self, label: str, action: Any, name: str) -> None:
        started = time.perf_counter()
        positions = action(name)
        seconds = time.perf_counter() - started
        self.stdout.write(f"{label} {positions} positions in {seconds:.2f} s")

    def print_status(self) -> None:
        rows = projections.status()
        width = max([len("projection")] + [len(row.name) for row in rows])
        self.stdout.write(f"{'projection':<{width}}  {'position':>10}  {'head':>10}  {'lag':>8}")
        for row in rows:
            self.stdout.write(
                f"{row.name:<{width}}  {row.position:>10}  {row.head:>10}  {row.lag:>8}"
            )
