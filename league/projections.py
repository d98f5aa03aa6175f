"""The `league-standings` projection: every finished fixture match, folded in global order into
its division's Standing rows (played, wins, placements, league points, hands won, points
scored, forfeits) and Meeting rows (who finished ahead of whom, for head-to-head).

It reads the match's own stream (games.projections.match_outcome: forfeits from seat-forfeited
events, hands from hand-ended) and, to know what the game was for, rows that never change once
the game exists: its Fixture, the fixture's seats and the season's placement points (frozen when
the season starts). So `projections rebuild league-standings` gives the same rows, byte for byte.
"""

from __future__ import annotations

from games.engine.events import MATCH_ENDED
from games.projections import Projection, match_outcome, register
from games.store import Record

from .models import Fixture, Meeting, Standing


@register
class LeagueStandings(Projection):
    name = "league-standings"
    tables = (Standing, Meeting)

    def begin(self, records: list[Record]) -> None:
        games = [record.game_id for record in records]
        self.fixtures = {
            fixture.game_id: fixture
            for fixture in Fixture.objects.filter(game_id__in=games)
            .select_related("division__season")
            .prefetch_related("seats")
        }
        divisions = {fixture.division_id for fixture in self.fixtures.values()}
        self.standings = {
            (row.division_id, row.entry_id): row
            for row in Standing.objects.filter(division_id__in=divisions)
        }
        self.meetings = {
            (row.division_id, row.entry_id, row.other_id): row
            for row in Meeting.objects.filter(division_id__in=divisions)
        }
        self.touched: set[tuple[int, ...]] = set()

    def match_ended(self, record: Record) -> None:
        fixture = self.fixtures.get(record.game_id)
        if fixture is None:
            return
        outcome = match_outcome(record)
        points = fixture.division.season.placement_points
        scores = record.event["scores"]
        entries = {seat.number: seat.entry_id for seat in fixture.seats.all()}
        division = fixture.division_id
        for seat, entry in entries.items():
            row = self._standing(division, entry, len(points))
            place = outcome.places[seat]
            row.played += 1
            row.placements[place - 1] += 1
            row.hands_won += outcome.hands_won[seat]
            row.points_scored += scores[seat]
            if seat in outcome.forfeited:
                # A forfeited seat earns no league points, whatever place it shares.
                row.forfeits += 1
            else:
                row.wins += place == 1
                row.league_points += points[place - 1]
            for other_seat, other in entries.items():
                if outcome.places[seat] < outcome.places[other_seat]:
                    self._meeting(division, entry, other).ahead += 1

    handlers = {MATCH_ENDED: match_ended}

    def _standing(self, division: int, entry: int, places: int) -> Standing:
        key = (division, entry)
        row = self.standings.get(key)
        if row is None:
            row = Standing(division_id=division, entry_id=entry, placements=[0] * places)
            self.standings[key] = row
        self.touched.add(key)
        return row

    def _meeting(self, division: int, entry: int, other: int) -> Meeting:
        key = (division, entry, other)
        row = self.meetings.get(key)
        if row is None:
            row = Meeting(division_id=division, entry_id=entry, other_id=other)
            self.meetings[key] = row
        self.touched.add(key)
        return row

    def finish(self) -> None:
        standings = [row for key, row in self.standings.items() if key in self.touched]
        meetings = [row for key, row in self.meetings.items() if key in self.touched]
        # Split before writing: bulk_create gives the new rows their keys.
        new_standings = [row for row in standings if row.pk is None]
        new_meetings = [row for row in meetings if row.pk is None]
        Standing.objects.bulk_update(
            [row for row in standings if row.pk is not None],
            ["played", "wins", "placements", "league_points", "hands_won", "points_scored",
             "forfeits"],
        )  # fmt: skip
        Meeting.objects.bulk_update([row for row in meetings if row.pk is not None], ["ahead"])
        Standing.objects.bulk_create(new_standings)
        Meeting.objects.bulk_create(new_meetings)
