"""The soak's processes: its own PostgreSQL cluster and redis-server, gunicorn, Celery workers
and beat, all on loopback; and the faults done to them.

Nothing here imports Django: the database must exist (and DATABASE_URL point at it) before the
settings are read.
"""

from __future__ import annotations

import os
import secrets
import shutil
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

import psycopg
import redis
from psycopg import sql

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A loopback port nobody listens on now (the usual small race is fine for a harness)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# Where initdb and pg_ctl are looked for when SOAK_PG_BIN is unset (Debian's layout, newest first).
PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"
# The soak's roles: the owner migrates (it owns every table); the application runs as APP_ROLE,
# which is not a superuser and may only read and append events (docs/reliability.md).
OWNER_ROLE = "uno_owner"
APP_ROLE = "uno_app"
DATABASE = "uno_soak"


def postgres_bin() -> Path | None:
    """The directory of initdb and pg_ctl: SOAK_PG_BIN, else the newest of PG_BIN_GLOB, else the
    PATH's; None when there is none."""
    named = os.environ.get("SOAK_PG_BIN")
    if named:
        found = [Path(named)]
    else:
        versions = [path for path in Path("/").glob(PG_BIN_GLOB[1:]) if path.parent.name.isdigit()]
        found = sorted(versions, key=lambda path: int(path.parent.name), reverse=True)
        on_path = shutil.which("initdb")
        if on_path:
            found.append(Path(on_path).parent)
    for directory in found:
        if (directory / "initdb").is_file() and (directory / "pg_ctl").is_file():
            return directory
    return None


def database_url(port: int, role: str, password: str) -> str:
    return f"postgres://{role}:{password}@127.0.0.1:{port}/{DATABASE}"


class Cluster:
    """The soak's own throwaway PostgreSQL cluster, so that it can be restarted: initdb'd into a
    temporary directory, listening on 127.0.0.1 at a free port (and a socket in that directory,
    for the superuser only), fsync off (its data is thrown away), removed at the end.

    initdb refuses to run as root: as root, the cluster's commands run as the `postgres` OS
    user (runuser) and the directory is given to it. Host connections need a password (SCRAM);
    the owner and the app role get random ones, the superuser none (socket, trust)."""

    def __init__(self, bindir: Path, port: int, passwords: dict[str, str]) -> None:
        self.bindir = bindir
        self.port = port
        self.passwords = passwords
        self.root = Path(tempfile.mkdtemp(prefix="uno-soak-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        self.blocked = False

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, cwd=self.root, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{program} {' '.join(args)} failed: {done.stderr or done.stdout}")

    def init(self) -> None:
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "-E", "UTF8", "--no-sync",
            "--auth-local=trust", "--auth-host=scram-sha-256",
        )  # fmt: skip

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={self.root} -c fsync=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "60", "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def restart(self, down: float) -> str:
        """The PostgreSQL fault: a fast shutdown (every backend terminated, its transaction
        rolled back, a checkpoint), `down` seconds with nothing listening, a start."""
        began = time.monotonic()
        self.stop("fast")
        stopped = time.monotonic()
        time.sleep(down)
        self.start()
        return (
            f"stopped in {stopped - began:.1f} s (pg_ctl stop -m fast), down {down:g} s, "
            f"accepting connections again {time.monotonic() - stopped:.1f} s after the stop"
        )

    def admin(self, dbname: str = "postgres") -> psycopg.Connection[Any]:
        """A superuser connection over the socket, fresh each time (a restart drops it)."""
        return psycopg.connect(
            host=str(self.root), port=self.port, user="postgres", dbname=dbname, autocommit=True
        )

    def url(self, role: str) -> str:
        return database_url(self.port, role, self.passwords[role])

    def create(self) -> None:
        """The roles and the database, owned by the owner role. The app role may log in and
        nothing more; what it may do to the tables, the migrations grant (DATABASE_APP_ROLE;
        soak/__main__.py migrates as the owner)."""
        with self.admin() as admin:
            admin.execute(
                sql.SQL(
                    "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD {}"
                ).format(sql.Identifier(OWNER_ROLE), self.passwords[OWNER_ROLE])
            )
            admin.execute(
                sql.SQL(
                    "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD {}"
                ).format(sql.Identifier(APP_ROLE), self.passwords[APP_ROLE])
            )
            admin.execute(
                sql.SQL("CREATE DATABASE {} OWNER {}").format(
                    sql.Identifier(DATABASE), sql.Identifier(OWNER_ROLE)
                )
            )

    def cut(self) -> int:
        """The lighter PostgreSQL fault: refuse new connections to the soak's database and
        terminate every backend it has, the server itself staying up. Returns the backends
        terminated."""
        with self.admin() as admin:
            admin.execute(sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS false").format(
                sql.Identifier(DATABASE)))  # fmt: skip
            self.blocked = True
            row = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [DATABASE],
            ).fetchone()
        return int(row[0]) if row else 0

    def restore(self) -> None:
        with self.admin() as admin:
            admin.execute(sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS true").format(
                sql.Identifier(DATABASE)))  # fmt: skip
        self.blocked = False

    def destroy(self, keep: bool = False) -> None:
        """Stop the cluster and remove its directory (`keep`: leave it, stopped)."""
        try:
            self.stop("fast")
        except RuntimeError:
            pass  # never started, or already down
        if not keep:
            shutil.rmtree(self.root, ignore_errors=True)


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
    """gunicorn with the application loaded once, in the arbiter, before it forks its workers
    (`--preload`): each worker would otherwise import Django and the URL configuration again
    (config/wsgi.py; about 2 s of CPU each on a loaded machine). No connection is opened while
    loading, so every worker makes its own database and Redis connections as before."""

    def __init__(self, env: dict[str, str], logs: Path, workers: int = 2) -> None:
        self.port = free_port()
        command = [
            sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers),
            "--bind", f"127.0.0.1:{self.port}", "--timeout", "60", "--graceful-timeout", "5",
            "--logger-class", "config.gunicorn_logger.RedactingLogger", "--preload",
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


def collect_static(env: dict[str, str]) -> None:
    """`manage.py collectstatic`, as the Dockerfile runs it: with DEBUG off the pages name
    their static files through its manifest (STATIC_ROOT, staticfiles/, which git ignores).
    Skipped when the manifest is newer than every file in static/."""
    manifest = ROOT / "staticfiles" / "staticfiles.json"
    sources = [path.stat().st_mtime for path in (ROOT / "static").rglob("*") if path.is_file()]
    if manifest.exists() and manifest.stat().st_mtime >= max(sources, default=0):
        return
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


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

    pg_bin: Path | None
    pg_port: int
    passwords: dict[str, str]
    redis_port: int
    queue: str
    logs: Path

    @classmethod
    def choose(cls) -> Plan:
        return cls(
            pg_bin=postgres_bin(),
            pg_port=free_port(),
            passwords={role: secrets.token_hex(16) for role in (OWNER_ROLE, APP_ROLE)},
            redis_port=free_port(),
            queue=f"soak-{uuid.uuid4().hex[:8]}",
            logs=Path(tempfile.mkdtemp(prefix="uno-soak-")),
        )

    def cluster(self) -> Cluster:
        assert self.pg_bin is not None
        return Cluster(self.pg_bin, self.pg_port, self.passwords)

    @property
    def database_url(self) -> str:
        """The application's: the app role (gunicorn, the workers, beat and the soak itself)."""
        return database_url(self.pg_port, APP_ROLE, self.passwords[APP_ROLE])

    @property
    def mail(self) -> Path:
        return self.logs / "mail"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def env(self) -> dict[str, str]:
        """The settings every process of the soak shares: the project's own variables
        (README.md's table), short limits so that faults and timeouts happen within minutes."""
        return {
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            # The rate limits' cache on the Redis the soak restarts, as docker-compose.yml has it
            # (another database of the same server): commands must go on while it is down.
            "CACHE_URL": self.redis_url.removesuffix("/0") + "/1",
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
            # Turn emails as files (Django's file backend), every one checked for hidden cards.
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(self.mail),
            "LOG_LEVEL": "WARNING",
        }


def child_env(plan: Plan, **extra: str) -> dict[str, str]:
    # pytest's variables would make a child think it runs under the test runner.
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.update(plan.env())
    env.update(extra)
    return env
