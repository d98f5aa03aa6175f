"""Appends of different games commit side by side (docs/event-store.md, "Global positions").

Until now every append took its global positions from the one-row counter and held that row's
lock to commit, so the appends of all games queued for one WAL flush each. From here, on
PostgreSQL:

- positions come from a sequence, games_gameevent_position, which nobody holds to commit (it
  continues from the counter: the events written so far keep their positions);
- before an append takes its first position it announces a floor below it: a shared
  transaction-level advisory lock keyed by the sequence's last value, held until its
  transaction ends. `games_head()` is the highest position no append still running can fill:
  the sequence's last value, or below the lowest floor another session holds. A position an
  append gave up (its transaction rolled back) is a gap no one can ever fill, so readers pass it
  safely; a position still in flight is never passed;
- the events' foreign key to games_game goes: it checked every inserted row at commit (a
  deferred trigger per row), while the append's conditional UPDATE of the game's row already
  proves the game is there and locks it to commit. A trigger refuses deleting a game that has
  events instead (the model keeps on_delete=PROTECT for the ORM).

SQLite keeps the counter and the ORM path (games/appends.py): one writer at a time anyway.
"""

from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models

INSTALL = """
CREATE SEQUENCE games_gameevent_position AS bigint;
SELECT CASE WHEN top > 0 THEN setval('games_gameevent_position', top)
            ELSE setval('games_gameevent_position', 1, false) END
FROM (SELECT GREATEST((SELECT max(global_position) FROM games_gameevent),
                      (SELECT max(value) FROM games_positioncounter), 0) AS top) AS known;

DROP FUNCTION games_append(bigint, integer, jsonb, text, text, timestamptz, text, integer, jsonb);

-- One append (games/appends.py). `events` is a JSON array of [type, schema version, data,
-- visibility]. Returns the first and last global positions written, or no row when the game is
-- not at the expected version (or does not exist): then nothing was written.
CREATE FUNCTION games_append(
    game bigint,
    expected integer,
    events jsonb,
    by_actor text,
    command text,
    stamp timestamptz,
    new_status text,
    new_hand_number integer,
    new_to_act jsonb,
    OUT first_position bigint,
    OUT last_position bigint
) RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
    event_count integer := jsonb_array_length(events);
    floor bigint;
BEGIN
    -- 1. Move the version from the expected one. No row moved: a conflict, decided before
    --    anything is written or any position taken.
    UPDATE games_game
    SET version = expected + event_count,
        last_activity = stamp,
        status = COALESCE(new_status, status),
        hand_number = COALESCE(new_hand_number, hand_number),
        to_act = COALESCE(new_to_act, to_act)
    WHERE id = game AND version = expected;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- 2. Announce a floor below every position this transaction will take, before taking one:
    --    games_head() never passes a floor another session holds. Once per transaction (later
    --    positions only grow): the setting is local, so it goes with the lock, at the end of
    --    the transaction or the rollback of the savepoint that took it.
    IF current_setting('games.positions_floor', true) IS DISTINCT FROM 'held' THEN
        SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO floor
        FROM games_gameevent_position;
        PERFORM pg_advisory_xact_lock_shared(floor);
        PERFORM set_config('games.positions_floor', 'held', true);
    END IF;
    -- 3. Every event in one statement, positions rising with the versions; the first carries
    --    the command id. Concurrent appends' positions may interleave.
    WITH written AS (
        INSERT INTO games_gameevent (global_position, game_id, version, type, schema_version,
                                     data, visibility, actor, command_id, recorded_at)
        SELECT nextval('games_gameevent_position'), game, expected + item.number,
               item.event->>0, (item.event->>1)::smallint, item.event->2, item.event->>3,
               by_actor, CASE WHEN item.number = 1 THEN command END, stamp
        FROM jsonb_array_elements(events) WITH ORDINALITY AS item (event, number)
        RETURNING global_position
    )
    SELECT min(global_position), max(global_position) INTO first_position, last_position
    FROM written;
    RETURN NEXT;
END
$$;

-- The last position a reader may read up to: every event at or below it is committed, or
-- rolled back for good. Two statements in this order: the sequence first, then the floors of
-- the appends in flight (an append takes its floor before its positions, so a position the
-- first read saw is either finished or under a floor the second read sees). This session's
-- own floor is not counted: its uncommitted events are visible to it.
CREATE FUNCTION games_head() RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
    issued bigint;
    lowest_floor bigint;
BEGIN
    SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO issued
    FROM games_gameevent_position;
    SELECT min((locks.classid::bigint << 32) | locks.objid::bigint) INTO lowest_floor
    FROM pg_locks AS locks
    WHERE locks.locktype = 'advisory' AND locks.objsubid = 1
      AND locks.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND locks.pid <> pg_backend_pid();
    RETURN LEAST(issued, lowest_floor);
END
$$;

CREATE FUNCTION games_game_keep_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM games_gameevent WHERE game_id = OLD.id) THEN
        RAISE EXCEPTION 'game % has events: it cannot be deleted', OLD.id;
    END IF;
    RETURN OLD;
END
$$;
CREATE TRIGGER games_game_keep_events BEFORE DELETE ON games_game
    FOR EACH ROW EXECUTE FUNCTION games_game_keep_events();
"""

UNINSTALL = """
DROP TRIGGER games_game_keep_events ON games_game;
DROP FUNCTION games_game_keep_events();
DROP FUNCTION games_head();
DROP FUNCTION games_append(bigint, integer, jsonb, text, text, timestamptz, text, integer, jsonb);
INSERT INTO games_positioncounter AS counter (id, value)
SELECT 1, coalesce(max(global_position), 0) FROM games_gameevent
ON CONFLICT (id) DO UPDATE SET value = GREATEST(counter.value, EXCLUDED.value);
DROP SEQUENCE games_gameevent_position;
CREATE FUNCTION games_append(
    game bigint,
    expected integer,
    events jsonb,
    by_actor text,
    command text,
    stamp timestamptz,
    new_status text,
    new_hand_number integer,
    new_to_act jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    event_count integer := jsonb_array_length(events);
    last_position bigint;
BEGIN
    UPDATE games_game
    SET version = expected + event_count,
        last_activity = stamp,
        status = COALESCE(new_status, status),
        hand_number = COALESCE(new_hand_number, hand_number),
        to_act = COALESCE(new_to_act, to_act)
    WHERE id = game AND version = expected;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO games_positioncounter AS counter (id, value) VALUES (1, event_count)
    ON CONFLICT (id) DO UPDATE SET value = counter.value + EXCLUDED.value
    RETURNING value INTO last_position;
    INSERT INTO games_gameevent (global_position, game_id, version, type, schema_version, data,
                                 visibility, actor, command_id, recorded_at)
    SELECT last_position - event_count + item.number, game, expected + item.number,
           item.event->>0, (item.event->>1)::smallint, item.event->2, item.event->>3,
           by_actor, CASE WHEN item.number = 1 THEN command END, stamp
    FROM jsonb_array_elements(events) WITH ORDINALITY AS item (event, number);
    RETURN last_position;
END
$$;
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # No parameters: the % in RAISE messages are PL/pgSQL's, not placeholders.
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0009_snapshots")]

    operations = [
        migrations.AlterField(
            model_name="gameevent",
            name="game",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="games.game",
            ),
        ),
        migrations.RunPython(on_postgresql(INSTALL), on_postgresql(UNINSTALL)),
    ]
