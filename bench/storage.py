#!/usr/bin/env python3
"""Storage benchmark: bytes per finished 4-seat official 500-point match, live and archived
(games/archive.py; docs/event-store.md, "Archived streams").

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno python3 bench/storage.py [--matches N]

It creates a scratch database next to DATABASE_URL's (as bench/store.py does), migrates it,
plays N matches of four built-in bots to 500 points through the workers' code (bots/turns.py
`advance_game`, as a ladder's bot match is played and written), catches the projections up,
archives every match (games/archive.py `archive_games`), and drops the database again. It
prints, per match:

    (a) live: what games_gameevent grew by (pg_total_relation_size: heap, TOAST and every
        index), and for information the rows' own bytes (pg_column_size);
    (b) archived: what games_archivedstream grew by, the same way, and the compressed
        document's own bytes; for information what the events would take compressed by zlib
        (level 9) in Python, and the events table's heap after VACUUM (its indexes keep their
        pages for the appends to come);
    (c) for information: loading a match live and archived (event_reads.load), and archiving one;

and, last, `archived bytes per match: X (ratio Y of live)`. Target: X <= 35 KB (35,840 bytes).
Exit status 2 when DATABASE_URL is not a PostgreSQL URL.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
# This script's own folder is first on sys.path: the scratch database's helpers sit beside it.
sys.path.insert(1, str(REPO_ROOT))
from bench.store import on_scratch_database, setup_django  # noqa: E402

TARGET = 500
SEATS = ["greedy"] * 4


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20, help="matches played and archived")
    args = parser.parse_args()

    return on_scratch_database("bench/storage.py", "storage", lambda raw: run(args, raw))


def sizes(raw: Any) -> tuple[int, int]:
    """pg_total_relation_size of the events table and of the archived streams' table."""
    row = raw.execute(
        "SELECT pg_total_relation_size('games_gameevent'), "
        "pg_total_relation_size('games_archivedstream')"
    ).fetchone()
    return int(row[0]), int(row[1])


def run(args: argparse.Namespace, raw: Any) -> int:
    setup_django()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from datetime import timedelta

    from bots.turns import advance_game
    from games import archive, archived_streams, event_reads, projections
    from games.creation import SeatSpec, game_create
    from games.models import Game

    n = args.matches
    empty_live, empty_archived = sizes(raw)
    games, events = [], 0
    for seed in range(n):
        game = game_create(
            variant_spec={"rules": "official", "options": {"target": TARGET}},
            seats=[SeatSpec(bot=name) for name in SEATS],
            seed=f"storage-{seed}",
        )
        while Game.objects.values_list("status", flat=True).get(pk=game.pk) != "match-over":
            advance_game(game_id=game.pk)
        games.append(game.pk)
        events += Game.objects.values_list("version", flat=True).get(pk=game.pk)
    live_total = sizes(raw)[0] - empty_live
    live_rows = raw.execute("SELECT sum(pg_column_size(e.*)) FROM games_gameevent AS e").fetchone()[
        0
    ]
    zlib_bytes = sum(
        len(
            zlib.compress(archived_streams.encode_archive(event_reads.stream_events(g)).encode(), 9)
        )
        for g in games
    )
    live_loads = [timed(event_reads.load, g) for g in games]
    for name in projections.PROJECTIONS:
        projections.run(name)

    started = time.perf_counter()
    swept = archive.archive_games(older_than=timedelta(0), limit=n)
    archive_seconds = time.perf_counter() - started
    assert swept.games == n, swept
    archived_total = sizes(raw)[1] - empty_archived
    document = raw.execute(
        "SELECT sum(pg_column_size(events)) FROM games_archivedstream"
    ).fetchone()[0]
    archived_loads = [timed(event_reads.load, g) for g in games]
    raw.execute("VACUUM games_gameevent")
    kept = raw.execute("SELECT pg_relation_size('games_gameevent')").fetchone()[0]

    live, archived = live_total / n, archived_total / n
    print(f"{n} matches of 4 built-in bots to {TARGET}: {events / n:,.0f} events a match")
    print(f"(a) live, games_gameevent grew by:               {live:,.0f} bytes a match")
    print(f"    (the rows' own bytes, for information:       {live_rows / n:,.0f})")
    print(f"(b) archived, games_archivedstream grew by:      {archived:,.0f} bytes a match")
    print(f"    (the compressed document's own bytes:        {document / n:,.0f})")
    print(f"    (zlib level 9 in Python, for information:    {zlib_bytes / n:,.0f})")
    print(f"    (games_gameevent's heap after VACUUM:         {kept:,} bytes in all)")
    print(f"(c) event_reads.load of a match, live:           {median_ms(live_loads):.1f} ms")
    print(f"    event_reads.load of a match, archived:       {median_ms(archived_loads):.1f} ms")
    print(f"    archiving, a match:                          {archive_seconds / n * 1000:.1f} ms")
    print(f"archived bytes per match: {archived:,.0f} (ratio {archived / live:.3f} of live)")
    raw.close()
    return 0


def timed(action: Any, *args: Any) -> float:
    started = time.perf_counter()
    action(*args)
    return time.perf_counter() - started


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


if __name__ == "__main__":
    sys.exit(main())
