"""The staff's private notes written where players read them, before the staff's note and their
message to a player were apart (docs/operations.md, "The staff console"), blanked in place:

- a seat forfeited from the console kept the staff's reason as its `seat-forfeited` event's
  `note`, which every reader of the game's events saw (the other seats, a finished game's public
  log and replay, the open database's export, a league fixture's page): the `note` is taken out
  of those events, live and archived, and out of their match results' `forfeits`;
- a bot suspended from the console kept "suspended by the staff: <reason>" as the status
  reason its owner reads: it becomes "suspended by the staff".

The games and bots are the ones the audit trail names (every console forfeit and suspension
wrote its audit row in the same transaction, with the reason): a forfeit's game (`game:<id>`),
of whose `seat-forfeited` events only those with a staff actor (`staff:<id>`) lose their note
(a club admin's ruling keeps its public note); a suspension without a `message` detail (written
before messages existed) whose bot still reads "suspended by the staff: " and that row's reason.
The staff keep every reason in the audit rows.

Events are append-only (migrations 0002 and 0018 of games: triggers refuse UPDATE): the
triggers that refuse an update are disabled for this transaction's statements alone and enabled
again before it commits, as an event store's masking of personal data does. Nothing a game's
rules read changes: the engine ignores a forfeit's note (engine/events.py), so replays,
`verify_game` and a projection rebuild give the same results. Idempotent: run again, it finds
nothing. Not reversible (the notes are gone from the players' side; the audit rows keep them).
"""

from __future__ import annotations

import json
from typing import Any

from django.db import migrations

SEAT_FORFEITED = "seat-forfeited"
STAFF = "staff:"
SUSPENDED = "suspended by the staff"


def _game_ids(AuditEntry: Any) -> list[int]:
    ids = set()
    for target in AuditEntry.objects.filter(action="forfeit").values_list("target", flat=True):
        kind, _, number = target.partition(":")
        if kind == "game" and number.isdigit():
            ids.add(int(number))
    return sorted(ids)


def _updating(schema_editor: Any, table: str, trigger: str) -> tuple[str, str]:
    if schema_editor.connection.vendor != "postgresql":
        return "", ""  # SQLite has no triggers on the log (games 0002)
    # ALTER TABLE refuses a table with deferred checks pending (a foreign key's, from rows
    # written earlier in the transaction): they are checked first, and deferred again after.
    return (
        f"SET CONSTRAINTS ALL IMMEDIATE; ALTER TABLE {table} DISABLE TRIGGER {trigger}",
        f"ALTER TABLE {table} ENABLE TRIGGER {trigger}; SET CONSTRAINTS ALL DEFERRED",
    )


def blank_forfeit_notes(apps: Any, schema_editor: Any) -> dict[int, set[int]]:
    """Take the staff's `note` out of their seat-forfeited events and those games' results;
    returns the seats whose note went, by game."""
    AuditEntry = apps.get_model("staff", "AuditEntry")
    GameEvent = apps.get_model("games", "GameEvent")
    ArchivedStream = apps.get_model("games", "ArchivedStream")
    MatchResult = apps.get_model("games", "MatchResult")
    games = _game_ids(AuditEntry)
    blanked: dict[int, set[int]] = {}
    if not games:
        return blanked
    live = [
        row
        for row in GameEvent.objects.filter(
            game_id__in=games, type=SEAT_FORFEITED, actor__startswith=STAFF
        )
        if isinstance(row.data, dict) and "note" in row.data
    ]
    archived = []
    for stream in ArchivedStream.objects.filter(game_id__in=games):
        doc = json.loads(stream.events)
        changed = False
        for n, (kind, actor) in enumerate(zip(doc["types"], doc["actors"], strict=True)):
            data = doc["data"][n]
            if kind == SEAT_FORFEITED and actor.startswith(STAFF) and "note" in data:
                blanked.setdefault(stream.game_id, set()).add(data["seat"])
                doc["data"][n] = {k: v for k, v in data.items() if k != "note"}
                changed = True
        if changed:
            archived.append((stream.game_id, json.dumps(doc, separators=(",", ":"))))
    with schema_editor.connection.cursor() as cursor:
        off, on = _updating(schema_editor, "games_gameevent", "games_gameevent_no_update")
        if live and off:
            cursor.execute(off)
        for row in live:
            blanked.setdefault(row.game_id, set()).add(row.data["seat"])
            data = {k: v for k, v in row.data.items() if k != "note"}
            GameEvent.objects.filter(pk=row.pk).update(data=data)
        if live and on:
            cursor.execute(on)
        off, on = _updating(schema_editor, "games_archivedstream", "games_archivedstream_no_update")
        if archived and off:
            cursor.execute(off)
        for game_id, text in archived:
            ArchivedStream.objects.filter(pk=game_id).update(events=text)
        if archived and on:
            cursor.execute(on)
    for result in MatchResult.objects.filter(game_id__in=blanked, forfeits__isnull=False):
        seats = blanked[result.game_id]
        forfeits = [
            {k: v for k, v in entry.items() if not (k == "note" and entry.get("seat") in seats)}
            for entry in result.forfeits
        ]
        if forfeits != result.forfeits:
            MatchResult.objects.filter(pk=result.pk).update(forfeits=forfeits)
    return blanked


def blank_suspension_reasons(apps: Any, schema_editor: Any) -> list[int]:
    """"suspended by the staff: <their reason>" -> "suspended by the staff"; returns the bots."""
    AuditEntry = apps.get_model("staff", "AuditEntry")
    Bot = apps.get_model("games", "Bot")
    done = []
    for target, reason, details in AuditEntry.objects.filter(action="suspend-bot").values_list(
        "target", "reason", "details"
    ):
        kind, _, number = target.partition(":")
        if kind != "bot" or not number.isdigit() or "message" in (details or {}):
            continue
        old = f"{SUSPENDED}: {reason}"[:1000]
        if Bot.objects.filter(pk=int(number), status_reason=old).update(status_reason=SUSPENDED):
            done.append(int(number))
    return done


def forwards(apps: Any, schema_editor: Any) -> None:
    blank_forfeit_notes(apps, schema_editor)
    blank_suspension_reasons(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("staff", "0002_audit_inspect_hidden"),
        ("games", "0024_match_result_forfeits"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
