"""A finished table's result, read from its game's own log: each entry's place (the seats that
forfeited last, games.match_outcomes.match_outcome), its tournament points
(tournaments/scoring.py `placement_points`, a tie sharing the places' points) and score.

The `tournament-results` projection stores these lines; the services read them straight from
the log when a round ends, so the next round never waits for the projection. Both read the same
events the same way: a rebuild gives the same lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.events import MATCH_ENDED
from games.archived_streams import read_archived
from games.event_records import Record
from games.match_outcomes import match_outcome
from games.models import GameEvent
from tournaments import scoring


@dataclass(frozen=True, slots=True)
class Line:
    entry: int
    place: int
    points: float
    score: int
    forfeited: bool


def match_ended(game_id: int) -> Record | None:
    """The game's match-ended record, live or archived, or None while it plays."""
    row = (
        GameEvent.objects.filter(game_id=game_id, type=MATCH_ENDED)
        .order_by("-version")
        .values("global_position", "version", "data", "recorded_at")
        .first()
    )
    if row is None:
        # An archived game (games/archive.py) keeps its match-ended in its archived row.
        archived = read_archived(after=0, upto=2**62, types=(MATCH_ENDED,), games=(game_id,))
        return archived[-1] if archived else None
    event = {"type": MATCH_ENDED, **row["data"]}
    return Record(row["global_position"], game_id, row["version"], event, row["recorded_at"])


def table_lines(record: Record, entries: Sequence[int], table_size: int) -> list[Line]:
    """The lines of a table whose seats `entries` sat (in seat order), from its match-ended."""
    outcome = match_outcome(record)
    order = sorted(range(len(entries)), key=lambda seat: (outcome.places[seat], seat))
    points = scoring.placement_points([entries[seat] for seat in order], table_size)
    shared: dict[int, list[float]] = {}
    for seat in order:
        shared.setdefault(outcome.places[seat], []).append(points[entries[seat]])
    scores = record.event.get("scores") or [0] * len(entries)
    return [
        Line(
            entry=entry,
            place=outcome.places[seat],
            points=sum(shared[outcome.places[seat]]) / len(shared[outcome.places[seat]]),
            score=int(scores[seat]),
            forfeited=seat in outcome.forfeited,
        )
        for seat, entry in enumerate(entries)
    ]


def bye_points(table_size: int) -> float:
    """A bye is worth the mean of a table's points (tournaments/scoring.py `bye_points`)."""
    return scoring.bye_points(table_size)
