"""The soak's processes: its own database on the shared PostgreSQL cluster, its own
redis-server, gunicorn, Celery workers and beat, all on loopback; and the faults done to them.

Nothing here imports Django: the database must exist (and DATABASE_URL point at it) before the
settings are read.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dj_database_url
import psycopg
import redis

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A loopback port nobody listens on now (the usual small race is fine for a harness)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def conninfo(parts: dict[str, Any], name: str) -> str:
    fields = {
        "host": parts.get("HOST") or "127.0.0.1",
        "port": parts.get("PORT") or 5432,
        "user": parts.get("USER") or "",
        "password": parts.get("PASSWORD") or "",
        "dbname": name,
    }
    return " ".join(f"{key}={value}" for key, value in fields.items() if value != "")


def database_url(parts: dict[str, Any], name: str) -> str:
    auth = parts.get("USER") or ""
    if parts.get("PASSWORD"):
        auth += f":{parts['PASSWORD']}"
    host = parts.get("HOST") or "127.0.0.1"
    return f"postgres://{auth}@{host}:{parts.get('PORT') or 5432}/{name}"


class Database:
    """A fresh database beside DATABASE_URL's, dropped at the end: the soak never touches data
    it did not make. The admin connection goes to the cluster's `postgres` database (the base
    database need not exist), so terminating the soak database's backends never cuts it."""

    def __init__(self, base_url: str, name: str) -> None:
        self.parts = dj_database_url.parse(base_url)
        self.name = name
        self.url = database_url(self.parts, name)
        self.admin = psycopg.connect(conninfo(self.parts, "postgres"), autocommit=True)
        self.blocked = False

    def create(self) -> None:
        self.admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.admin.execute(f'CREATE DATABASE "{self.name}"')

    def migrate(self, env: dict[str, str]) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )

    def cut(self) -> int:
        """The PostgreSQL fault: refuse new connections to the soak's database and terminate
        every backend it has (the cluster is shared, so it is not restarted). Returns the
        backends terminated."""
        self.admin.execute(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS false')
        self.blocked = True
        row = self.admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [self.name],
        ).fetchone()
        return int(row[0]) if row else 0

    def restore(self) -> None:
        self.admin.execute(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS true')
        self.blocked = False

    def drop(self) -> None:
        if self.blocked:
            self.restore()
        self.admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.admin.close()


class Process:
    """One child process with its output in a log file of its own."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.log = logs / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no clean-up, no acknowledgement, whatever it was doing."""
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self, timeout: float = 20) -> None:
        if not self.alive():
            return
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class Redis(Process):
    """The soak's own redis-server on a free port: restarting the shared one on 6379 would hit
    other work. No persistence, like CI's: a restart loses every queued task, the harshest case
    (the beat sweeps must find the work again)."""

    def __init__(self, port: int, env: dict[str, str], logs: Path) -> None:
        self.port = port
        command = [
            "redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
            "--appendonly", "no", "--dir", str(logs),
        ]  # fmt: skip
        super().__init__("redis", command, env, logs)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        super().start()
        wait_until(self.answers, 15, "redis-server to answer")

    def answers(self) -> bool:
        try:
            with redis.Redis(port=self.port, socket_connect_timeout=0.5) as client:
                return bool(client.ping())
        except redis.RedisError:
            return False


class Gunicorn(Process):
    def __init__(self, env: dict[str, str], logs: Path, workers: int = 2) -> None:
        self.port = free_port()
        command = [
            sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers),
            "--bind", f"127.0.0.1:{self.port}", "--timeout", "60", "--graceful-timeout", "5",
        ]  # fmt: skip
        super().__init__("gunicorn", command, env, logs)
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        super().start()
        wait_until(self.answers, 30, "gunicorn to answer")

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/api/health", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True  # a 503 from health is an answer: gunicorn is up
        except OSError:
            return False


def celery_worker(name: str, env: dict[str, str], logs: Path) -> Process:
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
        "--loglevel=WARNING", "-Q", env["CELERY_QUEUE"], "-n", f"{name}@%h",
        "--without-heartbeat", "--without-gossip", "--without-mingle",
    ]  # fmt: skip
    return Process(name, command, env, logs)


def celery_beat(env: dict[str, str], logs: Path) -> Process:
    command = [
        sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING",
        "--schedule", str(logs / "beat-schedule"),
    ]  # fmt: skip
    return Process("beat", command, env, logs)


def wait_until(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise RuntimeError(f"timed out after {timeout} s waiting for {what}")


@dataclass
class Plan:
    """Names chosen before Django reads its settings (soak/__main__.py); made later."""

    base_url: str
    database: str
    database_url: str
    redis_port: int
    queue: str
    logs: Path

    @classmethod
    def choose(cls) -> Plan:
        base_url = os.environ.get("DATABASE_URL", "")
        parts = dj_database_url.parse(base_url) if base_url else {"NAME": "uno"}
        database = f"{parts['NAME']}_soak_{os.getpid()}"
        logs = Path(tempfile.mkdtemp(prefix="uno-soak-"))
        return cls(
            base_url=base_url,
            database=database,
            database_url=database_url(parts, database) if base_url else "",
            redis_port=free_port(),
            queue=f"soak-{uuid.uuid4().hex[:8]}",
            logs=logs,
        )

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    @property
    def ready(self) -> bool:
        return self.base_url.startswith(("postgres://", "postgresql://"))

    def env(self) -> dict[str, str]:
        """The settings every process of the soak shares: the project's own variables
        (README.md's table), short limits so that faults and timeouts happen within minutes."""
        return {
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "CELERY_QUEUE": self.queue,
            "SECRET_KEY": os.environ.get("SECRET_KEY") or "soak-only-not-secret",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # The loopback bots' URLs (the second name is the older one).
            "BOTS_ALLOW_LOOPBACK_URLS": "1",
            "BOTS_ALLOW_PRIVATE_URLS": "1",
            # The soak measures faults, not throttles: a person here acts in many games at once.
            "API_PERSON_COMMANDS_RATE": "100000/min",
            "API_BOT_COMMANDS_RATE": "100000/min",
            "BOTS_WEBHOOK_TIMEOUT": "2",
            "BOTS_WINDOW_SECONDS": "0.2",
            "BOTS_PULL_TIMEOUT": "10",
            "BOTS_PULL_WINDOW_SECONDS": "1",
            "GAMES_RECONCILE_IDLE": "5",
            "GAMES_TURN_SECONDS": "20",
            "GAMES_OPEN_CHOICE_TIMEOUT": "5",
            "LEAGUE_MATCHMAKING_SECONDS": "3600",
            "LEAGUE_ROUNDS_SECONDS": "3600",
            "HEALTH_TIMEOUT": "0.5",
            "LOG_LEVEL": "WARNING",
        }


def child_env(plan: Plan, **extra: str) -> dict[str, str]:
    # pytest's variables would make a child think it runs under the test runner.
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.update(plan.env())
    env.update(extra)
    return env
