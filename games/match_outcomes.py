"""A finished match's outcome as the standings count it (MatchOutcome, match_outcome): read
from its own stream only, the engine's places with the forfeited seats moved last (the one rule,
games/placings.py `placing`). Shared by
the projections that fold match ends (games/game_projections.py, league/, ratings/,
tournaments/); in a fold, the events it needs are read for every match of the batch in one
query (`fold` in games/projections.py sets the batch's reads).
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from engine.events import HAND_ENDED, SEAT_FORFEITED
from games import event_reads, seat_facts
from games.event_records import Event, Record
from games.placings import placing


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished match as the standings count it: the engine's places with the forfeited
    seats moved last, the winner (None when first place is shared), the hands."""

    winner: int | None
    places: list[int]
    forfeited: list[int]
    hands_won: list[int]
    hands: int
    # The forfeited seats' seat-forfeited events (the first of each seat), without their type,
    # in seat order: MatchResult.forfeits.
    forfeits: tuple[Event, ...] = ()


# The events of a match's stream its outcome is folded from (match_outcome).
OUTCOME_TYPES = frozenset({SEAT_FORFEITED, HAND_ENDED})


class _OutcomeReads:
    """The OUTCOME_TYPES events of a batch's ended matches, read at the first that asks, in one
    query for them all (event_reads.load_many)."""

    def __init__(self, games: list[int]) -> None:
        self.games = set(games)
        self.read: dict[int, list[Record]] | None = None

    def of(self, record: Record) -> list[Event] | None:
        if record.game_id not in self.games:
            return None
        if self.read is None:
            self.read = event_reads.load_many(self.games, types=OUTCOME_TYPES)
        return [
            found.event
            for found in self.read.get(record.game_id, ())
            if found.version <= record.version
        ]


# The reads of the batch `fold` is folding (None outside one, or for a projection that folds no
# match end): a context variable, so that every caller of match_outcome in the fold, however
# deep (tournaments/results.py), shares them.
_outcome_reads: ContextVar[_OutcomeReads | None] = ContextVar("outcome_reads", default=None)


def outcome_events(record: Record) -> list[Event]:
    """The seat-forfeited and hand-ended events of a match-ended record's stream up to it, in
    version order: from the batch's one read in a fold, else read here."""
    reads = _outcome_reads.get()
    found = reads.of(record) if reads is not None else None
    if found is None:
        found = event_reads.load(record.game_id, until=record.version, types=OUTCOME_TYPES)
    return found


def match_outcome(record: Record, before: list[Event] | None = None) -> MatchOutcome:
    """The outcome of the match a match-ended record ends, read from its own stream only: the
    seat-forfeited events and the last hand-ended before it, if any (a rebuild reads the same). A
    caller that read those events already (`outcome_events`, or `event_reads.load` of OUTCOME_TYPES
    up to the record's version) passes them as `before`."""
    event = record.event
    if before is None:
        before = outcome_events(record)
    hands = [e for e in before if e["type"] == HAND_ENDED]
    # Seats that resigned, timed out too often or were ruled out are placed last.
    forfeited = sorted(seat_facts.fold(before).forfeited)
    firsts_of: dict[int, Event] = {}
    for found in before:
        if found["type"] == SEAT_FORFEITED:
            firsts_of.setdefault(found["seat"], found)
    placed = placing(event["places"], event["winner"], forfeited)
    return MatchOutcome(
        winner=placed.winner,
        places=placed.places,
        forfeited=forfeited,
        # Forfeits end a match mid-hand, the first one too (seat_facts.with_match_end): the
        # hands are those that ended before it.
        hands_won=list(hands[-1]["hands_won"]) if hands else [0] * len(event["places"]),
        hands=hands[-1]["hand"] if hands else 0,
        forfeits=tuple(
            {key: value for key, value in firsts_of[seat].items() if key != "type"}
            for seat in forfeited
        ),
    )
