"""Projections: fold the event log, in global order, into read models; exactly once, rebuildable.

A projection has a name, handlers per event type, its read-model tables and a checkpoint row
(the last global position it applied). The runner, in one transaction per batch, locks the
checkpoint row (a second runner of the same projection waits), reads the events after it, folds
them, writes the read models and moves the checkpoint. Either all of that commits or none of it:
every event is applied exactly once. `rebuild` empties the tables and folds the log from 0.

This module is the runner and the registry (`register`, PROJECTIONS); the games' own
projections are games/game_projections.py, the league's, the ratings' and the tournaments'
are in their apps, and the match outcomes they share are games/match_outcomes.py.

    python manage.py projections run | rebuild NAME | status
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson
from django.db import connection, models, transaction
from django.utils import timezone

from engine.events import MATCH_ENDED
from games import event_reads
from games.event_records import Record
from games.match_outcomes import _outcome_reads, _OutcomeReads
from games.models import ProjectionCheckpoint

# Global positions per transaction: large enough to amortise the round trips, small enough to
# keep each transaction (and the checkpoint lock) short.
BATCH_SIZE = 5000


class Projection:
    """A fold of the log into read models; a fresh instance folds each batch.

    `begin(records)` loads the rows the batch will touch, the handlers change them in memory,
    `finish()` writes them: a few queries per batch instead of a few per event. A projection
    with handlers and not `every_event` is not called at all for a batch with none of its
    types (its read models depend on those events alone).
    """

    name: ClassVar[str]
    tables: ClassVar[tuple[type[models.Model], ...]]
    handlers: ClassVar[Mapping[str, Callable[[Any, Record], None]]]
    # Read every event, not only the handled types (begin/finish look at them all).
    every_event: ClassVar[bool] = False
    # A rebuild (games/rebuilds.py) may fold it stream by stream, ranges of games in parallel:
    # its read models of one game depend on that game's events only, in their order.
    by_stream: ClassVar[bool] = False
    # What a rebuild by stream reads of each game (up to the head it captured), when it needs
    # less than the catch-up: `stream_types` (None: the handled types, or every type with
    # `every_event`), the newest event of each type in `stream_newest` (a type whose earlier
    # events are overwritten by the later one) and, with `stream_last`, the game's newest
    # event, whatever its type (games.event_reads.stream_records).
    stream_types: ClassVar[frozenset[str] | None] = None
    stream_newest: ClassVar[frozenset[str]] = frozenset()
    stream_last: ClassVar[bool] = False
    # The batch's global positions, (after, upto]: set before `begin`, for a projection that
    # reads the log's rows itself (an aggregate) rather than the records handed to it.
    after: int = 0
    upto: int = 0

    def begin(self, records: list[Record]) -> None:
        pass

    def finish(self) -> None:
        pass

    @classmethod
    def log_types(cls) -> frozenset[str] | None:
        """The event types a read of the log in global order gives it (the catch-up, and a
        rebuild in log order): its handled types, or None (every type) with `every_event`. The
        read filters them in the database (`type IN (...)`; a partial index for the rare ones)."""
        return None if cls.every_event else frozenset(cls.handlers)

    @classmethod
    def stream_reads(cls) -> tuple[frozenset[str] | None, frozenset[str], bool]:
        """What a rebuild by stream reads of each game (games.event_reads.stream_records' `types`,
        `newest`, `last`): `stream_types`, or else the log's types."""
        types = cls.stream_types if cls.stream_types is not None else cls.log_types()
        return types, cls.stream_newest, cls.stream_last


def insert_rows(table: type[models.Model], rows: list[Any]) -> None:
    """Insert new read-model rows (instances without a key, or with their primary key set),
    as bulk_create would, in one statement on PostgreSQL: the rows' columns as one JSON
    document the server turns into the table's rows (jsonb_populate_recordset), where
    bulk_create sends each column as an array the driver quotes value by value (for a rebuild's
    thousands of hands, most of a batch's Python). The columns are the model's own; a JSON
    column's value goes in as the JSON it is. Elsewhere (SQLite), bulk_create."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        table._default_manager.bulk_create(rows)
        return
    meta = table._meta
    fields = [field for field in meta.concrete_fields if field is not meta.auto_field]
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    document = orjson.dumps(
        [{field.column: getattr(row, field.attname) for field in fields} for row in rows]
    ).decode()
    quoted = connection.ops.quote_name(meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quoted} ({columns}) SELECT {columns} "
            f"FROM jsonb_populate_recordset(NULL::{quoted}, %s::jsonb)",
            [document],
        )


PROJECTIONS: dict[str, type[Projection]] = {}


def register(projection: type[Projection]) -> type[Projection]:
    """Make a projection known to the runner and to `manage.py projections` (a class decorator)."""
    PROJECTIONS[projection.name] = projection
    return projection


class UnknownProjection(LookupError):
    code = "unknown-projection"

    def __init__(self, name: str) -> None:
        super().__init__(f"no projection {name!r}; known: {', '.join(sorted(PROJECTIONS))}")


class Rebuilding(RuntimeError):
    """A rebuild run (games/rebuilds.py) is folding the projection's read models: nothing else
    may write them until it ends (or is resumed to its end)."""

    code = "projection-rebuilding"

    def __init__(self, names: Iterable[str]) -> None:
        self.names = sorted(names)
        super().__init__(
            f"a rebuild of {', '.join(self.names)} is running; resume it "
            "(manage.py projections rebuild --resume) or wait for it to end"
        )


class _LogReads:
    """The log's events of the ranges the projections of `run_all` folded (the last few), of
    every type, kept for the next projections that fold the same range: a range at or below the
    head holds committed events only, the same for every reader. Each projection is given its
    own types of them, in order (the records are shared: read them, never change them)."""

    KEPT = 3

    def __init__(self) -> None:
        self.found: dict[tuple[int, int], list[Record]] = {}

    def records(self, after: int, upto: int, types: frozenset[str] | None) -> list[Record]:
        found = self.found.get((after, upto))
        if found is None:
            found = self.found[after, upto] = event_reads.read_all(after=after, upto=upto)
            if len(self.found) > self.KEPT:
                del self.found[next(iter(self.found))]
        if types is None:
            return list(found)
        return [record for record in found if record.type in types]


_log_reads: ContextVar[_LogReads | None] = ContextVar("log_reads", default=None)


def run(name: str, *, batch_size: int = BATCH_SIZE) -> int:
    """Apply every event committed so far that `name` has not applied; return how many positions
    the checkpoint moved. Events committed while it runs are left for the next run.
    """
    projection = find(name)
    found, _ = ProjectionCheckpoint.objects.get_or_create(name=name)
    return _run(projection, found.position, event_reads.head(), batch_size)


def run_all(*, batch_size: int = BATCH_SIZE) -> int:
    """`run` every projection up to one head; return the positions their checkpoints moved.

    One read of the head and of the checkpoints for them all, the ones already there skipped,
    and each batch's events read from the log once for every projection that folds the same
    positions (they move together after each append), each given its own types of them.
    """
    target = event_reads.head()
    positions = dict(ProjectionCheckpoint.objects.values_list("name", "position"))
    token = _log_reads.set(_LogReads())
    moved = 0
    try:
        for name, projection in PROJECTIONS.items():
            if name not in positions:
                ProjectionCheckpoint.objects.get_or_create(name=name)
            moved += _run(projection, positions.get(name, 0), target, batch_size)
    finally:
        _log_reads.reset(token)
    return moved


def _run(projection: type[Projection], position: int, target: int, batch_size: int) -> int:
    name = projection.name
    # A checkpoint never moves back while nothing rebuilds it (a rebuild run's start sets it to
    # 0 as it takes it, and its end to a later head): at the target already, the locked read
    # below would find nothing to fold either.
    if position >= target:
        return 0
    moved = 0
    while True:
        passed = _pass_over_nothing(projection, position, target, batch_size)
        if passed:
            moved += passed
            position += passed
            if position >= target:
                return moved
            continue
        with transaction.atomic():
            checkpoint = ProjectionCheckpoint.objects.select_for_update().get(name=name)
            if checkpoint.rebuilding_id is not None:
                # A rebuild run owns the read models; its end sets the checkpoint.
                return moved
            step = _advance(projection, checkpoint, target, batch_size)
        moved += step
        if not step or checkpoint.position >= target:
            return moved
        position = checkpoint.position


def _pass_over_nothing(
    projection: type[Projection], position: int, target: int, batch_size: int
) -> int:
    """In `run_all`, when the batch after `position` holds none of the projection's types (its
    fold would be skipped), move the checkpoint over it in one statement, if it is still at
    `position` and no rebuild holds it: the positions moved, or 0 (then the locked run)."""
    reads = _log_reads.get()
    if reads is None or not projection.handlers or projection.every_event:
        return 0
    upto = min(target, position + batch_size)
    if upto <= position or reads.records(position, upto, projection.log_types()):
        return 0
    moved = ProjectionCheckpoint.objects.filter(
        name=projection.name, position=position, rebuilding__isnull=True
    ).update(position=upto, updated_at=timezone.now())
    return upto - position if moved else 0


# Told (positions folded, positions to fold) after each batch of a rebuild.
Progress = Callable[[int, int], None]


def rebuild(name: str, *, batch_size: int = BATCH_SIZE, progress: Progress | None = None) -> int:
    """Empty the projection's tables and fold the whole log again, in one transaction and one
    process: readers see the old read models until the new ones are complete. Returns the
    positions folded. `progress` hears after each batch: the transaction hides the checkpoint
    until the end. (`manage.py projections rebuild --one-transaction`; the usual rebuild is
    games/rebuilds.py's, partitioned across the workers and resumable.) Rebuilding if a
    rebuild run holds the projection.
    """
    projection = find(name)
    ProjectionCheckpoint.objects.get_or_create(name=name)
    with transaction.atomic():
        checkpoint = ProjectionCheckpoint.objects.select_for_update().get(name=name)
        if checkpoint.rebuilding_id is not None:
            raise Rebuilding([name])
        for table in projection.tables:
            table._default_manager.all().delete()
        checkpoint.position = 0
        checkpoint.save(update_fields=["position", "updated_at"])
        target = event_reads.head()
        while _advance(projection, checkpoint, target, batch_size):
            if progress is not None:
                progress(checkpoint.position, target)
    return checkpoint.position


def _advance(
    projection: type[Projection], checkpoint: ProjectionCheckpoint, target: int, batch_size: int
) -> int:
    """Fold the next batch (at most up to `target`) and move the checkpoint: the caller holds
    the checkpoint's lock in a transaction. Returns the positions moved."""
    start = checkpoint.position
    upto = min(target, start + batch_size)
    if upto <= start:
        return 0
    reads = _log_reads.get()
    types = projection.log_types()
    if reads is None:
        records = event_reads.read_all(after=start, upto=upto, types=types)
    else:
        records = reads.records(start, upto, types)
    fold(projection, records, start, upto)
    checkpoint.position = upto
    checkpoint.save(update_fields=["position", "updated_at"])
    return upto - start


def fold(projection: type[Projection], records: list[Record], after: int, upto: int) -> None:
    """Fold `records` (the log's positions (after, upto], or whole streams up to `upto`) into
    the projection's read models: a fresh instance, begin, the handlers, finish. When the
    projection folds match ends, the streams' events their outcomes need are read first, for
    every match of the batch in one query (`outcome_events`)."""
    if not records and projection.handlers and not projection.every_event:
        # None of the types it handles: its read models are what they were (a catch-up after a
        # move, most batches, skips the queries of its begin and finish).
        return
    folding = projection()
    folding.after, folding.upto = after, upto
    ends = [record.game_id for record in records if record.type == MATCH_ENDED]
    token = _outcome_reads.set(
        _OutcomeReads(ends) if ends and MATCH_ENDED in projection.handlers else None
    )
    try:
        folding.begin(records)
        handlers = projection.handlers
        for record in records:
            handler = handlers.get(record.type)
            if handler is not None:
                handler(folding, record)
        folding.finish()
    finally:
        _outcome_reads.reset(token)


@dataclass(frozen=True, slots=True)
class ProjectionStatus:
    name: str
    position: int
    head: int
    # The rebuild run folding it now (games/rebuilds.py), if any.
    rebuilding: int | None = None

    @property
    def lag(self) -> int:
        """Events committed that the projection has not applied yet."""
        return self.head - self.position


def status(names: Iterable[str] | None = None) -> list[ProjectionStatus]:
    names = sorted(PROJECTIONS) if names is None else [find(n).name for n in names]
    head = event_reads.head()
    rows = ProjectionCheckpoint.objects.values_list("name", "position", "rebuilding")
    found = {name: (position, run) for name, position, run in rows}
    return [
        ProjectionStatus(name, found.get(name, (0, None))[0], head, found.get(name, (0, None))[1])
        for name in names
    ]


def find(name: str) -> type[Projection]:
    """The projection named `name`; UnknownProjection if there is none."""
    try:
        return PROJECTIONS[name]
    except KeyError:
        raise UnknownProjection(name) from None
