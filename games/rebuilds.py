"""Rebuild runs: the projections' read models folded again from the log, partitioned across the
workers, with their progress in the database, resumable (docs/event-store.md, "Rebuilds").

`start` captures the log's head, empties the projections' read models, marks their checkpoints
as being rebuilt by the run (the catch-up, games.projections.run, leaves them alone meanwhile)
and writes the run's partitions:

- a projection folded by stream (`Projection.by_stream`: game summaries, game results) gets
  `partitions` ranges of game ids, cut so that each holds about as many events; a partition
  folds its games a batch at a time, reading only the events the projection needs
  (games.event_reads.stream_records), and its checkpoint is the last game folded;
- every other projection (standings and ratings depend on the order of the games' ends across
  the log; the activity counts per minute) gets one partition that folds the log in global
  order, its handled types only, its checkpoint a global position.

Each batch writes its read models and moves its partition's checkpoint in one transaction, with
the partition's row locked: a second runner of the same partition waits, and a stopped or
crashed one leaves the partition where its last batch committed, so `resume` sends the partitions
not done and each goes on from its checkpoint. When a projection's last partition is done, its
checkpoint is set to the captured head and released: the catch-up applies what was appended
during the rebuild. A run's tasks are sent by games/tasks.py (`start_rebuild`,
`resume_rebuild`): to the workers with a broker, in this process without one.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from games import event_reads, projections
from games.models import Game, ProjectionCheckpoint, RebuildPartition, RebuildRun

log = logging.getLogger(__name__)

RUNNING, DONE, FAILED = (RebuildRun.State.RUNNING, RebuildRun.State.DONE, RebuildRun.State.FAILED)
# Game ranges a projection folded by stream is cut into, unless told.
PARTITIONS = 4
# Events of the log one batch of a partition covers (its games' versions, or its positions),
# one transaction each: a stream batch reads only the few of them a projection needs (about
# 1.5%: some 1,500 records), so a batch is large and the round trips and commits few.
BATCH_EVENTS = 100_000
# A partition folded in log order covers this many times more positions a batch: it reads one
# or two types of them (or counts them in the database).
LOG_SPAN = 10
# Games looked up at a time to cut a stream batch from.
GAMES_AT_ONCE = 500


class NoRebuild(LookupError):
    code = "no-rebuild"

    def __init__(self) -> None:
        super().__init__("there is no rebuild run to resume")


def start(names: Iterable[str] | None = None, *, partitions: int = PARTITIONS) -> RebuildRun:
    """Begin a rebuild of `names` (every projection by default): empty their read models and
    write the run and its partitions, all in one transaction. The caller sends the partitions
    (`pending`) once it has committed. Rebuilding if one of them is being rebuilt already;
    UnknownProjection for a name no projection has."""
    if partitions < 1:
        raise ValueError("a rebuild needs at least one partition")
    chosen = sorted({projections.find(name).name for name in names or projections.PROJECTIONS})
    with transaction.atomic():
        for name in chosen:
            ProjectionCheckpoint.objects.get_or_create(name=name)
        checkpoints = ProjectionCheckpoint.objects.select_for_update().filter(name__in=chosen)
        busy = [row.name for row in checkpoints.order_by("name") if row.rebuilding_id is not None]
        if busy:
            raise projections.Rebuilding(busy)
        head = event_reads.head()
        run = RebuildRun.objects.create(names=chosen, head=head, partitions=partitions)
        ranges = game_ranges(partitions)
        parts = []
        for name in chosen:
            projection = projections.PROJECTIONS[name]
            for table in projection.tables:
                table._default_manager.all().delete()
            if projection.by_stream:
                parts += [
                    RebuildPartition(
                        run=run,
                        projection=name,
                        number=number,
                        by_stream=True,
                        low=low,
                        high=high,
                        checkpoint=low,
                        total=total,
                    )  # fmt: skip
                    for number, (low, high, total) in enumerate(ranges)
                ]
            else:
                parts.append(
                    RebuildPartition(
                        run=run,
                        projection=name,
                        number=0,
                        by_stream=False,
                        low=0,
                        high=head,
                        checkpoint=0,
                        total=head,
                    )  # fmt: skip
                )
        RebuildPartition.objects.bulk_create(parts)
        checkpoints.update(position=0, rebuilding=run, updated_at=timezone.now())
    return run


def game_ranges(partitions: int) -> list[tuple[int, int, int]]:
    """`partitions` ranges of game ids (low, high] covering every game, each with about as many
    events (the games' versions): (low, high, events)."""
    ids, weights = [], []
    for pk, version in Game.objects.order_by("pk").values_list("pk", "version").iterator(10_000):
        ids.append(pk)
        weights.append(version)
    cumulative, total = [], 0
    for weight in weights:
        total += weight
        cumulative.append(total)
    ranges, low, taken = [], 0, 0
    for number in range(1, partitions + 1):
        if number == partitions:
            cut = len(ids)
        else:
            # The first game at which the running total reaches this partition's share.
            cut = bisect.bisect_left(cumulative, total * number / partitions) + 1
            cut = max(cut, taken)
        high = ids[cut - 1] if cut > 0 else low
        events = (cumulative[cut - 1] if cut > 0 else 0) - (cumulative[taken - 1] if taken else 0)
        ranges.append((low, high, events))
        low, taken = high, cut
    return ranges


def pending(run_id: int) -> list[int]:
    """The partitions of a run still to fold, the largest first."""
    rows = RebuildPartition.objects.filter(run_id=run_id, done=False)
    return list(rows.order_by("-total", "pk").values_list("pk", flat=True))


def fold_run(run_id: int) -> int:
    """Fold the run's pending partitions one after the other, each claimed for this process
    (on PostgreSQL a session advisory lock, let go when the partition is done or the
    connection closes: a killed worker's claim ends with it) so that concurrent folders take
    different partitions: any number of them share the run however the broker handed out the
    tasks. Returns the partitions this one folded."""
    folded = 0
    while (partition_id := _claim(run_id)) is not None:
        try:
            fold_partition(partition_id)
        finally:
            _let_go(partition_id)
        folded += 1
    return folded


# The advisory locks' first key: rebuild partitions (the second is the partition's id).
_CLAIMS = 330_005


def _claim(run_id: int) -> int | None:
    for partition_id in pending(run_id):
        if connection.vendor != "postgresql":
            return partition_id  # one process folds at a time there (SQLite)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_CLAIMS, partition_id])
            if cursor.fetchone()[0]:
                return partition_id
    return None


def _let_go(partition_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_CLAIMS, partition_id])


def resume(run_id: int | None = None) -> RebuildRun:
    """Mark a run (the latest one not done, by default) running again, its errors cleared, for
    its pending partitions to be sent again: each goes on from its checkpoint. NoRebuild if
    there is none."""
    runs = RebuildRun.objects.exclude(state=DONE).order_by("-pk")
    run = (runs.filter(pk=run_id) if run_id is not None else runs).first()
    if run is None:
        raise NoRebuild()
    RebuildPartition.objects.filter(run=run, done=False).update(error="")
    RebuildRun.objects.filter(pk=run.pk).update(state=RUNNING, error="", finished_at=None)
    run.refresh_from_db()
    return run


def fold_partition(
    partition_id: int, *, max_batches: int | None = None, batch_events: int = BATCH_EVENTS
) -> bool:
    """Fold a partition's batches from its checkpoint to its end (or `max_batches` of them, of
    about `batch_events` events of the log each); True once it is done. A failure is written
    on the partition and its run (FAILED; a resume goes on from the checkpoints) and raised."""
    batches = 0
    try:
        while max_batches is None or batches < max_batches:
            with transaction.atomic():
                _commit_without_waiting()
                part = RebuildPartition.objects.select_for_update().filter(pk=partition_id)
                found = part.select_related("run").first()
                if found is None or found.done:
                    return True
                # The batch that reaches the partition's end marks it done in its transaction.
                if not _batch(found, batch_events) or found.checkpoint >= found.high:
                    found.done = True
                    found.save(update_fields=["done", "updated_at"])
                    _finished(found)
                    return True
            batches += 1
    except Exception as error:
        _failed(partition_id, error)
        raise
    return False


def _commit_without_waiting() -> None:
    """On PostgreSQL, this transaction's commit does not wait for its WAL to reach the disk
    (synchronous_commit off, for this transaction only): a crash may lose the last batches'
    commits, each whole, read models and checkpoint together, and a resume folds them again;
    nothing is ever half written. It saves a batch the disk's flush (6-13 ms on this machine,
    docs/performance.md "Rebuilds")."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def _batch(part: RebuildPartition, batch_events: int) -> bool:
    """Fold the partition's next batch and move its checkpoint (the caller holds its lock);
    False when there was nothing left."""
    projection = projections.PROJECTIONS[part.projection]
    head = part.run.head
    if not part.by_stream:
        after = part.checkpoint
        upto = min(part.high, after + batch_events * LOG_SPAN)
        if upto <= after:
            return False
        records = event_reads.read_all(after=after, upto=upto, types=projection.log_types())
        projections.fold(projection, records, after, upto)
        part.checkpoint = part.events = upto
        part.save(update_fields=["checkpoint", "events", "updated_at"])
        return True
    games = Game.objects.filter(pk__gt=part.checkpoint, pk__lte=part.high).order_by("pk")
    taken, events = 0, 0
    for pk, version in games.values_list("pk", "version")[:GAMES_AT_ONCE]:
        taken, events = pk, events + version
        if events >= batch_events:
            break
    if not taken:
        return False
    types, newest, last = projection.stream_reads()
    records = event_reads.stream_records(
        after_game=part.checkpoint,
        upto_game=taken,
        upto=head,
        types=types,
        newest=newest,
        last=last,
    )
    projections.fold(projection, records, 0, head)
    part.checkpoint = taken
    part.events = min(part.total, part.events + events)
    part.save(update_fields=["checkpoint", "events", "updated_at"])
    return True


def _finished(part: RebuildPartition) -> None:
    """A partition is done: if it was its projection's last, the projection's checkpoint is
    set to the run's head and released; if the run's last, the run is done. In the partition's
    transaction, with the run's row locked (two last partitions see each other)."""
    run = RebuildRun.objects.select_for_update().get(pk=part.run_id)
    left = RebuildPartition.objects.filter(run=run, done=False)
    if not left.filter(projection=part.projection).exists():
        ProjectionCheckpoint.objects.filter(name=part.projection, rebuilding=run).update(
            position=run.head, rebuilding=None, updated_at=timezone.now()
        )
    if not left.exists():
        run.state, run.finished_at = DONE, timezone.now()
        run.save(update_fields=["state", "finished_at"])


def _failed(partition_id: int, error: Exception) -> None:
    said = f"{type(error).__name__}: {error}"[:500]
    log.error("rebuild partition %s failed: %s", partition_id, said)
    part = RebuildPartition.objects.filter(pk=partition_id).first()
    if part is None:
        return
    RebuildPartition.objects.filter(pk=partition_id).update(error=said)
    RebuildRun.objects.filter(pk=part.run_id).update(
        state=FAILED, error=f"{part.projection} #{part.number}: {said}", finished_at=timezone.now()
    )


@dataclass(frozen=True, slots=True)
class PartitionProgress:
    projection: str
    number: int
    by_stream: bool
    events: int
    total: int
    done: bool
    error: str


@dataclass(frozen=True, slots=True)
class Progress:
    """A run as a watcher sees it: its state, the log's events its partitions have covered of
    those they cover (a projection folded by stream counts its games' events, the others their
    positions), and each partition."""

    run_id: int
    state: str
    head: int
    events: int
    total: int
    error: str
    partitions: list[PartitionProgress]

    @property
    def percent(self) -> int:
        if self.state == DONE or not self.total:
            return 100 if self.state == DONE else 0
        return min(100, self.events * 100 // self.total)

    @property
    def partitions_done(self) -> int:
        return sum(part.done for part in self.partitions)


def progress(run_id: int) -> Progress:
    """A run's progress, read from its rows (any process may ask)."""
    run = RebuildRun.objects.get(pk=run_id)
    parts = [
        PartitionProgress(
            projection=row.projection,
            number=row.number,
            by_stream=row.by_stream,
            events=row.total if row.done else min(row.events, row.total),
            total=row.total,
            done=row.done,
            error=row.error,
        )  # fmt: skip
        for row in RebuildPartition.objects.filter(run=run).order_by("projection", "number")
    ]
    return Progress(
        run_id=run.pk,
        state=run.state,
        head=run.head,
        events=sum(part.events for part in parts),
        total=sum(part.total for part in parts),
        error=run.error,
        partitions=parts,
    )
