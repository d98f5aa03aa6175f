"""The event store: append with an expected version, load in order, gapless global positions.

One append is one short transaction (docs/event-store.md, "The append protocol"):

1. move `Game.version` from the expected version with a conditional UPDATE; no row moved means a
   conflict (or a repeated command id), decided before anything is written;
2. insert every event in one statement, with global positions from a sequence that nobody
   holds to commit (on PostgreSQL, after announcing a floor below them that `head()` never
   passes while the append runs); commit; then the append listeners run (on_commit).

On PostgreSQL both steps are one prepared statement (_statement): one round trip,
parsed and planned once per connection.

So appends of different games commit side by side, and a projection reading up to `head()`
never skips an event that commits late ("Global positions" in docs/event-store.md).

The store knows nothing of the rules: it keeps facts. games/commands.py decides them.

Reading: every read here covers live and archived streams alike (a finished game's events moved
into one compressed row, games/archive.py; read and decoded in games/archived_streams.py;
docs/event-store.md, "Archived streams"), with the same positions, versions and data, so no
caller knows which it read:

- `load`, `tail`: a game's events by version (the repository, the API's pages, the replay,
  verify_game);
- `stream_events(game_id)`: a game's stored rows with every column (the staff inspector);
- `read_all(after, upto)`, and `all_events(after, upto)` its batches as one iterator: every
  game's events in global order (the projections, their rebuilds);
- `games_with_type`, `first_actors`: the two small questions lists ask of many games.
"""

from __future__ import annotations

import heapq
import json
import uuid
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, partial
from time import perf_counter
from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Max, Min, Q

from games import metrics, prepared
from games.archived_streams import (
    _archived_stream_records,
    _decode_archive,
    _decode_picked,
    _position_of,
    encode_archive,
    read_archived,
)
from games.errors import Conflict, GameNotFound
from games.event_records import SCHEMA_VERSIONS, Event, Record, Stored, _event, _json, _loads
from games.models import ArchivedStream, Game, GameEvent, PositionCounter

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
        current = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        if current is None:
            raise GameNotFound(game_id)
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


def load(
    game_id: int,
    *,
    after: int = 0,
    until: int | None = None,
    types: Collection[str] | None = None,
) -> list[Event]:
    """The game's events with versions after `after` (up to `until`), in version order; only
    `types` if given.

    Versions run 1, 2, 3… without gaps, so without `types` the n-th event returned has version
    after + n.
    """
    # Plain SQL: every command and view loads a whole game, and the ORM's per-row work would
    # be most of the cost. The archived row, if the game has one, in the same statement (one
    # snapshot: a stream archived meanwhile is read whole from one side or the other).
    bound = until if until is not None else _NO_END
    sql = (
        "SELECT type, schema_version, data, version, NULL FROM games_gameevent "
        "WHERE game_id = %s AND version > %s AND version <= %s"
    )
    params: list[Any] = [game_id, after, bound]
    if types is not None:
        kinds = sorted(types)
        sql += f" AND type IN ({', '.join(['%s'] * len(kinds))})"
        params += kinds
    sql += (
        " UNION ALL SELECT NULL, NULL, NULL, 0, events FROM games_archivedstream "
        "WHERE game_id = %s AND event_count > %s"
    )
    params += [game_id, after]
    with connection.cursor() as cursor:
        cursor.execute(sql + " ORDER BY version", params)
        rows = cursor.fetchall()
    if not rows or rows[0][4] is None:
        return [_event(kind, schema, _loads(data)) for kind, schema, data, _, _ in rows]
    wanted = None if types is None else set(types)
    archived = [
        _event(row.type, row.schema_version, row.data)
        for row in _decode_archive(game_id, rows[0][4])
        if after < row.version <= bound and (wanted is None or row.type in wanted)
    ]
    return archived + [_event(kind, schema, _loads(data)) for kind, schema, data, _, _ in rows[1:]]


def load_many(game_ids: Collection[int], *, types: Collection[str]) -> dict[int, list[Record]]:
    """The events of `types` of each of the games, in version order, live and archived alike,
    in one query (and one decode of each archived row, of only the events of `types`): what a
    projection's batch reads of the streams of the matches it folds (games.projections
    `outcomes`), instead of one `load` a match. Games with none are left out."""
    ids, kinds = sorted(set(game_ids)), sorted(types)
    if not ids or not kinds:
        return {}
    found: dict[int, list[Record]] = {}
    marks = ", ".join(["%s"] * len(kinds))
    # Chunks of games, to keep each statement's parameters bounded.
    for start in range(0, len(ids), _GAMES_A_QUERY):
        chunk = ids[start : start + _GAMES_A_QUERY]
        games = ", ".join(["%s"] * len(chunk))
        sql = (
            "SELECT global_position, game_id, version, type, schema_version, data, recorded_at, "
            f"NULL FROM games_gameevent WHERE game_id IN ({games}) AND type IN ({marks}) "
            "UNION ALL SELECT 0, game_id, 0, NULL, NULL, NULL, NULL, events "
            f"FROM games_archivedstream WHERE game_id IN ({games}) ORDER BY 2, 3"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [*chunk, *kinds, *chunk])
            rows = cursor.fetchall()
        for position, game_id, version, kind, schema, data, at, archived in rows:
            of_game = found.setdefault(game_id, [])
            if archived is not None:
                # Sorted first (version 0): the archived versions precede any live one.
                of_game += _decode_picked(game_id, archived, kinds)
            else:
                event = _event(kind, schema, _loads(data) if isinstance(data, str) else data)
                of_game.append(Record(position, game_id, version, event, _utc(at)))
    return {game_id: records for game_id, records in found.items() if records}


# Games one load_many statement names.
_GAMES_A_QUERY = 1000


def tail(
    game_id: int, *, after: int, until: int | None = None, marks: Collection[str] = ()
) -> list[tuple[int, Event]]:
    """The game's events in (after, until] and, before them, the newest earlier one of each
    type in `marks`, as (version, event) in version order: the end of a log and its landmarks
    (the last hand's result) in one query, however long the match. Each landmark is found by
    walking the game's versions down from `after`: the rows of one hand at most."""
    bound = until if until is not None else _NO_END
    columns = "SELECT version, type, schema_version, data FROM games_gameevent"
    parts = [f"{columns} WHERE game_id = %s AND version > %s AND version <= %s"]
    params: list[Any] = [game_id, after, bound]
    for kind in sorted(marks) if after > 0 else ():
        parts.append(
            # A subquery each: SQLite takes no ORDER BY or LIMIT in a UNION's arm.
            f"SELECT * FROM ({columns} WHERE game_id = %s AND version <= %s AND type = %s "
            f"ORDER BY version DESC LIMIT 1) AS mark_{len(parts)}"
        )
        params += [game_id, min(after, bound), kind]
    # Whether the game has an archived row, in the same statement (its events then come from
    # stream_events: an archived game is read rarely, and whole).
    parts.append("SELECT 0, 'archived', 0, NULL FROM games_archivedstream WHERE game_id = %s")
    params.append(game_id)
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts) + " ORDER BY version", params)
        rows = cursor.fetchall()
    if rows and rows[0][0] == 0:
        return _tail_of(stream_events(game_id), after=after, bound=bound, marks=marks)
    return [(version, _event(kind, schema, _loads(data))) for version, kind, schema, data in rows]


def _tail_of(
    stored: Sequence[Stored], *, after: int, bound: int, marks: Collection[str]
) -> list[tuple[int, Event]]:
    """`tail` of a stream read whole."""
    picked = [row for row in stored if after < row.version <= bound]
    for kind in sorted(marks) if after > 0 else ():
        landmark = next(
            (
                row
                for row in reversed(stored)
                if row.version <= min(after, bound) and row.type == kind
            ),
            None,
        )
        if landmark is not None and landmark not in picked:
            picked.append(landmark)
    picked.sort(key=lambda row: row.version)
    return [(row.version, _event(row.type, row.schema_version, row.data)) for row in picked]


def head() -> int:
    """The highest global position a reader may read up to (0 for an empty log): every event at
    or below it is committed (or, in this transaction, written by it), and no append still
    running can take a position at or below it. A position below it with no event was given up
    by an append that rolled back: nothing can ever fill it.
    """
    if connection.vendor == "postgresql":
        # games_head() (migration 0010): the sequence's last value, held below the lowest floor
        # announced by an append still running in another session.
        with connection.cursor() as cursor:
            cursor.execute("SELECT games_head()")
            return cursor.fetchone()[0] or 0
    return PositionCounter.objects.values_list("value", flat=True).first() or 0


def read_all(
    *,
    after: int,
    upto: int,
    types: Collection[str] | None = None,
    games: Collection[int] | None = None,
) -> list[Record]:
    """Every event with a global position in (after, upto], in order; only `types` and only
    the `games` if given.

    Once `head()` has returned `upto`, every event up to it is committed (or rolled back for
    good), so a reader never skips one that commits late; the positions of rolled-back appends
    are gaps that simply hold no event. Archived streams' events are merged in by position
    (read_archived). The records of an archived stream share their data with the decoded copy
    this process keeps: read them, never change them.
    """
    rows = GameEvent.objects.filter(global_position__gt=after, global_position__lte=upto)
    if types is not None:
        rows = rows.filter(type__in=types)
    if games is not None:
        rows = rows.filter(game_id__in=games)
    live = [
        Record(
            position=position,
            game_id=game_id,
            version=version,
            event=_event(kind, schema, data),
            recorded_at=recorded_at,
        )
        for position, game_id, version, kind, schema, data, recorded_at in rows.order_by(
            "global_position"
        ).values_list(
            "global_position", "game_id", "version", "type", "schema_version", "data", "recorded_at"
        )
    ]
    # The archived streams, asked after the live rows: a stream archived between the two reads
    # is then read twice (once each side), never missed; the merge keeps one of each position.
    archived = read_archived(after=after, upto=upto, types=types, games=games)
    if not archived:
        return live
    merged: list[Record] = []
    for record in heapq.merge(live, archived, key=_position_of):
        if not merged or merged[-1].position != record.position:
            merged.append(record)
    return merged


def all_events(
    *,
    after: int,
    upto: int,
    types: Collection[str] | None = None,
    games: Collection[int] | None = None,
    batch: int = 5000,
) -> Iterator[Record]:
    """`read_all` over (after, upto] in batches of `batch` positions, as one iterator: the whole
    log in global order, archived streams included, never all of it in memory at once."""
    start = after
    while start < upto:
        end = min(upto, start + batch)
        yield from read_all(after=start, upto=end, types=types, games=games)
        start = end


def stream_events(game_id: int, *, after: int = 0, until: int | None = None) -> list[Stored]:
    """A game's stored events with versions after `after` (up to `until`) in version order,
    archived or live (one statement)."""
    bound = until if until is not None else _NO_END
    sql = (
        "SELECT global_position, version, type, schema_version, data, visibility, actor, "
        "command_id, recorded_at, NULL FROM games_gameevent "
        "WHERE game_id = %s AND version > %s AND version <= %s "
        "UNION ALL SELECT 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, events "
        "FROM games_archivedstream WHERE game_id = %s AND event_count > %s ORDER BY 2"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, after, bound, game_id, after])
        rows = cursor.fetchall()
    stored: list[Stored] = []
    if rows and rows[0][9] is not None:
        stored += (
            row for row in _decode_archive(game_id, rows[0][9]) if after < row.version <= bound
        )
        rows = rows[1:]
    stored += (
        Stored(
            position,
            game_id,
            version,
            kind,
            schema,
            _loads(data),
            visibility,
            actor,
            command,
            _utc(at),
        )  # fmt: skip
        for position, version, kind, schema, data, visibility, actor, command, at, _ in rows
    )
    return stored


def _utc(value: datetime | str) -> datetime:
    """A recorded time as PostgreSQL's driver gives it (aware, UTC), from SQLite's too (naive
    or text, in UTC)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def games_with_type(game_ids: Collection[int], kind: str) -> set[int]:
    """Which of the games have an event of type `kind`, live or archived."""
    ids = list(game_ids)
    live = GameEvent.objects.filter(game_id__in=ids, type=kind).values_list("game_id")
    archived = ArchivedStream.objects.filter(
        game_id__in=ids, types__contains=f" {kind} "
    ).values_list("game_id")
    # One statement, so one snapshot: a game archived meanwhile is found on one side.
    return {game_id for (game_id,) in live.union(archived, all=True)}


def first_actors(game_ids: Collection[int]) -> dict[int, str]:
    """Each game's first event's actor (who created it), live or archived."""
    ids = list(game_ids)
    found = dict(
        GameEvent.objects.filter(game_id__in=ids, version=1).values_list("game_id", "actor")
    )
    missing = [game for game in ids if game not in found]
    if missing:
        for game_id, events in ArchivedStream.objects.filter(game_id__in=missing).values_list(
            "game_id", "events"
        ):
            found[game_id] = _loads(events)["actors"][0]
    return found


def archive(game_id: int, *, upto: int) -> int | None:
    """Move a finished game's whole stream into one archived row (docs/event-store.md,
    "Archived streams"), in one transaction; returns the events archived, or None when the game
    may not be archived: not over, already archived, not whole, or an event past `upto` (the
    lowest projection checkpoint, games/archive.py). Every read above still finds its events.

    On PostgreSQL the database does it (games_archive_stream, migration 0018), as the tables'
    owner: the row is built from the very rows it deletes, and the service's role may not delete
    events any other way. SQLite (no triggers, no roles) takes the same steps through the ORM.
    """
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT games_archive_stream(%s, %s)", [game_id, upto])
            count = cursor.fetchone()[0]
        return None if count is None else int(count)
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if (
            game is None
            or game.status != Game.Status.MATCH_OVER
            or game.version < 1
            or ArchivedStream.objects.filter(pk=game_id).exists()
        ):
            return None
        stored = stream_events(game_id)
        if len(stored) != game.version or stored[-1].position > upto:
            return None
        ArchivedStream.objects.create(
            game_id=game_id,
            first_position=min(row.position for row in stored),
            last_position=max(row.position for row in stored),
            event_count=len(stored),
            types=" " + " ".join(sorted({row.type for row in stored})) + " ",
            events=encode_archive(stored),
            archived_at=datetime.now(UTC),
        )
        GameEvent.objects.filter(game_id=game_id).delete()
    return len(stored)


def stream_records(
    *,
    after_game: int,
    upto_game: int,
    upto: int,
    types: Collection[str] | None = None,
    newest: Collection[str] = (),
    last: bool = False,
) -> list[Record]:
    """The events of the games with ids in (after_game, upto_game] at global positions up to
    `upto`, each game's in version order (games in id order): only `types` if given, and also
    each game's newest event of each type in `newest` and, with `last`, its newest event of any
    type (each once). What a rebuild by stream reads (games/rebuilds.py): every event a
    projection needs of a range of games, and no other, in one query.

    A game's events up to `upto` are a prefix of its versions (positions rise with them), so
    each game's newest is found by walking its (game, version) index down from the top.
    """
    columns = "global_position, game_id, version, type, schema_version, data, recorded_at"
    parts: list[str] = []
    params: list[Any] = []
    if types is None or types:
        part = (
            f"SELECT {columns} FROM games_gameevent "
            "WHERE game_id > %s AND game_id <= %s AND global_position <= %s"
        )
        params += [after_game, upto_game, upto]
        if types is not None:
            kinds = sorted(types)
            part += f" AND type IN ({', '.join(['%s'] * len(kinds))})"
            params += kinds
        parts.append(part)
    # The newest event of each game (of one type, or of any): a scalar subquery a game walks
    # its index down from the top, then the event by (game, version).
    marks = [*sorted(newest), *([None] if last else [])]
    for number, kind in enumerate(marks):
        typed = " AND x.type = %s" if kind is not None else ""
        parts.append(
            f"SELECT {', '.join('e.' + c for c in columns.split(', '))} FROM games_gameevent e "
            f"JOIN (SELECT g.id AS game, (SELECT x.version FROM games_gameevent x "
            f"WHERE x.game_id = g.id AND x.global_position <= %s{typed} "
            f"ORDER BY x.version DESC LIMIT 1) AS version FROM games_game g "
            f"WHERE g.id > %s AND g.id <= %s) AS n{number} "
            f"ON e.game_id = n{number}.game AND e.version = n{number}.version"
        )
        params += [upto, *([kind] if kind is not None else []), after_game, upto_game]
    if not parts:
        return []
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts) + " ORDER BY game_id, version", params)
        rows = cursor.fetchall()
    records, seen = [], set()
    for position, game_id, version, kind, schema, data, recorded_at in rows:
        if (game_id, version) in seen:
            continue  # a newest event that is also of `types`
        seen.add((game_id, version))
        if isinstance(data, str):
            data = _loads(data)
        records.append(Record(position, game_id, version, _event(kind, schema, data), recorded_at))
    archived = _archived_stream_records(after_game, upto_game, upto, types, newest, last)
    fresh = [record for record in archived if (record.game_id, record.version) not in seen]
    if not fresh:
        return records
    # A game archived between the two reads is seen on both sides: one of each event is kept.
    return sorted([*records, *fresh], key=lambda record: (record.game_id, record.version))


# Above any version a game can reach (PositiveIntegerField).
_NO_END = 2**31 - 1
