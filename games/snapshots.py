"""Snapshots: a game's replayed state at one version, so that a command or a view folds only the
events after it (docs/event-store.md, "Snapshots").

A snapshot is a cache, never a fact. It is not an event, nothing rebuilt from the log reads it,
and any row may be deleted at any time: the next load replays the log and writes it again.
What keeps it from ever serving a stale state:

- it is the fold of events 1..version, and those never change once committed; the events after
  it are always read from the log, so a snapshot can be old but never wrong;
- it is written only outside a transaction (`keep`), where every event it folded is committed:
  a transaction that rolls back never leaves one behind;
- it is keyed by FINGERPRINT, a hash of the engine's source, the snapshot format and the store's
  upcasters: a state folded by other engine code, or in another shape, is never read back;
- one that does not decode falls back to a full replay (`newest` returns None).

The state is written through an explicit form (`encode`): the State dataclass's fields, by
name, as JSON with tuples, frozensets and dicts tagged, never pickle.
"""

from __future__ import annotations

import hashlib
import json
import logging
import marshal
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

from django.db import DatabaseError, connection
from django.utils import timezone

import engine
from engine import RULES_VERSION, State
from games.event_records import SCHEMA_VERSIONS, UPCASTERS

Event = dict[str, Any]

log = logging.getLogger(__name__)

# Bump when `encode` writes another shape.
FORMAT = 1

# Snapshots are kept at the versions that are multiples of this, by the first load that folds
# past one: a command or a view then folds fewer than this many events more than the ones
# appended since the last load, whatever the match's length (bench/commands.py).
EVERY = 100


ENGINE_ROOT = Path(engine.__file__).parent


def _fingerprint(root: Path = ENGINE_ROOT) -> str:
    """A hash of everything that decides what a snapshot holds: the engine's code (its fold and
    its State), the rules version, the store's schema versions and upcasters, and FORMAT."""
    digest = hashlib.sha256(f"format {FORMAT} rules {RULES_VERSION}\0".encode())
    digest.update(repr(sorted(SCHEMA_VERSIONS.items())).encode())
    for key, upcast in sorted(UPCASTERS.items()):
        digest.update(repr(key).encode())
        digest.update(marshal.dumps(upcast.__code__))
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


FINGERPRINT = _fingerprint()


class SnapshotError(ValueError):
    """A state this format cannot hold, or a snapshot that does not decode."""


@dataclass(frozen=True, slots=True)
class Found:
    """A snapshot read back: the state after events 1..version, and the stream's first event
    (which names the variant and its rules version)."""

    version: int
    started: Event
    state: State


def newest(game_id: int, *, until: int | None = None) -> Found | None:
    """The newest snapshot of the game at or below version `until` written by this engine
    (FINGERPRINT), or None: none, or one that does not decode (logged; replay the log)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT version, state FROM games_snapshot "
            "WHERE game_id = %s AND fingerprint = %s AND version <= %s "
            "ORDER BY version DESC LIMIT 1",
            [game_id, FINGERPRINT, until if until is not None else _NO_END],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    version, text = row
    try:
        started, state = decode(text)
    except (SnapshotError, ValueError, TypeError, KeyError) as error:
        log.warning("snapshot of game %s at v%s ignored: %s", game_id, version, error)
        return None
    return Found(version, started, state)


def due(base: int, version: int) -> int | None:
    """The version to keep a snapshot at, when a fold from `base` (a snapshot's version, or 0)
    to `version` passed a multiple of EVERY; None when it passed none."""
    mark = version - version % EVERY
    return mark if mark > base else None


def keep(game_id: int, version: int, started: Event, state: State) -> None:
    """Write the state after events 1..version, when no transaction is open: then every event
    it folded is committed. Inside one (a staff action or a fallback move with the game's row
    locked) it keeps none: those events could still roll back, and the snapshot's row lock,
    held to the caller's commit, could deadlock with a transaction taking the game's row
    first. A state this format cannot hold, or a failed write, is logged and costs only speed.
    """
    if connection.in_atomic_block:
        return
    try:
        text = encode(started, state)
    except SnapshotError as error:
        log.warning("no snapshot of game %s at v%s: %s", game_id, version, error)
        return
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO games_snapshot (game_id, fingerprint, version, state, written_at) "
                "VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (game_id, fingerprint, version) DO NOTHING",
                [game_id, FINGERPRINT, version, text, timezone.now()],
            )
            # Another engine's snapshots of this game can never be read by this one.
            cursor.execute(
                "DELETE FROM games_snapshot WHERE game_id = %s AND fingerprint <> %s",
                [game_id, FINGERPRINT],
            )
    except DatabaseError as error:
        log.warning("no snapshot of game %s at v%s: %s", game_id, version, error)


def forget(game_id: int | None = None) -> int:
    """Delete the snapshots of one game (or of every game); return how many. Always safe."""
    with connection.cursor() as cursor:
        if game_id is None:
            cursor.execute("DELETE FROM games_snapshot")
        else:
            cursor.execute("DELETE FROM games_snapshot WHERE game_id = %s", [game_id])
        return int(cursor.rowcount)


def encode(started: Event, state: State) -> str:
    """The snapshot's text: the stream's first event and the State's fields by name."""
    if not is_dataclass(state):
        raise SnapshotError(f"a {type(state).__name__} is not a dataclass")
    fields_of = {f.name: _plain(getattr(state, f.name)) for f in fields(state)}
    return json.dumps({"started": started, "state": fields_of}, separators=(",", ":"))


def decode(text: str) -> tuple[Event, State]:
    """The first event and the State a snapshot's text holds; SnapshotError if its fields are
    not exactly the State's."""
    data = json.loads(text)
    values = data["state"]
    names = [f.name for f in fields(State)]
    if sorted(values) != sorted(names):
        raise SnapshotError("the snapshot's fields are not the State's")
    # State.__new__: the compiled engine's State (docs/architecture.md "The compiled engine")
    # refuses object.__new__; each field then set as the engine's own copies set them.
    state = State.__new__(State)
    for name in names:
        setattr(state, name, _value(values[name]))
    return dict(data["started"]), state


# JSON holds lists as arrays and every other container as a one-key object naming its kind.
_TUPLE, _FROZENSET, _SET, _DICT = "tuple", "frozenset", "set", "dict"
_SCALARS = frozenset({bool, int, float, str})


def _plain(value: Any) -> Any:
    # Exact types: an enum or other subclass would come back as its plain base.
    if value is None or type(value) in _SCALARS:
        return value
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, tuple):
        return {_TUPLE: [_plain(item) for item in value]}
    if isinstance(value, frozenset):
        return {_FROZENSET: [_plain(item) for item in value]}
    if isinstance(value, set):
        return {_SET: [_plain(item) for item in value]}
    if isinstance(value, dict):
        return {_DICT: [[_plain(k), _plain(v)] for k, v in value.items()]}
    raise SnapshotError(f"a snapshot cannot hold a {type(value).__name__}")


def _value(data: Any) -> Any:
    if isinstance(data, list):
        return [_value(item) for item in data]
    if not isinstance(data, dict):
        return data
    ((kind, items),) = data.items()
    if kind == _TUPLE:
        return tuple(_value(item) for item in items)
    if kind == _FROZENSET:
        return frozenset(_value(item) for item in items)
    if kind == _SET:
        return {_value(item) for item in items}
    if kind == _DICT:
        return {_value(k): _value(v) for k, v in items}
    raise SnapshotError(f"unknown kind {kind!r} in a snapshot")


# Above any version a game can reach (PositiveIntegerField).
_NO_END = 2**31 - 1
