"""The staff dashboard: nobody but staff sees any staff page (a 404), and every figure is right
for a hand-made set of games, bots and projections, against real PostgreSQL and Redis."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import redis
import time_machine
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from bots import turns
from config import celery_app
from engine import MATCH_OVER, Variant
from games import appends, event_reads, projections
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import (
    ActivityMinute,
    Bot,
    BotCall,
    Game,
    GameEvent,
    ProjectionCheckpoint,
    Seat,
)
from league.models import Competition
from staff import charts, figures, views
from tests.games.factories import make_user, notes, play_turn
from tests.games.workers import Worker, sending_to, wait_for
from tests.league.factories import make_competition

pytestmark = pytest.mark.django_db

SHORT = {"rules": "official", "options": {"target": 50}}
T = datetime(2031, 5, 6, 12, 30, 15, tzinfo=UTC)


def staff_client() -> Client:
    user = get_user_model().objects.create_user("root", is_staff=True)
    client = Client()
    client.force_login(user)
    return client


def bots_game(*, kind: str = "", competition: int | None = None, seed: int = 1) -> Game:
    seats = [SeatSpec(bot="greedy"), SeatSpec(bot="random")]
    settings = GameSettings(kind=kind, competition=competition)
    return game_create(variant_spec=SHORT, seats=seats, seed=seed, settings=settings)


def first_to_act_seed(seats: int, seat: int) -> int:
    """A seed whose deal leaves `seat` to act first (found with the engine alone)."""
    variant = Variant.from_spec(SHORT)
    for seed in range(200):
        if variant.replay(variant.start(seats, seed=seed)).to_act[:1] == (seat,):
            return seed
    raise AssertionError(f"no seed lets seat {seat} act first")


# Who may see the console -----------------------------------------------------------------------


def staff_paths() -> list[str]:
    game = bots_game()
    return [
        "/staff/",
        "/staff/live/",
        "/staff/activity/",
        "/staff/games/",
        "/staff/games/?q=greedy",
        f"/staff/games/{game.pk}/",
        f"/staff/games/{game.pk}/?at=1",
    ]


def test_anyone_but_staff_gets_a_404_on_every_staff_page():
    paths = staff_paths()
    anonymous = Client()
    person = Client()
    person.force_login(make_user("ana"))
    inactive_staff = Client()
    inactive_staff.force_login(
        get_user_model().objects.create_user("gone", is_staff=True, is_active=False)
    )
    for client in (anonymous, person, inactive_staff):
        for path in paths:
            assert client.get(path).status_code == 404, path
            # Not a 405 either: the address itself is nobody else's business.
            assert client.post(path).status_code == 404, path


def test_staff_see_every_page():
    paths = staff_paths()
    client = staff_client()
    for path in paths:
        assert client.get(path).status_code == 200, path


# The figures for a hand-made set of games ------------------------------------------------------


@pytest.fixture
def world():
    """Games of every kind at T (a finished match three hours before), one person overdue by 2 h,
    a pull bot overdue by 9 min 30 s, one bot game stuck for 2 h; time frozen at T."""
    league = Competition.objects.create(
        name="Spring", slug="spring-cup", kind="league", variant=SHORT
    )
    ladder = Competition.objects.create(name="Arena", slug="arena", kind="ladder", variant=SHORT)
    owner = make_user("owner")
    pull = Bot.objects.create(owner=owner, name="poller", kind=Bot.Kind.PULL, status="validating")
    with time_machine.travel(T - timedelta(hours=3), tick=False):
        finished = bots_game(seed=3)
        for _ in range(100):
            if not turns.advance_game(game_id=finished.pk).commands:
                break
    with time_machine.travel(T, tick=False) as clock:
        # Nothing plays these games: the dispatcher runs on commit, which a test inside a
        # transaction never reaches. Lucy acts first, so only bot-only games can be stuck.
        person = make_user("late-lucy")
        waiting = game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(user=person), SeatSpec(bot="greedy")],
            seed=first_to_act_seed(2, 0),
        )
        Seat.objects.filter(game=waiting, number=0).update(deadline_at=T - timedelta(hours=2))
        stuck = bots_game(kind="league", competition=league.pk, seed=2)
        Game.objects.filter(pk=stuck.pk).update(last_activity=T - timedelta(hours=2))
        ladder_game = bots_game(kind="ladder", competition=ladder.pk, seed=4)
        seed = first_to_act_seed(2, 0)
        validation = game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(registered=pull), SeatSpec(bot="greedy")],
            seed=seed,
            settings=GameSettings(kind="validation", bot=pull.pk, round=1),
        )
        Game.objects.filter(pk=validation.pk).update(last_activity=T - timedelta(minutes=10))
        yield {
            "clock": clock,
            "finished": Game.objects.get(pk=finished.pk),
            "waiting": waiting,
            "stuck": stuck,
            "ladder": ladder_game,
            "validation": validation,
            "pull": pull,
            "person": person,
        }


def test_live_games_by_kind(world):
    assert world["finished"].status == MATCH_OVER
    live = figures.live_games()
    assert live.by_kind == [("friendly", 1), ("league", 1), ("ladder", 1), ("validation", 1)]
    assert live.total == 4


def test_overdue_turns_people_and_pull_bots_the_latest_first(world):
    overdue = figures.overdue_turns()
    assert [(o.game_id, o.seat, o.kind, o.who) for o in overdue] == [
        (world["waiting"].pk, 0, figures.PERSON, "late-lucy"),
        (world["validation"].pk, 0, figures.PULL_BOT, f"poller (bot #{world['pull'].pk})"),
    ]
    assert overdue[0].late == timedelta(hours=2)
    # The pull bot's decision was due 30 s (BOTS_PULL_TIMEOUT) after the game last moved.
    assert overdue[1].deadline == T - timedelta(minutes=10) + timedelta(seconds=30)
    assert overdue[1].late == timedelta(minutes=9, seconds=30)
    assert overdue[1].late_words == "9 min 30 s"


def test_stuck_games_are_the_reconcilers(world, settings):
    settings.GAMES_RECONCILE_IDLE = 30
    stuck = figures.stuck_games()
    assert [(s.game_id, s.idle) for s in stuck] == [(world["stuck"].pk, timedelta(hours=2))]
    assert [s.game_id for s in stuck] == turns.stalled_games(idle=timedelta(seconds=30))
    # A game idle for less than the limit is not stuck yet; past it, it is.
    assert figures.stuck_games(idle=timedelta(hours=3)) == []
    world["clock"].shift(timedelta(minutes=1))
    later = figures.stuck_games()
    assert {s.game_id for s in later} == {world["stuck"].pk, world["ladder"].pk}


def test_events_per_minute_and_matches_per_hour(world):
    finished = world["finished"]
    activity = figures.activity(now=T)
    events = GameEvent.objects.count()
    earlier = GameEvent.objects.filter(game=finished).count()
    assert len(activity.per_minute) == 24 * 60
    assert activity.start == datetime(2031, 5, 5, 12, 31, tzinfo=UTC)
    # The last minute is T's (12:30), the finished match's three hours before.
    assert activity.per_minute[-1] == events - earlier
    assert activity.per_minute[-1 - 180] == earlier
    assert activity.events == events
    assert len(activity.matches_per_hour) == 24
    assert activity.hour_starts[-1] == datetime(2031, 5, 6, 12, tzinfo=UTC)
    assert activity.matches_per_hour[-4] == 1
    assert activity.matches == 1
    # A day later it has all left the window.
    assert figures.activity(now=T + timedelta(days=1)).events == 0


def test_the_activity_rollup_and_the_logs_tail_give_the_same_figures(world):
    """The "activity" projection's minutes up to its checkpoint plus the log past it: the same
    figures as the log alone, before the projection ran, after it ran in small batches (a
    minute split across batches), after a rebuild, and with events appended since."""
    alone = figures.activity(now=T)
    assert alone.events == GameEvent.objects.count() > 0

    projections.run("activity", batch_size=7)
    assert ProjectionCheckpoint.objects.get(name="activity").position == event_reads.head()
    # Two minutes: the finished match's, three hours ago, and T's.
    assert ActivityMinute.objects.count() == 2
    assert sum(ActivityMinute.objects.values_list("events", flat=True)) == alone.events
    assert sum(ActivityMinute.objects.values_list("matches", flat=True)) == 1
    assert figures.activity(now=T) == alone
    projections.rebuild("activity")
    assert figures.activity(now=T) == alone

    # Events appended after the projection's run come from the log itself.
    play_turn(world["stuck"].pk, random.Random(0))
    appended = GameEvent.objects.count() - alone.events
    assert appended > 0
    later = figures.activity(now=T)
    assert later.events == alone.events + appended
    assert later.per_minute[-1] == alone.per_minute[-1] + appended


@pytest.mark.parametrize(
    ("now", "words"),
    [
        (datetime(2026, 11, 30, 15, 14, 20, tzinfo=UTC), "yesterday 15:15 UTC"),
        (datetime(2026, 11, 30, 23, 59, 5, tzinfo=UTC), "00:00 UTC"),
        (datetime(2026, 12, 1, 0, 0, 1, tzinfo=UTC), "yesterday 00:01 UTC"),
    ],
)
def test_the_activity_window_says_its_day(now, words):
    end = now.replace(second=0) + timedelta(minutes=1)
    activity = figures.Activity(
        start=end - timedelta(hours=24), hour_zero=end, per_minute=[0] * 1440, matches_per_hour=[]
    )
    assert activity.since_words == words


def test_an_older_start_says_its_date():
    start = datetime(2026, 11, 28, 15, 15, tzinfo=UTC)
    two_days = figures.Activity(
        start=start, hour_zero=start, per_minute=[0] * 2880, matches_per_hour=[]
    )
    assert two_days.since_words == "28 Nov 15:15 UTC"


def test_the_activity_chart_geometry(world):
    activity = figures.activity(now=T)
    chart = charts.activity_chart(activity)
    assert chart.peak >= max(activity.per_minute)
    assert chart.area.startswith(f"M{chart.left},{chart.bottom} ")
    assert chart.area.count("L") == 24 * 60 + 1
    assert [t.label for t in chart.x_ticks] == ["18:00", "00:00", "06:00", "12:00"]
    assert len(chart.bars) == 24
    tallest = max(chart.bars, key=lambda bar: bar.height)
    assert tallest.title == "09:00–10:00 UTC: 1 match"


def test_first_position_since_bisects_the_log(world):
    finished = world["finished"]
    last_earlier = GameEvent.objects.filter(game=finished).order_by("-global_position").first()
    first_later = (
        GameEvent.objects.filter(global_position__gt=last_earlier.global_position)
        .order_by("global_position")
        .first()
    )
    assert figures.first_position_since(T - timedelta(hours=1)) == first_later.global_position
    first = GameEvent.objects.order_by("global_position").first()
    assert figures.first_position_since(T - timedelta(days=1)) == first.global_position
    assert figures.first_position_since(T + timedelta(seconds=1)) > first_later.global_position


def test_bot_error_and_timeout_rates(world):
    pull = world["pull"]
    Bot.objects.filter(pk=pull.pk).update(calls=10, timeouts=2, errors=1, illegal_answers=1)
    for outcome in ("ok", "timeout", "error", "illegal"):
        BotCall.objects.create(bot=pull, at=T, outcome=outcome, latency=0.5)
    steady = Bot.objects.create(
        owner=pull.owner, name="steady", kind=Bot.Kind.WEBHOOK, status="active", calls=50
    )
    BotCall.objects.create(bot=steady, at=T, outcome="ok", latency=0.1)
    Bot.objects.create(owner=pull.owner, name="never-called", kind=Bot.Kind.PULL)

    rates = figures.bot_rates()
    assert [r.name for r in rates] == ["poller", "steady"]
    worst = rates[0]
    assert (worst.calls, worst.timeouts, worst.errors, worst.illegal) == (10, 2, 1, 1)
    assert worst.timeout_rate == pytest.approx(0.2)
    assert worst.error_rate == pytest.approx(0.2)
    assert (worst.recent_calls, worst.recent_timeouts, worst.recent_errors) == (4, 1, 2)
    assert worst.recent_timeout_rate == pytest.approx(0.25)
    assert worst.recent_error_rate == pytest.approx(0.5)
    assert worst.percents["recent_error"] == "50.0 %"
    assert rates[1].error_rate == 0.0


def test_validation_failures_with_their_reasons(world):
    owner = world["pull"].owner
    Bot.objects.create(
        owner=owner, name="flaky", kind="webhook", status="failed", validation_round=2,
        status_reason="illegal answer in game 4: play r5 on g7",
    )  # fmt: skip
    Bot.objects.create(owner=owner, name="fine", kind="webhook", status="active")
    failures = figures.validation_failures()
    assert [(f.name, f.round, f.reason) for f in failures] == [
        ("flaky", 2, "illegal answer in game 4: play r5 on g7")
    ]
    client = staff_client()
    assert "flaky" in client.get("/staff/live/").content.decode()
    # Passed a new validation, it leaves the list; the empty list says what the list holds (a
    # bot that failed a while ago and passed since is not "never failed").
    Bot.objects.filter(name="flaky").update(status="active")
    page = client.get("/staff/live/").content.decode()
    assert "flaky" not in page
    assert "No bot stands failed now. A bot whose validation failed is listed here until" in page


def test_projection_lag_is_projections_status(world):
    projections.run("game-summaries")
    world["clock"].shift(timedelta(minutes=5))
    lags = figures.projection_lag()
    statuses = projections.status()
    assert [(p.name, p.position, p.head, p.lag) for p in lags] == [
        (s.name, s.position, s.head, s.lag) for s in statuses
    ]
    by_name = {p.name: p for p in lags}
    assert by_name["game-summaries"].lag == 0
    assert by_name["game-summaries"].seconds == 0
    assert (
        by_name["game-summaries"].updated_at
        == ProjectionCheckpoint.objects.get(name="game-summaries").updated_at
    )
    # Every other projection has applied nothing: its oldest waiting event is the first of all,
    # recorded three hours and five minutes ago.
    behind = by_name["game-results"]
    assert behind.lag == GameEvent.objects.count()
    assert behind.seconds == (3 * 60 + 5) * 60
    assert behind.updated_at is None


def test_a_projection_waits_for_the_first_event_after_a_gap(world):
    projections.run("game-summaries")
    game = Game.objects.filter(status="finished").first() or Game.objects.first()

    class RolledBack(Exception):
        pass

    # An append that rolls back after taking its positions leaves a gap on PostgreSQL (they come
    # from a sequence); the projection's next event is the one after it.
    with pytest.raises(RolledBack), transaction.atomic():
        appends.append(game_id=game.pk, events=notes(2), expected_version=game.version)
        raise RolledBack
    world["clock"].shift(timedelta(minutes=1))
    appends.append(game_id=game.pk, events=notes(1), expected_version=game.version)
    world["clock"].shift(timedelta(minutes=2))

    waiting = {p.name: p for p in figures.projection_lag()}["game-summaries"]
    assert waiting.lag >= 1
    assert waiting.seconds == 2 * 60


def test_the_page_shows_the_figures(world):
    world["clock"].shift(timedelta(seconds=1))
    client = staff_client()
    page = client.get("/staff/").content.decode()
    assert 'id="live"' in page and 'id="activity"' in page
    assert '<li data-kind="league"><span>league</span> <strong>1</strong></li>' in page
    assert f'href="/staff/games/{world["waiting"].pk}/"' in page
    assert "late-lucy" in page and "2 h 0 min" in page
    assert f'<tr data-game="{world["stuck"].pk}">' in page
    assert 'data-projection="game-summaries"' in page
    assert "vendor/htmx.min.js" in page
    # The window began yesterday: the heading says so, not a bare clock time.
    assert "events since yesterday 12:31 UTC" in page

    # The parts htmx swaps in are the sections alone, each polling itself.
    live = client.get("/staff/live/").content.decode()
    assert "<html" not in live and 'id="live"' in live
    assert 'hx-get="/staff/live/"' in live and f"every {views.LIVE_EVERY}s" in live
    activity = client.get("/staff/activity/").content.decode()
    assert "<html" not in activity and 'hx-get="/staff/activity/"' in activity
    assert "<svg" in activity and "<path" in activity


# The queue, the workers, the services ------------------------------------------------------------


def test_queue_depth_counts_the_redis_list(redis_url):
    queue = f"staff-test-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(redis_url)
    try:
        assert figures.queue_depth(redis_url, queue).depth == 0
        client.rpush(queue, "a", "b", "c")
        depth = figures.queue_depth(redis_url, queue)
        assert (depth.queue, depth.depth, depth.problem) == (queue, 3, "")
    finally:
        client.delete(queue)
        client.close()


def test_queue_depth_of_tasks_sent_and_not_yet_taken(redis_url, broker_tasks):
    from_queue = f"staff-test-{uuid.uuid4().hex[:8]}"
    conf = celery_app.conf
    saved = conf.broker_url, conf.task_default_queue
    conf.broker_url, conf.task_default_queue = redis_url, from_queue
    try:
        for _ in range(2):
            celery_app.send_task("games.tasks.reconcile_games", queue=from_queue)
        assert figures.queue_depth(redis_url, from_queue).depth == 2
    finally:
        conf.broker_url, conf.task_default_queue = saved
        redis.Redis.from_url(redis_url).delete(from_queue)


def test_queue_depth_without_redis_or_when_it_does_not_answer():
    assert figures.queue_depth("", "celery") == figures.QueueDepth("celery", None, "eager")
    down = figures.queue_depth("redis://127.0.0.1:1/0", "celery")
    assert (down.depth, down.problem) == (None, "broker-unavailable")


def test_reachability(redis_url):
    up = figures.reachability(redis_url)
    assert (up.database, up.database_vendor, up.redis) == (True, "postgresql", True)
    assert figures.reachability("redis://127.0.0.1:1/0").redis is False
    assert figures.reachability("").redis is None


def test_workers_when_tasks_run_in_process(eager_tasks):
    assert figures.workers() == figures.Workers(broker="eager")


def test_workers_when_the_broker_does_not_answer(broker_tasks, settings):
    settings.HEALTH_TIMEOUT = 0.3
    conf = celery_app.conf
    saved = conf.broker_url
    conf.broker_url = "redis://127.0.0.1:1/0"
    try:
        found = figures.workers()
    finally:
        conf.broker_url = saved
    assert (found.names, found.problem) == ([], "broker-unavailable")


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_answers_the_inspect_ping(redis_url):
    worker = Worker(redis_url)
    with sending_to(worker):
        worker.start()
        wait_for(
            lambda: any(name.startswith(worker.queue) for name in figures.workers().names),
            timeout=60,
            what=lambda: f"the worker's ping; its log:\n{worker.output()[-2000:]}",
        )
        found = figures.workers()
        assert found.broker == "redis" or "redis" in found.broker.lower()
        assert found.problem == ""


def test_the_dashboard_links_each_bot_ladder_and_projection_to_its_action(client):
    staff = get_user_model().objects.create_user("opsdesk", is_staff=True)
    client.force_login(staff)
    builtin = {"owner": staff, "kind": Bot.Kind.BUILTIN, "strategy": "greedy"}
    active = Bot.objects.create(name="live", status=Bot.Status.ACTIVE, calls=3, **builtin)
    resting = Bot.objects.create(name="rest", status=Bot.Status.SUSPENDED, calls=2, **builtin)
    ladder = make_competition(slug="links", matchmaking=True)
    html = client.get("/staff/").content.decode()
    assert f"/staff/bots/{active.pk}/suspend/" in html
    assert f"/staff/bots/{resting.pk}/reinstate/" in html
    assert f"/staff/ladders/{ladder.slug}/pause/" in html
    assert "/staff/projections/ladder-ratings/rebuild/" in html
    for path in (f"/staff/bots/{active.pk}/suspend/", f"/staff/ladders/{ladder.slug}/pause/",
                 "/staff/projections/ladder-ratings/rebuild/"):  # fmt: skip
        assert client.get(path).status_code == 200


def test_the_dashboard_offers_no_suspension_of_a_retired_bot(client):
    """Its owner retired it: the staff cannot suspend it (`bot-retired`), so its row offers no
    "Suspend…" and says it is retired."""
    staff = get_user_model().objects.create_user("opsdesk", is_staff=True)
    client.force_login(staff)
    retired = Bot.objects.create(
        owner=staff, name="gone", kind=Bot.Kind.WEBHOOK, status=Bot.Status.RETIRED, calls=4
    )
    html = client.get("/staff/").content.decode()
    start = html.index(f'<tr data-bot="{retired.pk}">')
    row = html[start : html.index("</tr>", start)]
    assert "gone" in row
    assert "Suspend" not in row and f"/staff/bots/{retired.pk}/suspend/" not in html
    assert "Retired by its owner" in row
