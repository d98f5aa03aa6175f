"""`manage.py verify_game ID`: check a game's deals against its seed (docs/verifying-deals.md).

Reads the whole log (with the seed and every deck), so it runs on any game, finished or not:
for a game not yet revealed its output names hidden cards and is for operators only. Players
check a revealed game with docs/examples/verify_deals.py and the public replay; both run the
same checks (tests/games/test_verify_game.py holds them to the same answers). With `--file` it
checks a game of the open database's files instead (docs/database.md), read from the file alone.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine import open_data
from engine.verify import verify_log
from games import event_reads, reveal
from games.models import Game


class Command(BaseCommand):
    help = (
        "Recompute every deck, dealer, reshuffle and reinsertion of a game from its seed and "
        "check them, the deal commitments and every card's path against its log. Exits 1 when "
        "they differ."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int, metavar="ID")
        parser.add_argument(
            "--file",
            metavar="PATH",
            help="an open-database file (<family>.jsonl.zst): check its game ID, not the log",
        )
        parser.add_argument(
            "--json", action="store_true", help="print the result as JSON (the script's format)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["file"]:
            self.verify_file(opts["file"], opts["game_id"], as_json=opts["json"])
            return
        game = Game.objects.filter(pk=opts["game_id"]).first()
        if game is None:
            raise CommandError(f"there is no game {opts['game_id']}")
        result = verify_log(event_reads.load(game.pk), spec=game.variant)
        if opts["json"]:
            self.stdout.write(json.dumps({"game": game.pk, **result.as_dict()}, indent=2))
        else:
            revealed = reveal.revealed(game)
            self.stdout.write(f"game {game.pk} ({game.variant.get('rules')}, {game.status})")
            if not revealed:
                # The seed and the decks are still hidden from the players.
                self.stdout.write("note: not revealed: this report names hidden cards")
            for line in result.lines():
                self.stdout.write(line)
        if not result.ok:
            raise CommandError(f"game {game.pk}: the log does not match its seed")

    def verify_file(self, path: str, game_id: int, *, as_json: bool) -> None:
        try:
            line = open_data.find_game(path, game_id)
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {path}: {error}") from None
        if line is None:
            raise CommandError(f"there is no game {game_id} in {path}")
        result = verify_log(line["events"], spec=line["variant"])
        if as_json:
            self.stdout.write(json.dumps({"game": game_id, **result.as_dict()}, indent=2))
        else:
            self.stdout.write(f"game {game_id} ({line['family']}, from {path})")
            for text in result.lines():
                self.stdout.write(text)
        if not result.ok:
            raise CommandError(f"game {game_id}: the file's log does not match its seed")
