"""Archived streams (docs/event-store.md, "Archived streams"): a finished game's events in one
compressed row, its document (format 1) encoded and decoded here, and the reads of the archived
rows alone that games/event_reads.py merges with the live ones, so no caller knows which it
read. Which games are archived, the sweep and the move itself (`archive_stream`) are
games/archive.py's.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta
from itertools import accumulate

from django.db.models import Q

from games.event_records import Record, Stored, _event, _json, _loads
from games.models import ArchivedStream

# Decoded archived streams, newest used last: a row never changes (triggers refuse it), so a
# decoded copy stays true; keyed by the row's identity, so a test database flushed and filled
# again can never serve another stream's copy. Bounded, so a rebuild never holds the archive.
ARCHIVE_CACHE = 64
_decoded: OrderedDict[tuple[int, int, int, int], list[Stored]] = OrderedDict()

# The first microsecond of 1970 in UTC: archived times are microseconds after it.
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _archived(key: tuple[int, int, int, int]) -> list[Stored]:
    """The archived stream with this (game, first position, last position, event count)."""
    stored = _decoded.get(key)
    if stored is None:
        text = ArchivedStream.objects.values_list("events", flat=True).get(pk=key[0])
        stored = _decode_archive(key[0], text)
        _decoded[key] = stored
        while len(_decoded) > ARCHIVE_CACHE:
            _decoded.popitem(last=False)
    else:
        _decoded.move_to_end(key)
    return stored


def _in_range(stored: list[Stored], after: int, upto: int) -> list[Stored]:
    """The stream's events with positions in (after, upto] (positions rise with versions)."""
    positions = [row.position for row in stored]
    return stored[bisect_right(positions, after) : bisect_right(positions, upto)]


def _position_of(record: Record) -> int:
    return record.position


def _decode_archive(game_id: int, text: str) -> list[Stored]:
    """An archived row's document (format 1, migration 0018) as its stored events."""
    doc = _loads(text)
    if doc.get("format") != 1:
        raise ValueError(f"game {game_id}: archived format {doc.get('format')!r} unknown")
    positions = accumulate(doc["positions"])
    micros = accumulate(doc["recorded"])
    return [
        Stored(
            position,
            game_id,
            version,
            kind,
            schema,
            data,
            visibility,
            actor,
            command,
            _EPOCH + timedelta(microseconds=at),
        )
        for version, (position, kind, schema, data, visibility, actor, command, at) in enumerate(
            zip(
                positions,
                doc["types"],
                doc["schemas"],
                doc["data"],
                doc["visibility"],
                doc["actors"],
                doc["commands"],
                micros,
                strict=True,
            ),
            start=1,
        )
    ]


def _decode_picked(
    game_id: int,
    text: str,
    types: Collection[str] | None,
    *,
    upto: int | None = None,
    newest: Collection[str] = (),
    last: bool = False,
) -> list[Record]:
    """Of an archived row's document, only the events a reader asked for, as records in
    version order: those of `types` (every type if None), each newest of a type in `newest`
    and, with `last`, the newest event, among those at positions up to `upto`. The document is
    parsed whole (one JSON text), but only the picked events are built and upcast: a rebuild
    by stream needs a few events of each stream's thousand."""
    doc = _loads(text)
    if doc.get("format") != 1:
        raise ValueError(f"game {game_id}: archived format {doc.get('format')!r} unknown")
    positions = list(accumulate(doc["positions"]))
    kinds = doc["types"]
    count = len(kinds) if upto is None else bisect_right(positions, upto)
    wanted = None if types is None else set(types)
    picked = [n for n in range(count) if wanted is None or kinds[n] in wanted]
    extra: set[int] = set()
    for kind in newest:
        at = next((n for n in range(count - 1, -1, -1) if kinds[n] == kind), None)
        if at is not None:
            extra.add(at)
    if last and count:
        extra.add(count - 1)
    if extra:
        picked = sorted(extra.union(picked))
    if not picked:
        return []
    micros = list(accumulate(doc["recorded"]))
    schemas, data = doc["schemas"], doc["data"]
    return [
        Record(
            positions[n],
            game_id,
            n + 1,
            _event(kinds[n], schemas[n], data[n]),
            _EPOCH + timedelta(microseconds=micros[n]),
        )
        for n in picked
    ]


def encode_archive(stored: Sequence[Stored]) -> str:
    """A stream's events (versions 1 on, in order) as an archived row's document, format 1:
    what games_archive_stream builds in SQL on PostgreSQL, for SQLite (and the tests)."""
    micros = [(row.recorded_at - _EPOCH) // timedelta(microseconds=1) for row in stored]
    positions = [row.position for row in stored]
    return _json(
        {
            "format": 1,
            "positions": [b - a for a, b in zip([0, *positions], positions, strict=False)],
            "types": [row.type for row in stored],
            "schemas": [row.schema_version for row in stored],
            "visibility": [row.visibility for row in stored],
            "actors": [row.actor for row in stored],
            "commands": [row.command_id for row in stored],
            "recorded": [b - a for a, b in zip([0, *micros], micros, strict=False)],
            "data": [row.data for row in stored],
        }
    )


def read_archived(
    *,
    after: int,
    upto: int,
    types: Collection[str] | None = None,
    games: Collection[int] | None = None,
) -> list[Record]:
    """`read_all` of the archived streams alone: their events in (after, upto], in order. With
    `types`, only the streams that hold one of them (their `types` column) are read, and of
    each only those events are built (`_decode_picked`: the projections in log order ask for
    one type, one event in 750)."""
    streams = ArchivedStream.objects.filter(last_position__gt=after, first_position__lte=upto)
    if games is not None:
        streams = streams.filter(game_id__in=games)
    if types is not None:
        kinds = sorted(types)
        if not kinds:
            return []
        holding = Q()
        for kind in kinds:
            holding |= Q(types__contains=f" {kind} ")
        return list(
            heapq.merge(
                *(
                    [
                        record
                        for record in _decode_picked(game_id, text, kinds, upto=upto)
                        if record.position > after
                    ]
                    for game_id, text in streams.filter(holding).values_list("game_id", "events")
                ),
                key=_position_of,
            )
        )
    keys = list(streams.values_list("game_id", "first_position", "last_position", "event_count"))
    wanted = None if types is None else set(types)
    return list(
        heapq.merge(
            *(
                [
                    Record(
                        row.position,
                        row.game_id,
                        row.version,
                        _event(row.type, row.schema_version, row.data),
                        row.recorded_at,
                    )
                    for row in _in_range(_archived(key), after, upto)
                    if wanted is None or row.type in wanted
                ]
                for key in keys
            ),
            key=_position_of,
        )
    )


def _archived_stream_records(
    after_game: int,
    upto_game: int,
    upto: int,
    types: Collection[str] | None,
    newest: Collection[str],
    last: bool,
) -> list[Record]:
    """`stream_records` of the archived streams of the games in (after_game, upto_game]: the
    same choice of events, from each archived row (docs/event-store.md, "Archived streams"),
    one query for the range's rows and only the chosen events decoded (`_decode_picked`)."""
    rows = ArchivedStream.objects.filter(
        game_id__gt=after_game, game_id__lte=upto_game, first_position__lte=upto
    ).order_by("game_id")
    records: list[Record] = []
    for game_id, text in rows.values_list("game_id", "events").iterator(chunk_size=100):
        records += _decode_picked(game_id, text, types, upto=upto, newest=newest, last=last)
    return records
