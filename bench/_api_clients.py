#!/usr/bin/env python3
"""bench/api.py's clients: a process of their own, no Django (bench/run skips `_` files).

bench/api.py starts it with the run's configuration as JSON on stdin (the server's address,
the seconds, the offered rate, the people's and pull bots' games and tokens) and reads its
result as JSON on stdout: every request's latency, the statuses, how many moves started late
and the rate of accepted commands over the steady window. docs/performance.md, "API" and "A
bounded load", says how the clients play and are paced.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from typing import Any

# Out-of-turn commands: a client sends only its turn's (a random player would catch all the time).
OUT_OF_TURN = {"catch", "call-uno"}


def in_turn(command: dict[str, Any], seat: int) -> bool:
    return command["type"] not in OUT_OF_TURN and command.get("seat") == seat


def main() -> int:
    config = json.load(sys.stdin)
    result = asyncio.run(clients(config))
    json.dump(result, sys.stdout)
    return 0


async def clients(config: dict[str, Any]) -> dict[str, Any]:
    import aiohttp

    base, seconds = config["base"], config["seconds"]
    samples: dict[str, list[float]] = {"get": [], "post": []}
    statuses: dict[str, int] = {}
    # Paced: each client starts a move (its GET, then its POST) every `interval` seconds, at a
    # random phase, so that the clients together offer `rate` commands/s; a client whose move
    # ends late starts the next at once (never a burst to catch up), and counts it as late.
    clients = len(config["people"]) + len(config["bots"])
    interval = clients / config["rate"] if config["rate"] else 0.0
    late = [0]
    started: list[float] = []  # each accepted command's start, in seconds from the window's start
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    async with aiohttp.ClientSession(base, connector=connector) as session:
        stop = time.perf_counter() + seconds

        async def paced(next_at: list[float]) -> None:
            if not interval:
                return
            now = time.perf_counter()
            if next_at[0] > now:
                await asyncio.sleep(next_at[0] - now)
            elif next_at[0] < now - interval:
                late[0] += 1
            next_at[0] = max(next_at[0], now - interval) + interval

        async def call(method: str, path: str, token: str, body: Any = None) -> Any:
            began = time.perf_counter()
            async with session.request(
                method, path, json=body, headers={"Authorization": token}
            ) as response:
                payload = await response.json(content_type=None)
                status = response.status
            samples["post" if method == "POST" else "get"].append(time.perf_counter() - began)
            if method == "POST" and status == 200:
                started.append(began - (stop - seconds))
            key = f"{method} {status}"
            statuses[key] = statuses.get(key, 0) + 1
            return status, payload

        async def person(entry: dict[str, Any], rng: random.Random) -> None:
            tokens = [f"Token {token}" for token in entry["tokens"]]
            seat = 0
            # What the last answer said the game waits for from its sender (`next`): then no read.
            offered: dict[str, Any] | None = None
            next_at = [time.perf_counter() + rng.random() * interval]
            while time.perf_counter() < stop:
                await paced(next_at)
                if offered is None:
                    status, game = await call("GET", f"/api/games/{entry['game']}", tokens[seat])
                    if status != 200 or game["status"] != "playing":
                        return
                    to_act = game["view"]["to_act"]
                    if seat not in to_act:
                        seat = to_act[0]
                        path = f"/api/games/{entry['game']}"
                        status, game = await call("GET", path, tokens[seat])
                        if status != 200 or game["status"] != "playing":
                            return
                    offered = {"legal": game["legal"], "version": game["version"]}
                legal = [c for c in offered["legal"] if in_turn(c, seat)]
                body = {"command": rng.choice(legal), "expected_version": offered["version"]}
                path = f"/api/games/{entry['game']}/commands"
                status, answer = await call("POST", path, tokens[seat], body)
                offered = answer["next"][0] if status == 200 and answer["next"] else None
                if offered is None:
                    seat = 1 - seat

        async def bot(entry: dict[str, Any], rng: random.Random) -> None:
            token = f"Bot {entry['token']}"
            due: list[dict[str, Any]] = []
            next_at = [time.perf_counter() + rng.random() * interval]
            while time.perf_counter() < stop:
                await paced(next_at)
                if not due:
                    status, decisions = await call("GET", "/api/bot/decisions", token)
                    due = [d for d in decisions if not d["optional"]] if status == 200 else []
                    if not due:
                        return
                decision = due[0]
                legal = [c for c in decision["legal"] if in_turn(c, decision["seat"])]
                body = {"command": rng.choice(legal), "expected_version": decision["version"]}
                path = f"/api/bot/games/{decision['game']}/commands"
                status, answer = await call("POST", path, token, body)
                # The answer's `next`: the decision the game waits for from the bot now, if any.
                due = [d for d in answer["next"] if not d["optional"]] if status == 200 else []

        began = time.perf_counter()
        await asyncio.gather(
            *(person(entry, random.Random(n)) for n, entry in enumerate(config["people"])),
            *(bot(entry, random.Random(100 + n)) for n, entry in enumerate(config["bots"])),
        )
        elapsed = time.perf_counter() - began
    # The rate of accepted commands (200) over the steady window: from the end of the first
    # interval (when every client has started its first move, at its random phase) to the stop;
    # the moves still finishing after the stop (the drain) count in the latencies, not here.
    settled = min(interval, seconds / 2)
    steady = [at for at in started if settled <= at < seconds]
    rate = len(steady) / (seconds - settled)
    return {
        "samples": samples,
        "statuses": statuses,
        "seconds": elapsed,
        "late": late[0],
        "rate": rate,
    }


if __name__ == "__main__":
    sys.exit(main())
