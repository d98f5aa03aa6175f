"""The bot under test in the arena (bots/arena.py): a webhook bot asked by the server's own
exchange, or a command bot run as a subprocess that speaks JSON lines. Standard library and
bots/remote/wire.py only, so the arena's one-file download (bots/bundle.py) carries it.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time
from typing import Any, NoReturn, Protocol

from bots.remote import wire

# Seconds a command bot (--command) may take to start, on top of its first answer's limit.
STARTUP = 10.0


class Bot(Protocol):
    def ask(self, payload: dict[str, Any], timeout: float) -> wire.Answer: ...

    def close(self) -> None: ...


class WebhookBot:
    """A bot at a URL, asked by the server's own exchange."""

    def __init__(self, url: str, secret: str) -> None:
        self.url, self.secret = url, secret

    def ask(self, payload: dict[str, Any], timeout: float) -> wire.Answer:
        # The author's own machine is what this is for: loopback allowed, private ranges not.
        call = wire.begin(self.url, timeout=timeout, allow_loopback=True)
        return wire.post(call, secret=self.secret, payload=payload)

    def close(self) -> None:
        pass


_EOF = object()


class BotGone(Exception):
    """The command bot's program ended: every later question would be one more strike, so the
    run stops there and says why."""


class CommandBot:
    """A bot run as a subprocess: one JSON request a line on its stdin, one JSON answer a line
    on its stdout."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(  # noqa: S603 (the author's own command)
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        self.lines: queue.Queue[object] = queue.Queue()
        # Answers still owed to questions that timed out: read and thrown away when they come.
        self.late = 0
        # The first question also waits for the program to start (an interpreter, its
        # imports): STARTUP seconds more, which no server-side bot needs (it is running already).
        self.starting = True
        self.reader = threading.Thread(target=self._read, name="arena-bot-stdout", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            # One more byte than an answer may have: a longer line is cut there and refused.
            line = stdout.readline(wire.MAX_ANSWER + 2)
            if not line:
                self.lines.put(_EOF)
                return
            while len(line) > wire.MAX_ANSWER + 1 and not line.endswith(b"\n"):
                rest = stdout.readline(wire.MAX_ANSWER + 2)
                if not rest or rest.endswith(b"\n"):
                    break
            self.lines.put(line)

    def ask(self, payload: dict[str, Any], timeout: float) -> wire.Answer:
        started = time.monotonic()
        deadline = started + timeout + (STARTUP if self.starting else 0.0)
        self.starting = False
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(payload, separators=(",", ":")).encode() + b"\n")
            stdin.flush()
        except OSError as error:
            if self.process.poll() is not None:
                self._gone()
            return wire.Answer(wire.ERROR, detail=f"cannot write to the bot: {error}")
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=left) if left > 0 else self.lines.get_nowait()
            except queue.Empty:
                self.late += 1
                latency = time.monotonic() - started
                return wire.Answer(wire.TIMEOUT, latency=latency, detail="no answer in time")
            if line is _EOF:
                self._gone()
            if self.late:
                self.late -= 1
                continue
            break
        latency = time.monotonic() - started
        assert isinstance(line, bytes)
        raw = line.rstrip(b"\r\n")
        if len(raw) > wire.MAX_ANSWER:
            return wire.Answer(wire.ERROR, latency=latency, detail="the answer is too long")
        try:
            command = json.loads(raw)
        except (ValueError, RecursionError):
            return wire.Answer(wire.ERROR, latency=latency, detail="the answer is not JSON")
        return wire.Answer(wire.OK, command=command, latency=latency)

    def _gone(self) -> NoReturn:
        try:
            status: int | None = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            status = None  # its output closed, the program still running
        said = "" if status is None else f" (exit status {status})"
        raise BotGone(f"your bot's program ended{said} before answering")

    def close(self) -> None:
        if self.process.stdin is not None:
            try:
                self.process.stdin.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
