#!/usr/bin/env python3
"""Pages benchmark: every page and API list a person or a staff member opens, timed through
gunicorn as the event log grows (issue 33, item 1).

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno PYTHONPATH=. python3 bench/pages.py \
        [--events 1000000] [--requests 7] [--warmups 2] [--keep] [--reuse NAME] [--tenth NAME] \
        [--stop-at-tenth]

It fills a scratch database beside DATABASE_URL's (`<name>_pages_<pid>`, dropped at the end
unless `--keep`) with the project's own code, in-process (no broker: every task runs eagerly,
as under `make run`), first to a tenth of `--events`, then to `--events`:

- matches of 100, 1,000 and 10,000 events (those up to events / 2, at least the first): four
  people each, played by the greedy bot and appended through append_decided (bench/commands.py
  `build`), made once, two of each length: one stays open (its play page, board and staff
  inspector are timed), the other is ended by a staff abort (its replay, at its last event);
  the longest open one is "the long match" (the events API's page);
- people's games: `pages-alice` against four other people in turn, 2-seat casual official
  matches to 200 points started by games.lobby.game_start and played to the end through
  game_command (the greedy bot choosing each person's move from their view), 3% of each fill;
- club seasons: the club `pages-club` (run by `pages-staff`), official seasons of eight
  built-in bots at tables of four, started, every round played and closed, 5%;
- the sprint ladder `pages-sprint`: four built-in bots at one table, official to 50 points,
  one game a round (no duplicate deals: a rating change each a game), 2%; its first bot's page
  and GET /api/bots/<id> are the bot pages timed;
- the 100-bot ladder `pages-hundred`: official to 100 points, one game a table (no duplicate
  deals), its matchmaking run round after round, 10% (a round is 25 games, about 5,000 events);
- the rest: the busy ladder `pages-busy`, eight built-in bots in official 500-point duplicate
  sets (two tables of four rotations a round, about 10,000 events), the bulk of a bot ladder.

Ladders and seasons play as they do without a broker: ladder_matchmaking and open_due_rounds
make the games, and each game's creation plays it to the end on commit (advance_game, one append
of the whole run, then the projections). Each component adds its share of what a fill misses
(its own events counted) and makes at least one unit, so a small `--events` overshoots its
target; the table's heading says the size reached.

Past the caps: a page that shows the latest N of something grows with the data until there
are N, then stays; a tenth where they are not yet N would measure what the page shows, not what
it costs. So a fill to `--events` of 1,000,000 or more (_pages_fill.CAPS_FROM) makes, in its
first fill (the tenth's), each capped page's cap + 1 (_pages_fill.past_caps, from the caps'
own constants): 51 finished games of `pages-alice` (the lobby's finished tab and GET
/api/games?status=finished show 50 a page, the staff game search 50, the notifications 30,
the player page her latest 10), 21 club seasons (the club page 20 a page) and 201 rating
changes of the sprint ladder's first bot (its chart the last 200, its games 20 a page); about
120,000 events, made whatever the component's share (the others' shares unchanged, the busy
ladder filling less). Below 1,000,000 (make bench's 100,000, the smoke test's 2,000) the first
fill makes one unit of each, and a page may still be filling to its cap at the tenth.
Not past a cap at any size: `pages-alice`'s games are casual (no rating chart on her player
page), and the busy ladder's bots gain one rating change a set of four 500-point rotations
(about 1,240 events each), so 200 of them would need about a million events at the tenth;
their pages are not timed. The rest of the pages timed show a fixed world at any size (a game,
a ladder's 100 or 8 entrants, a season of eight, the staff's 120 bots).

After each fill it starts gunicorn (config.wsgi, bench/api.py's 3 workers x 2 threads) on a free
loopback port, with no REDIS_URL (so the staff dashboard's ping of the workers, which waits out
HEALTH_TIMEOUT with a broker whatever the data, is not in its time) and times every page in the
list `pages` below over one keep-alive connection, signed in by a session cookie (the staff
user, `pages-alice`, or an open match's first person): `--warmups` requests, then `--requests`
timed ones; the median and the p95 (of 5 or 7, the slowest), and the bytes of the body. With
`--tenth` both databases are at hand once the size is filled: a gunicorn serves each, and each
page's requests alternate between them, one to each in turn, so that the host's load in those
seconds falls on the tenth and the size alike (measured one after the other, a minute apart,
every page's ratio moved with the load: `growth:` 1.20 in one set of three runs, 1.51 in the
next, on the same databases). The SQL queries of
each page are counted in this process, with Django's test Client on the same database under
CaptureQueriesContext, after one untimed request. It prints a table per size, then both sizes
side by side, and ends with `worst page p95 ms: X at N events` (the slowest page's p95 at the
larger size, N the events the log then holds) and, last, `growth: Y` (that page's p95 at N /
its p95 at the tenth). Targets on this machine (issue 33, for later work; this bench exits 0
whatever it finds): X <= 100 at 5,000,000 events, Y <= 1.2.

`--keep` keeps the database (its name is printed) and `--reuse NAME` fills an existing one on
from what it holds (a size already reached fills nothing): a 1M-event fill takes a while on
the shared 2-core machine, so it can be made once and measured again (docs/performance.md,
"Pages as the data grows", has the times). `--stop-at-tenth` fills to the tenth of `--events`
(as a run to `--events` fills it) and stops, measuring nothing: a database to copy with
`createdb -T` before filling it on. `--tenth NAME` measures the tenth on the database NAME as
it is (such a copy), not by filling: a database filled to N can so be measured again with its
tenth. The events are all
recorded within the fill's minutes: the staff activity part (the last 24 hours) counts them
all. `make bench` runs it with BENCH_ARGS_pages (bench/run's default: `--events 100000
--requests 5 --warmups 1`). Exit status 2 when DATABASE_URL is not PostgreSQL.
"""

from __future__ import annotations

import argparse
import http.client
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(REPO_ROOT))
from bench._pages_fill import (  # noqa: E402
    ALICE,
    BUSY,
    CLUB,
    HUNDRED,
    PREFIX,
    World,
    _load,
    events,
    fill,
    long_match,
    sized_matches,
    timed_bot,
    world,
)
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
# The short match's deal (pages): the same in every database measured.
SHORT_SEED = 33
# Seconds a request may take, gunicorn's worker timeout and this client's.
TIMEOUT = 300


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
    parser.add_argument(
        "--stop-at-tenth",
        action="store_true",
        help="fill to the tenth of --events (as a run to --events fills it), measure nothing and "
        "stop: with --keep or --reuse, a database to copy (createdb -T) for a later --tenth",
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


# --- the pages -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    # Who asks: "staff", "alice", or "open-<length>" (that open match's first person).
    who: str


def pages(w: World) -> list[Page]:
    """Every page measured, with the ids of this database's games and bots."""
    from games.creation import SeatSpec, game_create
    from games.game_settings import GameSettings
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
    # A short match, just dealt: the play page's usual case. The same deal in every database
    # (a fixed seed, as game_start deals it otherwise; its first person to act decides what
    # the play page and board show), made once and found again by its second person.
    short = Game.objects.filter(
        seats__user=w.alice, status=Game.Status.PLAYING, version__lt=10
    ).filter(seats__user=w.opponents[1]).order_by("pk").first() or game_create(
        variant_spec={"rules": "official", "options": {"target": 500}},
        seats=[SeatSpec(user=w.alice), SeatSpec(user=w.opponents[1])],
        seed=SHORT_SEED,
        settings=GameSettings(),
        actor=w.alice,
    )
    bot = timed_bot(w).pk
    bots = w.staff.bots.count()
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
        Page("people's directory", "/players/", "alice"),
        Page("people's directory, a search", "/players/?q=pages", "alice"),
        Page("notifications", "/notifications/", "alice"),
        Page("ratings", "/ratings/", "alice"),
        Page("ratings, official", "/ratings/official/", "alice"),
        Page("ladders", "/ladders/", "alice"),
        Page("100-bot ladder page", f"/ladders/{HUNDRED}/", "alice"),
        Page("busy ladder page", f"/ladders/{BUSY}/", "alice"),
        Page("bot page (sprint ladder)", f"/bots/{bot}/", "alice"),
        Page(f"my bots ({bots})", "/me/bots/", "staff"),
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


@dataclass
class Site:
    """One database measured: its pages (with its own games' ids), its signed-in clients and
    their session cookies, and the gunicorn that serves it."""

    database: str
    env: dict[str, str]
    listed: list[Page]
    clients: dict[str, Any]
    cookies: dict[str, str]
    port: int = 0
    server: subprocess.Popen[bytes] | None = None


def site(database: str, env: dict[str, str], w: World) -> Site:
    """The database `database` (this process's connection is on it) made ready to measure:
    its clients signed in (their sessions in it) and its pages listed."""
    from django.test import Client

    clients = {"staff": Client(), "alice": Client()}
    for (length, state), game in sized_matches().items():
        if state == "open":
            clients[f"open-{length}"] = Client()
            clients[f"open-{length}"].force_login(game.seats.order_by("number").first().user)
    clients["staff"].force_login(w.staff)
    clients["alice"].force_login(w.alice)
    cookies = {who: f"sessionid={c.cookies['sessionid'].value}" for who, c in clients.items()}
    return Site(database, dict(env), pages(w), clients, cookies)


def measure(args: argparse.Namespace, logs: Path, sites: list[Site]) -> list[list[Row]]:
    """Every page through gunicorn (times, bytes) and through the test Client (queries), for
    each site. With two sites (the tenth and the size, --tenth) each page's requests alternate
    between them, one to each in turn, so that what the host's load does in those seconds
    falls on both alike."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    began = time.perf_counter()
    count = {len(each.listed) for each in sites}
    assert len(count) == 1, "the sites list different pages"
    for each in sites:
        each.port = _free_port()
        command = _gunicorn(each.port)
        # bench/api.py's gunicorn, with a worker timeout past the slowest page's seconds.
        command[command.index("--timeout") + 1] = str(TIMEOUT)
        each.server = _start(logs, f"gunicorn-{each.database}", command, each.env)
    found: list[list[tuple[list[float], int, int]]] = [[] for _ in sites]
    try:
        for each in sites:
            _wait_until(lambda each=each: _answers(f"http://127.0.0.1:{each.port}"), "gunicorn")
        for index in range(count.pop()):
            conns = [
                http.client.HTTPConnection("127.0.0.1", e.port, timeout=TIMEOUT) for e in sites
            ]
            times: list[list[float]] = [[] for _ in sites]
            sizes, statuses = [0] * len(sites), [0] * len(sites)
            for number in range(args.warmups + args.requests):
                for at, each in enumerate(sites):
                    page = each.listed[index]
                    started = time.perf_counter()
                    try:
                        conns[at].request(
                            "GET", page.path, headers={"Cookie": each.cookies[page.who]}
                        )
                        response = conns[at].getresponse()
                        body = response.read()
                        sizes[at], statuses[at] = len(body), response.status
                    except (OSError, http.client.HTTPException):
                        # No answer (gunicorn's worker timed out, or this client did): status
                        # 0 in the table, and a new connection for the next request.
                        conns[at].close()
                        conns[at] = http.client.HTTPConnection(
                            "127.0.0.1", each.port, timeout=TIMEOUT
                        )
                        sizes[at], statuses[at] = 0, 0
                    if number >= args.warmups:
                        times[at].append((time.perf_counter() - started) * 1000)
            for at in range(len(sites)):
                conns[at].close()
                found[at].append((times[at], sizes[at], statuses[at]))
    finally:
        for each in sites:
            if each.server is not None:
                each.server.terminate()
                try:
                    each.server.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    each.server.kill()
    results = []
    for each, timed in zip(sites, found, strict=True):
        use_database(each.database, each.env)
        rows = []
        for page, (ms, size, status) in zip(each.listed, timed, strict=True):
            client = each.clients[page.who]
            if args.warmups:
                client.get(page.path)
            with CaptureQueriesContext(connection) as queries:
                client.get(page.path)
            rows.append(
                Row(page, statistics.median(ms), percentile(ms, 0.95), len(queries), size, status)
            )  # fmt: skip
        results.append(rows)
    print(
        f"measured {len(results[0])} pages on {len(sites)} database(s) in "
        f"{time.perf_counter() - began:.0f} s"
    )
    return results


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
    if args.tenth and not args.stop_at_tenth:
        # Both databases at hand: the size filled first, then each page measured on both in
        # turn (measure).
        use_database(scratch, env)
        fill(args.events, args.events, world())
        sites = []
        for name in (args.tenth, scratch):
            use_database(name, env)
            if name == args.tenth:
                print(f"the tenth: the database {name} as it is ({events():,} events), not filled")
            analyze()
            sizes.append(events())
            sites.append(site(name, env, world()))
        results = measure(args, logs, sites)
        for rows, size in zip(results, sizes, strict=True):
            print_table(rows, size)
    for target in () if results else (max(1, args.events // 10), args.events):
        # The tenth measured on a database of its own (--tenth), filled before.
        tenth = args.tenth if target < args.events else None
        use_database(tenth or scratch, env)
        w = world()
        if tenth:
            print(f"the tenth: the database {tenth} as it is ({events():,} events), not filled")
        else:
            fill(target, args.events, w)
        if args.stop_at_tenth:
            return 0
        analyze()
        size = events()
        (rows,) = measure(args, logs, [site(tenth or scratch, env, w)])
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


if __name__ == "__main__":
    sys.exit(main())
