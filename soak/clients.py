"""The soak's clients: people playing through the JSON API with their personal tokens, pull
bots polling for decisions, webhook bots served on loopback (honest, or hanging, answering
garbage or 500 from their fault time on), spectators and a health prober.

People and spectators also load play pages, signed in by a session cookie or not. Every payload
served to a seat is kept (`Record.payloads`, `Record.feeds`, and the cards of each play page,
`Record.pages`) for soak/leaks.py to check against the log; every command's answer is counted,
and the id of every command the API accepted is kept for soak/checks.py to find in the log.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bots.strategies import find_strategy
from soak.pages import Page, read_page

# The share of looks at a game for which a person (or a spectator) also loads its play page.
PAGE_SHARE = 0.25
# Retries of a command whose answer did not come (a 5xx, a dropped connection): with the same
# command id, so a command that was applied before the answer was lost is not applied again.
RETRIES = 6
RETRY_PAUSE = 1.0
TIMEOUT = 20


@dataclass
class Payload:
    """A view served to `seat` (None: a spectator) of `game` at `version`."""

    source: str
    game: int
    seat: int | None
    version: int
    view: dict[str, Any]
    legal: list[Any]


@dataclass
class Feed:
    """Events of `game` served to `seat`, each with its version; `at` is when the answer had
    come (time.time()): once the match is over the log is shown whole, so a feed answered before
    the match ended must be redacted, one answered after it may not be."""

    source: str
    game: int
    seat: int | None
    events: list[tuple[int, dict[str, Any]]]
    at: float = field(default_factory=time.time)


@dataclass
class Record:
    """What the clients saw, shared by their threads (list.append and Counter updates under
    the lock)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    counts: Counter[str] = field(default_factory=Counter)
    # Answers other than 200 that clients got, by "status code" ("0 connection" when none came).
    errors: Counter[str] = field(default_factory=Counter)
    health: Counter[str] = field(default_factory=Counter)
    # (game, stored command id) of every command answered 200.
    accepted: list[tuple[int, str]] = field(default_factory=list)
    # Commands that never got a definite answer (every retry failed): applied or not, unknown.
    unanswered: list[tuple[int, str]] = field(default_factory=list)
    payloads: list[Payload] = field(default_factory=list)
    feeds: list[Feed] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)

    def count(self, name: str, n: int = 1) -> None:
        with self.lock:
            self.counts[name] += n

    def error(self, status: int, body: Any) -> None:
        code = body.get("code") if isinstance(body, dict) else None
        key = f"{status} {code or ('connection' if status == 0 else 'no-code')}"
        with self.lock:
            self.errors[key] += 1

    def payload(self, item: Payload) -> None:
        with self.lock:
            self.payloads.append(item)

    def feed(self, item: Feed) -> None:
        with self.lock:
            self.feeds.append(item)

    def page(self, item: Page) -> None:
        with self.lock:
            self.pages.append(item)


def call(
    base: str, method: str, path: str, auth: str | None = None, body: Any = None
) -> tuple[int, Any]:
    """One request; (0, reason) when no HTTP answer came."""
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["Authorization"] = auth
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw)
        except ValueError:
            # Not JSON: a proxy's or the framework's HTML page, which the issue forbids.
            return error.code, {"code": "not-json", "body": raw[:200].decode(errors="replace")}
    except (OSError, ValueError) as error:
        return 0, str(error)


def load_page(
    base: str, record: Record, source: str, game: int, seat: int | None, cookie: str = ""
) -> None:
    """A game's play page, as a browser loads it (signed in by its session cookie, or not):
    its cards are kept; an answer other than 200 is counted like an API error (the service's
    503 outside /api/ is a short text page: `503 unavailable`)."""
    headers = {"Cookie": cookie} if cookie else {}
    request = urllib.request.Request(f"{base}/games/{game}/", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            html = answer.read().decode()
    except urllib.error.HTTPError as error:
        text = error.read().decode(errors="replace")
        unavailable = error.code == 503 and error.headers.get("Retry-After")
        record.error(error.code, {"code": "unavailable" if unavailable else "page-error",
                                  "body": text[:200]})  # fmt: skip
        return
    except OSError as error:
        record.error(0, str(error))
        return
    record.page(read_page(source, game, seat, html))


def send_command(
    base: str,
    record: Record,
    *,
    path: str,
    auth: str,
    game: int,
    key_prefix: str,
    command: dict[str, Any],
    version: int,
    stop: threading.Event,
) -> int:
    """Send a command until a definite answer (anything but a 5xx or no answer) comes; the
    stored id is `key_prefix/command_id`. Returns the last status."""
    command_id = uuid.uuid4().hex
    body = {"command": command, "expected_version": version, "command_id": command_id}
    record.count("commands sent")
    status, answer = deliver(base, record, path, auth, body, stop)
    if status == 200:
        record.count("accepted")
        with record.lock:
            record.accepted.append((game, f"{key_prefix}/{command_id}"))
        if random.random() < 0.03:
            # Delivered twice, as a client whose answer was lost would: the first result
            # comes back and nothing is written.
            record.count("sent twice")
            again, answer = deliver(base, record, path, auth, body, stop)
            if again != 200 or not answer.get("repeated"):
                record.error(again, {"code": "second-delivery-not-repeated"})
        return status
    if status == 0 or status >= 500:
        with record.lock:
            record.unanswered.append((game, f"{key_prefix}/{command_id}"))
    return status


def deliver(
    base: str, record: Record, path: str, auth: str, body: Any, stop: threading.Event
) -> tuple[int, Any]:
    """POST `body` until a definite answer comes (anything but a 5xx or none), RETRIES times
    at most, with the same command id; every answer but a 200 is counted."""
    status, answer = 0, None
    for _ in range(RETRIES):
        status, answer = call(base, "POST", path, auth, body)
        if status == 200:
            return status, answer
        record.error(status, answer)
        if status == 422:
            record.count("refused by rule")
        if status == 409:
            record.count("version conflicts")
        if 0 < status < 500:
            return status, answer
        stop.wait(RETRY_PAUSE)
    return status, answer


@dataclass
class Person:
    user_id: int
    username: str
    token: str
    # The session cookie of a sign-in ("sessionid=…"), for the play pages.
    cookie: str
    # A sleepy person never acts: the turn deadline times their seat out (three times, and the
    # seat is forfeited).
    sleepy: bool = False
    # game id -> seat number
    seats: dict[int, int] = field(default_factory=dict)
    feed_after: dict[int, int] = field(default_factory=dict)


def person_loop(
    base: str, record: Record, person: Person, stop: threading.Event, seed: int, pause: float
) -> None:
    rng = random.Random(seed)
    auth = f"Token {person.token}"
    greedy = find_strategy("greedy")
    while not stop.wait(rng.uniform(0.2, pause)):
        if person.sleepy:
            continue
        status, listing = call(base, "GET", "/api/games?my_turn=1", auth)
        if status != 200:
            record.error(status, listing)
            continue
        for item in rng.sample(listing, min(3, len(listing))):
            if stop.is_set():
                return
            status, detail = call(base, "GET", f"/api/games/{item['id']}", auth)
            if status != 200:
                record.error(status, detail)
                continue
            seat = detail["my_seats"][0] if detail["my_seats"] else None
            record.payload(
                Payload("api-view", detail["game"], seat, detail["version"], detail["view"],
                        detail["legal"])
            )  # fmt: skip
            if rng.random() < PAGE_SHARE:
                load_page(base, record, "play-page", detail["game"], seat, person.cookie)
            if not detail["legal"]:
                continue
            command = greedy(detail["view"], detail["legal"], rng)
            if command is None:
                continue
            version = detail["version"]
            roll = rng.random()
            if roll < 0.03:
                # A card nobody holds: the rules refuse it (422) and nothing changes.
                command = {"type": "play", "seat": seat, "card": "purple-11"}
            elif roll < 0.06:
                version = max(0, version - 1)  # a stale read: 409, decide again
            send_command(
                base, record, path=f"/api/games/{detail['game']}/commands", auth=auth,
                game=detail["game"], key_prefix=f"user:{person.user_id}", command=command,
                version=version, stop=stop,
            )  # fmt: skip
        if person.seats and rng.random() < 0.3:
            follow_feed(base, record, person, rng.choice(sorted(person.seats)), auth)


def follow_feed(base: str, record: Record, person: Person, game: int, auth: str) -> None:
    after = person.feed_after.get(game, 0)
    for _ in range(3):
        status, page = call(base, "GET", f"/api/games/{game}/events?after={after}", auth)
        if status != 200:
            record.error(status, page)
            return
        events = [(item["version"], item["event"]) for item in page["events"]]
        if events:
            record.feed(Feed("api-feed", game, person.seats[game], events))
        after = page["version"]
        person.feed_after[game] = after
        if not page["more"]:
            return


def spectator_loop(
    base: str, record: Record, games: list[int], stop: threading.Event, seed: int
) -> None:
    rng = random.Random(seed)
    while not stop.wait(rng.uniform(0.3, 1.5)):
        if not games:
            continue  # still being made
        game = rng.choice(games)
        status, detail = call(base, "GET", f"/api/games/{game}")
        if status != 200:
            record.error(status, detail)
            continue
        record.payload(
            Payload("spectator-view", game, None, detail["version"], detail["view"],
                    detail["legal"])
        )  # fmt: skip
        if rng.random() < PAGE_SHARE:
            load_page(base, record, "spectator-page", game, None)
        after = max(0, detail["version"] - rng.randint(5, 60))
        status, page = call(base, "GET", f"/api/games/{game}/events?after={after}")
        if status != 200:
            record.error(status, page)
            continue
        events = [(item["version"], item["event"]) for item in page["events"]]
        if events:
            record.feed(Feed("spectator-feed", game, None, events))


def pull_bot_loop(
    base: str, record: Record, bot_id: int, token: str, stop: threading.Event, seed: int
) -> None:
    rng = random.Random(seed)
    auth = f"Bot {token}"
    greedy = find_strategy("greedy")
    while not stop.is_set():
        status, decisions = call(base, "GET", "/api/bot/decisions", auth)
        if status != 200:
            record.error(status, decisions)
            stop.wait(0.5)
            continue
        for decision in decisions:
            record.payload(
                Payload("pull-decision", decision["game"], decision["seat"], decision["version"],
                        decision["view"], decision["legal"])
            )  # fmt: skip
            command = greedy(decision["view"], decision["legal"], rng)
            if command is None or stop.is_set():
                continue
            send_command(
                base, record, path=f"/api/bot/games/{decision['game']}/commands", auth=auth,
                game=decision["game"], key_prefix=f"bot:#{bot_id}", command=command,
                version=decision["version"], stop=stop,
            )  # fmt: skip
        if not decisions:
            stop.wait(0.3)


def health_loop(base: str, record: Record, stop: threading.Event) -> None:
    """What a load balancer sees: the status and code of GET /api/health every second."""
    while not stop.wait(1.0):
        status, body = call(base, "GET", "/api/health")
        code = body.get("code", "ok") if isinstance(body, dict) else "connection"
        with record.lock:
            record.health[f"{status} {code}"] += 1


class WebhookBot:
    """A registered webhook bot on loopback. `fault` ("hang", "garbage", "error") takes over
    from `fault_at` (time.monotonic()) on; before that, and for an honest bot, it answers the
    greedy bot's move."""

    def __init__(self, name: str, record: Record, fault: str = "", seed: int = 0) -> None:
        self.name = name
        self.fault = fault
        self.fault_at = float("inf")
        self.record = record
        self.rng = random.Random(seed)
        self.requests = 0
        self.faulty_answers = 0
        self.over = threading.Event()
        self.lock = threading.Lock()
        bot = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                status, data = bot.answer(json.loads(body))
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the worker stopped waiting (a hang)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/move"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        )

    def answer(self, payload: dict[str, Any]) -> tuple[int, bytes]:
        self.record.payload(
            Payload("webhook-body", payload["game"], payload["seat"], payload["version"],
                    payload["view"], payload["legal"])
        )  # fmt: skip
        with self.record.lock:
            self.requests += 1
        mode = self.fault if self.fault and time.monotonic() >= self.fault_at else "play"
        if mode != "play":
            with self.record.lock:
                self.faulty_answers += 1
        if mode == "hang":
            # Far past BOTS_WEBHOOK_TIMEOUT: the worker gives up, the fallback moves.
            self.over.wait(10)
            return 200, b"null"
        if mode == "garbage":
            return 200, b"\x00<html>not a command{"
        if mode == "error":
            return 500, b"<h1>Internal Server Error</h1>"
        with self.lock:  # the rng is shared by the server's threads
            command = find_strategy("greedy")(payload["view"], payload["legal"], self.rng)
        return 200, json.dumps(command).encode()

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.over.set()
        self.server.shutdown()
        self.server.server_close()
