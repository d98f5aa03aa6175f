"""Run, rebuild or inspect the projections (games/projections.py, games/rebuilds.py)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import projections, rebuilds, tasks

# Seconds between two progress lines while the workers rebuild.
EVERY = 2.0


class Command(BaseCommand):
    help = (
        "run [NAME…]: apply the events each projection has not applied yet (all by default); "
        "rebuild [NAME…] [--partitions N] [--resume] [--no-wait] [--one-transaction]: empty "
        "their read models and fold the log again, partitioned across the workers (all by "
        "default); status: each projection's checkpoint and lag in events."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        run = actions.add_parser("run", help="catch the projections up with the log")
        run.add_argument("names", nargs="*", metavar="NAME")
        rebuild = actions.add_parser("rebuild", help="rebuild projections from position 0")
        rebuild.add_argument("names", nargs="*", metavar="NAME")
        rebuild.add_argument(
            "--partitions",
            "--workers",
            type=int,
            default=rebuilds.PARTITIONS,
            metavar="N",
            help="game ranges (tasks) for each projection folded by stream "
            f"(default {rebuilds.PARTITIONS})",
        )
        rebuild.add_argument(
            "--resume",
            action="store_true",
            help="send again the partitions of the latest rebuild not done, from their checkpoints",
        )
        rebuild.add_argument(
            "--no-wait", action="store_true", help="start it and return (the workers fold it)"
        )
        rebuild.add_argument(
            "--one-transaction",
            action="store_true",
            help="the old way: one projection at a time, in this process, in one transaction",
        )
        actions.add_parser("status", help="checkpoint, head and lag of every projection")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            if opts["action"] == "run":
                for name in opts["names"] or sorted(projections.PROJECTIONS):
                    self.timed(f"{name}: applied", projections.run, name)
            elif opts["action"] == "rebuild" and opts["one_transaction"]:
                for name in opts["names"] or sorted(projections.PROJECTIONS):
                    self.timed(f"{name}: rebuilt", projections.rebuild, name)
            elif opts["action"] == "rebuild":
                self.rebuild(opts)
            else:
                self.print_status()
        except (projections.UnknownProjection, projections.Rebuilding, rebuilds.NoRebuild) as e:
            raise CommandError(str(e)) from None
        except ValueError as error:
            raise CommandError(str(error)) from None

    def rebuild(self, opts: dict[str, Any]) -> None:
        started = time.perf_counter()
        if opts["resume"]:
            if opts["names"]:
                raise CommandError("--resume takes no names: it resumes the latest rebuild")
            run = tasks.resume_rebuild()
            self.stdout.write(f"rebuild {run.pk}: resumed ({', '.join(run.names)})")
        else:
            if opts["partitions"] < 1:
                raise CommandError("--partitions must be at least 1")
            run = tasks.start_rebuild(opts["names"] or None, partitions=opts["partitions"])
            self.stdout.write(
                f"rebuild {run.pk}: {', '.join(run.names)} up to position {run.head}, "
                f"{opts['partitions']} partitions a projection folded by stream"
            )
        if opts["no_wait"]:
            return
        # Without a broker the partitions ran in this process before start returned.
        while (found := rebuilds.progress(run.pk)).state == rebuilds.RUNNING:
            self.stdout.write(self.line(found))
            time.sleep(EVERY)
        self.stdout.write(self.line(found))
        for part in found.partitions:
            if part.error:
                self.stdout.write(f"  {part.projection} #{part.number}: {part.error}")
        if found.state != rebuilds.DONE:
            raise CommandError(
                f"rebuild {run.pk} {found.state}: {found.error} (--resume goes on from there)"
            )
        seconds = time.perf_counter() - started
        for name in run.names:
            self.stdout.write(f"{name}: rebuilt up to position {run.head}")
        self.stdout.write(f"rebuild {run.pk}: done in {seconds:.2f} s")

    @staticmethod
    def line(found: rebuilds.Progress) -> str:
        return (
            f"rebuild {found.run_id}: {found.state}, {found.percent}% ({found.events} of "
            f"{found.total} events), {found.partitions_done} of {len(found.partitions)} "
            "partitions done"
        )

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
            rebuilding = f"  rebuilding (run {row.rebuilding})" if row.rebuilding else ""
            self.stdout.write(
                f"{row.name:<{width}}  {row.position:>10}  {row.head:>10}  {row.lag:>8}"
                + rebuilding
            )
