"""Archive finished games' events now (games/archive.py; docs/event-store.md, "Archived
streams"): what the hourly sweep does, with its age and batch chosen by the operator."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import archive


class Command(BaseCommand):
    help = (
        "Move the events of finished games still for --older-than days (GAMES_ARCHIVE_AFTER_DAYS "
        "by default) into one compressed row each; every read still finds them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than",
            type=float,
            default=None,
            metavar="DAYS",
            help="days since the game's last event "
            f"(default {settings.GAMES_ARCHIVE_AFTER_DAYS:g})",
        )
        parser.add_argument(
            "--limit",
            type=int,
            default=archive.SWEEP_LIMIT,
            metavar="N",
            help=f"games at most (default {archive.SWEEP_LIMIT})",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        days = opts["older_than"]
        if days is not None and days < 0:
            raise CommandError("--older-than takes days, 0 or more")
        if opts["limit"] < 1:
            raise CommandError("--limit takes a number of games, 1 or more")
        swept = archive.archive_games(
            older_than=None if days is None else timedelta(days=days), limit=opts["limit"]
        )
        self.stdout.write(
            f"archived {swept.games} games ({swept.events} events); "
            f"{swept.skipped} left live (not yet folded by every projection, or changed)"
        )
