"""The newest states this process has seen, per game: a command or a view of a game the same
process served last starts from its state instead of reading and folding the log
(docs/event-store.md, "Recent states").

Like a snapshot (games/snapshots.py), a recent state is a cache, never a fact, and it cannot be
stale:

- it is the fold of events 1..version of one game, and committed events never change; a load
  uses it only for a version it asks for at or after the cached one, and reads the events after
  it from the log;
- it is kept only outside a transaction, where every event it folded is committed (a request
  runs in autocommit; inside a caller's transaction, which could still roll back, none is kept);
- it is keyed by the game's id and its creation time, so a game made later under a reused id
  (SQLite reuses a deleted row's) never meets another game's state;
- states are immutable values (the engine folds into new states, docs/engine.md
  "Representation"), so one state may be handed to any number of requests and threads.

Each process holds at most `settings.RECENT_STATES` games (the least recently used go first);
0 turns it off. It lives in the process's memory: another process (the other gunicorn worker,
a Celery worker) reads the log, from a snapshot.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import connection

from engine import State, Variant
from games.models import Game


@dataclass(frozen=True, slots=True)
class Recent:
    """A game's state after events 1..version, with its variant. `settled`: the version up to
    which the loads that led here have kept their snapshots (a load that starts here must keep
    the snapshot of a multiple of EVERY passed after it, for the processes that start from the
    log)."""

    version: int
    variant: Variant
    state: State
    settled: int


_Key = tuple[int, datetime]
_states: OrderedDict[_Key, Recent] = OrderedDict()
_lock = threading.Lock()


def _key(game: Game) -> _Key:
    return (game.pk, game.created_at)


def get(game: Game, until: int) -> Recent | None:
    """The newest state kept of `game` at a version <= `until`, or None."""
    key = _key(game)
    with _lock:
        found = _states.get(key)
        if found is None or found.version > until:
            return None
        _states.move_to_end(key)
        return found


def keep(game: Game, version: int, variant: Variant, state: State, *, settled: int) -> None:
    """Keep `state` as `game`'s state after events 1..version, when they are all committed."""
    size = settings.RECENT_STATES
    if size <= 0:
        return
    if connection.in_atomic_block:
        return  # its events could still roll back
    key = _key(game)
    with _lock:
        known = _states.get(key)
        if known is not None and known.version > version:
            return  # a newer one was kept meanwhile
        _states[key] = Recent(version, variant, state, settled)
        _states.move_to_end(key)
        while len(_states) > size:
            _states.popitem(last=False)


def forget() -> None:
    """Drop every state this process keeps."""
    with _lock:
        _states.clear()
