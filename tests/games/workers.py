"""Set-up shared by the worker tests: the families of 4-bot 500-point matches, a real
`celery worker` process against the test database (and `sending_to` it), and checks on a
finished game's log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

from config import celery_app
from engine import MATCH_OVER, Variant
from games import event_reads, projections
from games.creation import SeatSpec, game_create
from games.models import Game, GameEvent, MatchResult

ROOT = Path(__file__).resolve().parents[2]

# (spec, built-in bot) per family: a 4-bot 500-point match of each.
FAMILIES: dict[str, tuple[dict[str, Any], str]] = {
    "official": ({"rules": "official", "options": {"target": 500}}, "colour-control"),
    "basic-plus": ({"rules": "basic-plus", "options": {"target": 500}}, "greedy"),
    "newno": ({"rules": "newno", "options": {"target": 500}}, "stacker"),
    "censorship": ({"rules": "censorship", "options": {"target": 500}}, "censor"),
    "precognitive": (
        {"rules": "official", "options": {"target": 500}, "precognitive": {"lane": 2}},
        "lane-planner",
    ),
}


def bot_match(family: str, seed: int = 1, bots: list[str] | None = None) -> Game:
    spec, bot = FAMILIES[family]
    names = bots or [bot, "greedy", bot, "random"]
    ages = [30, 20, 40, 10] if spec["rules"] == "newno" else [None] * 4
    seats = [SeatSpec(bot=name, age=age) for name, age in zip(names, ages, strict=True)]
    return game_create(variant_spec=spec, seats=seats, seed=seed)


def assert_finished_whole(game_id: int) -> None:
    """The match is over, its versions run 1..N without gaps, its log replays to the end, and
    the projections show its result."""
    game = Game.objects.get(pk=game_id)
    assert game.status == MATCH_OVER
    versions = list(
        GameEvent.objects.filter(game_id=game_id)
        .order_by("version")
        .values_list("version", flat=True)
    )
    assert versions == list(range(1, game.version + 1))
    state = Variant.from_spec(game.variant).replay(event_reads.load(game_id))
    assert state.status == MATCH_OVER
    for name in projections.PROJECTIONS:
        projections.run(name)
    result = MatchResult.objects.get(game_id=game_id)
    assert result.places == list(state.places)
    assert result.scores == list(state.scores)


def wait_for(check: Callable[[], object], timeout: float, what: str | Callable[[], str]) -> None:
    """Poll `check` until it is true; `what` may be a function, so that a worker's log is read
    when the wait fails rather than when it starts."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    described = what() if callable(what) else what
    raise AssertionError(f"timed out after {timeout} s waiting for {described}")


class Worker:
    """A `celery -A config worker --pool=solo` process on its own queue, against the test
    database. The test process sends to the same queue (see `start`)."""

    def __init__(self, redis_url: str, **env: str) -> None:
        self.redis_url = redis_url
        self.queue = f"test-{uuid.uuid4().hex[:12]}"
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.gettempdir()) / f"uno-worker-{self.queue}.log"

    def start(self) -> None:
        db = settings.DATABASES["default"]
        url = (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "REDIS_URL": self.redis_url,
            "CELERY_QUEUE": self.queue,
            "SECRET_KEY": "insecure-test-key-not-secret",
            **self.env,
        }
        if db.get("PASSWORD"):
            env["PGPASSWORD"] = db["PASSWORD"]
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--loglevel=INFO", "-Q", self.queue, "--without-heartbeat", "--without-gossip",
            "--without-mingle", "-n", f"{self.queue}@%h",
        ]  # fmt: skip
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@contextmanager
def sending_to(worker: Worker) -> Iterator[Worker]:
    """Send tasks from this process to `worker`'s queue on Redis, instead of running them; stop
    the worker at the end."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.broker_url, conf.task_default_queue
    conf.task_always_eager, conf.broker_url, conf.task_default_queue = (
        False,
        worker.redis_url,
        worker.queue,
    )
    try:
        yield worker
    finally:
        worker.stop()
        conf.task_always_eager, conf.broker_url, conf.task_default_queue = saved


def on_test_database() -> bool:
    return connection.vendor == "postgresql"
