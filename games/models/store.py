"""The event store's tables: Game (the stream row), Seat, GameEvent (append-only), the
position counter (SQLite), snapshots, the games' leases and the projections' checkpoints.

Only games/appends.py writes GameEvent rows and moves Game.version, and only games/archive.py
(`archive_stream`) moves a finished game's rows into its archived row (docs/event-store.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Game(models.Model):
    """One match: the stream row every event of the game hangs from.

    `version` is the number of events in the stream; appends move it from the version the
    writer expected, which is the whole concurrency guard. `status`, `hand_number`, `to_act` and
    `last_activity` are copies of the replayed state, written in the same transaction as the
    events that changed them, for queries ("whose turn is it?") that should not replay a log.
    """

    class Status(models.TextChoices):
        PLAYING = "playing"
        # A hand is over and the next one has not started: never seen between transactions,
        # because the service appends the system next-hand with the command that ended a hand.
        HAND_OVER = "hand-over"
        MATCH_OVER = "match-over"

    class Reveal(models.TextChoices):
        # The whole log (every hand, every deck order) becomes public when the match is over.
        AFTER_MATCH = "after-match"
        NEVER = "never"

    variant = models.JSONField(help_text="The normalised variant spec (Variant.spec).")
    seat_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    version = models.PositiveIntegerField(default=0)
    hand_number = models.PositiveSmallIntegerField(default=0)
    to_act = models.JSONField(default=list, help_text="The seats the game waits for.")
    # What the game belongs to and the settings it was created with, e.g. {"kind": "ladder",
    # "competition": 3, "turn_seconds": 86400, "bot_timeout": 1.0, ...} (league/services.py), or
    # {"kind": "validation", "bot": 7, "round": 2}. A JSON reference, not a foreign key, so the
    # games app does not depend on the league app.
    context = models.JSONField(default=dict, blank=True)
    reveal = models.CharField(max_length=16, choices=Reveal.choices, default=Reveal.AFTER_MATCH)
    created_at = models.DateTimeField(auto_now_add=True)
    # Every change to a game after its creation is an append, so this is also its updated time.
    last_activity = models.DateTimeField(null=True, blank=True)

    # A grace for people's out-of-turn chances (bots/turns.py): the bots wait until
    # `grace_until` at `grace_version` while a person at the table has a chance. Written by the
    # advance that starts the grace, cleared by whoever ends it; stale once the version moved.
    grace_until = models.DateTimeField(null=True, blank=True)
    grace_version = models.PositiveIntegerField(null=True, blank=True)

    # No index on the columns every append sets (status, to_act, last_activity): updates that
    # touch no indexed column stay HOT, which keeps the append's row update cheap. The one
    # exception, `game_playing` below, is partial on status: an append that leaves the status as
    # it was (every append but the match's end or abort) changes no indexed value, so it stays
    # HOT; only the update that ends the game leaves the index.

    class Meta:
        indexes = [
            # The graces to end (games/tasks.py end_graces): a handful of rows at any time.
            models.Index(
                fields=["grace_until"],
                condition=models.Q(grace_until__isnull=False),
                name="game_grace_until",
            ),
            # A ladder set's games (games/reveal.py set_over, the replay's and a board's
            # question whether a rotation's cards may be shown): the games of one set, not a
            # scan of every game. Written once with the game (context never changes after).
            models.Index(models.F("context__ladder_set"), name="game_ladder_set"),
            # A person's practice matches (games/lobby.py practice_matches: the lobby's list and
            # the cap on running ones): partial, so it holds the practice matches alone, and a
            # query names the same condition (`context__has_key`) to use it. Written once with
            # the game, like the ladder set's.
            models.Index(
                models.F("context__watched_by"),
                condition=models.Q(context__has_key="watched_by"),
                name="game_watched_by",
            ),
            # The playing games (the staff dashboard's live games, the overdue-turn sweep, the
            # reconciler's stalled games, the newno windows to close): the few playing rows,
            # not a scan of every game ever played. Keyed by id, which never changes.
            models.Index(
                fields=["id"],
                condition=models.Q(status="playing"),
                name="game_playing",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} ({self.variant.get('rules')}, {self.status}, v{self.version})"


class Seat(models.Model):
    """A place at the table: who sits there (a person, a built-in bot or a registered Bot) and
    who moves it now (`controller`).

    Every fact about a seat during the game (a resignation, a forfeit, a timed-out turn, a
    vacation) is an event in the game's stream (games/seat_facts.py). The columns below that
    change during a game are caches of the log and the clock, written in the same transaction
    as the event that changes them; nothing rebuilt from the log reads them.
    """

    class Controller(models.TextChoices):
        # Who moves the seat. A worker moves BUILTIN, WEBHOOK and FALLBACK seats
        # (games/seats.py `worker_moves`); a person and a pull bot move their own.
        PERSON = "person"
        BUILTIN = "builtin"
        WEBHOOK = "webhook"
        PULL = "pull"
        # The default bot (BOTS_FALLBACK_STRATEGY), after a seat-forfeited or seat-handed-over.
        FALLBACK = "fallback"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    # A built-in strategy name (bots.strategies.STRATEGIES). A registered bot of the built-in kind
    # sets it to its strategy too, so the worker plays it in-process like any built-in seat.
    bot = models.CharField(max_length=64, blank=True)
    # A registered Bot (built-in, webhook or pull): the seat's stats, strikes and validation.
    registered_bot = models.ForeignKey(
        "Bot", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    controller = models.CharField(max_length=16, choices=Controller.choices)
    # newno: the ages that decide who deals first.
    age = models.PositiveSmallIntegerField(null=True, blank=True)
    # A person's turn clock (clocks/deadlines.py): set when the seat's turn starts, cleared when it
    # ends; the overdue-turn sweep (clocks/overdue.py) plays the default bot's move past it.
    deadline_at = models.DateTimeField(null=True, blank=True)
    # The end of the seat's vacation (the last vacation-taken event's `until`): a turn that
    # starts before it starts its clock then.
    vacation_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.CheckConstraint(
                condition=(
                    models.Q(user__isnull=False, bot="", registered_bot__isnull=True)
                    | (
                        models.Q(user__isnull=True)
                        & (~models.Q(bot="") | models.Q(registered_bot__isnull=False))
                    )
                ),
                name="seat_is_a_person_or_a_bot",
            ),
        ]
        indexes = [
            # A registered bot's games, newest first, a page at a time (league/ladder_reads.py
            # recent_games): the bot's seats read down from the last shown, never all sorted.
            models.Index(
                fields=["registered_bot", "-game"],
                condition=models.Q(registered_bot__isnull=False),
                name="seat_bot_games",
            ),
        ]

    def __str__(self) -> str:
        if self.registered_bot_id:
            who = f"registered bot {self.registered_bot_id}"
        else:
            who = self.bot and f"bot {self.bot}" or f"user {self.user_id}"
        return f"seat {self.number} of game {self.game_id} ({who})"


class GameEvent(models.Model):
    """One fact of one game, never changed or removed (PostgreSQL triggers refuse it).

    `global_position` orders every event of every game; positions rise with each game's
    versions, and a gap is a position whose append rolled back. Projections read "everything
    after N" up to `event_reads.head()`, which never passes a position that may still commit
    (docs/event-store.md, "Global positions"). `data` is the engine event without its `type`.
    The first event of each append carries the append's `command_id`; the others have none, so
    the bounds of every append stay in the log.
    """

    class Visibility(models.TextChoices):
        # Every viewer sees the event whole.
        PUBLIC = "public"
        # The event holds something some viewer may not see (a deck order, a drawn card): it
        # reaches people only through the engine's view_event.
        PRIVATE = "private"

    global_position = models.BigIntegerField(primary_key=True)
    # The (game, version) unique index serves lookups by game, so no separate index. No
    # database foreign key: its check cost a deferred trigger per inserted row, while the
    # append's conditional UPDATE of the game's row proves it exists and locks it to commit; on
    # PostgreSQL a trigger refuses deleting a game that has events (migration 0010).
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="+", db_index=False, db_constraint=False
    )
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    schema_version = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField()
    visibility = models.CharField(max_length=8, choices=Visibility.choices)
    # "user:12", "bot:greedy" or "system".
    actor = models.CharField(max_length=100)
    # NULL, not "", on the events after an append's first: UNIQUE(game, command_id) ignores NULLs.
    # Each actor has its own namespace ("user:12/<client id>", "system/advance:7"): a client's
    # id can never take the one the system will use (games/commands.py `command_key`).
    command_id = models.CharField(max_length=150, null=True, blank=True)  # noqa: DJ001
    recorded_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="event_version_unique"),
            models.UniqueConstraint(fields=["game", "command_id"], name="event_command_unique"),
        ]
        indexes = [
            # Partial indexes of the few landmark events (about 1.5% of a log; engine/events.py
            # names them): what rebuilds read (games/rebuilds.py) and what a match's outcome
            # reads of its stream (games.match_outcomes.match_outcome), found without reading the
            # cards between them. Appends of other types never touch them.
            models.Index(
                fields=["global_position"],
                condition=models.Q(type="match-ended"),
                name="event_match_ended",
            ),
            models.Index(
                fields=["game", "version"],
                condition=models.Q(
                    type__in=[
                        "match-started",
                        "hand-started",
                        "hand-ended",
                        "match-ended",
                        "game-aborted",
                        "seat-forfeited",
                    ]
                ),
                name="event_landmarks",
            ),  # fmt: skip
        ]

    def __str__(self) -> str:
        return f"#{self.global_position} game {self.game_id} v{self.version} {self.type}"


class PositionCounter(models.Model):
    """SQLite only: the one row holding the last global position handed out.

    There appends take their positions with `INSERT … ON CONFLICT DO UPDATE SET value = value +
    n RETURNING value` (SQLite lets one writer in at a time anyway). On PostgreSQL the sequence
    games_gameevent_position took over from this row in migration 0010, and the row stays at
    the value it had then.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    value = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(id=1), name="one_position_counter")
        ]

    def __str__(self) -> str:
        return f"last global position {self.value}"


class Snapshot(models.Model):
    """A game's replayed state at one version: a cache, never a fact (games/snapshots.py).

    Keyed by the engine's fingerprint, so a state folded by other engine code is never read
    back; any row may be deleted at any time, and the next command replays from the log.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    # games/snapshots.py FINGERPRINT: the engine's code and the snapshot format it was made by.
    fingerprint = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    # JSON text: the stream's match-started event and the State's fields.
    state = models.TextField()
    written_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "fingerprint", "version"], name="snapshot_version_unique"
            )
        ]

    def __str__(self) -> str:
        return f"snapshot of game {self.game_id} at v{self.version}"


class GameLease(models.Model):
    """Which run of advance_game may ask the game's webhook bots now: at most one at a time
    (bots/remote/leases.py). A lease expires (`until`), so a killed worker's lease frees itself;
    `again` is a note left by a run refused meanwhile, for the holder to advance once more;
    `struck` the seats struck at a version with no move appended (`{"version", "seats"}`)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    holder = models.CharField(max_length=32, blank=True)
    # None: nobody holds it. Set from the database's clock (bots/remote/leases.py).
    until = models.DateTimeField(null=True, blank=True)
    again = models.BooleanField(default=False)
    struck = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"lease of game {self.game_id} until {self.until}"


class ProjectionCheckpoint(models.Model):
    """The last global position a projection has applied; moved with its read models. While a
    rebuild (games/rebuilds.py) folds its read models again, `rebuilding` names that run and the
    catch-up leaves the projection alone; the run's end sets the position to the head it
    captured and clears it."""

    name = models.CharField(max_length=64, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)
    rebuilding = models.ForeignKey(
        "RebuildRun", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.name} at {self.position}"


class RebuildRun(models.Model):
    """One rebuild of some projections (games/rebuilds.py): the log's head when it started (it
    folds the events up to it; the catch-up applies the later ones), its state and its
    partitions, each with its own checkpoint, so a stopped or crashed run resumes."""

    class State(models.TextChoices):
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    names = models.JSONField(default=list)
    head = models.BigIntegerField()
    partitions = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.RUNNING)
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"rebuild {self.pk} of {', '.join(self.names)} ({self.state})"


class RebuildPartition(models.Model):
    """One task's share of a rebuild: for a projection folded by stream, the games with ids in
    (low, high], `checkpoint` the last game whose events are folded; for the others, the whole
    log, `checkpoint` the last global position folded. A batch moves the checkpoint in the
    transaction that writes its read models. `events`/`total` count the log's events covered
    (the progress the console shows)."""

    run = models.ForeignKey(RebuildRun, on_delete=models.CASCADE, related_name="parts")
    projection = models.CharField(max_length=64)
    number = models.PositiveSmallIntegerField()
    by_stream = models.BooleanField()
    low = models.BigIntegerField()
    high = models.BigIntegerField()
    checkpoint = models.BigIntegerField()
    events = models.BigIntegerField(default=0)
    total = models.BigIntegerField(default=0)
    done = models.BooleanField(default=False)
    error = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["run", "projection", "number"], name="rebuild_partition_unique"
            )
        ]

    def __str__(self) -> str:
        return f"rebuild {self.run_id} {self.projection} #{self.number} at {self.checkpoint}"


# Read models, written only by the projections (games/game_projections.py, run by
# games/projections.py) and rebuilt from the log at will.


class ArchivedStream(models.Model):
    """A finished game's events, moved out of games_gameevent into one row (games/archive.py,
    docs/event-store.md "Archived streams"): the same facts, read through the same store
    functions, with the same global positions and versions.

    `events` is one JSON document (format 1, games/archived_streams.py `_decode_archive`) of
    the stream's versions 1 to `event_count`, column by column; PostgreSQL compresses it (pglz,
    in the TOAST table). On PostgreSQL only the function games_archive_stream (migration 0018)
    writes a row, built from the very rows it deletes in the same statement; triggers refuse
    UPDATE and DELETE of a row, as of events.
    """

    game = models.OneToOneField(Game, on_delete=models.PROTECT, primary_key=True, related_name="+")
    first_position = models.BigIntegerField()
    last_position = models.BigIntegerField(db_index=True)
    # Versions 1 to event_count; a later append (rare: a ruling after the match) stays live.
    event_count = models.PositiveIntegerField()
    # The stream's event types, each between spaces (" card-played match-ended "): which
    # archived games hold a type, without reading their events.
    types = models.TextField()
    events = models.TextField()
    archived_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"archived stream of game {self.game_id} ({self.event_count} events)"
