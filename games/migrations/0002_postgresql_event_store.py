"""PostgreSQL only: triggers that refuse UPDATE, DELETE and TRUNCATE of game events, and the
append protocol as one function (docs/event-store.md).

SQLite gets neither: there games/appends.py runs the same protocol through the ORM, and its code is
the only guard against rewriting events, which is enough for `make run` on one machine.
"""

from __future__ import annotations

from django.db import migrations

INSTALL = """
CREATE FUNCTION games_gameevent_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'game events are append-only: % of games_gameevent refused', TG_OP;
END
$$;

-- An empty log holds no history, so emptying it is allowed: that is how a test database
-- is flushed between tests.
CREATE FUNCTION games_gameevent_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM games_gameevent) THEN
        RAISE EXCEPTION 'game events are append-only: TRUNCATE of games_gameevent refused';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER games_gameevent_no_update BEFORE UPDATE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_refuse_change();
CREATE TRIGGER games_gameevent_no_delete BEFORE DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_refuse_change();
CREATE TRIGGER games_gameevent_no_truncate BEFORE TRUNCATE ON games_gameevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_gameevent_refuse_truncate();

-- One append (games/appends.py): a function, so that PL/pgSQL keeps the plans of its statements
-- for the session and a command costs one short round trip. `events` is a JSON array of
-- [type, schema version, data, visibility]. Returns the last global position written, or NULL
-- when the game is not at the expected version (or does not exist): then nothing was written.
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
    -- 1. Move the version from the expected one. No row moved: a conflict, decided before
    --    anything is written.
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
    -- 2. Take the global positions as late as possible: from here to commit, other appends
    --    wait for the counter's row, so positions are gapless and follow commit order.
    INSERT INTO games_positioncounter AS counter (id, value) VALUES (1, event_count)
    ON CONFLICT (id) DO UPDATE SET value = counter.value + EXCLUDED.value
    RETURNING value INTO last_position;
    -- 3. Every event in one statement; the first carries the command id.
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

UNINSTALL = """
DROP FUNCTION games_append(bigint, integer, jsonb, text, text, timestamptz, text, integer, jsonb);
DROP TRIGGER games_gameevent_no_truncate ON games_gameevent;
DROP TRIGGER games_gameevent_no_delete ON games_gameevent;
DROP TRIGGER games_gameevent_no_update ON games_gameevent;
DROP FUNCTION games_gameevent_refuse_truncate();
DROP FUNCTION games_gameevent_refuse_change();
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # No parameters: the % in RAISE messages are PL/pgSQL's, not placeholders.
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(on_postgresql(INSTALL), on_postgresql(UNINSTALL))]
