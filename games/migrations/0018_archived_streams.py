"""Archived streams (docs/event-store.md, "Archived streams"): a finished game's events moved,
all of them in one statement, into one row of games_archivedstream.

On PostgreSQL:

- games_archive_stream(game, upto) builds that row from the game's live events and deletes
  them, in one transaction, as the tables' owner (SECURITY DEFINER): the service's role, which
  may not DELETE events (games/roles.py), archives through it and no other way, and cannot
  hand it a row of its own making. It archives only a finished game (match-over) whose whole
  stream (versions 1 to the game's version) is live and whose last position is at or below
  `upto` (the lowest projection checkpoint, games/archive.py); otherwise it returns NULL and
  changes nothing;
- the DELETE trigger of games_gameevent lets a row go only inside that function (a
  transaction-local setting naming the game) and only when an archived row of its game covers
  its version and position; every other DELETE, every UPDATE and every TRUNCATE of a non-empty
  log is refused as before;
- archived rows are facts too: UPDATE and DELETE are refused, TRUNCATE only of an empty table.

The document (format 1): {"format": 1, "positions": […], "types": […], "schemas": […],
"visibility": […], "actors": […], "commands": […], "recorded": […], "data": […]}, one entry per
version from 1; positions and recorded (microseconds since the epoch) as differences from the
entry before (the first from 0). PostgreSQL compresses the text (pglz).
"""

from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models

INSTALL = """
ALTER TABLE games_archivedstream ALTER COLUMN events SET COMPRESSION pglz;

CREATE FUNCTION games_gameevent_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('games.archiving', true) = OLD.game_id::text AND EXISTS (
        SELECT 1 FROM games_archivedstream AS archived
        WHERE archived.game_id = OLD.game_id AND OLD.version <= archived.event_count
          AND OLD.global_position BETWEEN archived.first_position AND archived.last_position
    ) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'game events are append-only: DELETE of games_gameevent refused';
END
$$;
DROP TRIGGER games_gameevent_no_delete ON games_gameevent;
CREATE TRIGGER games_gameevent_no_delete BEFORE DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_refuse_delete();

CREATE FUNCTION games_archivedstream_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'archived streams are append-only: % of games_archivedstream refused', TG_OP;
END
$$;
CREATE FUNCTION games_archivedstream_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM games_archivedstream) THEN
        RAISE EXCEPTION 'archived streams are append-only: TRUNCATE of games_archivedstream refused';
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER games_archivedstream_no_update BEFORE UPDATE ON games_archivedstream
    FOR EACH ROW EXECUTE FUNCTION games_archivedstream_refuse_change();
CREATE TRIGGER games_archivedstream_no_delete BEFORE DELETE ON games_archivedstream
    FOR EACH ROW EXECUTE FUNCTION games_archivedstream_refuse_change();
CREATE TRIGGER games_archivedstream_no_truncate BEFORE TRUNCATE ON games_archivedstream
    FOR EACH STATEMENT EXECUTE FUNCTION games_archivedstream_refuse_truncate();

-- Returns the number of events archived, or NULL when the game may not be archived (then
-- nothing changed).
CREATE FUNCTION games_archive_stream(game bigint, upto bigint) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    stream_version integer;
    stream_status text;
    live_count bigint;
    live_last bigint;
    archived integer;
BEGIN
    -- The game's row first, as an append takes it: no append of this game runs meanwhile.
    SELECT version, status INTO stream_version, stream_status
    FROM games_game WHERE id = game FOR UPDATE;
    IF NOT FOUND OR stream_status <> 'match-over' OR stream_version < 1 THEN
        RETURN NULL;
    END IF;
    IF EXISTS (SELECT 1 FROM games_archivedstream WHERE game_id = game) THEN
        RETURN NULL;
    END IF;
    -- One aggregate of the game's rows by its index: a max() alone would be planned as a walk
    -- down the whole log's position index until a row of the game turns up (seconds at 5M).
    SELECT count(*), max(global_position) INTO live_count, live_last
    FROM games_gameevent WHERE game_id = game;
    IF live_count <> stream_version OR live_last > upto THEN
        RETURN NULL;
    END IF;
    INSERT INTO games_archivedstream (game_id, first_position, last_position, event_count,
                                      types, events, archived_at)
    SELECT game, min(global_position), max(global_position), count(*),
           ' ' || (SELECT string_agg(DISTINCT kinds.type, ' ' ORDER BY kinds.type)
                   FROM games_gameevent AS kinds WHERE kinds.game_id = game) || ' ',
           json_build_object(
               'format', 1,
               'positions', json_agg(position_step ORDER BY version),
               'types', json_agg(type ORDER BY version),
               'schemas', json_agg(schema_version ORDER BY version),
               'visibility', json_agg(visibility ORDER BY version),
               'actors', json_agg(actor ORDER BY version),
               'commands', json_agg(command_id ORDER BY version),
               'recorded', json_agg(recorded_step ORDER BY version),
               'data', json_agg(data ORDER BY version)
           )::text,
           now()
    FROM (
        SELECT version, type, schema_version, visibility, actor, command_id, data,
               global_position,
               global_position - coalesce(lag(global_position) OVER stream, 0) AS position_step,
               micros - coalesce(lag(micros) OVER stream, 0) AS recorded_step
        FROM (SELECT *, (extract(epoch FROM recorded_at) * 1000000)::bigint AS micros
              FROM games_gameevent WHERE game_id = game) AS timed
        WINDOW stream AS (ORDER BY version)
    ) AS stream_events;
    PERFORM set_config('games.archiving', game::text, true);
    DELETE FROM games_gameevent WHERE game_id = game;
    GET DIAGNOSTICS archived = ROW_COUNT;
    PERFORM set_config('games.archiving', '', true);
    IF archived <> stream_version THEN
        RAISE EXCEPTION 'game %: % events archived, % expected', game, archived, stream_version;
    END IF;
    RETURN archived;
END
$$;
-- Only the roles granted it (games/roles.py grants the service's role) may call it.
REVOKE EXECUTE ON FUNCTION games_archive_stream(bigint, bigint) FROM PUBLIC;
"""

UNINSTALL = """
DROP FUNCTION games_archive_stream(bigint, bigint);
DROP TRIGGER games_archivedstream_no_truncate ON games_archivedstream;
DROP TRIGGER games_archivedstream_no_delete ON games_archivedstream;
DROP TRIGGER games_archivedstream_no_update ON games_archivedstream;
DROP FUNCTION games_archivedstream_refuse_truncate();
DROP FUNCTION games_archivedstream_refuse_change();
DROP TRIGGER games_gameevent_no_delete ON games_gameevent;
CREATE TRIGGER games_gameevent_no_delete BEFORE DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_refuse_change();
DROP FUNCTION games_gameevent_refuse_delete();
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # No parameters: the % in RAISE messages are PL/pgSQL's, not placeholders.
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0017_activity_minutes")]

    operations = [
        migrations.CreateModel(
            name="ArchivedStream",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                ("first_position", models.BigIntegerField()),
                ("last_position", models.BigIntegerField(db_index=True)),
                ("event_count", models.PositiveIntegerField()),
                ("types", models.TextField()),
                ("events", models.TextField()),
                ("archived_at", models.DateTimeField()),
            ],
        ),
        migrations.RunPython(on_postgresql(INSTALL), on_postgresql(UNINSTALL)),
    ]
