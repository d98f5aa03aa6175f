"""A webhook bot served on loopback by http.server in a thread, for the webhook tests.

It answers with the greedy built-in bot's move, unless told to be slow, illegal or broken (for
every request, once, for given requests by number, or for optional window requests), to reset the
connection, to trickle its answer a byte at a time, to decline (null), to forget its uno calls
("no-uno"), to play the random bot's move ("random") or to answer every decision asked in turn
even where greedy would let a newno open choice pass ("answer"); and keeps every request it got
(body and signature header) for the tests to look at.

The `fake` fixture (tests/conftest.py) serves one for a test; `webhook_bot` registers the webhook
bot that calls it.
"""

from __future__ import annotations

import json
import random
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from rest_framework.test import APIClient

from bots.remote import tokens
from bots.remote.webhook import SIGNATURE_HEADER
from bots.strategies import find_strategy
from engine.commands import free_commands
from games.models import Bot
from tests.games.factories import make_user


class FakeBot:
    def __init__(self) -> None:
        # "play", "slow", "illegal", "error", "reset" (no answer: the connection is reset),
        # "trickle" (prompt headers, then the body one byte every `delay`) or "trickle-headers"
        # (everything from the status line on so); `once` goes back to "play" after one request.
        self.mode = "play"
        self.once = False
        # A mode for given requests, by number from 0, ahead of `mode` (e.g. {3: "slow"}).
        self.plan: dict[int, str] = {}
        # The mode for optional (out-of-turn window) requests, ahead of the others, if set.
        self.optional_mode: str | None = None
        self.delay = 0.5
        self.requests: list[tuple[bytes, str]] = []
        # Numbers the requests: a slow answer's thread may still run when the next one comes.
        self.lock = threading.Lock()
        self.rng = random.Random(0)
        # Set on exit: a trickle stops, however far it got.
        self.over = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with fake.lock:
                    number = len(fake.requests)
                    fake.requests.append((body, self.headers.get(SIGNATURE_HEADER, "")))
                payload = json.loads(body)
                if payload.get("optional") and fake.optional_mode is not None:
                    mode = fake.optional_mode
                else:
                    mode = fake.mode_for(number)
                if mode == "reset":
                    # Closed with a zero linger: the client reads a reset, not an answer.
                    linger = struct.pack("ii", 1, 0)
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
                    self.connection.close()
                    return
                status, answer = fake.answer(payload, mode)
                # "deep": JSON nested past any decoder's recursion, under the size cap.
                data = (
                    b"[" * 30_000 + b"]" * 30_000 if mode == "deep" else json.dumps(answer).encode()
                )
                try:
                    if mode.startswith("trickle"):
                        head = (
                            f"HTTP/1.0 {status} OK\r\nContent-Type: application/json\r\n"
                            f"Content-Length: {len(data)}\r\n\r\n"
                        ).encode()
                        if mode == "trickle-headers":
                            fake.trickle(self.wfile, head + data)
                        else:
                            self.wfile.write(head)
                            fake.trickle(self.wfile, data)
                        return
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the worker gave up waiting

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/move"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def mode_for(self, number: int) -> str:
        if number in self.plan:
            return self.plan[number]
        mode = self.mode
        if self.once:
            self.mode, self.once = "play", False
        return mode

    def answer(self, payload: dict[str, Any], mode: str) -> tuple[int, Any]:
        if mode == "error":
            return 500, {"oops": True}
        if mode == "unauthorized":
            # A bot whose secret is not the server's: its signature check fails.
            return 401, {"error": "bad signature"}
        if mode == "illegal":
            return 200, {"type": "play", "seat": payload["seat"], "card": "purple-11"}
        if mode == "misshapen":
            # A list where the command's type belongs.
            return 200, {"type": ["play"], "seat": payload["seat"], "card": {"red": 7}}
        if mode == "wrong-seat":
            # A command for the next seat, not the decision's.
            return 200, {"type": "draw", "seat": payload["seat"] + 1}
        if mode == "slow":
            time.sleep(self.delay)
        if mode == "decline":
            return 200, None
        if "seat" not in payload["view"]:
            # A bare payload from a test of the client alone.
            return 200, payload["legal"][0]
        strategy = find_strategy("random" if mode == "random" else "greedy")
        command = strategy(payload["view"], payload["legal"], self.rng)
        if mode == "answer" and command is None and not payload.get("optional"):
            # Greedy lets a newno open choice pass; asked in turn, this one takes a free command.
            command = free_commands(payload["legal"], payload["view"]["uncalled"])[0]
        if mode == "no-uno" and command is not None and command.get("uno"):
            # Greedy's move without its uno call: the seat owes it out of turn.
            command = {**command, "uno": False}
        return 200, command

    def trickle(self, out: Any, data: bytes) -> None:
        for index in range(len(data)):
            if self.over.wait(self.delay):
                return
            out.write(data[index : index + 1])

    def __enter__(self) -> FakeBot:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.over.set()
        self.server.shutdown()
        self.server.server_close()


def webhook_bot(url: str, status: str = Bot.Status.ACTIVE) -> Bot:
    """A webhook bot "hooky" (secret "s3cret") of a new owner that calls `url`."""
    return Bot.objects.create(
        owner=make_user(), name="hooky", kind=Bot.Kind.WEBHOOK, url=url, secret="s3cret",
        status=status,
    )  # fmt: skip


def active_pull_bot() -> tuple[Bot, str]:
    """An active pull bot of a new owner, and its bot token."""
    bot = Bot.objects.create(
        owner=make_user(), name="poller", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    return bot, tokens.issue_token(bot)


def bot_client(token: str) -> APIClient:
    """An API client that speaks as the bot of `token`."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {token}")
    return client
