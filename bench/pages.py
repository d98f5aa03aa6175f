#!/usr/bin/env python3
"""Pages benchmark: every page and API list a person or a staff member opens, timed through
gunicorn as the event log grows (issue 33, item 1).

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno PYTHONPATH=. python3 bench/pages.py \
        [--events 1000000] [--requests 7] [--warmups 2] [--keep] [--reuse NAME] [--tenth NAME]

It fills a scratch database beside DATABASE_URL's (`<name>_pages_<pid>`, dropped at the end
unless `--keep`) with the project's own code, in-process (no broker: every task runs eagerly,
as under `make run`), first to a tenth of `--events`, then to `--events`:

- matches of 100, 1,000 and 10,000 events (those up to events / 2, at least the first): four
  people each, played by the greedy bot and appended through append_decided (bench/commands.py
  `build`), made once, two of each length: one stays open (its play page, board and staff
  inspector are timed), the other is ended by a staff abort (its replay, at its last event);
  the longest open one is "the long match" (the events API's page);
- people's games: `pages-alice` against four other people in turn, 2-seat official matches to
  200 points started by games.lobby.game_start and played to the end through game_command (the
  greedy bot choosing each person's move from their view), 3% of each fill;
- club seasons: the club `pages-club` (run by `pages-staff`), official seasons of eight
  built-in bots at tables of four, started, every round played and closed, 5%;
- the 100-bot ladder `pages-hundred`: official to 100 points, one game a table (no duplicate
  deals), its matchmaking run round after round, 10% (a round is 25 games, about 6,000 events;
  the first fill runs one round at any size, so the ladder has a board);
- the rest: the busy ladder `pages-busy`, eight built-in bots in official 500-point duplicate
  sets (two tables of four rotations a round, about 10,000 events), the bulk of a bot ladder.

Ladders and seasons play as they do without a broker: ladder_matchmaking and open_due_rounds
make the games, and each game's creation plays it to the end on commit (advance_game, one append
of the whole run, then the projections). Every component makes at least one unit in the first
fill, so a small `--events` overshoots its target; the table's heading says the size reached.

After each fill it starts gunicorn (config.wsgi, bench/api.py's 3 workers x 2 threads) on a free
loopback port, with no REDIS_URL (so the staff dashboard's ping of the workers, which waits out
HEALTH_TIMEOUT with a broker whatever the data, is not in its time) and times every page in the
list PAGES below over one keep-alive connection, signed in by a session cookie (the staff user,
`pages-alice`, or an open match's first person): `--warmups` requests, then `--requests` timed
ones; the median and the p95 (of 7, the slowest), and the bytes of the body. The SQL queries of
each page are counted in this process, with Django's test Client on the same database under
CaptureQueriesContext, after one untimed request. It prints a table per size, then both sizes
side by side, and ends with `worst page p95 ms: X at N events` (the slowest page's p95 at the
larger size, N the events the log then holds) and, last, `growth: Y` (that page's p95 at N /
its p95 at the tenth). Targets on this machine (issue 33, for later work; this bench exits 0
whatever it finds): X <= 100 at 5,000,000 events, Y <= 1.2.

`--keep` keeps the database (its name is printed) and `--reuse NAME` fills an existing one on
from what it holds (a size already reached fills nothing): a 1M-event fill takes a while on
the shared 2-core machine, so it can be made once and measured again (docs/performance.md,
"Pages as the data grows", has the times). `--tenth NAME` measures the tenth on the database
NAME as it is (a copy made with `createdb -T` when the fill passed a tenth, kept), not by
filling: a database filled to N can so be measured again with its tenth. The events are all
recorded within the fill's minutes: the staff activity part (the last 24 hours) counts them
all. `make bench` runs it with BENCH_ARGS_pages (bench/run's default: `--events 100000
--requests 5 --warmups 1`). Exit status 2 when DATABASE_URL is not PostgreSQL.
"""

from __future__ import annotations

import argparse
import http.client
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(REPO_ROOT))
from bench.api import (  # noqa: E402
    _answers,
    _conninfo,
    _database_url,
    _free_port,
    _gunicorn,
    _start,
    _wait_until,
    percentile,
)

EXIT_NOT_READY = 2
PREFIX = "pages"
STAFF, ALICE = f"{PREFIX}-staff", f"{PREFIX}-alice"
OPPONENTS = [f"{PREFIX}-{name}" for name in ("bob", "carol", "dave", "erin")]
BUSY, HUNDRED, CLUB = f"{PREFIX}-busy", f"{PREFIX}-hundred", f"{PREFIX}-club"
STRATEGIES = ["greedy", "colour-control", "stacker", "random"]
# The lengths of the matches whose pages are timed at each length (bench rows per length).
MATCH_LENGTHS = (100, 1_000, 10_000)
# Seconds a request may take, gunicorn's worker timeout and this client's.
TIMEOUT = 300
# Shares of each fill (the rest is the busy ladder's).
PEOPLE_SHARE, SEASON_SHARE, HUNDRED_SHARE = 0.03, 0.05, 0.10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="events at the end")
    parser.add_argument("--requests", type=int, default=7, help="timed requests per page")
    parser.add_argument("--warmups", type=int, default=2, help="untimed requests first")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--reuse", metavar="NAME", help="fill on and measure this database")
    parser.add_argument(
        "--tenth",
        metavar="NAME",
        help="measure the tenth on this database (one filled before to about a tenth, such as a "
        "copy of --reuse's made at that size), not by filling to it",
    )
    args = parser.parse_args()
    # Each line as it is printed, also into a pipe or a file: a fill takes minutes.
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("bench/pages.py needs DATABASE_URL=postgres://… (a PostgreSQL to fill and measure)")
        return EXIT_NOT_READY
    import dj_database_url
    import psycopg

    parts = dj_database_url.parse(url)
    scratch = args.reuse or f"{parts['NAME']}_{PREFIX}_{os.getpid()}"
    admin = psycopg.connect(_conninfo(parts, "postgres"), autocommit=True)
    if not args.reuse:
        admin.execute(f'CREATE DATABASE "{scratch}"')
    logs = Path(tempfile.mkdtemp(prefix="uno-bench-pages-"))
    print(f"database: {scratch}; logs: {logs}")
    env = {
        key: value
        for key, value in os.environ.items()
        # No broker: tasks run in-process (the fill plays every game on commit), and the pages
        # are timed without the workers' ping.
        if key not in ("REDIS_URL", "CACHE_URL", "CELERY_QUEUE")
    }
    env.update(
        DATABASE_URL=_database_url(parts, scratch),
        SECRET_KEY=os.environ.get("SECRET_KEY", "bench-only-not-secret"),
        # testserver: the test Client's host, for the in-process query counts.
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        DEBUG="",
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        # The ladders play as fast as the fill asks: no budget a day, no rest.
        LEAGUE_LADDER_SETS_PER_DAY="0",
        LEAGUE_LADDER_REST_SECONDS="0",
    )
    dropped = not (args.keep or args.reuse)
    try:
        for name in filter(None, (args.tenth, scratch)):
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                cwd=REPO_ROOT, env={**env, "DATABASE_URL": _database_url(parts, name)},
                check=True,
            )  # fmt: skip
        from soak.infra import collect_static

        collect_static(env)
        os.environ.clear()
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        # The fill's tasks would log each run at INFO; the figures are what this prints.
        logging.disable(logging.INFO)
        return run(args, env, logs)
    finally:
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if dropped:
            admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        else:
            print(f"kept the database {scratch} (--reuse {scratch} fills it on)")
        admin.close()


# --- the fill ------------------------------------------------------------------------------------


def events() -> int:
    """The events the log holds, live and archived (games/archive.py)."""
    from django.db.models import Sum

    from games.models import ArchivedStream, GameEvent

    archived = ArchivedStream.objects.aggregate(events=Sum("event_count"))["events"] or 0
    return GameEvent.objects.count() + archived


@dataclass
class World:
    """What the pages are about, found again in a reused database by their names."""

    staff: Any
    alice: Any
    opponents: list[Any]
    busy: Any
    hundred: Any
    club: Any
    seasons: int = 0
    fill_seconds: dict[str, float] = field(default_factory=dict)


def world() -> World:
    from django.contrib.auth.models import User

    from games.models import Bot
    from league.clubs import club_create
    from league.models import Club, Competition
    from league.services import competition_create, competition_join

    staff, made = User.objects.get_or_create(username=STAFF, defaults={"is_staff": True})
    alice = User.objects.get_or_create(username=ALICE)[0]
    opponents = [User.objects.get_or_create(username=name)[0] for name in OPPONENTS]
    if made:
        for slug, bots, target, duplicate in ((BUSY, 8, 500, True), (HUNDRED, 100, 100, False)):
            ladder = competition_create(
                name=slug,
                slug=slug,
                kind=Competition.Kind.LADDER,
                variant={"rules": "official", "options": {"target": target}},
                seats_per_game=4,
                duplicate=duplicate,
                created_by=staff,
            )
            for number in range(bots):
                strategy = STRATEGIES[number % len(STRATEGIES)]
                bot = Bot.objects.create(
                    owner=staff, name=f"{slug}-{number}", kind=Bot.Kind.BUILTIN,
                    strategy=strategy, status=Bot.Status.ACTIVE,
                )  # fmt: skip
                competition_join(ladder, bot=bot)
        club_create(name=CLUB, slug=CLUB, creator=staff)
    return World(
        staff=staff,
        alice=alice,
        opponents=opponents,
        busy=Competition.objects.get(slug=BUSY),
        hundred=Competition.objects.get(slug=HUNDRED),
        club=Club.objects.get(slug=CLUB),
        seasons=Competition.objects.filter(slug__startswith=f"{CLUB}-").count(),
    )


def match_lengths(final: int) -> list[int]:
    """The lengths of the matches made for a fill to `final` events: those up to final / 2 (a
    small fill's share), at least the shortest."""
    return [length for length in MATCH_LENGTHS if length <= max(MATCH_LENGTHS[0], final // 2)]


def match_owner(length: int, state: str) -> str:
    """The username of the first person of the `state` ("open" or "over") match of `length`
    events: how a reused database's matches are found again."""
    return f"{PREFIX}-{state}-{length}"


def sized_matches() -> dict[tuple[int, str], Any]:
    """The matches of each length, by (length, "open" or "over")."""
    from games.models import Seat

    owners = {
        match_owner(length, state): (length, state)
        for length in MATCH_LENGTHS
        for state in ("open", "over")
    }
    seats = Seat.objects.filter(user__username__in=owners).select_related("game", "user")
    return {owners[seat.user.username]: seat.game for seat in seats}


def long_match() -> Any:
    """The longest match still open (None before the matches are made)."""
    found = sized_matches()
    opened = [length for length, state in found if state == "open"]
    return found[max(opened), "open"] if opened else None


def fill(target: int, final: int, w: World) -> None:
    """Fill the log to `target` events: the matches of each length (once), then each
    component's share of what is missing, then the busy ladder for the rest."""
    # The matches of each length first, also in a database filled before they were in the
    # bench (--reuse): every page timed has its subject.
    from games.models import Game

    # The first fill (also one stopped before its first busy-ladder round) makes one unit of
    # each component, whatever the size reached.
    first = not Game.objects.filter(context__competition=w.busy.pk).exists()
    if long_match() is None:
        for length in match_lengths(final):
            _timed(w, f"{length:,}-event matches", lambda length=length: _matches(w, length))
    start = events()
    missing = target - start
    if missing <= 0 and not first:
        print(f"fill: {start:,} events already, none added")
        return
    # Each component fills up to its share of what is missing, counted from the start (so a
    # unit that overshoots leaves less to the next); the first fill makes one unit of each, so
    # that every page has its subject.
    goals = [
        ("people's games", PEOPLE_SHARE, lambda: _people_game(w)),
        ("club seasons", SEASON_SHARE, lambda: _season(w)),
        ("100-bot ladder", HUNDRED_SHARE, lambda: _ladder_round(w.hundred)),
        ("busy ladder", 1.0, lambda: _ladder_round(w.busy)),
    ]
    goal = start
    with projections_caught_up_by_unit():
        for name, share, unit in goals:
            goal = target if share == 1.0 else goal + int(missing * share)
            made = False
            while events() < goal or (first and not made):
                _timed(w, name, unit)
                made = True
    took = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in w.fill_seconds.items())
    print(f"fill: {start:,} -> {events():,} events; seconds so far: {took}; load {_load()}")


@contextmanager
def projections_caught_up_by_unit() -> Iterator[None]:
    """In-process, the dispatcher catches the projections up after every append (a run of
    every projection, 0.1-0.5 s on this machine, after each of a person's commands); with a
    broker beat runs them every 10 s. The fill does as beat does: no run per append, one after
    each unit (a game, a season's round, a ladder's round), before the next reads them (the
    ladders' matchmaking reads the ratings, a season's close its standings)."""
    from games import tasks

    task = tasks.run_projections
    task.delay = lambda *args, **kwargs: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        del task.delay
        tasks.run_projections()


def _timed(w: World, name: str, unit: Callable[[], object]) -> None:
    from games import tasks

    started = time.perf_counter()
    unit()
    tasks.run_projections()
    w.fill_seconds[name] = w.fill_seconds.get(name, 0.0) + time.perf_counter() - started


def _matches(w: World, length: int) -> None:
    """Two matches of `length` events: one left open, one ended by a staff abort (a finished
    match of that length for its replay), each found again by its first person's name."""
    from django.contrib.auth.models import User

    from bench.commands import build
    from staff.actions import game_abort

    for state in ("open", "over"):
        game, people = build(length, seed=33 + length)
        User.objects.filter(pk=people[0].pk).update(username=match_owner(length, state))
        if state == "over":
            game_abort(game_id=game.pk, user=w.staff, reason="bench: a finished match")


def _people_game(w: World) -> None:
    """One 2-seat official match of two people, to its end through the services."""
    from bots.strategies import find_strategy
    from games.commands import game_command
    from games.errors import GameError
    from games.lobby import game_start
    from games.models import Game
    from games.visibility import game_view

    count = Game.objects.filter(seats__user=w.alice).count()
    opponent = w.opponents[count % len(w.opponents)]
    people = {w.alice.pk: w.alice, opponent.pk: opponent}
    game = game_start(
        creator=w.alice,
        variant_spec={"rules": "official", "options": {"target": 200}},
        seats=[{"user": "me"}, {"user": opponent.username}],
    )
    seated = dict(game.seats.values_list("number", "user_id"))
    greedy = find_strategy("greedy")
    rng = random.Random(game.pk)
    while True:
        status, to_act = Game.objects.values_list("status", "to_act").get(pk=game.pk)
        if status != Game.Status.PLAYING or not to_act:
            return
        person = people[seated[to_act[0]]]
        view = game_view(game_id=game.pk, viewer=person)
        try:
            game_command(
                game_id=game.pk,
                actor=person,
                command=greedy(view, view["legal"], rng),
                expected_version=view["version"],
            )
        except GameError as error:
            raise SystemExit(f"a people's game stopped: game {game.pk}: {error}") from error


def _season(w: World) -> None:
    """One season of the club, eight built-in bots at tables of four, played and closed."""
    import datetime

    from django.utils import timezone

    from games import tasks
    from games.models import Bot
    from league.seasons import (
        open_due_rounds,
        season_close,
        season_create,
        season_enter,
        season_start,
    )

    w.seasons += 1
    slug = f"{CLUB}-{w.seasons}"
    season = season_create(
        club=w.club,
        admin=w.staff,
        name=f"Season {w.seasons}",
        slug=slug,
        variant={"rules": "official", "options": {"target": 200}},
        seats_per_game=4,
        start_date=timezone.localdate() - datetime.timedelta(days=1),
        rounds=3,
        seed=w.seasons,
    )
    for number in range(8):
        bot, _ = Bot.objects.get_or_create(
            owner=w.staff,
            name=f"{CLUB}-{number}",
            defaults={
                "kind": Bot.Kind.BUILTIN,
                "strategy": STRATEGIES[number % len(STRATEGIES)],
                "status": Bot.Status.ACTIVE,
            },
        )
        season_enter(season=season, actor=w.staff, bot=bot)
    season_start(season=season, admin=w.staff)
    # Each round's games play to the end as they are made; the next round opens once the
    # round before has finished.
    while open_due_rounds(season=season):
        tasks.run_projections()
    tasks.run_projections()
    season_close(season=season, admin=w.staff)


def _ladder_round(ladder: Any) -> None:
    from django.db import transaction

    from league.ladders import ladder_matchmaking

    with transaction.atomic():
        ladder_matchmaking(ladder, rng=random.Random(events()))


# --- the pages -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    # Who asks: "staff", "alice", or "open-<length>" (that open match's first person).
    who: str


def pages(w: World) -> list[Page]:
    """Every page measured, with the ids of this database's games and bots."""
    from games.lobby import game_start
    from games.models import Game

    long = long_match()
    matches = sorted(sized_matches().items(), key=lambda item: item[0])
    longest = max(length for (length, state), _ in matches if state == "open")
    # The busy ladder's first finished match: the same one at every size.
    finished = (
        Game.objects.filter(status=Game.Status.MATCH_OVER, context__competition=w.busy.pk)
        .order_by("pk")
        .first()
    )
    assert long is not None and finished is not None, "the fill made no long or finished match"
    # A short match, just dealt: the play page's usual case.
    short = game_start(
        creator=w.alice,
        variant_spec={"rules": "official", "options": {"target": 500}},
        seats=[{"user": "me"}, {"user": w.opponents[0].username}],
    )
    bot = w.busy.entries.exclude(bot=None).order_by("pk").first().bot_id
    season = f"{CLUB}-{w.seasons}"
    return [
        Page("staff dashboard /staff/", "/staff/", "staff"),
        Page("staff live part", "/staff/live/", "staff"),
        Page("staff activity part", "/staff/activity/", "staff"),
        *(
            Page(
                f"staff inspector, {game.version:,}-event match",
                f"/staff/games/{game.pk}/",
                "staff",
            )
            for (length, state), game in matches
            if state == "open"
        ),  # fmt: skip
        Page(
            f"staff inspector, finished match ({finished.version:,} events)",
            f"/staff/games/{finished.pk}/",
            "staff",
        ),
        Page("staff game search (a person)", f"/staff/games/?q={ALICE}", "staff"),
        Page("staff projections", "/staff/projections/", "staff"),
        Page("staff reports", "/staff/reports/", "staff"),
        *(
            page
            for (length, state), game in matches
            if state == "open"
            for page in (
                Page(
                    f"play page, {game.version:,}-event match",
                    f"/games/{game.pk}/",
                    f"open-{length}",
                ),
                Page(
                    f"board, {game.version:,}-event match",
                    f"/games/{game.pk}/board",
                    f"open-{length}",
                ),
            )
        ),  # fmt: skip
        Page("play page, short match", f"/games/{short.pk}/", "alice"),
        Page("board, short match", f"/games/{short.pk}/board", "alice"),
        Page("replay, finished match", f"/games/{finished.pk}/replay/", "alice"),
        # At its last event, every card shown: the step that once read and told the whole log.
        *(
            Page(
                f"replay, {game.version:,}-event match at its end",
                f"/games/{game.pk}/replay/?at={game.version}&as=all",
                "alice",
            )
            for (length, state), game in matches
            if state == "over"
        ),  # fmt: skip
        Page("lobby, playing tab", "/play/", "alice"),
        Page("lobby, finished tab", "/play/?show=finished", "alice"),
        Page("player page (many games)", f"/players/{ALICE}/", "alice"),
        Page("notifications", "/notifications/", "alice"),
        Page("ratings", "/ratings/", "alice"),
        Page("ratings, official", "/ratings/official/", "alice"),
        Page("ladders", "/ladders/", "alice"),
        Page("100-bot ladder page", f"/ladders/{HUNDRED}/", "alice"),
        Page("busy ladder page", f"/ladders/{BUSY}/", "alice"),
        Page("bot page (busy ladder)", f"/bots/{bot}/", "alice"),
        Page("my bots (116)", "/me/bots/", "staff"),
        Page("clubs", "/clubs/", "alice"),
        Page("club page", f"/clubs/{CLUB}/", "alice"),
        Page("season page", f"/seasons/{season}/", "alice"),
        Page("GET /api/players/<name>", f"/api/players/{ALICE}", "alice"),
        Page("GET /api/games finished", "/api/games?status=finished", "alice"),
        Page("GET /api/games playing", "/api/games?status=playing", "alice"),
        Page("GET /api/games/<long>/events", f"/api/games/{long.pk}/events", f"open-{longest}"),
        Page("GET /api/me/notifications", "/api/me/notifications", "alice"),
        Page("GET /api/notifications", "/api/notifications", "alice"),
        Page("GET /api/tables", "/api/tables", "alice"),
        Page("GET /api/ladders", "/api/ladders", "alice"),
        Page("GET /api/ladders/<100-bot>", f"/api/ladders/{HUNDRED}", "alice"),
        Page("GET /api/bots/<id>", f"/api/bots/{bot}", "alice"),
        Page("GET /api/me/bots", "/api/me/bots", "staff"),
        Page("GET /api/clubs", "/api/clubs", "alice"),
        Page("GET /api/clubs/<slug>", f"/api/clubs/{CLUB}", "alice"),
        Page("GET /api/seasons/<slug>/standings", f"/api/seasons/{season}/standings", "alice"),
        Page("GET /api/seasons/<slug>/fixtures", f"/api/seasons/{season}/fixtures", "alice"),
        Page("GET /api/ratings/official", "/api/ratings/official", "alice"),
    ]


@dataclass
class Row:
    page: Page
    median: float
    p95: float
    queries: int
    size: int
    status: int


def measure(args: argparse.Namespace, env: dict[str, str], logs: Path, w: World) -> list[Row]:
    """Every page through gunicorn (times, bytes) and through the test Client (queries)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    clients = {"staff": Client(), "alice": Client()}
    for (length, state), game in sized_matches().items():
        if state == "open":
            clients[f"open-{length}"] = Client()
            clients[f"open-{length}"].force_login(game.seats.order_by("number").first().user)
    clients["staff"].force_login(w.staff)
    clients["alice"].force_login(w.alice)
    cookies = {who: f"sessionid={c.cookies['sessionid'].value}" for who, c in clients.items()}
    listed = pages(w)
    began = time.perf_counter()
    port = _free_port()
    command = _gunicorn(port)
    # bench/api.py's gunicorn, with a worker timeout past the slowest page's seconds.
    command[command.index("--timeout") + 1] = str(TIMEOUT)
    server = _start(logs, "gunicorn", command, env)
    rows = []
    try:
        _wait_until(lambda: _answers(f"http://127.0.0.1:{port}"), "gunicorn to answer")
        for page in listed:
            times, size, status = [], 0, 0
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
            for number in range(args.warmups + args.requests):
                started = time.perf_counter()
                try:
                    conn.request("GET", page.path, headers={"Cookie": cookies[page.who]})
                    response = conn.getresponse()
                    body = response.read()
                    size, status = len(body), response.status
                except (OSError, http.client.HTTPException):
                    # No answer (gunicorn's worker timed out, or this client did): status 0 in
                    # the table, and a new connection for the next request.
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
                    size, status = 0, 0
                if number >= args.warmups:
                    times.append((time.perf_counter() - started) * 1000)
            conn.close()
            client = clients[page.who]
            if args.warmups:
                client.get(page.path)
            with CaptureQueriesContext(connection) as queries:
                client.get(page.path)
            rows.append(
                Row(page, statistics.median(times), percentile(times, 0.95), len(queries), size,
                    status)
            )  # fmt: skip
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"measured {len(rows)} pages in {time.perf_counter() - began:.0f} s")
    return rows


def print_table(rows: list[Row], size: int) -> None:
    print(f"\n{size:,} events (load {_load()}):")
    print(f"| page | median ms | p95 ms | queries | bytes |\n| {' | '.join(['---'] * 5)} |")
    for row in rows:
        status = "" if row.status in (200, 204) else f" (HTTP {row.status or 'no answer'})"
        print(
            f"| {row.page.name}{status} | {row.median:.1f} | {row.p95:.1f} | {row.queries} | "
            f"{row.size:,} |"
        )


def analyze() -> None:
    """Fresh planner statistics before the measure, as a site's autovacuum keeps them (it is
    off on some clusters, this machine's among them): a fill grows the log tenfold in minutes,
    and on the statistics of before the planner took the wrong index for some queries (the
    first event of each game by (game, command id), not by (game, version): 50 ms, not 1)."""
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"ANALYZE: {time.perf_counter() - started:.0f} s")


def use_database(name: str, env: dict[str, str]) -> None:
    """Point this process (Django's connection) and the gunicorn it starts (`env`) at the
    database `name` of the same server."""
    import dj_database_url
    from django.db import connections

    connections["default"].close()
    connections["default"].settings_dict["NAME"] = name
    env["DATABASE_URL"] = _database_url(dj_database_url.parse(env["DATABASE_URL"]), name)


def run(args: argparse.Namespace, env: dict[str, str], logs: Path) -> int:
    from django.db import connections

    scratch = connections["default"].settings_dict["NAME"]
    sizes, results = [], []
    for target in (max(1, args.events // 10), args.events):
        # The tenth measured on a database of its own (--tenth), filled before.
        tenth = args.tenth if target < args.events else None
        use_database(tenth or scratch, env)
        w = world()
        if tenth:
            print(f"the tenth: the database {tenth} as it is ({events():,} events), not filled")
        else:
            fill(target, args.events, w)
        analyze()
        size = events()
        rows = measure(args, env, logs, w)
        print_table(rows, size)
        sizes.append(size)
        results.append(rows)
    small, large = results
    print(f"\nboth sizes, p95 ms ({sizes[0]:,} / {sizes[1]:,} events) and queries:")
    for before, after in zip(small, large, strict=True):
        print(
            f"  {after.page.name}: {before.p95:.1f} -> {after.p95:.1f} ms, "
            f"{before.queries} -> {after.queries} queries"
        )
    errors = [row.page.name for row in small + large if row.status not in (200, 204)]
    if errors:
        print(f"pages that failed: {', '.join(sorted(set(errors)))}")
    worst = max(range(len(large)), key=lambda index: large[index].p95)
    growth = large[worst].p95 / small[worst].p95
    print(f"worst page: {large[worst].page.name}")
    print(f"worst page p95 ms: {large[worst].p95:.0f} at {sizes[1]} events")
    print(f"growth: {growth:.2f}")
    return 0


def _load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
