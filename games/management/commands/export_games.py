"""`manage.py export_games [--month YYYY-MM] [--out DIR]`: the open database's files of a month
(games/export.py; docs/database.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games import export


class Command(BaseCommand):
    help = (
        "Write a month's finished games, one zstandard-compressed JSON Lines file per family "
        "with every card revealed, and the month's manifest (sizes and SHA-256)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--month", metavar="YYYY-MM", help="the month the games ended in (default: last month)"
        )
        parser.add_argument(
            "--out", metavar="DIR", type=Path, help="the folder of months (default: EXPORTS_DIR)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            month = (
                export.parse_month(opts["month"])
                if opts["month"]
                else export.previous_month(timezone.now().date())
            )
        except export.BadMonth as error:
            raise CommandError(f"{error.code}: {error}") from None
        out = opts["out"] or export.exports_dir()
        files = export.export_month(month, out)
        folder = out / f"{month:%Y-%m}"
        if not files:
            self.stdout.write(f"{month:%Y-%m}: no finished games; {folder} has an empty manifest")
        for f in files:
            self.stdout.write(f"{folder / f.name}: {f.games} games, {f.bytes} bytes, {f.sha256}")
