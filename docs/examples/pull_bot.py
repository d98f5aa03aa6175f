"""A complete pull bot (docs/bots-api.md): polls for decisions, answers each with a command.

    BOT_TOKEN=<token> python pull_bot.py http://127.0.0.1:8000 [seconds between idle polls]

Plays a random legal command, a card when it can, never an uno call or catch that costs cards.
With nothing to send it waits the server's Retry-After (1 s), or the given seconds, to poll again.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from typing import Any

BASE = sys.argv[1].rstrip("/")
IDLE = float(sys.argv[2]) if len(sys.argv) > 2 else None  # None: the server's Retry-After
HEADERS = {"Authorization": f"Bot {os.environ['BOT_TOKEN']}", "Content-Type": "application/json"}


def call(method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data, HEADERS, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer), float(answer.headers["Retry-After"] or 1)
    except urllib.error.HTTPError as error:  # a 4xx or 5xx: {"code": ..., "message": ...}
        return error.code, json.load(error), float(error.headers["Retry-After"] or 1)
    except OSError as error:  # the server is down or restarting: try again later
        return 0, str(error), 5.0


def choose(decision: dict[str, Any]) -> dict[str, Any] | None:
    owed = decision["view"]["uncalled"]  # calling or catching a seat listed here is free
    free = [c for c in decision["legal"] if c["type"] not in ("call-uno", "catch")
            or c.get("target", c["seat"]) in owed]  # fmt: skip
    plays = [c for c in free if c["type"] in ("play", "submit")]
    options = [c for c in plays if c.get("uno")] or plays or free
    return random.choice(options) if options else None  # None: let an optional window go


while True:
    status, decisions, wait = call("GET", "/api/bot/decisions")
    if status != 200:
        print("decisions:", status, decisions, file=sys.stderr)
    # None lets a window go; a decision the game waits for always has a command to send.
    commands = [(d, c) for d in (decisions if status == 200 else []) if (c := choose(d))]
    for decision, command in commands:
        body = {"command": command, "expected_version": decision["version"],
                "command_id": f"v{decision['version']}"}  # fmt: skip
        posted, answer, _ = call("POST", f"/api/bot/games/{decision['game']}/commands", body)
        if posted not in (200, 409) and answer.get("code") != "game-over":  # moved on, ended
            print("refused:", command, posted, answer, file=sys.stderr)
    if not commands:  # nothing to send: wait before the next poll, never spin
        time.sleep(wait if IDLE is None else IDLE)
