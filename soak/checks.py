"""The end checks, on a quiet database (workers, beat and gunicorn stopped): the log's
invariants, the projections against a fresh rebuild, every accepted command in the log exactly
once, and the application's database role unable to change the log."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, connection, models, transaction

import league.projections  # noqa: F401 (registers the league's projections)
from bots import turns
from games import event_reads, projections
from games.models import Game, Seat
from games.seats import WORKER_SEATS


@dataclass
class Checks:
    figures: dict[str, Any] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    lost: int = 0

    def fail(self, what: str) -> None:
        self.failures.append(what)


def run_all(
    game_ids: list[int], accepted: list[tuple[int, str]], unanswered: list[tuple[int, str]]
) -> Checks:
    checks = Checks()
    games_settled(checks, game_ids)
    versions_contiguous(checks)
    positions_in_order(checks)
    commands_once(checks, accepted, unanswered)
    projections_equal_rebuild(checks)
    app_role_limited(checks)
    return checks


def waiting_for_workers(idle: timedelta) -> list[int]:
    """turns.stalled_games, less the newno open choices a person (or a pull bot) is in too: a
    bot may let such a window pass (bots/driver.py), and it waits for that seat, or for beat's
    close_open_choices, which is stopped while the soak settles; not for a worker."""
    stalled = turns.stalled_games(idle=idle)
    if not stalled:
        return []
    moved = defaultdict(set)
    for game_id, number in Seat.objects.filter(WORKER_SEATS, game_id__in=stalled).values_list(
        "game_id", "number"
    ):
        moved[game_id].add(number)
    to_act = dict(Game.objects.filter(pk__in=stalled).values_list("pk", "to_act"))
    return [
        game_id
        for game_id in stalled
        if not (len(to_act[game_id] or []) > 1 and set(to_act[game_id]) - moved[game_id])
    ]


def games_settled(checks: Checks, game_ids: list[int]) -> None:
    """Every game finished, or waiting for a person or a pull bot: none for a worker."""
    stalled = set(waiting_for_workers(timedelta(0)))
    rows = Game.objects.filter(pk__in=game_ids).values_list("pk", "status", "to_act")
    status = Counter[str]()
    for pk, state, to_act in rows:
        if state != Game.Status.PLAYING:
            status["finished"] += 1
        elif pk in stalled or not to_act:
            status["stalled"] += 1
            checks.fail(f"game {pk} waits for a worker (to_act {to_act}) after the settle")
        else:
            status["waiting for a person or pull bot"] += 1
    checks.figures["games"] = dict(status)


def versions_contiguous(checks: Checks) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT g.id, g.version, count(e.version), coalesce(min(e.version), 0), "
            "coalesce(max(e.version), 0) FROM games_game g "
            "LEFT JOIN games_gameevent e ON e.game_id = g.id GROUP BY g.id, g.version"
        )
        rows = cursor.fetchall()
    broken = [row for row in rows if not (row[2] == row[1] == row[4] and row[3] == 1)]
    for game_id, version, count, low, high in broken[:10]:
        checks.fail(f"game {game_id}: version {version}, {count} events, versions {low}..{high}")
    checks.figures["games in the log, versions 1..N without a gap"] = len(rows) - len(broken)


def positions_in_order(checks: Checks) -> None:
    """Global positions rise with each game's versions, and on the quiet database event_reads.head()
    has reached the last event: no append is left in flight (docs/event-store.md, "Global
    positions"). A position with no event was given up by an append that rolled back (a cut
    connection, a killed worker): allowed, and counted."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), coalesce(max(global_position), 0) FROM games_gameevent")
        count, high = cursor.fetchone()
        cursor.execute(
            "SELECT count(*) FROM (SELECT global_position < lag(global_position) OVER "
            "(PARTITION BY game_id ORDER BY version) AS back FROM games_gameevent) AS pairs "
            "WHERE back"
        )
        (backwards,) = cursor.fetchone()
    if backwards:
        checks.fail(f"global positions: {backwards} events sit before their game's previous one")
    head = event_reads.head()
    if head != high:
        checks.fail(f"global positions: head() is {head} on a quiet log whose last is {high}")
    checks.figures["events"] = count
    checks.figures["positions given up by rolled-back appends"] = high - count


def commands_once(
    checks: Checks, accepted: list[tuple[int, str]], unanswered: list[tuple[int, str]]
) -> None:
    """No command id twice in a game's log; every command the API answered 200 in it once."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT game_id, command_id, count(*) FROM games_gameevent "
            "WHERE command_id IS NOT NULL GROUP BY game_id, command_id HAVING count(*) > 1"
        )
        twice = cursor.fetchall()
        cursor.execute(
            "SELECT game_id, command_id FROM games_gameevent "
            "WHERE command_id LIKE 'user:%%' OR command_id LIKE 'bot:#%%'"
        )
        logged = Counter(cursor.fetchall())
    for game_id, command_id, count in twice[:10]:
        checks.fail(f"game {game_id}: command id {command_id} appended {count} times")
    lost = [item for item in accepted if logged[item] == 0]
    for game_id, command_id in lost[:10]:
        checks.fail(f"game {game_id}: accepted command {command_id} is not in the log")
    doubled = [item for item in accepted if logged[item] > 1]
    if doubled:
        checks.fail(f"{len(doubled)} accepted commands are in the log more than once")
    checks.lost = len(lost)
    checks.figures["command ids appended twice"] = len(twice)
    checks.figures["accepted commands found once in the log"] = sum(
        1 for item in accepted if logged[item] == 1
    )
    checks.figures["unanswered commands (every retry failed), found in the log"] = (
        f"{sum(1 for item in unanswered if logged[item])} of {len(unanswered)}"
    )


def snapshot(tables: tuple[type[models.Model], ...]) -> dict[str, list[str]]:
    """Each table's rows as sorted JSON, without surrogate keys (a rebuild numbers rows anew)."""
    found = {}
    for table in tables:
        names = [
            f.attname
            for f in table._meta.concrete_fields
            if not (f.primary_key and isinstance(f, models.AutoField | models.BigAutoField))
        ]
        rows = table._default_manager.values_list(*names)
        found[table._meta.label] = sorted(
            json.dumps(dict(zip(names, row, strict=True)), sort_keys=True, default=str)
            for row in rows
        )
    return found


def projections_equal_rebuild(checks: Checks) -> None:
    equal = []
    for name, projection in sorted(projections.PROJECTIONS.items()):
        while projections.run(name):
            pass
        before = snapshot(projection.tables)
        projections.rebuild(name)
        after = snapshot(projection.tables)
        for table, rows in before.items():
            if rows != after[table]:
                differ = len(set(rows) ^ set(after[table]))
                checks.fail(f"projection {name}: {table} differs from a rebuild ({differ} rows)")
        equal.append(f"{name} ({sum(len(rows) for rows in before.values())} rows)")
    checks.figures["projections equal to a fresh rebuild"] = ", ".join(equal)


# PostgreSQL's insufficient_privilege: what the statement must fail with (not a trigger's error).
PERMISSION_DENIED = "42501"
CHANGES = {
    "UPDATE": "UPDATE games_gameevent SET type = type",
    "DELETE": "DELETE FROM games_gameevent",
    "TRUNCATE": "TRUNCATE games_gameevent",
}


class _Undo(Exception):
    """Rolls back a change that should have been refused."""


def app_role_limited(checks: Checks) -> None:
    """The role the application ran as (the soak's own connection is that role) is no
    superuser, owns no table, and may not UPDATE, DELETE or TRUNCATE events: each is refused by
    privileges, before the event store's triggers would have to."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rolname, rolsuper, rolcreatedb, rolcreaterole, rolbypassrls FROM pg_roles "
            "WHERE rolname = current_user"
        )
        role, *powers = cursor.fetchone()
        cursor.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner = %s",
            [role],
        )
        owned = cursor.fetchone()[0]
    if any(powers):
        checks.fail(f"the app role {role} is a superuser, or may create databases or roles")
    if owned:
        checks.fail(f"the app role {role} owns {owned} tables")
    denied = []
    for verb, statement in CHANGES.items():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute(statement)
                raise _Undo
        except _Undo:
            checks.fail(f"the app role {role} may {verb} games_gameevent")
        except DatabaseError as error:
            if getattr(error.__cause__, "sqlstate", None) == PERMISSION_DENIED:
                denied.append(verb)
            else:
                checks.fail(f"{verb} games_gameevent as {role} failed otherwise: {error}")
    checks.figures["app role"] = (
        f"{role}: superuser {'yes' if powers[0] else 'no'}, owns {owned} tables; "
        f"{'/'.join(denied) or 'nothing'} on games_gameevent: permission denied "
        f"({len(denied)} of {len(CHANGES)})"
    )
