"""The games' own projections (games/projections.py runs them): GameSummaries (a game's status,
seats to act, scores), Activity (events and finished matches per minute) and GameResults (a
row per hand and per match). Registered when the games app is ready (games/apps.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC
from typing import Any, ClassVar

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncMinute

from engine import HAND_OVER, MATCH_OVER, PLAYING
from engine.events import (
    GAME_ABORTED,
    HAND_ENDED,
    HAND_STARTED,
    MATCH_ENDED,
    MATCH_STARTED,
    PROMPTED,
)
from games import archived_streams
from games.event_records import Record
from games.match_outcomes import match_outcome
from games.models import ActivityMinute, GameEvent, GameSummary, HandResult, MatchResult
from games.projections import Projection, insert_rows, register


@register
class GameSummaries(Projection):
    """GameSummary: status, seats to act, scores, hand number, version, last activity."""

    name = "game-summaries"
    tables = (GameSummary,)
    every_event = True
    # A rebuild reads of each game its hands' and match's landmarks, the newest prompted (each
    # overwrites `to_act`, and every hand's start and end clear it) and the newest event (the
    # version and last activity): a few events a hand, not every card.
    by_stream = True
    stream_types = frozenset({MATCH_STARTED, HAND_STARTED, HAND_ENDED, MATCH_ENDED, GAME_ABORTED})
    stream_newest = frozenset({PROMPTED})
    stream_last = True

    def begin(self, records: list[Record]) -> None:
        # The last event of each game in the batch gives its version and last activity.
        self.last = {record.game_id: record for record in records}
        stored = GameSummary.objects.filter(game_id__in=list(self.last))
        self.rows = {row.game_id: row for row in stored}
        self.new: list[GameSummary] = []

    def match_started(self, record: Record) -> None:
        row = GameSummary(
            game_id=record.game_id,
            status=PLAYING,
            to_act=[],
            scores=[0] * record.event["seats"],
            hand_number=0,
        )
        self.rows[record.game_id] = row
        self.new.append(row)

    def hand_started(self, record: Record) -> None:
        row = self.rows[record.game_id]
        row.hand_number = record.event["hand"]
        row.status = PLAYING
        row.to_act = []

    def prompted(self, record: Record) -> None:
        self.rows[record.game_id].to_act = list(record.event["to_act"])

    def hand_ended(self, record: Record) -> None:
        row = self.rows[record.game_id]
        row.scores = list(record.event["scores"])
        row.status = HAND_OVER
        row.to_act = []

    def match_ended(self, record: Record) -> None:
        self.rows[record.game_id].status = MATCH_OVER

    def game_aborted(self, record: Record) -> None:
        # Over, as the engine folds it; the summary keeps the scores it had.
        row = self.rows[record.game_id]
        row.status = MATCH_OVER
        row.to_act = []

    handlers = {
        MATCH_STARTED: match_started,
        HAND_STARTED: hand_started,
        PROMPTED: prompted,
        HAND_ENDED: hand_ended,
        MATCH_ENDED: match_ended,
        GAME_ABORTED: game_aborted,
    }

    def finish(self) -> None:
        for game_id, record in self.last.items():
            row = self.rows[game_id]
            row.version = record.version
            row.last_activity = record.recorded_at
        created = {row.game_id for row in self.new}
        insert_rows(GameSummary, self.new)
        GameSummary.objects.bulk_update(
            [row for game_id, row in self.rows.items() if game_id not in created],
            ["status", "to_act", "scores", "hand_number", "version", "last_activity"],
        )


def minutes(after: int, upto: int | None = None, *, since: Any = None) -> QuerySet[Any]:
    """Events and match-ended events per UTC minute among the log's global positions (after,
    upto] (and recorded at `since` or later): an aggregate over a range of the primary key."""
    rows = GameEvent.objects.filter(global_position__gt=after)
    if upto is not None:
        rows = rows.filter(global_position__lte=upto)
    if since is not None:
        rows = rows.filter(recorded_at__gte=since)
    return (
        rows.annotate(bucket=TruncMinute("recorded_at", tzinfo=UTC))
        .values("bucket")
        .annotate(events=Count("pk"), matches=Count("pk", filter=Q(type=MATCH_ENDED)))
        .order_by()
    )


@register
class Activity(Projection):
    """ActivityMinute: events and finished matches per minute, counted in the database over
    each batch's positions (no event is read into Python)."""

    name = "activity"
    tables = (ActivityMinute,)
    # No records are read for it: its count is an aggregate over the batch's positions.
    handlers: ClassVar[Mapping[str, Callable[[Any, Record], None]]] = {}

    def begin(self, records: list[Record]) -> None:
        counted = {row["bucket"]: row for row in minutes(self.after, self.upto)}
        # Archived streams' events in the batch (a rebuild's): counted here, as the aggregate
        # counts the live ones.
        for record in archived_streams.read_archived(after=self.after, upto=self.upto):
            bucket = record.recorded_at.replace(second=0, microsecond=0)
            row = counted.setdefault(bucket, {"bucket": bucket, "events": 0, "matches": 0})
            row["events"] += 1
            row["matches"] += record.type == MATCH_ENDED
        stored = ActivityMinute.objects.in_bulk(list(counted))
        new = []
        for bucket, row in counted.items():
            minute = stored.get(bucket)
            if minute is None:
                new.append(ActivityMinute(bucket, row["events"], row["matches"]))
            else:
                minute.events += row["events"]
                minute.matches += row["matches"]
        ActivityMinute.objects.bulk_create(new)
        ActivityMinute.objects.bulk_update(list(stored.values()), ["events", "matches"])


@register
class GameResults(Projection):
    """HandResult for every hand that ended, MatchResult for every match that ended."""

    name = "game-results"
    tables = (HandResult, MatchResult)
    by_stream = True

    def begin(self, records: list[Record]) -> None:
        self.hands: list[HandResult] = []
        self.matches: list[MatchResult] = []

    def hand_ended(self, record: Record) -> None:
        event = record.event
        result = HandResult(
            game_id=record.game_id,
            hand_number=event["hand"],
            winner=event["winner"],
            cards_left=event["cards_left"],
            points=event["points"],
            gained=event["gained"],
            scores=event["scores"],
            hands_won=event["hands_won"],
            recorded_at=record.recorded_at,
        )
        self.hands.append(result)

    def match_ended(self, record: Record) -> None:
        outcome = match_outcome(record)
        self.matches.append(
            MatchResult(
                game_id=record.game_id,
                winner=outcome.winner,
                places=outcome.places,
                forfeited=outcome.forfeited,
                forfeits=list(outcome.forfeits),
                scores=record.event["scores"],
                hands_won=outcome.hands_won,
                hands=outcome.hands,
                recorded_at=record.recorded_at,
            )
        )

    handlers = {HAND_ENDED: hand_ended, MATCH_ENDED: match_ended}

    def finish(self) -> None:
        insert_rows(HandResult, self.hands)
        insert_rows(MatchResult, self.matches)
