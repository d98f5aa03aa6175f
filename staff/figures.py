"""The staff dashboard's figures: one selector per figure, each a plain function of the database
(and, for the queue and the workers, of Redis and Celery) that returns plain data. The views
only render them, so every figure is tested on its own (tests/staff/test_dashboard.py).

Times are read from `timezone.now()` unless a caller passes `now`, so tests move the clock with
time_machine and the figures follow.
"""

from __future__ import annotations

import logging
from dataclasses import astuple, dataclass, field
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from bots import turns
from bots.remote.pull_turns import pull_deadline
from clocks import overdue
from engine import PLAYING
from games import event_reads, game_projections, health
from games.game_settings import VALIDATION
from games.health import BROKER_UNAVAILABLE, EAGER, check_tasks, database_answers
from games.models import ActivityMinute, Bot, BotCall, Game, GameEvent, ProjectionCheckpoint, Seat
from league.models import Competition

log = logging.getLogger(__name__)

# What a playing game belongs to (GameSettings.kind); "" (made by hand, the demo) is friendly.
FRIENDLY = "friendly"
KINDS = (FRIENDLY, Competition.Kind.LEAGUE.value, Competition.Kind.LADDER.value, VALIDATION)


def duration_words(seconds: float) -> str:
    """A duration for a glance: "850 ms", "12 s", "3 min 20 s", "2 h 5 min", "3 d 4 h"."""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.1f} s"
    whole = int(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s"
    return f"{secs} s"


# Live games ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LiveGames:
    # (kind, playing games) for every kind in KINDS order, then any unknown kind found.
    by_kind: list[tuple[str, int]]

    @property
    def total(self) -> int:
        return sum(count for _, count in self.by_kind)


def live_games() -> LiveGames:
    """Playing games by what they belong to (friendly, league, ladder, validation)."""
    rows = (
        Game.objects.filter(status=PLAYING)
        .values("context__kind")
        .annotate(games=Count("pk"))
        .order_by()
    )
    counts: dict[str, int] = dict.fromkeys(KINDS, 0)
    for row in rows:
        kind = row["context__kind"] or FRIENDLY
        counts[kind] = counts.get(kind, 0) + row["games"]
    return LiveGames(by_kind=list(counts.items()))


# Overdue turns -------------------------------------------------------------------------------

PERSON = "person"
PULL_BOT = "pull bot"


@dataclass(frozen=True, slots=True)
class OverdueTurn:
    game_id: int
    seat: int
    # PERSON (past Seat.deadline_at) or PULL_BOT (past its game's pull limit).
    kind: str
    who: str
    deadline: datetime
    late: timedelta

    @property
    def late_words(self) -> str:
        return duration_words(self.late.total_seconds())


def overdue_turns(now: datetime | None = None) -> list[OverdueTurn]:
    """Every turn past its deadline that the sweep (clocks/overdue.py, every 5 s) has not played
    yet, the latest first. The sweep's own queries pick them, so the dashboard and the sweep
    never disagree on what is overdue; a long list here means `expire_turns` is not running."""
    now = now or timezone.now()
    people = overdue.overdue_people(now)
    bots = overdue.overdue_pull_bots(now)
    seats = {
        (seat.game_id, seat.number): seat
        for seat in Seat.objects.filter(
            game_id__in={o.game_id for o in [*people, *bots]}
        ).select_related("user", "registered_bot", "game")
    }
    found = []
    for item in people:
        seat = seats[item.game_id, item.seat]
        deadline = item.deadline or now
        found.append(
            OverdueTurn(item.game_id, item.seat, PERSON, seat_name(seat), deadline, now - deadline)
        )
    for item in bots:
        seat = seats[item.game_id, item.seat]
        deadline = pull_deadline(seat.game)
        found.append(
            OverdueTurn(
                item.game_id, item.seat, PULL_BOT, seat_name(seat), deadline, now - deadline
            )
        )
    return sorted(found, key=lambda turn: turn.late, reverse=True)


def seat_name(seat: Seat) -> str:
    """Who sits in a seat, as staff know them: a username, a bot's name or a strategy."""
    if seat.registered_bot is not None:
        return f"{seat.registered_bot.name} (bot #{seat.registered_bot.pk})"
    if seat.user is not None:
        return seat.user.get_username()
    return f"{seat.bot} (built-in)"


# Stuck games ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StuckGame:
    game_id: int
    to_act: list[int]
    last_activity: datetime
    idle: timedelta

    @property
    def idle_words(self) -> str:
        return duration_words(self.idle.total_seconds())


def stuck_games(*, idle: timedelta | None = None, now: datetime | None = None) -> list[StuckGame]:
    """Games a worker should move (a seat of seats.WORKER_SEATS in `to_act`) that have not moved
    for `idle` (GAMES_RECONCILE_IDLE): the reconciler's own query (turns.stalled_games). One
    that stays here across refreshes is one the reconciler's advance cannot move either."""
    idle = idle or timedelta(seconds=settings.GAMES_RECONCILE_IDLE)
    now = now or timezone.now()
    ids = turns.stalled_games(idle=idle)
    rows = Game.objects.filter(pk__in=ids).values_list("pk", "to_act", "last_activity")
    found = [
        StuckGame(pk, list(to_act or []), last, now - last) for pk, to_act, last in rows if last
    ]
    return sorted(found, key=lambda game: game.idle, reverse=True)


# Activity: events per minute and matches per hour ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Activity:
    """The log's last hours: events per minute from `start`, and match-ended events per hour
    from `hour_zero`, oldest first."""

    start: datetime
    hour_zero: datetime
    per_minute: list[int]
    matches_per_hour: list[int]

    @property
    def events(self) -> int:
        return sum(self.per_minute)

    @property
    def matches(self) -> int:
        return sum(self.matches_per_hour)

    @property
    def since_words(self) -> str:
        """The window's start as the chart's heading says it, with its day when it is not the
        current minute's: "15:15 UTC", "yesterday 15:15 UTC", "29 Nov 15:15 UTC"."""
        today = (self.start + timedelta(minutes=len(self.per_minute) - 1)).date()
        clock = f"{self.start:%H:%M} UTC"
        day = self.start.date()
        if day == today:
            return clock
        if day == today - timedelta(days=1):
            return f"yesterday {clock}"
        return f"{self.start:%-d %b} {clock}"

    @property
    def hour_starts(self) -> list[datetime]:
        return [self.hour_zero + timedelta(hours=h) for h in range(len(self.matches_per_hour))]


def activity(*, now: datetime | None = None, hours: int = 24) -> Activity:
    """Events per minute and finished matches (match-ended events) per hour over the last
    `hours`: the "activity" projection's minutes up to its checkpoint, and the log's own
    events past it, so the figures never lag and a refresh reads a day's minutes and the
    seconds since the projection last ran, not a day of the log. Buckets are whole UTC
    minutes and hours: the last one is the current, unfinished one."""
    now = (now or timezone.now()).astimezone(UTC)
    end = now.replace(second=0, microsecond=0) + timedelta(minutes=1)
    start = end - timedelta(hours=hours)
    # Hours on the clock's hours, the current one last: the minutes before the first whole
    # hour of the window are in the chart, not in any hour.
    hour_zero = now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=hours - 1)
    minutes = hours * 60
    per_minute = [0] * minutes
    per_hour = [0] * hours
    checkpoint = (
        ProjectionCheckpoint.objects.filter(name=game_projections.Activity.name)
        .values_list("position", flat=True)
        .first()
    )
    # Without the projection (never run), the log since the window's start, as it stood.
    after = checkpoint if checkpoint else first_position_since(start) - 1
    rolled = ActivityMinute.objects.filter(minute__gte=start).values_list(
        "minute", "events", "matches"
    )
    tail = game_projections.minutes(after, since=start).values_list("bucket", "events", "matches")
    for minute, events, matches in [*(rolled if checkpoint else []), *tail]:
        index = int((minute - start).total_seconds() // 60)
        if 0 <= index < minutes:
            per_minute[index] += events
        hour = int((minute - hour_zero).total_seconds() // 3600)
        if matches and 0 <= hour < hours:
            per_hour[hour] += matches
    return Activity(
        start=start, hour_zero=hour_zero, per_minute=per_minute, matches_per_hour=per_hour
    )


def first_position_since(when: datetime) -> int:
    """About the first global position recorded at or after `when`, by bisecting the log on its
    primary key (a few dozen index lookups): `recorded_at` has no index, and a dashboard that
    scanned the whole append-only log every refresh would slow as the log grows. Positions are
    taken as each append writes and `recorded_at` is the start of each append, so a few events
    around the cut may be out of order by milliseconds; the caller filters on `recorded_at` as
    well."""
    events = GameEvent.objects.order_by("global_position")
    low = events.values_list("global_position", flat=True).first()
    high = event_reads.head()
    if low is None:
        return 0
    while low < high:
        middle = (low + high) // 2
        row = (
            events.filter(global_position__gte=middle)
            .values_list("global_position", "recorded_at")
            .first()
        )
        if row is None or row[1] >= when:
            high = middle
        else:
            low = row[0] + 1
    return low


# Registered bots -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotRates:
    bot_id: int
    name: str
    owner: str
    kind: str
    status: str
    # Every call (Bot's counters, since the bot was registered).
    calls: int
    timeouts: int
    errors: int
    illegal: int
    # The last BotCall rows (CALLS_KEPT at most): what the bot does lately.
    recent_calls: int
    recent_timeouts: int
    recent_errors: int

    @property
    def timeout_rate(self) -> float:
        return self.timeouts / self.calls if self.calls else 0.0

    @property
    def error_rate(self) -> float:
        """Errors and illegal answers: both a failed call the fallback had to cover."""
        return (self.errors + self.illegal) / self.calls if self.calls else 0.0

    @property
    def recent_timeout_rate(self) -> float:
        return self.recent_timeouts / self.recent_calls if self.recent_calls else 0.0

    @property
    def recent_error_rate(self) -> float:
        return self.recent_errors / self.recent_calls if self.recent_calls else 0.0

    @property
    def percents(self) -> dict[str, str]:
        """Each rate as a percentage for the page, by name."""
        return {
            "timeout": percent(self.timeout_rate),
            "error": percent(self.error_rate),
            "recent_timeout": percent(self.recent_timeout_rate),
            "recent_error": percent(self.recent_error_rate),
        }


def percent(rate: float) -> str:
    return f"{rate * 100:.1f} %"


def bot_rates(*, limit: int = 20) -> list[BotRates]:
    """Error and timeout rates of every remote bot that has been called, the worst recent
    failure rate first: the counters since registration and the last calls kept (BotCall)."""
    failed = [BotCall.Outcome.ERROR, BotCall.Outcome.ILLEGAL]
    bots = (
        Bot.objects.filter(calls__gt=0)
        .select_related("owner")
        .annotate(
            recent=Count("recent_calls"),
            recent_timeouts=Count(
                "recent_calls", filter=Q(recent_calls__outcome=BotCall.Outcome.TIMEOUT)
            ),
            recent_errors=Count("recent_calls", filter=Q(recent_calls__outcome__in=failed)),
        )
    )
    rates = [
        BotRates(
            bot_id=bot.pk,
            name=bot.name,
            owner=bot.owner.get_username(),
            kind=bot.kind,
            status=bot.status,
            calls=bot.calls,
            timeouts=bot.timeouts,
            errors=bot.errors,
            illegal=bot.illegal_answers,
            recent_calls=bot.recent,
            recent_timeouts=bot.recent_timeouts,
            recent_errors=bot.recent_errors,
        )
        for bot in bots
    ]
    rates.sort(
        key=lambda r: (r.recent_timeout_rate + r.recent_error_rate, r.timeout_rate + r.error_rate),
        reverse=True,
    )
    return rates[:limit]


@dataclass(frozen=True, slots=True)
class ValidationFailure:
    bot_id: int
    name: str
    owner: str
    kind: str
    round: int
    reason: str
    at: datetime


def validation_failures(*, limit: int = 20) -> list[ValidationFailure]:
    """Bots whose validation failed, the latest first, with the reason their owners see."""
    bots = (
        Bot.objects.filter(status=Bot.Status.FAILED)
        .select_related("owner")
        .order_by("-updated_at", "-pk")[:limit]
    )
    return [
        ValidationFailure(
            bot.pk,
            bot.name,
            bot.owner.get_username(),
            bot.kind,
            bot.validation_round,
            bot.status_reason,
            bot.updated_at,
        )
        for bot in bots
    ]


# Projections ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProjectionLag(health.ProjectionLag):
    """A projection's lag (games.health, /metrics's figures) with its wait in words."""

    @property
    def seconds_words(self) -> str:
        return duration_words(self.seconds) if self.lag else "—"


def projection_lag(now: datetime | None = None) -> list[ProjectionLag]:
    """Each projection's checkpoint against the head of the log, and in seconds the age of the
    first event it has not applied: games.health.projection_lags, as /metrics reads them."""
    return [ProjectionLag(*astuple(lag)) for lag in health.projection_lags(now)]


# The queue, the workers, the services -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QueueDepth:
    queue: str
    # Messages waiting in the broker's list; None when there is no broker or it did not answer.
    depth: int | None
    problem: str = ""


def queue_depth(url: str | None = None, queue: str | None = None) -> QueueDepth:
    """Tasks waiting in Celery's queue (games.health.queue_depth, as /metrics counts them).
    Nothing to count without REDIS_URL: tasks run in-process then."""
    url = settings.REDIS_URL if url is None else url
    queue = queue or settings.CELERY_TASK_DEFAULT_QUEUE
    if not url:
        return QueueDepth(queue, None, EAGER)
    try:
        depth = health.queue_depth(url, queue)
    except health.BROKER_ERRORS as error:
        log.warning("staff: Redis did not answer LLEN %s: %s", queue, error)
        return QueueDepth(queue, None, BROKER_UNAVAILABLE)
    return QueueDepth(queue, depth)


@dataclass(frozen=True, slots=True)
class Workers:
    broker: str
    # The workers that answered the ping, by name (Celery's hostnames, "celery@host").
    names: list[str] = field(default_factory=list)
    problem: str = ""


def workers() -> Workers:
    """The workers that answer Celery's inspect ping within HEALTH_TIMEOUT, by name: the check
    of GET /api/health (games/health.py check_tasks), so a broker that does not answer costs the
    page one timeout, not kombu's retries."""
    tasks = check_tasks()
    return Workers(broker=tasks.broker, names=tasks.names, problem=tasks.problem or "")


@dataclass(frozen=True, slots=True)
class Reachability:
    database: bool
    database_vendor: str
    # None when the site has no Redis (REDIS_URL unset).
    redis: bool | None


def reachability(url: str | None = None) -> Reachability:
    """Whether PostgreSQL (the health check's SELECT 1) and Redis (PING) answer now."""
    url = settings.REDIS_URL if url is None else url
    redis_ok: bool | None = None
    if url:
        try:
            with health.redis_client(url) as client:
                redis_ok = bool(client.ping())
        except health.BROKER_ERRORS:
            redis_ok = False
    return Reachability(database_answers(), connection.vendor, redis_ok)


# The whole dashboard --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dashboard:
    now: datetime
    live: LiveGames
    overdue: list[OverdueTurn]
    stuck: list[StuckGame]
    bots: list[BotRates]
    failures: list[ValidationFailure]
    projections: list[ProjectionLag]
    queue: QueueDepth
    workers: Workers
    services: Reachability


def dashboard(now: datetime | None = None) -> Dashboard:
    """Every figure the dashboard's live part shows (the activity chart is read apart: it
    refreshes less often)."""
    now = now or timezone.now()
    return Dashboard(
        now=now,
        live=live_games(),
        overdue=overdue_turns(now),
        stuck=stuck_games(now=now),
        bots=bot_rates(),
        failures=validation_failures(),
        projections=projection_lag(now),
        queue=queue_depth(),
        workers=workers(),
        services=reachability(),
    )
