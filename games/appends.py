"""The event store's writes: append with an expected version, gapless global positions, the
appends' listeners; the store's reads are games/event_reads.py.

One append is one short transaction (docs/event-store.md, "The append protocol"):

1. move `Game.version` from the expected version with a conditional UPDATE; no row moved means a
   conflict (or a repeated command id), decided before anything is written;
2. insert every event in one statement, with global positions from a sequence that nobody
   holds to commit (on PostgreSQL, after announcing a floor below them that `head()` never
   passes while the append runs); commit; then the append listeners run (on_commit).

On PostgreSQL both steps are one prepared statement (_statement): one round trip,
parsed and planned once per connection.

So appends of different games commit side by side, and a projection reading up to `head()`
(games/event_reads.py) never skips an event that commits late ("Global positions" in
docs/event-store.md).

The store knows nothing of the rules: it keeps facts. games/commands.py decides them.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, partial
from time import perf_counter
from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Max, Min, Q

from games import metrics, prepared
from games.errors import Conflict, GameNotFound, GameOver
from games.event_reads import stream_events
from games.event_records import SCHEMA_VERSIONS, Event, _json
from games.models import Game, GameEvent, PositionCounter

SYSTEM_ACTOR = "system"

# An event's visibility when none is given, as the plain string psycopg sends (not the enum
# member, a str subclass it would look its dumper up for).
_PRIVATE = GameEvent.Visibility.PRIVATE.value


class AppendResult(NamedTuple):
    """The versions and global positions one append wrote (or wrote earlier, if `repeated`).
    A named tuple: every command makes one, and a tuple is the cheapest immutable record."""

    game_id: int
    first_version: int
    last_version: int
    first_position: int
    last_position: int
    command_id: str
    # True when the command id had already been appended: nothing was written this time.
    repeated: bool = False
    # The appender's word that the append asks no work of anyone (append's `quiet`): listeners
    # may skip it. The store never decides it.
    quiet: bool = False

    @property
    def version(self) -> int:
        """The game's version right after this append."""
        return self.last_version


AppendListener = Callable[[AppendResult], None]
_observe_append = metrics.APPEND_SECONDS.observe
_listeners: list[AppendListener] = []


def subscribe(listener: AppendListener) -> Callable[[], None]:
    """Call `listener(result)` after every committed append; returns the unsubscribe function.

    Listeners are hints for work to do (play a bot turn, catch a projection up): they run after
    the commit, one failing does not stop the others, and losing one must never lose a game.
    """
    _listeners.append(listener)
    return partial(_listeners.remove, listener)


def _notify(listener: AppendListener, result: AppendResult) -> Callable[[], None]:
    def notify() -> None:
        listener(result)

    # Django logs a failing robust on_commit callback by its __qualname__.
    notify.__qualname__ = getattr(listener, "__qualname__", repr(listener))
    return notify


# The Game columns an append may set along with the version: copies of the replayed state.
READ_FIELDS = frozenset({"status", "hand_number", "to_act"})


def append(
    *,
    game_id: int,
    events: Sequence[Event],
    expected_version: int,
    command_id: str | None = None,
    actor: str = SYSTEM_ACTOR,
    visibilities: Sequence[str] | None = None,
    game_fields: Mapping[str, Any] | None = None,
    quiet: bool = False,
) -> AppendResult:
    """Append `events` to a game that is at `expected_version`, all or nothing.

    `visibilities` (one per event) defaults to "private": the safe guess for a fact of unknown
    content. `game_fields` (READ_FIELDS: status, hand_number, to_act) are set with the version.
    `quiet` is passed on to the listeners in the result (the caller knows the append asks no
    work of the workers).
    Raises Conflict if the game is at another version, GameNotFound if there is no such game;
    returns the original result, writing nothing, if `command_id` was appended before.
    """
    if not events:
        raise ValueError("an append needs at least one event")
    if visibilities is not None and len(visibilities) != len(events):
        raise ValueError("one visibility per event")
    fields = dict(game_fields) if game_fields else {}
    if unknown := fields.keys() - READ_FIELDS:
        raise ValueError(f"an append cannot set {', '.join(sorted(unknown))}")
    # Every append's first event carries a command id, so the log keeps each append's bounds.
    command = command_id or f"auto:{uuid.uuid4().hex}"
    # Django's timezone.now(), as it is with USE_TZ (config/settings.py), without reading the
    # setting through Django's lazy settings at each append.
    now = datetime.now(UTC)
    db = prepared.default_db()
    started = perf_counter()
    try:
        # The write only: the caller's outer transaction, if any, commits later and elsewhere.
        # (Observed directly: a Timer's frames cost an append more than they measure.)
        try:
            if db.vendor == "postgresql":
                positions = _write_postgresql(
                    db, game_id, expected_version, events, visibilities, actor, command, now, fields
                )
            else:
                positions = _write_portable(
                    _Batch(
                        game_id=game_id,
                        expected_version=expected_version,
                        command_id=command,
                        actor=actor,
                        now=now,
                        rows=_rows(events, visibilities),
                        fields=fields,
                    )
                )
        finally:
            _observe_append(perf_counter() - started)
    except IntegrityError:
        # The version matched but the command id was taken: the same command sent again with a
        # fresh expected version. Anything else is a real error.
        original = recorded(game_id=game_id, command_id=command)
        if original is None:
            raise
        return original
    if positions is None:
        # No row moved: a repeated command, a stale version or a missing game; nothing written.
        if command_id is not None:
            original = recorded(game_id=game_id, command_id=command_id)
            if original is not None:
                return original
        found = Game.objects.filter(pk=game_id).values_list("version", "status").first()
        if found is None:
            raise GameNotFound(game_id)
        current, status = found
        if status == Game.Status.MATCH_OVER:
            # The match ended between the command's read and its write: over is the answer,
            # as for a command decided on an older version of a finished game.
            raise GameOver(
                game_id=game_id, expected_version=expected_version, current_version=current
            )
        raise Conflict(expected_version=expected_version, current_version=current)
    count = len(events)
    metrics.EVENTS_APPENDED.inc(count)
    # By position (a named tuple's keywords cost it twice as much): game_id, first_version,
    # last_version, first_position, last_position, command_id, repeated, quiet.
    result = AppendResult(
        game_id,
        expected_version + 1,
        expected_version + count,
        positions[0],
        positions[1],
        command,
        False,
        quiet,
    )
    for listener in _listeners:
        # The wrapper's own on_commit (transaction.on_commit would look it up again).
        db.on_commit(_notify(listener, result), robust=True)
    return result


def _rows(
    events: Sequence[Event], visibilities: Sequence[str] | None
) -> list[tuple[str, int, dict[str, Any], str]]:
    """The events as rows (type, schema version, data, visibility); "private" by default."""
    return [
        (
            event["type"],
            SCHEMA_VERSIONS.get(event["type"], 1),
            _data(event),
            visibilities[i] if visibilities else _PRIVATE,
        )
        for i, event in enumerate(events)
    ]


def _data(event: Event) -> dict[str, Any]:
    """The event less its type (a copy, in the event's order), as the data column keeps it."""
    data = dict(event)
    del data["type"]
    return data


@dataclass(frozen=True, slots=True)
class _Batch:
    """One append, ready to write: rows are (type, schema version, data, visibility)."""

    game_id: int
    expected_version: int
    command_id: str
    actor: str
    now: datetime
    rows: list[tuple[str, int, dict[str, Any], str]]
    fields: dict[str, Any]


# The append protocol on PostgreSQL (docs/event-store.md), as one statement. `moved` moves the
# game's version from the expected one (no row: a conflict, a repeat or a missing game, and
# nothing below runs) and then takes the floor for that row; only a row whose floor is held
# reaches the INSERT, so the floor is taken before the first nextval. The server builds every
# expression of a prepared statement again at each execution, so each statement has only what
# its append needs: the SET list names only the fields given, and the parameters are named,
# each sent once. (No cast to varchar(n): an explicit one would cut a long command id short
# where the column refuses it.)
_FIELD_SQL = {
    "status": "status = %(status)s",
    "hand_number": "hand_number = %(hand_number)s::smallint",
    "to_act": "to_act = %(to_act)s::jsonb",
}
# The floor (games_position_floor, migration 0011): a shared advisory lock keyed by the
# sequence's last value, once per transaction. An append that is its own transaction (Django's
# autocommit, outside any atomic block) takes it without asking whether it is held already: it
# cannot be, and asking (current_setting, set_config) costs the server more than the lock.
_FLOOR_ONCE = "games_position_floor()"
_FLOOR_ALONE = (
    "pg_advisory_xact_lock_shared("
    "COALESCE(pg_sequence_last_value('games_gameevent_position'), 0))::text"
)
# games_gameevent's columns in the table's order, game_id last (migration 0010 re-added it).
_COLUMNS = (
    "global_position, version, type, schema_version, data, visibility, actor, command_id, "
    "recorded_at, game_id"
)


@cache
def _statement(many: bool, fields: frozenset[str], alone: bool) -> str:
    """The append's statement: one event (its columns as parameters; returns its position, or
    no row) or `many` (one JSON array of [type, schema version, data, visibility], positions
    rising with the versions, the first carrying the command id; returns the first and last
    positions, NULL if none). Parameters by name: game, expected, now, the `fields` given, and
    type, schema, data, visibility, actor, command (one event) or count, actor, command, events
    (many)."""
    sets = ", ".join(
        [
            "version = version + " + ("%(count)s::integer" if many else "1"),
            "last_activity = %(now)s::timestamptz",
            *(_FIELD_SQL[name] for name in sorted(fields)),
        ]
    )
    moved = f"""WITH moved AS (
    UPDATE games_game SET {sets}
    WHERE id = %(game)s::bigint AND version = %(expected)s::integer
    RETURNING version, {_FLOOR_ALONE if alone else _FLOOR_ONCE} AS floor
)"""
    if not many:
        return f"""/* games_append, one event */{moved}
INSERT INTO games_gameevent ({_COLUMNS})
SELECT nextval('games_gameevent_position'), version, %(type)s, %(schema)s::smallint,
       %(data)s::jsonb, %(visibility)s, %(actor)s, %(command)s, %(now)s::timestamptz,
       %(game)s::bigint
FROM moved WHERE floor IS NOT NULL
RETURNING global_position"""
    return f"""/* games_append */{moved}, written AS (
    INSERT INTO games_gameevent ({_COLUMNS})
    SELECT nextval('games_gameevent_position'), %(expected)s::integer + item.number,
           item.event->>0, (item.event->>1)::smallint, item.event->2, item.event->>3,
           %(actor)s, CASE WHEN item.number = 1 THEN %(command)s END, %(now)s::timestamptz,
           %(game)s::bigint
    FROM moved, jsonb_array_elements(%(events)s::jsonb) WITH ORDINALITY AS item (event, number)
    WHERE moved.floor IS NOT NULL
    RETURNING global_position
)
SELECT min(global_position), max(global_position) FROM written"""


def _write_postgresql(
    db: BaseDatabaseWrapper,
    game_id: int,
    expected: int,
    events: Sequence[Event],
    visibilities: Sequence[str] | None,
    actor: str,
    command: str,
    now: datetime,
    fields: dict[str, Any],
) -> tuple[int, int] | None:
    """Write the append with one statement; return the first and last positions written, or
    None if no row moved."""
    params: dict[str, Any] = {
        "game": game_id,
        "expected": expected,
        "now": now,
        "actor": actor,
        "command": command,
    }
    # A field given as None keeps the game's value (as COALESCE did).
    given = frozenset(name for name, value in fields.items() if value is not None)
    for name in given:
        params[name] = fields[name] if name != "to_act" else json.dumps(fields[name])
    many = len(events) > 1
    if not many:
        event = events[0]
        kind = params["type"] = event["type"]
        params["schema"] = SCHEMA_VERSIONS.get(kind, 1)
        params["data"] = _json(_data(event))
        params["visibility"] = visibilities[0] if visibilities else _PRIVATE
    else:
        params["count"] = len(events)
        params["events"] = _json(_rows(events, visibilities))
    if not db.in_atomic_block:
        # A transaction of its own (Django's autocommit).
        sql = _statement(many, given, db.autocommit)
        row = prepared.fetch_one(db, sql, params)
    else:
        # Inside the caller's transaction, a savepoint, so that a failed append leaves the
        # caller's transaction usable.
        sql = _statement(many, given, False)
        with transaction.atomic(using=db.alias):
            row = prepared.fetch_one(db, sql, params)
    if row is None or row[0] is None:
        return None
    return row[0], row[-1]


def _write_portable(batch: _Batch) -> tuple[int, int] | None:
    """The same protocol through the ORM, for SQLite, where writers queue for the database: so
    the positions come from the one-row counter, gapless and in commit order."""
    count = len(batch.rows)
    with transaction.atomic():
        moved = Game.objects.filter(pk=batch.game_id, version=batch.expected_version).update(
            version=batch.expected_version + count, last_activity=batch.now, **batch.fields
        )
        if not moved:
            return None
        table = connection.ops.quote_name(PositionCounter._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (id, value) VALUES (1, %s) "
                f"ON CONFLICT (id) DO UPDATE SET value = {table}.value + EXCLUDED.value "
                "RETURNING value",
                [count],
            )
            last_position = cursor.fetchone()[0]
        first = last_position - count + 1
        GameEvent.objects.bulk_create(
            GameEvent(
                global_position=first + i,
                game_id=batch.game_id,
                version=batch.expected_version + 1 + i,
                type=kind,
                schema_version=schema,
                data=data,
                visibility=visibility,
                actor=batch.actor,
                command_id=batch.command_id if i == 0 else None,
                recorded_at=batch.now,
            )
            for i, (kind, schema, data, visibility) in enumerate(batch.rows)
        )
    return first, last_position


def recorded(*, game_id: int, command_id: str) -> AppendResult | None:
    """The result of the append that carried `command_id` in this game, if there was one."""
    # The live event that carries it, and whether the game has an archived row, in one query
    # (the archived row sorts first, as version 0).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT version, global_position FROM games_gameevent "
            "WHERE game_id = %s AND command_id = %s "
            "UNION ALL SELECT 0, 0 FROM games_archivedstream WHERE game_id = %s ORDER BY 1",
            [game_id, command_id, game_id],
        )
        found = cursor.fetchall()
    live = [row for row in found if row[0] > 0]
    if not live:
        return _recorded_archived(game_id, command_id) if found else None
    version, position = live[0]
    # The append ends before the next event that opens an append (one query: one snapshot).
    later = GameEvent.objects.filter(game_id=game_id, version__gt=version).aggregate(
        next_append=Min("version", filter=Q(command_id__isnull=False)), end=Max("version")
    )
    if later["next_append"] is not None:
        last_version = later["next_append"] - 1
    else:
        last_version = later["end"] or version
    # Positions rise with versions but need not be contiguous (concurrent appends interleave).
    last_position = (
        GameEvent.objects.filter(game_id=game_id, version=last_version)
        .values_list("global_position", flat=True)
        .get()
    )
    return AppendResult(
        game_id=game_id,
        first_version=version,
        last_version=last_version,
        first_position=position,
        last_position=last_position,
        command_id=command_id,
        repeated=True,
    )


def _recorded_archived(game_id: int, command_id: str) -> AppendResult | None:
    """`recorded` in an archived stream (an append after the archive stays live, and found
    there)."""
    stored = stream_events(game_id)
    starts = [n for n, row in enumerate(stored) if row.command_id is not None]
    for at, start in enumerate(starts):
        if stored[start].command_id == command_id:
            end = starts[at + 1] - 1 if at + 1 < len(starts) else len(stored) - 1
            return AppendResult(
                game_id=game_id,
                first_version=stored[start].version,
                last_version=stored[end].version,
                first_position=stored[start].position,
                last_position=stored[end].position,
                command_id=command_id,
                repeated=True,
            )
    return None
