"""The open database (docs/database.md): each month's finished games as files anyone may
download, one per family, every card revealed.

`export_month(month, out)` writes `<out>/<YYYY-MM>/<family>.jsonl.zst` (engine/open_data.py's
format: one game a line) and `<out>/<YYYY-MM>/manifest.json` (each file's games, size and
SHA-256). A game is in a month's files when its match ended in that month (its last append,
`Game.last_activity`, in UTC) and its whole log is public now (games/reveal.py: over, revealed
after the match, a ladder rotation's whole set over) and no game still being played was dealt
from its seed (a duplicate-deal round's tables share one: a finished table's seed would show
the cards of those still playing). A game still in play, or one whose log stays hidden, is never
read.

Seats: a person's username, unless their profile says not to (`Profile.export_name`), and a
bot's name (public anyway); otherwise only the seat's label. The log's actors (which name
people by id) are left out, and so are staff's free-text notes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import Profile
from engine import MATCH_OVER, PLAYING
from engine.events import (
    DEADLINE_EXTENDED,
    FIXTURE_RETIMED,
    GAME_ABORTED,
    HAND_STARTED,
    MATCH_ENDED,
    MATCH_STARTED,
    Event,
)
from engine.open_data import FORMAT, MANIFEST, SUFFIX, Line, write_lines
from games import event_reads, reveal
from games.models import Game, GameEvent, Seat

MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
# Events whose `note` (and a deadline's `message`) is staff's free text: kept, the text blanked.
_NOTED = frozenset({FIXTURE_RETIMED, DEADLINE_EXTENDED})
_FREE_TEXT = ("note", "message")


class BadMonth(ValueError):
    """A month that is not YYYY-MM. `code` is stable, the message human."""

    code = "bad-month"


def parse_month(text: str) -> date:
    """`YYYY-MM` as the first day of that month; BadMonth otherwise."""
    found = MONTH.match(text.strip())
    if found is None:
        raise BadMonth(f"a month is written YYYY-MM (e.g. 2026-10), not {text!r}")
    return date(int(found[1]), int(found[2]), 1)


def previous_month(today: date) -> date:
    """The first day of the month before `today`'s."""
    return date(today.year - 1, 12, 1) if today.month == 1 else date(today.year, today.month - 1, 1)


def month_bounds(month: date) -> tuple[datetime, datetime]:
    """[first instant, first instant of the next month) in UTC."""
    nxt = date(month.year + 1, 1, 1) if month.month == 12 else date(month.year, month.month + 1, 1)
    return (
        datetime(month.year, month.month, 1, tzinfo=UTC),
        datetime(nxt.year, nxt.month, 1, tzinfo=UTC),
    )


def exports_dir() -> Path:
    return Path(settings.EXPORTS_DIR)


@dataclass(frozen=True)
class Exported:
    """One file written: its family, games, bytes and SHA-256."""

    family: str
    name: str
    games: int
    bytes: int
    sha256: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "name": self.name,
            "games": self.games,
            "bytes": self.bytes,
            "sha256": self.sha256,
        }


def finished_in(month: date) -> list[Game]:
    """The games whose match ended in `month` and whose log is public now, by id."""
    start, end = month_bounds(month)
    games = Game.objects.filter(
        status=MATCH_OVER,
        reveal=Game.Reveal.AFTER_MATCH,
        last_activity__gte=start,
        last_activity__lt=end,
    ).order_by("pk")
    # reveal.revealed asks again, for a ladder rotation whose set is still being played.
    return [game for game in games if reveal.revealed(game)]


def seeds_in_play() -> set[str]:
    """The seeds of the games still being played (their match-started is live: only finished
    games are archived)."""
    rows = GameEvent.objects.filter(version=1, type=MATCH_STARTED, game__status=PLAYING)
    return {str(seed) for seed in rows.values_list("data__seed", flat=True)}


def seat_entries(game: Game, hidden: set[int]) -> list[dict[str, Any]]:
    """Each seat as the file shows it: label, person or bot, and the name if it may be shown."""
    entries = []
    seats: list[Seat] = sorted(game.seats.all(), key=lambda s: s.number)
    for seat in seats:
        label = f"seat {seat.number}"
        person = seat.user
        if person is not None:
            name = None if person.pk in hidden else person.username
            entries.append({"seat": seat.number, "label": label, "kind": "person", "name": name})
        else:
            bot = seat.registered_bot.name if seat.registered_bot is not None else seat.bot
            entries.append({"seat": seat.number, "label": label, "kind": "bot", "name": bot})
    return entries


def _public(event: Event) -> Event:
    if event["type"] in _NOTED:
        return {**event, **{key: None for key in _FREE_TEXT if key in event}}
    if event["type"] == GAME_ABORTED and "reason" in event:
        # An older abort's reason was the staff's own note.
        return {**event, "reason": None}
    return event


def game_line(game: Game, hidden: set[int]) -> Line:
    """A finished, revealed game as one line of the open database (docs/database.md)."""
    events = [_public(event) for event in event_reads.load(game.pk)]
    started = next(event for event in events if event["type"] == MATCH_STARTED)
    ended = next((e for e in reversed(events) if e["type"] in (MATCH_ENDED, GAME_ABORTED)), None)
    result: dict[str, Any] | None = None
    if ended is not None and ended["type"] == MATCH_ENDED:
        result = {k: ended.get(k) for k in ("winner", "places", "scores")}
    elif ended is not None:
        result = {"aborted": True, "reason": None}
    return {
        "format": FORMAT,
        "game": game.pk,
        "family": str(game.variant.get("rules")),
        "variant": game.variant,
        "seats": seat_entries(game, hidden),
        "seed": started.get("seed"),
        "commitments": [e.get("commitment") for e in events if e["type"] == HAND_STARTED],
        "started_at": game.created_at.astimezone(UTC).isoformat(),
        "finished_at": game.last_activity.astimezone(UTC).isoformat()
        if game.last_activity
        else None,
        "result": result,
        "events": events,
    }


def export_month(month: date, out: Path | None = None) -> list[Exported]:
    """Write `month`'s files and manifest under `out` (EXPORTS_DIR); returns the files, by
    family. Written whole to temporary names and renamed, so a reader never sees half a file;
    a family with no game that month has no file (the files of an earlier run are replaced)."""
    folder = (out or exports_dir()) / f"{month:%Y-%m}"
    folder.mkdir(parents=True, exist_ok=True)
    hidden = set(Profile.objects.filter(export_name=False).values_list("user_id", flat=True))
    in_play = seeds_in_play()
    by_family: dict[str, list[Game]] = defaultdict(list)
    games = Game.objects.filter(pk__in=[g.pk for g in finished_in(month)])
    for game in games.prefetch_related("seats__user", "seats__registered_bot").order_by("pk"):
        by_family[str(game.variant.get("rules"))].append(game)
    written = []
    for family in sorted(by_family):
        name = f"{family}{SUFFIX}"
        temporary = folder / f".{name}.tmp"
        lines = (game_line(game, hidden) for game in by_family[family])
        with open(temporary, "wb") as target:
            count = write_lines(target, (line for line in lines if line["seed"] not in in_play))
        if not count:
            temporary.unlink()
            continue
        os.replace(temporary, folder / name)
        written.append(Exported(family, name, count, *_size_and_hash(folder / name)))
    for stale in folder.glob(f"*{SUFFIX}"):
        if stale.name not in {f.name for f in written}:
            stale.unlink()
    manifest = {
        "format": FORMAT,
        "month": f"{month:%Y-%m}",
        "generated_at": timezone.now().astimezone(UTC).isoformat(),
        "files": [f.as_dict() for f in written],
    }
    temporary = folder / f".{MANIFEST}.tmp"
    temporary.write_text(json.dumps(manifest, indent=2) + "\n")
    os.replace(temporary, folder / MANIFEST)
    return written


def _size_and_hash(path: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return path.stat().st_size, digest.hexdigest()


def manifests(out: Path | None = None) -> list[dict[str, Any]]:
    """Every month's manifest under `out` (EXPORTS_DIR), newest month first."""
    root = out or exports_dir()
    found = []
    for path in sorted(root.glob(f"*/{MANIFEST}"), reverse=True):
        if MONTH.match(path.parent.name):
            try:
                found.append(json.loads(path.read_text()))
            except (OSError, ValueError):
                continue
    return found


def file_path(month: str, name: str, out: Path | None = None) -> Path | None:
    """The path of a file a manifest lists (None for anything else: no path is built from
    what a request names unless the manifest names it)."""
    if not MONTH.match(month):
        return None
    folder = (out or exports_dir()) / month
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    if name not in {f["name"] for f in manifest.get("files", [])}:
        return None
    path = folder / name
    return path if path.is_file() else None
