"""The event store, games.appends and games.event_reads: append with an expected version,
repeated command ids, load, listeners."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import checks
from django.db import DatabaseError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import appends, event_reads, event_records
from games.errors import Conflict, GameNotFound
from games.models import Game, GameEvent
from tests.games.conftest import needs_postgresql, run_in_threads
from tests.games.factories import make_stream, notes

pytestmark = pytest.mark.django_db


def versions_and_positions(game: Game) -> list[tuple[int, int]]:
    return list(
        GameEvent.objects.filter(game=game)
        .order_by("version")
        .values_list("version", "global_position")
    )


def test_an_append_writes_its_events_in_order_and_moves_the_version():
    game = make_stream()

    result = appends.append(game_id=game.pk, events=notes(3), expected_version=0, actor="user:1")

    game.refresh_from_db()
    assert game.version == 3
    assert game.last_activity is not None
    assert (result.first_version, result.last_version) == (1, 3)
    assert result.last_position - result.first_position == 2
    assert not result.repeated
    assert event_reads.load(game.pk) == notes(3)
    stored = GameEvent.objects.filter(game=game).order_by("version")
    assert [e.actor for e in stored] == ["user:1"] * 3
    assert [e.data for e in stored] == [{"n": 0}, {"n": 1}, {"n": 2}]


def test_an_append_records_its_times_in_utc_and_the_site_refuses_to_run_without_use_tz(
    settings,
):
    game = make_stream()
    before = timezone.now()

    appends.append(game_id=game.pk, events=notes(1), expected_version=0)

    game.refresh_from_db()
    recorded = GameEvent.objects.get(game=game).recorded_at
    assert before <= recorded <= timezone.now()
    assert recorded == game.last_activity
    assert recorded.utcoffset() == timedelta(0)
    # The store takes datetime.now(UTC), which is timezone.now() only with USE_TZ.
    assert "games.E001" not in [message.id for message in checks.run_checks()]
    settings.USE_TZ = False
    assert "games.E001" in [message.id for message in checks.run_checks()]


def test_global_positions_run_on_without_gaps_across_games():
    first, second = make_stream(), make_stream()

    appends.append(game_id=first.pk, events=notes(2), expected_version=0)
    appends.append(game_id=second.pk, events=notes(3), expected_version=0)
    appends.append(game_id=first.pk, events=notes(1), expected_version=2)

    positions = sorted(GameEvent.objects.values_list("global_position", flat=True))
    assert positions == list(range(positions[0], positions[0] + 6))
    assert event_reads.head() == positions[-1]
    assert [v for v, _ in versions_and_positions(first)] == [1, 2, 3]


def test_it_sets_the_game_fields_it_is_given_with_the_version():
    game = make_stream()

    appends.append(
        game_id=game.pk,
        events=notes(1),
        expected_version=0,
        game_fields={"status": "match-over", "hand_number": 3, "to_act": [1]},
    )

    game.refresh_from_db()
    assert (game.status, game.hand_number, game.to_act, game.version) == ("match-over", 3, [1], 1)


def test_versions_past_a_smallint_and_every_field_in_one_event_or_many():
    game = make_stream()
    Game.objects.filter(pk=game.pk).update(version=40_000)
    fields = {"status": "hand-over", "hand_number": 300, "to_act": [0, 1]}

    one = appends.append(
        game_id=game.pk, events=notes(1), expected_version=40_000, game_fields=fields
    )
    many = appends.append(
        game_id=game.pk,
        events=notes(2, start=1),
        expected_version=40_001,
        visibilities=["public", "private"],
    )

    assert (one.first_version, one.last_version, many.last_version) == (40_001, 40_001, 40_003)
    assert many.first_position > one.last_position
    game.refresh_from_db()
    assert (game.status, game.hand_number, game.to_act, game.version) == (
        "hand-over", 300, [0, 1], 40_003,
    )  # fmt: skip
    assert event_reads.load(game.pk, after=40_000) == notes(3)
    stored = GameEvent.objects.filter(game=game).order_by("version")
    assert [e.visibility for e in stored] == ["private", "public", "private"]


@needs_postgresql
def test_query_counters_see_each_append_as_one_statement():
    game = make_stream()

    with CaptureQueriesContext(connection) as queries:
        appends.append(game_id=game.pk, events=notes(1), expected_version=0)
        appends.append(game_id=game.pk, events=notes(2), expected_version=1)

    statements = [q["sql"] for q in queries if "games_append" in q["sql"]]
    assert len(statements) == 2, [q["sql"][:60] for q in queries]


@needs_postgresql
def test_appends_go_on_after_a_rollback_drops_the_prepared_statements():
    game = make_stream()
    appends.append(game_id=game.pk, events=notes(1), expected_version=0)

    with pytest.raises(Conflict), transaction.atomic():
        appends.append(game_id=game.pk, events=notes(1), expected_version=1)
        appends.append(game_id=game.pk, events=notes(1), expected_version=1)
    appends.append(game_id=game.pk, events=notes(2), expected_version=1)
    appends.append(game_id=game.pk, events=notes(1), expected_version=3)

    assert event_reads.load(game.pk) == notes(1) + notes(2) + notes(1)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '/* games_append%%'"
        )
        assert cursor.fetchone()[0] <= 2  # one statement for one event, one for many


def test_a_stale_expected_version_raises_a_conflict_and_writes_nothing():
    game = make_stream()
    appends.append(game_id=game.pk, events=notes(2), expected_version=0)

    with pytest.raises(Conflict) as raised:
        appends.append(game_id=game.pk, events=notes(1), expected_version=1)

    assert raised.value.current_version == 2
    assert raised.value.code == "version-conflict"
    assert GameEvent.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert game.version == 2


def test_an_append_to_a_missing_game_raises_game_not_found():
    with pytest.raises(GameNotFound):
        appends.append(game_id=999_999, events=notes(1), expected_version=0)

    assert not GameEvent.objects.exists()


def test_an_empty_append_is_refused():
    with pytest.raises(ValueError, match="at least one event"):
        appends.append(game_id=make_stream().pk, events=[], expected_version=0)


def test_only_the_first_event_of_an_append_carries_its_command_id():
    game = make_stream()

    appends.append(game_id=game.pk, events=notes(3), expected_version=0, command_id="c1")
    appends.append(game_id=game.pk, events=notes(2), expected_version=3)

    ids = list(GameEvent.objects.filter(game=game).order_by("version").values_list("command_id"))
    assert [i for (i,) in ids[:3]] == ["c1", None, None]
    assert ids[3][0].startswith("auto:")
    assert ids[4][0] is None


def test_a_repeated_command_id_returns_the_original_result_and_writes_nothing():
    game = make_stream()
    original = appends.append(game_id=game.pk, events=notes(3), expected_version=0, command_id="c1")
    appends.append(game_id=game.pk, events=notes(2), expected_version=3, command_id="c2")

    again = appends.append(game_id=game.pk, events=notes(1), expected_version=0, command_id="c1")

    assert again.repeated
    assert (again.first_version, again.last_version) == (1, 3)
    assert (again.first_position, again.last_position) == (
        original.first_position,
        original.last_position,
    )
    assert GameEvent.objects.filter(game=game).count() == 5


def test_a_repeated_command_id_at_the_current_version_is_still_a_no_op():
    game = make_stream()
    appends.append(game_id=game.pk, events=notes(2), expected_version=0, command_id="c1")

    again = appends.append(game_id=game.pk, events=notes(4), expected_version=2, command_id="c1")

    assert again.repeated
    assert (again.first_version, again.last_version) == (1, 2)
    game.refresh_from_db()
    assert game.version == 2
    assert GameEvent.objects.filter(game=game).count() == 2


def test_the_last_append_of_a_game_is_found_by_its_command_id():
    game = make_stream()
    appends.append(game_id=game.pk, events=notes(1), expected_version=0)
    appends.append(game_id=game.pk, events=notes(4), expected_version=1, command_id="last")

    found = appends.recorded(game_id=game.pk, command_id="last")

    assert found is not None
    assert (found.first_version, found.last_version) == (2, 5)
    assert appends.recorded(game_id=game.pk, command_id="never-sent") is None


def test_load_returns_the_events_after_a_version_and_up_to_another():
    game = make_stream()
    appends.append(game_id=game.pk, events=notes(5), expected_version=0)

    assert event_reads.load(game.pk, after=2) == notes(3, start=2)
    assert event_reads.load(game.pk, after=1, until=3) == notes(2, start=1)
    assert event_reads.load(999_999) == []


def test_load_upcasts_events_stored_with_an_older_schema(monkeypatch):
    game = make_stream()
    appends.append(game_id=game.pk, events=[{"type": "note", "n": 1}], expected_version=0)
    monkeypatch.setitem(event_records.UPCASTERS, ("note", 1), lambda data: {"number": data["n"]})

    assert event_reads.load(game.pk) == [{"type": "note", "number": 1}]


def test_listeners_run_once_the_append_commits(django_capture_on_commit_callbacks):
    game = make_stream()
    heard = []
    unsubscribe = appends.subscribe(heard.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            result = appends.append(game_id=game.pk, events=notes(2), expected_version=0)
            assert heard == []
    finally:
        unsubscribe()

    assert heard == [result]


def test_a_failing_listener_neither_undoes_the_append_nor_stops_the_others(
    django_capture_on_commit_callbacks,
):
    game = make_stream()
    heard = []

    def broken(result):
        raise RuntimeError("a worker is down")

    unsubscribers = [appends.subscribe(broken), appends.subscribe(heard.append)]
    try:
        with django_capture_on_commit_callbacks(execute=True):
            appends.append(game_id=game.pk, events=notes(1), expected_version=0)
    finally:
        for unsubscribe in unsubscribers:
            unsubscribe()

    assert len(heard) == 1
    assert GameEvent.objects.filter(game=game).count() == 1


def test_no_listener_hears_an_append_that_failed(django_capture_on_commit_callbacks):
    game = make_stream()
    heard = []
    unsubscribe = appends.subscribe(heard.append)
    try:
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(Conflict):
            appends.append(game_id=game.pk, events=notes(1), expected_version=5)
    finally:
        unsubscribe()

    assert heard == []


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_eight_writers_racing_on_one_game_write_each_version_exactly_once():
    game = make_stream()
    rounds, writers = 10, 8
    barrier = threading.Barrier(writers)

    def write(i: int) -> list[str]:
        outcomes = []
        for version in range(0, rounds * 2, 2):
            barrier.wait(timeout=30)
            try:
                appends.append(
                    game_id=game.pk,
                    events=notes(2),
                    expected_version=version,
                    command_id=f"{i}:{version}",
                )
                outcomes.append("applied")
            except Conflict as conflict:
                assert conflict.current_version == version + 2
                outcomes.append("conflict")
        return outcomes

    outcomes = run_in_threads(writers, write)

    for round_ in zip(*outcomes, strict=True):
        assert sorted(round_) == ["applied"] + ["conflict"] * (writers - 1)
    pairs = versions_and_positions(game)
    assert [v for v, _ in pairs] == list(range(1, rounds * 2 + 1))
    positions = [p for _, p in pairs]
    assert positions == list(range(positions[0], positions[0] + rounds * 2))


class AppendInFlight:
    """An append in a transaction of its own thread and connection, held open until told to
    commit or roll back: what a projection sees while a slow writer has not committed yet."""

    def __init__(self, game: Game, *, commit: bool) -> None:
        self.written, self.finish = threading.Event(), threading.Event()
        self.result: appends.AppendResult | None = None
        self.thread = threading.Thread(target=self.run, args=(game, commit))
        self.thread.start()
        assert self.written.wait(timeout=30)

    def run(self, game: Game, commit: bool) -> None:
        try:
            with transaction.atomic():
                self.result = appends.append(game_id=game.pk, events=notes(2), expected_version=0)
                self.written.set()
                assert self.finish.wait(timeout=30)
                if not commit:
                    transaction.set_rollback(True)
        finally:
            self.written.set()
            connections.close_all()

    def end(self) -> None:
        self.finish.set()
        self.thread.join(timeout=30)


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_head_never_passes_an_append_that_has_not_committed_yet():
    slow, quick = make_stream(), make_stream()
    in_flight = AppendInFlight(slow, commit=True)
    try:
        later = appends.append(game_id=quick.pk, events=notes(3), expected_version=0)
        assert in_flight.result is not None
        assert later.first_position > in_flight.result.last_position

        # The later append has committed, but the earlier positions may still commit.
        held = event_reads.head()
        assert held < in_flight.result.first_position
        assert event_reads.read_all(after=0, upto=held) == []
    finally:
        in_flight.end()

    assert event_reads.head() == later.last_position
    read = event_reads.read_all(after=0, upto=event_reads.head())
    assert [(r.game_id, r.version) for r in read] == [(slow.pk, 1), (slow.pk, 2)] + [
        (quick.pk, v) for v in (1, 2, 3)
    ]


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_head_passes_the_positions_of_an_append_that_rolled_back():
    slow, quick = make_stream(), make_stream()
    in_flight = AppendInFlight(slow, commit=False)
    later = appends.append(game_id=quick.pk, events=notes(1), expected_version=0)
    assert event_reads.head() < later.last_position
    in_flight.end()

    # A gap no one can fill: its positions were given up, and the sequence never hands them out
    # again.
    assert event_reads.head() == later.last_position
    read = event_reads.read_all(after=0, upto=event_reads.head())
    assert [(r.game_id, r.position) for r in read] == [(quick.pk, later.last_position)]
    assert not GameEvent.objects.filter(game=slow).exists()
    again = appends.append(game_id=slow.pk, events=notes(1), expected_version=0)
    assert again.first_position > later.last_position


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_writers_of_different_games_do_not_wait_for_each_other_to_commit():
    games = [make_stream(), make_stream()]
    in_flight = AppendInFlight(games[0], commit=True)
    try:
        # Under a lock held to commit this append would wait for the one in flight.
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            appends.append(game_id=games[1].pk, events=notes(1), expected_version=0)
    finally:
        in_flight.end()
    assert GameEvent.objects.count() == 3


@needs_postgresql
def test_in_its_own_transaction_a_writer_reads_its_own_appends_up_to_head():
    game = make_stream()
    with transaction.atomic():
        first = appends.append(game_id=game.pk, events=notes(2), expected_version=0)
        second = appends.append(game_id=game.pk, events=notes(2), expected_version=2)
        assert event_reads.head() == second.last_position
        read = event_reads.read_all(after=first.first_position - 1, upto=event_reads.head())
        assert [r.version for r in read] == [1, 2, 3, 4]


@needs_postgresql
def test_a_game_with_events_cannot_be_deleted():
    game = make_stream()
    appends.append(game_id=game.pk, events=notes(1), expected_version=0)
    empty = make_stream()

    with pytest.raises(DatabaseError, match="has events"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM games_game WHERE id = %s", [game.pk])
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_game WHERE id = %s", [empty.pk])
    assert Game.objects.filter(pk=game.pk).exists()
    assert not Game.objects.filter(pk=empty.pk).exists()


@needs_postgresql
class TestTheEventTableIsAppendOnly:
    """On PostgreSQL, triggers refuse to change or remove a stored event."""

    def refused(self, sql: str) -> None:
        appends.append(game_id=make_stream().pk, events=notes(2), expected_version=0)
        with connection.cursor() as cursor:
            # Check the deferred foreign keys now: TRUNCATE refuses to run while checks are pending.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql)
        assert GameEvent.objects.count() == 2

    def test_it_refuses_an_update(self):
        self.refused("UPDATE games_gameevent SET data = '{}'")

    def test_it_refuses_a_delete(self):
        self.refused("DELETE FROM games_gameevent")

    def test_it_refuses_a_truncate(self):
        self.refused("TRUNCATE games_gameevent CASCADE")

    def test_the_orm_cannot_change_an_event_either(self):
        appends.append(game_id=make_stream().pk, events=notes(1), expected_version=0)
        event = GameEvent.objects.get()
        event.type = "rewritten"
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            event.save()

    def test_an_empty_event_table_may_be_truncated(self):
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE games_gameevent CASCADE")


@needs_postgresql
def test_a_playing_games_appends_stay_hot_updates_beside_the_playing_games_index():
    """games_game's partial index `game_playing` (status = 'playing') must not cost the appends
    their HOT row update: only the append that ends the game changes an indexed value."""
    game = make_stream()

    def updated() -> tuple[int, int]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_stat_get_xact_tuples_updated('games_game'::regclass), "
                "pg_stat_get_xact_tuples_hot_updated('games_game'::regclass)"
            )
            row = cursor.fetchone()
        return int(row[0]), int(row[1])

    before = updated()
    for version in range(3):
        appends.append(
            game_id=game.pk,
            events=notes(1, version),
            expected_version=version,
            game_fields={"status": Game.Status.PLAYING, "to_act": [version % 2]},
        )
    rows, hot = updated()
    assert (rows - before[0], hot - before[1]) == (3, 3)
    assert Game.objects.filter(status=Game.Status.PLAYING, pk=game.pk).exists()

    appends.append(
        game_id=game.pk,
        events=notes(1, 3),
        expected_version=3,
        game_fields={"status": Game.Status.MATCH_OVER, "to_act": []},
    )
    assert updated()[1] - before[1] == 3
