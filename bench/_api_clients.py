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
# Seconds before the window in which the clients join (below).
JOIN = 1.0


def in_turn(command: dict[str, Any], seat: int) -> bool:
    return command["type"] not in OUT_OF_TURN and command.get("seat") == seat


def main() -> int:
    config = json.load(sys.stdin)
    result = asyncio.run(clients(config))
    json.dump(result, sys.stdout)
    return 0


class Connection:
    """One client's keep-alive HTTP/1.1 connection to gunicorn, one request at a time, JSON in
    and out. Not aiohttp: the clients share the two cores with the server they measure, and
    aiohttp's per-request work cost them about 0.4 ms of CPU a command, half their share; this
    is the least a client does (Django's answers carry a Content-Length, never chunks)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, token: str, body: Any) -> tuple[int, Any]:
        if self.writer is not None and self.reader is not None and self.reader.at_eof():
            # The server closed it while it sat idle (gunicorn's keep-alive): a new one.
            self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Authorization: {token}\r\nAccept: application/json\r\n"
        )
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(b":") for line in lines[1:] if line)
        }
        if b"content-length" not in headers:
            raise RuntimeError(f"{method} {path}: an answer without a Content-Length")
        payload = await self.reader.readexactly(int(headers[b"content-length"]))
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return status, json.loads(payload) if payload else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def clients(config: dict[str, Any]) -> dict[str, Any]:
    base, seconds = config["base"], config["seconds"]
    samples: dict[str, list[float]] = {"get": [], "post": []}
    statuses: dict[str, int] = {}
    # Paced: each client sends a command (its POST) every `interval` seconds, at a random phase,
    # so that the clients together offer `rate` commands/s; what it reads first (a GET, when the
    # last answer did not say what the game waits for from it) comes before, in its time to
    # think. A client whose command goes out late sends the next at once (never a burst to
    # catch up), and counts it as late.
    clients = len(config["people"]) + len(config["bots"])
    interval = clients / config["rate"] if config["rate"] else 0.0
    late = [0]
    started: list[float] = []  # each accepted command's start, in seconds from the window's start
    host, port = base.removeprefix("http://").split(":")
    # Joining: before the window, each client opens its game once, at a random moment of
    # the first JOIN seconds (its connection, then a person's read of the game or a bot's
    # read of its decisions), as a player opening a game does; those reads are not
    # measured. The window starts after the join: every figure is of the play.
    window = time.perf_counter() + JOIN
    stop = window + seconds

    async def paced(next_at: list[float]) -> None:
        now = time.perf_counter()
        if not interval:
            # Unpaced: back to back, from the window's start.
            if now < window:
                await asyncio.sleep(window - now)
            return
        if next_at[0] > now:
            await asyncio.sleep(next_at[0] - now)
        elif next_at[0] < now - interval:
            late[0] += 1
        next_at[0] = max(next_at[0], now - interval) + interval

    async def call(
        connection: Connection, method: str, path: str, token: str, body: Any = None
    ) -> Any:
        began = time.perf_counter()
        status, payload = await connection.request(method, path, token, body)
        if began >= window:
            samples["post" if method == "POST" else "get"].append(time.perf_counter() - began)
            if method == "POST" and status == 200:
                started.append(began - window)
        # Every request's status, the join's too: a client whose join failed plays no more.
        key = f"{method} {status}" if began >= window else f"join {method} {status}"
        statuses[key] = statuses.get(key, 0) + 1
        return status, payload

    async def join(rng: random.Random) -> list[float]:
        """Wait for this client's moment of the join; its first move's time in the window."""
        await asyncio.sleep(rng.random() * JOIN * 0.8)
        return [window + rng.random() * interval]

    async def person(entry: dict[str, Any], rng: random.Random) -> None:
        tokens = [f"Token {token}" for token in entry["tokens"]]
        connection = Connection(host, int(port))
        seat = 0
        # What the last answer said the game waits for from its sender (`next`): then no read.
        offered: dict[str, Any] | None = None
        next_at = await join(rng)
        while time.perf_counter() < stop:
            if offered is None:
                path = f"/api/games/{entry['game']}"
                status, game = await call(connection, "GET", path, tokens[seat])
                if status != 200 or game["status"] != "playing":
                    return
                to_act = game["view"]["to_act"]
                if seat not in to_act:
                    seat = to_act[0]
                    status, game = await call(connection, "GET", path, tokens[seat])
                    if status != 200 or game["status"] != "playing":
                        return
                offered = {"legal": game["legal"], "version": game["version"]}
            await paced(next_at)
            if time.perf_counter() >= stop:
                break  # no new command after the stop (its read was before)
            legal = [c for c in offered["legal"] if in_turn(c, seat)]
            body = {"command": rng.choice(legal), "expected_version": offered["version"]}
            path = f"/api/games/{entry['game']}/commands"
            status, answer = await call(connection, "POST", path, tokens[seat], body)
            offered = answer["next"][0] if status == 200 and answer["next"] else None
            if offered is None:
                seat = 1 - seat

    async def bot(entry: dict[str, Any], rng: random.Random) -> None:
        token = f"Bot {entry['token']}"
        connection = Connection(host, int(port))
        due: list[dict[str, Any]] = []
        next_at = await join(rng)
        while time.perf_counter() < stop:
            if not due:
                status, decisions = await call(connection, "GET", "/api/bot/decisions", token)
                due = [d for d in decisions if not d["optional"]] if status == 200 else []
                if not due:
                    return
            await paced(next_at)
            if time.perf_counter() >= stop:
                break  # no new command after the stop (its read was before)
            decision = due[0]
            legal = [c for c in decision["legal"] if in_turn(c, decision["seat"])]
            body = {"command": rng.choice(legal), "expected_version": decision["version"]}
            path = f"/api/bot/games/{decision['game']}/commands"
            status, answer = await call(connection, "POST", path, token, body)
            # The answer's `next`: the decision the game waits for from the bot now, if any.
            due = [d for d in answer["next"] if not d["optional"]] if status == 200 else []

    await asyncio.gather(
        *(person(entry, random.Random(n)) for n, entry in enumerate(config["people"])),
        *(bot(entry, random.Random(100 + n)) for n, entry in enumerate(config["bots"])),
    )
    elapsed = time.perf_counter() - window
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
