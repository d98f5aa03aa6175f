#!/usr/bin/env python3
"""API benchmark: people and pull bots playing through HTTP (gunicorn) against in-process calls.

Usage (from the repository root):

    DATABASE_URL=postgres://uno@127.0.0.1:5432/uno PYTHONPATH=. python3 bench/api.py \
        [--clients 50] [--seconds 8] [--rounds 3] [--rate 300 | --rate 80%]

Everything runs on loopback, in processes of its own: a scratch database beside DATABASE_URL's
(`<name>_api_<pid>`, dropped at the end), a redis-server on a free port (the broker and the
cache the throttles count in), one Celery worker (`--pool=solo`, the dispatcher's tasks), and
gunicorn (`config.wsgi`, GUNICORN_WORKERS x GUNICORN_THREADS gthread; below). The load is one
more process: `--clients` asyncio clients (bench/_api_clients.py, each with one keep-alive
HTTP/1.1 connection, the least a client does on the shared cores), half of them
people (personal tokens, `Authorization: Token`) each playing a 2-seat official match whose two
seats are two people (GET /api/games/<id> as the person to act, POST /api/games/<id>/commands),
half pull bots (`Authorization: Bot`) each playing both seats of its own match (GET
/api/bot/decisions, POST /api/bot/games/<id>/commands). Every client picks a random legal move.

Each round first plays the same mix in this process through the services (game_view then
game_command, the in-process baseline), on games of its own at the same length, then the
clients for the same time, on fresh games. The clients first join, unmeasured: within a second
before the window each opens its connection and reads its game (a person) or its decisions (a
bot) once, as a player opening a game. In the window they are paced, a bounded load: together
they offer `--rate` commands/s (300, the target), each client sending a command (its POST)
every clients/rate seconds at a random phase, after what it had to read first (a GET, when the
last answer did not say what the game waits for from it), and at once, without catching up,
when it is late. Unpaced, 50 clients always waiting on the server would make the latency
50 / the rate whatever the server does (Little's law: 50 clients at 300 commands/s, two requests
a command, is 83 ms a request), so p95 <= 50 ms can only be asked of a bounded load. After the
rounds the same clients run once unpaced, back to back, for the capacity. `--rate 80%` (a share
of the capacity) runs that capacity run first, before the rounds, and offers 80% of it: issue 33's
"POST p95 <= 50 ms at 80% of the measured capacity" in one run. `--rate 0` runs every round
unpaced.

It prints per round and as medians: the baseline's commands/s, HTTP commands/s, latency
p50/p95/p99 of the POSTs (commands) and of every request, the share of moves that started late
(the server fell behind the offered rate), the CPU milliseconds per command of gunicorn, the
worker and PostgreSQL, and the load (`uptime`); the last line is `commands/s: X`, the median
HTTP rate of commands reached at the offered rate, counted over the steady window (from the
end of the first interval, when every client has started, to the stop: the drain after it counts
in the latencies, not in the rate). Targets: X >= 300 and POST p95 <= 50 ms.
Exit status 2 when DATABASE_URL is not PostgreSQL or redis-server is missing.

gunicorn on 2 cores: 3 worker processes of 2 threads each (gthread, GUNICORN_WORKERS x
GUNICORN_THREADS): a thread's wait on PostgreSQL or Redis lets the other run Python (the GIL is
released in I/O), with fewer threads waiting for one process's GIL than 2 x 4, and a third
process to run while the others wait; keep-alive connections (gthread keeps them; the sync
worker closes every one). docs/performance.md, "API", has the shapes measured.
BENCH_SERVER=granian serves the same application through granian (requirements-bench.txt: its
HTTP in Rust; GUNICORN_WORKERS processes of GUNICORN_THREADS blocking threads each) in
gunicorn's place, to measure what gunicorn's own Python HTTP costs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
# This script's own folder is first on sys.path: its clients' half sits beside it.
sys.path.insert(1, str(REPO_ROOT))
from bench._api_clients import in_turn  # noqa: E402

EXIT_NOT_READY = 2
SPEC = {"rules": "official", "options": {"target": 500}}
GUNICORN_WORKERS = int(os.environ.get("GUNICORN_WORKERS", "3"))
GUNICORN_THREADS = int(os.environ.get("GUNICORN_THREADS", "2"))
SERVER = os.environ.get("BENCH_SERVER", "gunicorn")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (even)")
    parser.add_argument("--seconds", type=float, default=8, help="seconds of each measured run")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (baseline, then HTTP)")
    parser.add_argument(
        "--rate",
        default="300",
        help="commands/s the clients offer in all (0: unpaced), or a share of the capacity "
        "measured first (80%%)",
    )
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("bench/api.py needs DATABASE_URL=postgres://… (a PostgreSQL to measure against)")
        return EXIT_NOT_READY
    if shutil.which("redis-server") is None:
        print("bench/api.py needs redis-server on the PATH (it starts its own on a free port)")
        return EXIT_NOT_READY
    import dj_database_url
    import psycopg

    parts = dj_database_url.parse(url)
    scratch = f"{parts['NAME']}_api_{os.getpid()}"
    admin = psycopg.connect(_conninfo(parts, "postgres"), autocommit=True)
    admin.execute(f'CREATE DATABASE "{scratch}"')
    logs = Path(tempfile.mkdtemp(prefix="uno-bench-api-"))
    print(f"logs: {logs}")
    redis_port, web_port = _free_port(), _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(parts, scratch),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        # The throttles count in Redis, shared by gunicorn's processes, as in production.
        "CACHE_URL": f"redis://127.0.0.1:{redis_port}/1",
        "CELERY_QUEUE": f"bench-api-{uuid.uuid4().hex[:8]}",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-not-secret"),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "",
    }
    processes: list[subprocess.Popen[bytes]] = []
    try:
        # Its own redis-server: nothing else's queue or counts, and nothing to clean after.
        processes.append(_start(logs, "redis", _redis_server(redis_port, logs), env))
        _wait_until(lambda: _redis_answers(redis_port), "redis-server to answer")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=REPO_ROOT, env=env, check=True,
        )  # fmt: skip
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        # Each names its PostgreSQL connections (libpq's PGAPPNAME), so that the backends' CPU is
        # told apart: the requests' and the worker's.
        worker_env = {**env, "PGAPPNAME": "bench-worker"}
        processes.append(_start(logs, "worker", _celery_worker(env["CELERY_QUEUE"]), worker_env))
        web_env = {**env, "PGAPPNAME": "bench-web"}
        processes.append(_start(logs, "gunicorn", _gunicorn(web_port), web_env))
        base = f"http://127.0.0.1:{web_port}"
        _wait_until(lambda: _answers(base), "gunicorn to answer")
        web, worker = processes[-1].pid, processes[-2].pid
        return run(args, base, lambda: _server_cpu(web, worker, admin, scratch))
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        admin.close()


def _conninfo(parts: dict[str, Any], name: str) -> str:
    fields = {
        "host": parts.get("HOST") or "127.0.0.1",
        "port": parts.get("PORT") or 5432,
        "user": parts.get("USER") or "",
        "password": parts.get("PASSWORD") or "",
        "dbname": name,
    }
    return " ".join(f"{key}={value}" for key, value in fields.items() if value != "")


def _database_url(parts: dict[str, Any], name: str) -> str:
    auth = parts.get("USER") or ""
    if parts.get("PASSWORD"):
        auth += f":{parts['PASSWORD']}"
    return (
        f"postgres://{auth}@{parts.get('HOST') or '127.0.0.1'}:{parts.get('PORT') or 5432}/{name}"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start(
    logs: Path, name: str, command: list[str], env: dict[str, str]
) -> subprocess.Popen[bytes]:
    # Each process's output goes to a log of its own, so that `commands/s:` stays the last line.
    with (logs / f"{name}.log").open("ab") as out:
        return subprocess.Popen(
            command, cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )


def _wait_until(check: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.2)


def _redis_server(port: int, logs: Path) -> list[str]:
    return [
        "redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
        "--appendonly", "no", "--dir", str(logs),
    ]  # fmt: skip


def _redis_answers(port: int) -> bool:
    import redis

    try:
        with redis.Redis(port=port, socket_connect_timeout=0.5) as client:
            return bool(client.ping())
    except redis.RedisError:
        return False


def _celery_worker(queue: str) -> list[str]:
    return [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
        "--loglevel=WARNING", "-Q", queue, "--without-heartbeat", "--without-gossip",
        "--without-mingle",
    ]  # fmt: skip


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime: fields 14 and 15 of proc(5), the 12th and 13th after the name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        children = task / "children"
        if children.exists():
            found += [int(child) for child in children.read_text().split()]
    return found


def _server_cpu(web: int, worker: int, admin: Any, scratch: str) -> dict[int, tuple[str, float]]:
    """CPU seconds used so far by each server process: gunicorn's, the Celery worker's and the
    scratch database's PostgreSQL backends (each by whose connection it serves: "postgres web",
    "postgres worker", else "postgres"). Robust where wall-clock rates are not: the machine
    is shared, and CPU per command does not move with the load."""
    roles = {web: "web", worker: "worker"}
    roles.update({child: "web" for child in _children(web)})
    backends = admin.execute(
        "SELECT pid, application_name FROM pg_stat_activity WHERE datname = %s", [scratch]
    ).fetchall()
    named = {"bench-web": "postgres web", "bench-worker": "postgres worker"}
    roles.update({pid: named.get(name, "postgres") for (pid, name) in backends})
    return {pid: (role, _cpu_seconds(pid)) for pid, role in roles.items()}


def _cpu_spent(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> dict[str, float]:
    spent: dict[str, float] = {}
    for pid, (role, seconds) in after.items():
        # A backend that started during the round counts from zero.
        spent[role] = spent.get(role, 0.0) + seconds - before.get(pid, (role, 0.0))[1]
    return spent


def _gunicorn(port: int) -> list[str]:
    if SERVER == "granian":
        return [
            sys.executable, "-m", "granian", "config.wsgi:application", "--interface", "wsgi",
            "--host", "127.0.0.1", "--port", str(port), "--workers", str(GUNICORN_WORKERS),
            "--blocking-threads", str(GUNICORN_THREADS), "--no-ws", "--http", "1",
            "--log-level", "warning",
        ]  # fmt: skip
    return [
        sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
        "--workers", str(GUNICORN_WORKERS), "--threads", str(GUNICORN_THREADS),
        "--worker-class", "gthread", "--keep-alive", "30", "--timeout", "60",
        "--log-level", "warning",
    ]  # fmt: skip


def _answers(base: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"{base}/api/health", timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # a 503 from health is an answer: gunicorn is up
    except OSError:
        return False


# --- the world ---------------------------------------------------------------------------------


def make_world(clients: int, label: str) -> dict[str, Any]:
    """`clients` clients' credentials and games: half people (two people per game), half pull
    bots (one bot in both seats of its game); made in-process, each game fresh."""
    from django.contrib.auth.models import User

    from accounts.services import token_issue
    from bots.remote.tokens import issue_token
    from games.creation import SeatSpec, game_create
    from games.models import Bot

    people, bots = [], []
    for n in range(clients // 2):
        pair = [User.objects.create(username=f"{label}-p{n}-{seat}") for seat in range(2)]
        game = game_create(variant_spec=SPEC, seats=[SeatSpec(user=user) for user in pair], seed=n)
        people.append({"game": game.pk, "tokens": [token_issue(user=user) for user in pair]})
    for n in range(clients - clients // 2):
        owner = User.objects.create(username=f"{label}-o{n}")
        bot = Bot.objects.create(
            owner=owner, name=f"{label}-b{n}", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
        )
        game = game_create(variant_spec=SPEC, seats=[SeatSpec(registered=bot)] * 2, seed=1000 + n)
        bots.append({"game": game.pk, "token": issue_token(bot), "bot": bot.pk})
    return {"people": people, "bots": bots}


# --- the baseline: the same commands through the services, in this process ----------------------


def in_process(world: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The clients' loop without HTTP: the view the client reads (unless the last command's
    `next` gave it), then its command, for each game in turn; returns commands/s."""
    from django.contrib.auth.models import User

    from games.commands import game_command
    from games.errors import GameError
    from games.models import Bot
    from games.visibility import game_view

    players: list[tuple[int, list[Any]]] = []
    for person in world["people"]:
        seated = list(User.objects.filter(seat__game_id=person["game"]).order_by("seat__number"))
        players.append((person["game"], seated))
    for entry in world["bots"]:
        bot = Bot.objects.select_related("owner").get(pk=entry["bot"])
        players.append((entry["game"], [bot, bot]))
    rng = random.Random(7)
    commands = 0
    # As the clients do: a command's `next` (the game waits for its sender again) needs no view.
    offered: dict[int, dict[str, Any]] = {}
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for game_id, actors in players:
            decision = offered.pop(game_id, None)
            if decision is None:
                view = game_view(game_id=game_id, viewer=actors[0], seat=0)
                if view["status"] != "playing":
                    continue
                seat = view["to_act"][0]
                if seat != 0:
                    view = game_view(game_id=game_id, viewer=actors[seat], seat=seat)
                decision = {"seat": seat, "legal": view["legal"], "version": view["version"]}
            seat = decision["seat"]
            legal = [c for c in decision["legal"] if in_turn(c, seat)]
            if not legal:
                continue
            try:
                result = game_command(
                    game_id=game_id,
                    actor=actors[seat],
                    command=rng.choice(legal),
                    expected_version=decision["version"],
                )
            except GameError:
                continue
            if result.next:
                offered[game_id] = result.next[0]
            commands += 1
    return {"commands": commands, "seconds": time.perf_counter() - started}


def http_run(base: str, world: dict[str, Any], seconds: float, rate: float) -> dict[str, Any]:
    config = {"base": base, "seconds": seconds, "rate": rate, **world}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "_api_clients.py")],
        input=json.dumps(config).encode(),
        capture_output=True,
        cwd=REPO_ROOT,
    )
    if done.returncode:
        raise SystemExit(f"the clients failed:\n{done.stderr.decode(errors='replace')}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The clients' own CPU: they share the two cores with the servers they measure.
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {**json.loads(done.stdout), "cpu": cpu}


# --- the run -------------------------------------------------------------------------------------


# The PostgreSQL backends told apart by whose connection they serve (_server_cpu).
POSTGRES_OF = ("postgres web", "postgres worker")


def _postgres_of(row: dict[str, float]) -> str:
    return (
        f"{SERVER}'s {row['cpu_postgres_web']:.1f}, the worker's {row['cpu_postgres_worker']:.1f}"
    )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def load() -> str:
    return os.getloadavg().__repr__()


def run(args: argparse.Namespace, base: str, server_cpu: Any) -> int:
    from django.db import connection

    rows: list[dict[str, float]] = []
    # Warm up: every gunicorn thread's database connection and prepared statements, the worker's
    # too; the first requests pay for them.
    http_run(base, make_world(16, "warm"), 2.0, 0)
    # What the same clients reach back to back, unpaced: the capacity (Little's law: 50 clients
    # always waiting makes the latency 50 / the rate, whatever the server does). First when the
    # offer is a share of it, else after the rounds.
    share = float(args.rate[:-1]) / 100 if args.rate.endswith("%") else None
    capacity = http_run(base, make_world(args.clients, "cap"), args.seconds, 0) if share else None
    rate = share * capacity["rate"] if share and capacity else float(args.rate)
    for round_ in range(args.rounds):
        uptime = load()
        world = make_world(args.clients, f"b{round_}")
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        mine = (time.process_time(), _cpu_seconds(backend))
        baseline = in_process(world, args.seconds)
        mine = (time.process_time() - mine[0], _cpu_seconds(backend) - mine[1])
        world = make_world(args.clients, f"h{round_}")
        before = server_cpu()
        measured = http_run(base, world, args.seconds, rate)
        spent = _cpu_spent(before, server_cpu())
        posts, gets = measured["samples"]["post"], measured["samples"]["get"]
        every = posts + gets
        row = {
            "cpu_baseline": 1000 * (mine[0] + mine[1]) / max(baseline["commands"], 1),
            "cpu_web": 1000 * spent.get("web", 0.0) / max(len(posts), 1),
            "cpu_worker": 1000 * spent.get("worker", 0.0) / max(len(posts), 1),
            "cpu_postgres": 1000
            * sum(spent.get(role, 0.0) for role in ("postgres", *POSTGRES_OF))
            / max(len(posts), 1),
            **{
                f"cpu_{role.replace(' ', '_')}": 1000 * spent.get(role, 0.0) / max(len(posts), 1)
                for role in POSTGRES_OF
            },
            "cpu_clients": 1000 * measured["cpu"] / max(len(posts), 1),
            "baseline": baseline["commands"] / baseline["seconds"],
            "http": measured["rate"],
            "requests": len(every) / measured["seconds"],
            "p50": percentile(posts, 0.50) * 1000,
            "p95": percentile(posts, 0.95) * 1000,
            "p99": percentile(posts, 0.99) * 1000,
            "all_p50": percentile(every, 0.50) * 1000,
            "all_p95": percentile(every, 0.95) * 1000,
            "all_p99": percentile(every, 0.99) * 1000,
            "late": 100 * measured["late"] / max(len(posts), 1),
        }
        rows.append(row)
        print(
            f"round {round_ + 1}: in-process {row['baseline']:.0f} commands/s; HTTP "
            f"{row['http']:.0f} commands/s ({row['requests']:.0f} requests/s), POST p50/p95/p99 "
            f"{row['p50']:.1f}/{row['p95']:.1f}/{row['p99']:.1f} ms, every request "
            f"{row['all_p50']:.1f}/{row['all_p95']:.1f}/{row['all_p99']:.1f} ms; "
            f"statuses {measured['statuses']}; CPU ms per command: in-process "
            f"{row['cpu_baseline']:.1f} (with its PostgreSQL backend), HTTP: {SERVER} "
            f"{row['cpu_web']:.1f}, worker {row['cpu_worker']:.1f}, PostgreSQL "
            f"{row['cpu_postgres']:.1f} ({_postgres_of(row)}), the clients "
            f"{row['cpu_clients']:.1f}; "
            f"{row['late']:.0f}% of moves late; load before {uptime}"
        )
    if capacity is None:
        capacity = http_run(base, make_world(args.clients, "cap"), args.seconds, 0)
    capacity_posts = capacity["samples"]["post"]
    median = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
    print(
        f"{SERVER} {GUNICORN_WORKERS} workers x {GUNICORN_THREADS} threads"
        f"{' (gthread)' if SERVER == 'gunicorn' else ''}, "
        f"{args.clients} clients, {args.seconds:g} s a round, medians of {args.rounds}; "
        f"load now {load()}"
    )
    print(f"in-process (baseline, one thread): {median['baseline']:.0f} commands/s")
    print(
        f"capacity, unpaced ({args.clients} clients back to back): "
        f"{capacity['rate']:.0f} commands/s, POST p50 "
        f"{percentile(capacity_posts, 0.5) * 1000:.1f} ms, p95 "
        f"{percentile(capacity_posts, 0.95) * 1000:.1f} ms"
    )
    print(
        f"offered {rate:.0f} commands/s"
        + (f" ({args.rate} of the capacity)" if share else "")
        + f" ({args.clients} clients paced); "
        f"{median['late']:.0f}% of moves started late"
    )
    print(
        f"POST latency p50 {median['p50']:.1f} ms, p95 {median['p95']:.1f} ms, "
        f"p99 {median['p99']:.1f} ms"
    )
    print(
        f"every request p50 {median['all_p50']:.1f} ms, p95 {median['all_p95']:.1f} ms, "
        f"p99 {median['all_p99']:.1f} ms; {median['requests']:.0f} requests/s"
    )
    print(
        f"CPU ms per command: in-process {median['cpu_baseline']:.1f} (Python and PostgreSQL); "
        f"HTTP: {SERVER} {median['cpu_web']:.1f}, worker {median['cpu_worker']:.1f}, "
        f"PostgreSQL {median['cpu_postgres']:.1f} ({_postgres_of(median)}); "
        f"the clients {median['cpu_clients']:.1f}"
    )
    # What the ratio would be on an idle host, from CPU per command (which moves little with the
    # others' load, where the rates swing): the baseline's one thread runs at about 1 / its CPU a
    # command (its backend waits in turn), the HTTP path at about cores / the CPU of all its
    # processes.
    spent = sum(median[key] for key in ("cpu_web", "cpu_worker", "cpu_postgres", "cpu_clients"))
    cores = os.cpu_count() or 1
    idle = cores * median["cpu_baseline"] / spent
    print(
        f"CPU a command, HTTP in all / in-process: {spent / median['cpu_baseline']:.2f} "
        f"(on {cores} idle cores, HTTP / in-process about {idle:.2f})"
    )
    # The unpaced HTTP rate against the baseline's: the rounds' when they ran unpaced, else the
    # capacity run's (a paced round's rate stops at the offer, whatever the server could do).
    unpaced = median["http"] if rate == 0 else capacity["rate"]
    print(f"HTTP / in-process: {unpaced / median['baseline']:.2f}")
    print(f"commands/s: {median['http']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
