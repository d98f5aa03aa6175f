#!/usr/bin/env python3
"""What the API's hot requests cost in one process, without HTTP's sockets or the host's load:
bench/api.py's clients' loop (people's GET /api/games/<id> and POST /api/games/<id>/commands,
pull bots' GET /api/bot/decisions and POST /api/bot/games/<id>/commands) played through the WSGI
application (config.wsgi, as gunicorn loads it) in turn, one request at a time.

    DATABASE_URL=postgres://… CACHE_URL=redis://…/1 REDIS_URL=redis://…/0 PYTHONPATH=. \
        python bench/_api_instructions.py [--clients 10] [--warm 200] [--commands 200] \
            [--profile FILE]

The database must be migrated (`manage.py migrate`); the world (people, bots, tokens, games) is
made fresh in it at each run. It plays `--warm` commands, then `--commands` measured ones, and
prints the requests and the statuses of the measured part. Its counts are the point:

- under callgrind, the measured part alone: `valgrind --tool=callgrind --collect-atstart=no
  python bench/_api_instructions.py --callgrind`, which turns the collection on after the warm
  commands and off after the measured ones (callgrind_control, while this process keeps
  running Python so that callgrind sees the request); instructions a command are the total
  (callgrind_annotate's) / `--commands`;
- `--profile FILE`: cProfile of the measured part, written for pstats.

Not run by bench/run (a `_` helper); docs/performance.md, "API", has what it measured.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(REPO_ROOT))
from bench._api_clients import in_turn  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=10, help="clients (even)")
    parser.add_argument("--warm", type=int, default=200, help="commands before the measure")
    parser.add_argument("--commands", type=int, default=200, help="commands measured")
    parser.add_argument("--profile", help="write cProfile's stats of the measured part here")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="the views' own work only: the token's read, the services, the body written by "
        "orjson, without Django's handler, the middleware or DRF",
    )
    parser.add_argument(
        "--callgrind", action="store_true", help="toggle callgrind's collection around it"
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    os.environ["DEBUG"] = ""
    # What would make the count move with the clock (callgrind runs the code 50 times slower,
    # and slower still on a busy host): the person's presence written once, every bot's game
    # within its pull window, as when the bots play at full speed.
    os.environ["GAMES_PRESENCE_WRITE_SECONDS"] = "1000000"
    os.environ["BOTS_PULL_WINDOW_SECONDS"] = "1000000"
    from bench.api import make_world
    from config.wsgi import application

    label = f"i{os.getpid()}-{int(time.time())}"
    world = make_world(args.clients, label)
    players = Players(floor if args.floor else application, world)
    players.play(args.warm)
    players.reset()
    steady()
    if args.callgrind:
        _callgrind("-i", "on")
    if args.profile:
        import cProfile

        # CPU time, not the waits on PostgreSQL and Redis.
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        players.play(args.commands)
        profiler.disable()
        profiler.dump_stats(args.profile)
    else:
        players.play(args.commands)
    if args.callgrind:
        _callgrind("-i", "off")
    print(f"commands {players.commands}, requests {players.requests}, statuses {players.statuses}")
    return 0


def steady() -> None:
    """The rest of what moves with the clock, settled for the measure: the tokens' last use
    written (at most once a minute each) and a drain of the handed-over games on its way
    (games/dispatch.py `hand_over`: its mark lasts ARMED_SECONDS; a worker's drain keeps it)."""
    import datetime

    from django.utils import timezone

    from accounts.models import PersonalToken
    from games import dispatch

    PersonalToken.objects.update(last_used_at=timezone.now() + datetime.timedelta(days=1))
    broker = dispatch._broker()
    if broker is not None:
        client, _, armed = broker
        client.set(armed, 1, ex=3600)


def _callgrind(*command: str) -> None:
    """callgrind_control on this process, Python running meanwhile: callgrind reads its
    commands between the program's instructions, never while it waits in a system call."""
    control = subprocess.Popen(
        ["callgrind_control", *command, str(os.getpid())], stdout=subprocess.DEVNULL
    )
    while control.poll() is None:
        sum(range(1000))


def _answered(result: Any) -> dict[str, Any]:
    """A command's answer as the API's POST gives it (api/games.py, api/bots.py)."""
    return {
        "game": result.game_id,
        "version": result.version,
        "events": result.events,
        "repeated": result.repeated,
        "next": list(result.next),
    }


def floor(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    """The four requests' own work, as their views do it, without the frameworks: the floor
    under which no front door goes."""
    import orjson

    from accounts.services import token_for_key
    from api.games import game_output
    from bots.remote import pull_turns, tokens
    from clocks import presence
    from games import lobby, tasks
    from games.commands import game_command
    from games.repository import repository

    keyword, _, token = environ["HTTP_AUTHORIZATION"].partition(" ")
    path = environ["PATH_INFO"].split("/")
    body: Any
    if keyword == "Bot":
        bot = tokens.bot_for_token(token)
        assert bot is not None
        if environ["REQUEST_METHOD"] == "GET":
            body = pull_turns.pull_decisions(bot)
        else:
            data = orjson.loads(environ["wsgi.input"].read())
            result = pull_turns.pull_command(
                bot=bot,
                game_id=int(path[4]),
                command=data["command"],
                expected_version=data["expected_version"],
                command_id=None,
            )
            body = _answered(result)
    else:
        personal = token_for_key(token)
        assert personal is not None
        user = personal.user
        game_id = int(path[3])
        if environ["REQUEST_METHOD"] == "GET":
            loaded = repository.get(game_id, names=True)
            if tasks.end_grace_if_over(loaded.game):
                loaded = repository.get(game_id, names=True)
            body = game_output(lobby.game_detail(game_id=game_id, viewer=user, loaded=loaded))
        else:
            data = orjson.loads(environ["wsgi.input"].read())
            presence.seen_now_and_then(f"user:{user.pk}", game_id, lambda: user.pk)
            result = game_command(
                game_id=game_id,
                actor=user,
                command=data["command"],
                expected_version=data["expected_version"],
                command_id=None,
            )
            body = _answered(result)
    start_response("200 OK", [])
    return [orjson.dumps(body)]


class Players:
    """bench/_api_clients.py's people and pull bots, in turn, through the WSGI application."""

    def __init__(self, application: Any, world: dict[str, Any]) -> None:
        self.application = application
        self.rng = random.Random(7)
        self.people = [
            {"game": p["game"], "tokens": [f"Token {t}" for t in p["tokens"]], "seat": 0}
            for p in world["people"]
        ]
        self.bots = [{"token": f"Bot {b['token']}"} for b in world["bots"]]
        self.offered: dict[int, Any] = {}
        self.reset()

    def reset(self) -> None:
        self.commands = self.requests = 0
        self.statuses: dict[str, int] = {}

    def play(self, commands: int) -> None:
        goal = self.commands + commands
        while self.commands < goal:
            for n, person in enumerate(self.people):
                self.person(n, person)
                if self.commands >= goal:
                    return
            for n, bot in enumerate(self.bots):
                self.bot(n, bot)
                if self.commands >= goal:
                    return

    def person(self, n: int, entry: dict[str, Any]) -> None:
        seat = entry["seat"]
        offered = self.offered.pop(n, None)
        path = f"/api/games/{entry['game']}"
        if offered is None:
            status, game = self.call("GET", path, entry["tokens"][seat])
            if status != 200 or game["status"] != "playing":
                return
            to_act = game["view"]["to_act"]
            if seat not in to_act:
                seat = entry["seat"] = to_act[0]
                status, game = self.call("GET", path, entry["tokens"][seat])
            offered = {"legal": game["legal"], "version": game["version"]}
        legal = [c for c in offered["legal"] if in_turn(c, seat)]
        body = {"command": self.rng.choice(legal), "expected_version": offered["version"]}
        status, answer = self.call("POST", f"{path}/commands", entry["tokens"][seat], body)
        if status == 200 and answer["next"]:
            self.offered[n] = answer["next"][0]
        else:
            entry["seat"] = 1 - seat

    def bot(self, n: int, entry: dict[str, Any]) -> None:
        key = -1 - n
        due = self.offered.pop(key, None)
        if not due:
            status, decisions = self.call("GET", "/api/bot/decisions", entry["token"])
            due = [d for d in decisions if not d["optional"]] if status == 200 else []
            if not due:
                return
        decision = due[0]
        legal = [c for c in decision["legal"] if in_turn(c, decision["seat"])]
        body = {"command": self.rng.choice(legal), "expected_version": decision["version"]}
        path = f"/api/bot/games/{decision['game']}/commands"
        status, answer = self.call("POST", path, entry["token"], body)
        if status == 200:
            self.offered[key] = [d for d in answer["next"] if not d["optional"]]

    def call(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        """One request as gunicorn hands it to the application (bench/_api_clients.py's
        headers)."""
        import orjson

        data = b"" if body is None else orjson.dumps(body)
        environ = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": path,
            "RAW_URI": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "REMOTE_PORT": "50000",
            "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_AUTHORIZATION": token,
            "HTTP_ACCEPT": "application/json",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if body is not None:
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(data))
        started: list[str] = []

        def start_response(status: str, headers: Any, exc_info: Any = None) -> None:
            started.append(status)

        result = self.application(environ, start_response)
        try:
            payload = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status = int(started[0].split(" ", 1)[0])
        key = f"{method} {status}"
        self.statuses[key] = self.statuses.get(key, 0) + 1
        self.requests += 1
        if method == "POST" and status == 200:
            self.commands += 1
        return status, orjson.loads(payload) if payload else None


if __name__ == "__main__":
    sys.exit(main())
