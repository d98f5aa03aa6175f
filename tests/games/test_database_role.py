"""games.roles: the service's database role plays games but cannot rewrite the log, nor undo the
triggers that guard it; the migrations role keeps those powers (docs/operations.md)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import psycopg
import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from psycopg import errors, sql

from games import appends, event_reads, roles
from games.commands import game_command
from games.models import ArchivedStream, Game, GameEvent
from tests.games.conftest import needs_postgresql
from tests.games.factories import bot_move, make_game, make_stream, notes

pytestmark = [needs_postgresql, pytest.mark.django_db(transaction=True)]

REFUSED = [
    "UPDATE games_gameevent SET data = data",
    "DELETE FROM games_gameevent",
    "TRUNCATE games_gameevent",
    "ALTER TABLE games_gameevent DISABLE TRIGGER games_gameevent_no_update",
    "DROP TRIGGER games_gameevent_no_delete ON games_gameevent",
    "DROP FUNCTION games_gameevent_refuse_change() CASCADE",
    "INSERT INTO django_migrations (app, name, applied) VALUES ('games', 'x', now())",
    "CREATE TABLE intruder (id int)",
]


@pytest.fixture
def new_role() -> Iterator[str]:
    """A login role made for this test, with no privileges yet; the test's own role (the
    tables' owner) may become it, as a pooler's session would."""
    role = f"uno_app_test_{os.getpid()}"
    with connection.cursor() as cursor:
        cursor.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
        cursor.execute(
            sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE").format(
                sql.Identifier(role)
            )
        )
        cursor.execute(sql.SQL("GRANT {} TO CURRENT_USER").format(sql.Identifier(role)))
    yield role
    with connection.cursor() as cursor:
        cursor.execute("RESET ROLE")
        cursor.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
        cursor.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


@pytest.fixture
def app_role(new_role: str) -> str:
    """The role granted as `migrate` grants DATABASE_APP_ROLE."""
    roles.grant_app_role(new_role)
    return new_role


def logged(game_id: int) -> list[tuple[int, str, dict]]:
    return list(
        GameEvent.objects.filter(game_id=game_id)
        .order_by("version")
        .values_list("version", "type", "data")
    )


def connect_as(role: str) -> psycopg.Connection:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=role,
        autocommit=True,
    )


def test_the_app_role_plays_a_game_through_the_services(app_role):
    game = make_game()
    with connection.cursor() as cursor:
        cursor.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(app_role)))
        cursor.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone() == (app_role, False)

    rng = random.Random(3)
    for _ in range(5):
        actor, command, version = bot_move(game.pk, rng)
        result = game_command(
            game_id=game.pk, actor=actor, command=command, expected_version=version
        )
        assert result.version > version


def test_the_app_role_cannot_rewrite_the_log_or_its_guards(app_role):
    game = make_game()
    before = logged(game.pk)
    refused = {}
    # One test for every statement: each database a transactional test makes costs a flush.
    with connect_as(app_role) as conn:
        for statement in REFUSED:
            try:
                conn.execute(statement)
            except errors.InsufficientPrivilege:
                refused[statement] = True
            else:
                refused[statement] = False

    assert refused == dict.fromkeys(REFUSED, True)
    assert logged(game.pk) == before


def test_the_app_role_reads_and_appends_but_is_no_superuser(app_role):
    make_game()
    with connect_as(app_role) as conn:
        superuser = "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
        assert conn.execute(superuser).fetchone() == (False,)
        assert conn.execute("SELECT count(*) FROM games_gameevent").fetchone()[0] > 0
        privileges = {
            kind: conn.execute(
                "SELECT has_table_privilege(current_user, 'games_gameevent', %s)", [kind]
            ).fetchone()[0]
            for kind in ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE")
        }
    assert privileges == {
        "SELECT": True, "INSERT": True, "UPDATE": False, "DELETE": False, "TRUNCATE": False,
    }  # fmt: skip


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="CI's roles are .ci/run's to set")
def test_ci_runs_the_tests_as_the_owner_not_a_superuser():
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone() == (False,)


def test_migrate_grants_the_role_named_by_the_setting(new_role, settings):
    def may(kind: str) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT has_table_privilege(%s, 'games_game', %s)", [new_role, kind])
            return bool(cursor.fetchone()[0])

    assert not may("UPDATE")
    settings.DATABASE_APP_ROLE = new_role

    call_command("migrate", verbosity=0)

    assert may("UPDATE")


def finished_stream(count: int = 5) -> int:
    """A finished game of `count` placeholder events (the store keeps facts unread)."""
    game = make_stream()
    appends.append(game_id=game.pk, events=notes(count), expected_version=0)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.MATCH_OVER)
    return game.pk


def test_the_app_role_archives_through_the_function_alone_and_the_triggers_still_hold(app_role):
    archived, other = finished_stream(), finished_stream(3)
    before = logged(archived)
    with connect_as(app_role) as conn:
        refused = []
        for statement in (
            f"DELETE FROM games_gameevent WHERE game_id = {archived}",
            "INSERT INTO games_archivedstream (game_id, first_position, last_position, "
            f"event_count, types, events, archived_at) VALUES ({other}, 1, 1, 1, '', '', now())",
        ):
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(statement)
            refused.append(statement)
        moved = conn.execute("SELECT games_archive_stream(%s, %s)", [archived, 10**9])
        assert moved.fetchone() == (5,)
        for statement in (
            "UPDATE games_archivedstream SET types = ''",
            "DELETE FROM games_archivedstream",
        ):
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(statement)
    assert len(refused) == 2
    assert logged(archived) == []
    assert [(e["type"], e["n"]) for e in event_reads.load(archived)] == [
        (v, d["n"]) for _, v, d in before
    ]

    # The owner is stopped by the triggers: a DELETE outside the function, even naming the game
    # in the function's setting, when no archived row covers the events; any UPDATE; and the
    # archived row's UPDATE, DELETE and TRUNCATE.
    naming = f"SET LOCAL games.archiving = '{other}'"
    owner_refused = [
        (naming, f"DELETE FROM games_gameevent WHERE game_id = {other}"),
        ("", f"DELETE FROM games_gameevent WHERE game_id = {other}"),
        (naming, "UPDATE games_gameevent SET type = type"),
        ("", "UPDATE games_archivedstream SET types = types"),
        ("", "DELETE FROM games_archivedstream"),
        ("", "TRUNCATE games_archivedstream"),
    ]  # fmt: skip
    for setting, statement in owner_refused:
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cursor:
                if setting:
                    cursor.execute(setting)
                cursor.execute(statement)
    assert len(logged(other)) == 3
    assert ArchivedStream.objects.filter(pk=archived).exists()
    # A game still playing is never archived, nor one archived already; and only the roles
    # granted it may call the function (PUBLIC may not).
    with connection.cursor() as cursor:
        # (No ACL at all would mean PostgreSQL's default: EXECUTE for PUBLIC.)
        cursor.execute(
            "SELECT proacl IS NOT NULL AND NOT EXISTS (SELECT 1 FROM aclexplode(proacl) AS acl "
            "WHERE acl.grantee = 0) FROM pg_proc WHERE proname = 'games_archive_stream'"
        )
        assert cursor.fetchone() == (True,)
        Game.objects.filter(pk=other).update(status=Game.Status.PLAYING)
        cursor.execute("SELECT games_archive_stream(%s, %s)", [other, 10**9])
        assert cursor.fetchone() == (None,)
        cursor.execute("SELECT games_archive_stream(%s, %s)", [archived, 10**9])
        assert cursor.fetchone() == (None,)
