"""The event store's reads: a game's events, the whole log in global order, the few questions
lists ask of many games; the store's writes are games/appends.py.

Every read here covers live and archived streams alike (a finished game's events moved into one
compressed row, games/archive.py; read and decoded in games/archived_streams.py;
docs/event-store.md, "Archived streams"), with the same positions, versions and data, so no
caller knows which it read:

- `load`, `tail`: a game's events by version (the repository, the API's pages, the replay,
  verify_game); `load_many`: some types of many games' events in one query;
- `stream_events(game_id)`: a game's stored rows with every column (the staff inspector);
- `head()`: the highest global position a reader may read up to;
- `read_all(after, upto)`, and `all_events(after, upto)` its batches as one iterator: every
  game's events in global order (the projections, their rebuilds); `stream_records`: a
  rebuild's reads of a range of games;
- `games_with_type`, `first_actors`: the two small questions lists ask of many games.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from django.db import connection

from games.archived_streams import (
    _archived_stream_records,
    _decode_archive,
    _decode_picked,
    _position_of,
    read_archived,
)
from games.event_records import Event, Record, Stored, _event, _loads
from games.models import ArchivedStream, GameEvent, PositionCounter


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


def with_actors(game_id: int, *, types: Collection[str]) -> list[tuple[int, Event, str]]:
    """A game's events of `types` in version order, live or archived (one statement), each as
    (version, event, actor): who appended it ("staff:12", "user:3", "system"), for the few
    readers that tell who did a thing (games/seat_facts.py `stand_in_facts`: a forfeit by the
    staff is not the league's ruling)."""
    kinds = sorted(types)
    if not kinds:
        return []
    marks = ", ".join(["%s"] * len(kinds))
    sql = (
        "SELECT version, type, schema_version, data, actor, NULL FROM games_gameevent "
        f"WHERE game_id = %s AND type IN ({marks}) "
        "UNION ALL SELECT 0, NULL, NULL, NULL, NULL, events FROM games_archivedstream "
        "WHERE game_id = %s ORDER BY 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, *kinds, game_id])
        rows = cursor.fetchall()
    found: list[tuple[int, Event, str]] = []
    if rows and rows[0][5] is not None:
        found += (
            (row.version, _event(row.type, row.schema_version, row.data), row.actor)
            for row in _decode_archive(game_id, rows[0][5])
            if row.type in kinds
        )
        rows = rows[1:]
    found += (
        (version, _event(kind, schema, _loads(data) if isinstance(data, str) else data), actor)
        for version, kind, schema, data, actor, _ in rows
    )
    return found


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
