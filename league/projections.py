"""The league's projections: `league-standings`, `ladder-ratings` and `player-families` (below).

The `league-standings` projection: every finished fixture match, folded in global order into
its division's Standing rows (played, wins, placements, league points, hands won, points
scored, forfeits) and Meeting rows (who finished ahead of whom, for head-to-head).

It reads the match's own stream (games.match_outcomes.match_outcome: forfeits from seat-forfeited
events, hands from hand-ended) and, to know what the game was for, rows that never change once
the game exists: its Fixture, the fixture's seats and the season's placement points (frozen when
the season starts). So `projections rebuild league-standings` gives the same rows, byte for byte.
"""

from __future__ import annotations

from typing import Any

from engine.events import HAND_ENDED, MATCH_ENDED
from games import event_reads
from games.event_records import Record
from games.game_settings import PRACTICE_KEY, GameSettings
from games.match_outcomes import MatchOutcome, match_outcome, outcome_events
from games.models import Game, Seat
from games.projections import Projection, insert_rows, register
from league import ratings
from league.models import (
    Fixture,
    LadderMeeting,
    LadderSet,
    Meeting,
    PlayerFamilyRecord,
    Rating,
    RatingChange,
    Standing,
)
from league.standings import family_of


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


@register
class LadderRatings(Projection):
    """The `ladder-ratings` projection: every finished ladder game, in global order, into its
    entrants' Rating (games, win shares, last played) and LadderMeeting rows; the game that
    completes its LadderSet (the last seat rotation) rates the set: RatingChange rows and each
    Rating's mu and sigma (league/ratings.py: decay for the time away, then Plackett-Luce).

    It reads the games' own streams (match_outcome), the games' settings and the LadderSet,
    both written once when the game was made, and the time of each match-ended event: so
    `projections rebuild ladder-ratings` reproduces every rating exactly.
    """

    name = "ladder-ratings"
    tables = (Rating, RatingChange, LadderMeeting)

    def begin(self, records: list[Record]) -> None:
        contexts = dict(
            Game.objects.filter(pk__in={r.game_id for r in records}).values_list("pk", "context")
        )
        self.settings = {
            game: found
            for game, context in contexts.items()
            if (found := GameSettings.of(context)).ladder_set is not None
        }
        self.sets = LadderSet.objects.in_bulk({s.ladder_set for s in self.settings.values()})
        # The games of the batch's sets (a set's rating reads all of its games' ends), and the
        # ends folded so far in this batch, by game.
        self.set_games: dict[int, dict[int, dict[str, Any]]] = {}
        if self.sets:
            for pk, context in Game.objects.filter(
                context__ladder_set__in=list(self.sets)
            ).values_list("pk", "context"):
                self.set_games.setdefault(context["ladder_set"], {})[pk] = context
        self.ends: dict[int, Record] = {}
        entries = {int(entry) for ladder_set in self.sets.values() for entry in ladder_set.entries}
        self.ratings = {row.entry_id: row for row in Rating.objects.filter(entry_id__in=entries)}
        self.meetings = {
            (row.entry_id, row.other_id): row
            for row in LadderMeeting.objects.filter(entry_id__in=entries)
        }
        self.changes: list[RatingChange] = []
        self.touched: set[int | tuple[int, int]] = set()
        # The batch's match outcomes by game: a set's rating reads again those of its games.
        self.outcomes: dict[int, MatchOutcome] = {}

    def _outcome(self, record: Record) -> MatchOutcome:
        found = self.outcomes.get(record.game_id)
        if found is None:
            found = self.outcomes[record.game_id] = match_outcome(record)
        return found

    def match_ended(self, record: Record) -> None:
        found = self.settings.get(record.game_id)
        if found is None:
            return
        ladder_set = self.sets[found.ladder_set]
        self.ends[record.game_id] = record
        rotation = found.rotation or 0
        places = self._outcome(record).places
        by_entry = {ladder_set.entry_at(seat, rotation): place for seat, place in enumerate(places)}
        shares = ratings.win_shares(places)
        for seat in range(len(places)):
            row = self._rating(ladder_set, ladder_set.entry_at(seat, rotation), record)
            row.games += 1
            row.wins += shares[seat]
            row.last_played = record.recorded_at
        for entry, other, ahead in ratings.meetings(by_entry):
            meeting = self._meeting(ladder_set.competition_id, entry, other)
            meeting.games += 1
            meeting.ahead += ahead
        if rotation == ladder_set.size - 1:
            self._rate(ladder_set, record)

    handlers = {MATCH_ENDED: match_ended}

    def _rate(self, ladder_set: LadderSet, record: Record) -> None:
        """Rate a complete set: every game of it has ended by now (the rotations are played one
        after the other, and this is the last)."""
        games = self.set_games.get(ladder_set.pk, {})
        # The ends this batch folded already; the others (earlier batches') read from the log.
        ends = [self.ends[game] for game in games if game in self.ends]
        if missing := [game for game in games if game not in self.ends]:
            ends += event_reads.read_all(
                after=0, upto=record.position, types={MATCH_ENDED}, games=missing
            )
        if len(ends) != ladder_set.size:
            return  # A rotation that never ended (never made): the set is not rated.
        entries = [int(entry) for entry in ladder_set.entries]
        game_places: dict[int, list[int]] = {entry: [] for entry in entries}
        order = sorted(ends, key=lambda end: GameSettings.of(games[end.game_id]).rotation or 0)
        for end in order:
            rotation = GameSettings.of(games[end.game_id]).rotation or 0
            for seat, place in enumerate(self._outcome(end).places):
                game_places[ladder_set.entry_at(seat, rotation)].append(place)
        rows = [self.ratings[entry] for entry in entries]
        rated = ratings.rate_set(
            [ratings.Skill(row.mu, row.sigma) for row in rows],
            [row.rated_at for row in rows],
            [game_places[entry] for entry in entries],
            record.recorded_at,
        )
        for row, before, after, place in zip(
            rows, rated.before, rated.after, rated.places, strict=True
        ):
            row.mu, row.sigma = after.mu, after.sigma
            row.events += 1
            row.rated_at = record.recorded_at
            row.trend = [*row.trend, after.ordinal][-ratings.TREND_POINTS :]
            self.changes.append(
                RatingChange(
                    competition_id=ladder_set.competition_id,
                    entry_id=row.entry_id,
                    ladder_set=ladder_set,
                    position=record.position,
                    recorded_at=record.recorded_at,
                    mu_before=before.mu,
                    sigma_before=before.sigma,
                    mu=after.mu,
                    sigma=after.sigma,
                    place=place,
                    places=game_places[row.entry_id],
                    games=[end.game_id for end in order],
                )
            )

    def _rating(self, ladder_set: LadderSet, entry: int, record: Record) -> Rating:
        row = self.ratings.get(entry)
        if row is None:
            row = Rating(
                competition_id=ladder_set.competition_id,
                entry_id=entry,
                mu=ratings.MU,
                sigma=ratings.SIGMA,
                last_played=record.recorded_at,
            )
            self.ratings[entry] = row
        self.touched.add(entry)
        return row

    def _meeting(self, competition: int, entry: int, other: int) -> LadderMeeting:
        row = self.meetings.get((entry, other))
        if row is None:
            row = LadderMeeting(competition_id=competition, entry_id=entry, other_id=other)
            self.meetings[entry, other] = row
        self.touched.add((entry, other))
        return row

    def finish(self) -> None:
        ratings_rows = [row for key, row in self.ratings.items() if key in self.touched]
        meetings = [row for key, row in self.meetings.items() if key in self.touched]
        Rating.objects.bulk_update(
            [row for row in ratings_rows if row.pk is not None],
            ["mu", "sigma", "events", "games", "wins", "last_played", "rated_at", "trend"],
        )
        LadderMeeting.objects.bulk_update(
            [row for row in meetings if row.pk is not None], ["games", "ahead"]
        )
        Rating.objects.bulk_create([row for row in ratings_rows if row.pk is None])
        LadderMeeting.objects.bulk_create([row for row in meetings if row.pk is None])
        insert_rows(RatingChange, self.changes)


@register
class PlayerFamilies(Projection):
    """The `player-families` projection: every finished match, in global order, into its
    people's PlayerFamilyRecord of the game's rule family (league/standings.py `family_of`):
    matches, wins (first place, not forfeited), hands and the points they scored in them; never
    a practice deal (a seed its creator chose, who could know every hand: games/lobby.py).

    It reads the match's own stream (match_outcome, the hand-ended events) and the game's
    variant, context and seats' people, written once when the game was made: so `projections
    rebuild player-families` gives the same rows.
    """

    name = "player-families"
    tables = (PlayerFamilyRecord,)

    def begin(self, records: list[Record]) -> None:
        games = {record.game_id for record in records}
        self.families = {
            pk: family_of(variant)
            for pk, variant, context in Game.objects.filter(pk__in=games).values_list(
                "pk", "variant", "context"
            )
            if PRACTICE_KEY not in context
        }
        self.people: dict[int, list[tuple[int, int]]] = {}
        for game, number, user in Seat.objects.filter(
            game_id__in=list(self.families), user__isnull=False
        ).values_list("game_id", "number", "user_id"):
            self.people.setdefault(game, []).append((number, user))
        users = {user for seats in self.people.values() for _, user in seats}
        self.rows = {
            (row.user_id, row.family): row
            for row in PlayerFamilyRecord.objects.filter(user_id__in=users)
        }
        self.touched: set[tuple[int, str]] = set()

    def match_ended(self, record: Record) -> None:
        seats = self.people.get(record.game_id)
        if not seats:
            return
        before = outcome_events(record)
        outcome = match_outcome(record, before)
        hands = [event["gained"] for event in before if event["type"] == HAND_ENDED]
        family = self.families[record.game_id]
        for number, user in seats:
            row = self.rows.get((user, family))
            if row is None:
                row = PlayerFamilyRecord(user_id=user, family=family)
                self.rows[user, family] = row
            self.touched.add((user, family))
            row.matches += 1
            row.wins += outcome.places[number] == 1 and number not in outcome.forfeited
            row.hands += len(hands)
            row.points += sum(gained[number] for gained in hands)

    handlers = {MATCH_ENDED: match_ended}

    def finish(self) -> None:
        rows = [row for key, row in self.rows.items() if key in self.touched]
        PlayerFamilyRecord.objects.bulk_update(
            [row for row in rows if row.pk is not None], ["matches", "wins", "hands", "points"]
        )
        PlayerFamilyRecord.objects.bulk_create([row for row in rows if row.pk is None])
