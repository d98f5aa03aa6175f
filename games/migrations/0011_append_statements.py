"""An append is one prepared statement instead of a call of games_append() (docs/event-store.md,
"The append protocol"; docs/performance.md, "Event store").

The protocol is the same: move the game's version from the expected one, announce a floor, take
positions, insert. games/appends.py now sends it as one SQL statement (a data-modifying WITH),
which psycopg prepares once per connection, so that the server neither parses nor plans it
again, and no PL/pgSQL call, set-returning function scan or JSON array stands between the call
and a one-event insert. What stays in the database is the floor:

- `games_position_floor()`, a SQL function of one expression, which the planner inlines into the
  statement: once per transaction, a shared transaction-level advisory lock keyed by the
  position sequence's last value (as migration 0010's function took it, read with
  `pg_sequence_last_value`, one function call instead of a query). The statement evaluates it
  for the game's row the UPDATE moved, and only a row whose floor is held reaches the INSERT
  and its `nextval`: the floor comes before the positions by data dependency.

games_head() and everything else of migration 0010 stay as they are. SQLite: nothing.
"""

from __future__ import annotations

from django.db import migrations

INSTALL = """
DROP FUNCTION games_append(bigint, integer, jsonb, text, text, timestamptz, text, integer, jsonb);

-- The floor of the positions an append is about to take (docs/event-store.md, "Global
-- positions"): a shared advisory lock keyed by the sequence's last value (0 if the sequence has
-- handed out nothing yet, a floor below every position), held to the end of the transaction or
-- the rollback of the savepoint that took it; once per transaction, as the setting, local like
-- the lock, says. Not NULL: the statement takes positions only for a row whose floor is not
-- NULL, so the lock is held before the first nextval. One expression, no FROM: the planner
-- inlines it, so it costs no function call of its own.
CREATE FUNCTION games_position_floor() RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT CASE
        WHEN current_setting('games.positions_floor', true) IS DISTINCT FROM 'held'
        THEN set_config('games.positions_floor', 'held', true)
             || pg_advisory_xact_lock_shared(
                    COALESCE(pg_sequence_last_value('games_gameevent_position'), 0))::text
        ELSE 'held'
    END
$$;
"""

UNINSTALL = """
DROP FUNCTION games_position_floor();

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
    IF current_setting('games.positions_floor', true) IS DISTINCT FROM 'held' THEN
        SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO floor
        FROM games_gameevent_position;
        PERFORM pg_advisory_xact_lock_shared(floor);
        PERFORM set_config('games.positions_floor', 'held', true);
    END IF;
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
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # No parameters: nothing here is a placeholder.
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0010_concurrent_positions")]

    operations = [migrations.RunPython(on_postgresql(INSTALL), on_postgresql(UNINSTALL))]
