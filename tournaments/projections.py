"""The `tournament-results` projection: every finished tournament table, folded in global order
into Result rows (tournaments/results.py reads the lines from the match's own stream; the table's
seats are a row written once when its game was made). `projections rebuild tournament-results`
gives the same rows."""

from __future__ import annotations

from engine.events import MATCH_ENDED
from games.event_records import Record
from games.projections import Projection, register
from tournaments import results
from tournaments.models import Result, TournamentGame


@register
class TournamentResults(Projection):
    name = "tournament-results"
    tables = (Result,)

    def begin(self, records: list[Record]) -> None:
        self.tables_of = {
            table.game_id: table
            for table in TournamentGame.objects.filter(
                game_id__in={record.game_id for record in records}
            ).select_related("round__tournament")
        }
        self.rows: list[Result] = []

    def match_ended(self, record: Record) -> None:
        table = self.tables_of.get(record.game_id)
        if table is None:
            return
        tournament = table.round.tournament
        for line in results.table_lines(record, table.entries, tournament.table_size):
            self.rows.append(
                Result(
                    tournament=tournament,
                    round=table.round.number,
                    game_id=record.game_id,
                    entry_id=line.entry,
                    place=line.place,
                    points=line.points,
                    score=line.score,
                    forfeited=line.forfeited,
                )
            )

    handlers = {MATCH_ENDED: match_ended}

    def finish(self) -> None:
        # A match ends once; a second match-ended of a game (none is written) would replace.
        Result.objects.bulk_create(
            self.rows,
            update_conflicts=True,
            unique_fields=["game", "entry"],
            update_fields=["place", "points", "score", "forfeited"],
        )
