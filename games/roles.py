"""The application's database role: what the running service may do to the tables, granted by
the role that owns them (docs/operations.md, "Database roles").

Migrations run as the owner. The web, the workers and beat connect as another role, named by
DATABASE_APP_ROLE, that is neither a superuser nor an owner: it may read and append game events
but never UPDATE, DELETE or TRUNCATE them, and it cannot drop the triggers that refuse those
either (only an owner can). After every `migrate` run by the owner, `grant_app_role` brings the
role's privileges up to date with the tables that exist now, so a new table is never forgotten.

PostgreSQL only: SQLite (`make run`) has no roles.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connections
from psycopg import sql

# Append-only: the log's rows are facts.
EVENTS_TABLE = "games_gameevent"
# Archived streams (migration 0018): written only by games_archive_stream, a function that runs
# as the owner; the service reads them.
ARCHIVE_TABLE = "games_archivedstream"
# The one way the service archives a finished game's events (it runs as the owner).
ARCHIVE_FUNCTION = "games_archive_stream(bigint, bigint)"
# Only migrations write here; the service reads it at most.
MIGRATIONS_TABLE = "django_migrations"


def grant_app_role(role: str, *, using: str = "default") -> None:
    """Give `role` what the service needs on every table of the current schema, and no more:
    SELECT and INSERT on the events, SELECT on the migrations record and the archived streams
    (games_archive_stream writes them, as the owner: EXECUTE on it), SELECT, INSERT, UPDATE
    and DELETE on every other table, and the sequences that hand out their ids."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    name = sql.Identifier(role)
    statements = [
        sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(name),
        sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {}").format(
            name
        ),
        sql.SQL("REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {} FROM {}").format(
            sql.Identifier(EVENTS_TABLE), name
        ),
        sql.SQL("REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON {} FROM {}").format(
            sql.Identifier(MIGRATIONS_TABLE), name
        ),
        sql.SQL(
            "REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {} FROM {}"
        ).format(sql.Identifier(ARCHIVE_TABLE), name),
        sql.SQL("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {}").format(name),
    ]
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regprocedure(%s) IS NOT NULL", [ARCHIVE_FUNCTION])
        if cursor.fetchone()[0]:
            statements.append(
                sql.SQL("GRANT EXECUTE ON FUNCTION {} TO {}").format(
                    sql.SQL(ARCHIVE_FUNCTION), name
                )
            )
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement.as_string(cursor.connection))


def after_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """post_migrate receiver: Django sends the signal once per app after the whole run, when
    every table exists; one app's turn is enough."""
    role = getattr(settings, "DATABASE_APP_ROLE", "")
    if role and sender.name == "games":
        grant_app_role(role, using=using)
