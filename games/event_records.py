"""The store's shapes of an event: the event as the rules make it (`Event`), a stored event
with its place in the log (`Record`, as projections read it) or with every column (`Stored`);
the schema version each type is written with and the upcasters that read an older one
(`_event`); and the JSON the rows and archived documents are written in (`_json`, `_loads`).
Shared by the store (games/appends.py, games/event_reads.py) and its archived streams
(games/archived_streams.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

Event = dict[str, Any]


# The schema version new events of each type are written with (1 unless listed). Changing an
# event's shape means bumping its entry here and adding an upcaster from the old version.
SCHEMA_VERSIONS: dict[str, int] = {"hand-started": 2}


def _hand_started_1(data: dict[str, Any]) -> dict[str, Any]:
    # Version 2 records the deal's commitment (docs/verifying-deals.md); a hand dealt before it
    # has none, said outright rather than left to a missing key.
    return {**data, "commitment": None}


# (type, schema version) -> a function that turns that version's data into the next version's.
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("hand-started", 1): _hand_started_1,
}


@dataclass(frozen=True, slots=True)
class Record:
    """A stored event with where it sits in the log, as projections read it."""

    position: int
    game_id: int
    version: int
    event: Event
    recorded_at: datetime

    @property
    def type(self) -> str:
        return str(self.event["type"])


@dataclass(frozen=True, slots=True)
class Stored:
    """One stored event with every column, as the log keeps it (data before upcasting), live
    or archived alike."""

    position: int
    game_id: int
    version: int
    type: str
    schema_version: int
    data: dict[str, Any]
    visibility: str
    actor: str
    command_id: str | None
    recorded_at: datetime


def _event(kind: str, schema: int, data: dict[str, Any]) -> Event:
    while (kind, schema) in UPCASTERS:
        data = UPCASTERS[kind, schema](data)
        schema += 1
    return {"type": kind, **data}


def _json(value: Any) -> str:
    """orjson (about 10x json.dumps on a match's rows); json for what orjson refuses (an integer
    past 64 bits, a key that is not a string), as before."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value)


def _loads(text: str | bytes) -> Any:
    """orjson, and json for what it refuses (an integer past 64 bits), as `_json` writes."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
