"""games/rebuilds.py: a rebuild run, partitioned by game range, gives the read models the
catch-up gives: in-process (no broker), through a real `celery worker` on Redis, and resumed
after a partition was left mid-way."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from config import celery_app
from engine import MATCH_OVER
from games import archive, event_reads, projections, rebuilds, tasks
from games.models import Game, GameEvent, ProjectionCheckpoint, RebuildPartition, RebuildRun
from league.ladders import ladder_matchmaking
from tests.conftest import ids_as_in_a_fresh_log
from tests.games.conftest import needs_postgresql
from tests.games.factories import make_game, play_to_end, play_turn
from tests.games.workers import Worker, sending_to, wait_for
from tests.league.factories import enter_bots, make_competition

pytestmark = pytest.mark.django_db


def every_read_model() -> dict[str, list[dict[str, Any]]]:
    """Every row of every projection's tables, without surrogate keys, in a stable order."""
    found = {}
    for name, projection in sorted(projections.PROJECTIONS.items()):
        for table in projection.tables:
            fields = [f.attname for f in table._meta.concrete_fields if f.attname != "id"]
            rows = table._default_manager.order_by(*fields).values(*fields)
            found[f"{name}:{table.__name__}"] = list(rows)
    return found


def catch_up() -> None:
    for name in projections.PROJECTIONS:
        projections.run(name)


def played(finished: int) -> Game:
    """`finished` short matches played to the end and one left open mid-hand (returned)."""
    for seed in range(finished):
        play_to_end(make_game(seed=seed).pk, seed=seed)
    game = make_game(seed=99)
    rng = random.Random(99)
    for _ in range(6):
        play_turn(game.pk, rng)
    return game


def played_then_caught_up(finished: int) -> Game:
    """`played`, its appends handed to the broker (where nothing takes them) rather than each
    running every projection's catch-up in-process; then one catch-up. The read models are what
    the catch-ups after each append would have left (each projection folds the log in order,
    whatever its batches: tests/games/test_projections.py), at a fraction of the cost."""
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        game = played(finished)
    finally:
        celery_app.conf.task_always_eager = saved
    catch_up()
    return game


@pytest.fixture(scope="class")
def one_log(class_transaction: None) -> Game:
    """Four short matches played to the end and one left open mid-hand (returned), caught up:
    made once for the class's tests, each of which runs in a savepoint of the class's
    transaction (its rebuilds, archives and moves are undone after it)."""
    ids_as_in_a_fresh_log()
    return played_then_caught_up(4)


class TestOnePlayedLog:
    """Rebuilds of one log: in-process, over archived streams, resumed, failed; its game ranges."""

    def test_a_partitioned_rebuild_in_process_gives_the_catch_ups_read_models(
        self, one_log, eager_tasks
    ):
        caught_up = every_read_model()
        assert caught_up["game-summaries:GameSummary"] and caught_up["game-results:MatchResult"]

        run = tasks.start_rebuild(partitions=3)

        assert every_read_model() == caught_up
        found = rebuilds.progress(run.pk)
        assert (found.state, found.percent) == ("done", 100)
        by_stream = [part for part in found.partitions if part.projection == "game-summaries"]
        assert len(by_stream) == 3 and all(part.done for part in found.partitions)
        # Each projection's checkpoint is the head the run captured, and the catch-up owns it
        # again.
        assert set(ProjectionCheckpoint.objects.values_list("position", "rebuilding")) == {
            (run.head, None)
        }

    def test_a_partitioned_rebuild_reads_archived_streams_as_live_ones(self, one_log, eager_tasks):
        caught_up = every_read_model()
        over = list(Game.objects.filter(status=MATCH_OVER).order_by("pk"))
        # Every other finished game archived (games/archive.py): its events leave the live table.
        assert all(archive.archive_game(game.pk) for game in over[::2])
        assert not GameEvent.objects.filter(game_id=over[0].pk).exists()

        tasks.start_rebuild(partitions=2)

        assert every_read_model() == caught_up

    def test_the_game_ranges_cover_every_game_once_with_about_as_many_events_each(self, one_log):
        ranges = rebuilds.game_ranges(2)
        games = list(Game.objects.order_by("pk").values_list("pk", "version"))
        assert ranges[0][0] == 0 and ranges[-1][1] == games[-1][0]
        assert [low for low, _, _ in ranges[1:]] == [high for _, high, _ in ranges[:-1]]
        assert sum(events for _, _, events in ranges) == sum(version for _, version in games)
        assert all(events > 0 for _, _, events in ranges)

    def test_a_rebuild_resumes_a_partition_left_mid_way_and_the_catch_up_applies_the_rest(
        self, one_log, eager_tasks
    ):
        open_game = one_log
        names = ["activity", "game-results", "game-summaries"]
        run = rebuilds.start(names, partitions=2)
        # One batch (one game) of the range with most games folded, then its worker stopped.
        part = max(
            RebuildPartition.objects.filter(run=run, projection="game-summaries"),
            key=lambda part: Game.objects.filter(pk__gt=part.low, pk__lte=part.high).count(),
        )
        assert not rebuilds.fold_partition(part.pk, max_batches=1, batch_events=1)
        part.refresh_from_db()
        assert part.low < part.checkpoint < part.high and not part.done
        assert 0 < rebuilds.progress(run.pk).percent < 100
        # A second rebuild of the same projection is refused while this one is not done.
        with pytest.raises(projections.Rebuilding, match="game-summaries"):
            rebuilds.start(["game-summaries"])
        # Events appended meanwhile: the catch-up leaves the projections being rebuilt alone.
        rng = random.Random(7)
        for _ in range(4):
            play_turn(open_game.pk, rng)
        assert projections.run("game-summaries") == 0
        assert ProjectionCheckpoint.objects.get(name="game-summaries").rebuilding_id == run.pk

        tasks.resume_rebuild()
        run.refresh_from_db()
        assert run.state == RebuildRun.State.DONE
        assert ProjectionCheckpoint.objects.get(name="game-summaries").position == run.head
        catch_up()
        resumed = every_read_model()
        # The same log folded from 0 in one transaction, the old way.
        for name in names:
            projections.rebuild(name)
        assert every_read_model() == resumed
        with pytest.raises(rebuilds.NoRebuild):
            rebuilds.resume()

    def test_a_failed_partition_fails_the_run_with_its_error_and_a_resume_finishes_it(
        self, one_log, eager_tasks, flaky
    ):
        with pytest.raises(RuntimeError, match="cannot fold game"):
            tasks.start_rebuild([flaky.name], partitions=2)

        found = rebuilds.progress(RebuildRun.objects.get().pk)
        assert found.state == "failed" and "cannot fold game" in found.error
        assert any("RuntimeError: cannot fold game" in part.error for part in found.partitions)
        assert projections.run(flaky.name) == 0  # still held by the run
        flaky.failing = False
        tasks.resume_rebuild()
        assert rebuilds.progress(found.run_id).state == "done"
        assert sorted(flaky.seen) == sorted(Game.objects.values_list("pk", flat=True))


@pytest.fixture
def worker(django_db_setup: None, redis_url: str) -> Iterator[Worker]:
    worker = Worker(redis_url)
    worker.start()
    with sending_to(worker):
        yield worker


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_rebuild_through_a_celery_worker_gives_the_catch_ups_read_models(worker):
    played(3)
    catch_up()
    caught_up = every_read_model()

    run = tasks.start_rebuild(partitions=2)
    wait_for(
        lambda: rebuilds.progress(run.pk).state != "running",
        timeout=90,
        what=lambda: f"the rebuild to end; worker log:\n{worker.output()[-3000:]}",
    )

    assert rebuilds.progress(run.pk).state == "done"
    assert every_read_model() == caught_up
    assert "games.tasks.rebuild_run" in worker.output()


@pytest.fixture
def flaky():
    """A projection folded by stream whose match-started handler fails while `failing`."""

    class Flaky(projections.Projection):
        name = "test-flaky"
        tables = ()
        by_stream = True
        failing = True
        seen: list[int] = []

        def match_started(self, record: projections.Record) -> None:
            if Flaky.failing:
                raise RuntimeError(f"cannot fold game {record.game_id}")
            Flaky.seen.append(record.game_id)

        handlers = {"match-started": match_started}

    projections.register(Flaky)
    yield Flaky
    del projections.PROJECTIONS[Flaky.name]


def rows_folded(projection: type[projections.Projection], records: list[Any]) -> list[Any]:
    """The projection's tables emptied, then `records` folded as one batch: its rows."""
    for table in projection.tables:
        table._default_manager.all().delete()
    head = event_reads.head()
    projections.fold(projection, records, 0, head)
    return [
        list(table._default_manager.order_by(*fields).values(*fields))
        for table in projection.tables
        for fields in [[f.attname for f in table._meta.concrete_fields if f.attname != "id"]]
    ]


@pytest.mark.django_db(transaction=True)
def test_each_projection_given_only_its_declared_types_folds_the_rows_every_event_folds(
    eager_tasks,
):
    """What a projection declares it reads (log_types, stream_reads) is all it needs: folded
    from only those events, read in the database with a type filter, it writes the rows it
    writes from every event of the log, which are the catch-up's."""
    played_then_caught_up(3)
    ladder = make_competition(seats_per_game=3, matchmaking=True)
    enter_bots(ladder, 3)
    with transaction.atomic():
        ladder_matchmaking(ladder, rng=random.Random(5))
    catch_up()
    caught_up = every_read_model()
    assert caught_up["ladder-ratings:RatingChange"] and caught_up["game-results:HandResult"]
    head = event_reads.head()
    every_event = event_reads.read_all(after=0, upto=head)
    last_game = Game.objects.order_by("-pk").values_list("pk", flat=True).first()
    checked = []
    for name, projection in sorted(projections.PROJECTIONS.items()):
        if projection.__module__.startswith("tests."):
            continue  # a projection another test registered for itself
        declared = projection.log_types()
        if projection.every_event:
            assert declared is None, name
        else:
            assert declared == frozenset(projection.handlers), name
        from_every_event = rows_folded(projection, every_event)
        assert from_every_event == [
            caught_up[f"{name}:{table.__name__}"] for table in projection.tables
        ], name
        only_declared = event_reads.read_all(after=0, upto=head, types=declared)
        assert len(only_declared) < len(every_event) or declared is None, name
        assert rows_folded(projection, only_declared) == from_every_event, name
        if projection.by_stream:
            types, newest, last = projection.stream_reads()
            of_streams = event_reads.stream_records(
                after_game=0, upto_game=last_game, upto=head, types=types, newest=newest, last=last
            )
            assert len(of_streams) < len(every_event) / 5, name
            assert rows_folded(projection, of_streams) == from_every_event, name
        checked.append(name)
    assert {"game-summaries", "game-results", "ladder-ratings", "activity"} <= set(checked)
