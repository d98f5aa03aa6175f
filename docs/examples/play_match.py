"""Play a whole match as a person through the JSON API (docs/api.md), with the standard library.

    python docs/examples/play_match.py http://127.0.0.1:8000 <personal token> '{"rules": "newno"}'

Starts a game against three built-in bots, then plays every turn of yours with a random legal
command until the match is over, following the game's events as it goes; prints the result.
tests/api/test_play_script.py runs it for every family.
"""

from __future__ import annotations

import json
import random
import sys
import time
import urllib.error
import urllib.request
from typing import Any

OUT_OF_TURN = {"call-uno", "catch"}


class Client:
    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/")
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers=self.headers
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)


def choose(game: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random legal command when the game waits for my seat; None while others play.
    Calling uno and catching are legal at any time in basic-plus: only take them in turn."""
    view = game["view"]
    if view["seat"] not in view["to_act"] or not game["legal"]:
        return None
    in_turn = [c for c in game["legal"] if c["type"] not in OUT_OF_TURN]
    return rng.choice(in_turn or game["legal"])


def play(base: str, token: str, variant: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    """Play one match; return the final game detail and the events read along the way."""
    client = Client(base, token)
    bots = [{"bot": "greedy"}, {"bot": "random"}, {"bot": "colour-control"}]
    status, game = client.call(
        "POST", "/api/games", {"variant": variant, "seats": [{"user": "me"}, *bots], "seed": seed}
    )
    if status != 201:
        raise RuntimeError(f"could not start the game: {status} {game}")
    path = f"/api/games/{game['game']}"
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    deadline = time.monotonic() + 600
    while game["status"] != "match-over":
        if time.monotonic() > deadline:
            raise RuntimeError(f"the match did not end in time (version {game['version']})")
        command = choose(game, rng)
        if command is not None:
            body = {
                "command": command,
                "expected_version": game["version"],
                "command_id": f"v{game['version']}",
            }
            status, answer = client.call("POST", f"{path}/commands", body)
            # 409: the game moved on, read it again; game-over: the read below ends the loop.
            if status not in (200, 409) and answer.get("code") != "game-over":
                raise RuntimeError(f"refused {command}: {status} {answer}")
        else:
            time.sleep(0.05)  # other seats are playing
        events += follow(client, path, after=events[-1]["version"] if events else 0)
        status, game = client.call("GET", path)
    events += follow(client, path, after=events[-1]["version"] if events else 0)
    return {"game": game, "events": events}


def follow(client: Client, path: str, *, after: int) -> list[dict[str, Any]]:
    """Every event after `after`, page by page."""
    found: list[dict[str, Any]] = []
    more = True
    while more:
        status, page = client.call("GET", f"{path}/events?after={after}")
        if status != 200:
            raise RuntimeError(f"events: {status} {page}")
        found += page["events"]
        after, more = page["version"], page["more"]
    return found


if __name__ == "__main__":
    base_url, key = sys.argv[1], sys.argv[2]
    spec = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {"rules": "official"}
    result = play(base_url, key, spec)["game"]
    print(
        f"game {result['game']}: places {result['view']['places']}, "
        f"scores {result['view']['scores']}"
    )
