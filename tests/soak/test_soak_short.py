"""The soak in short (soak/, `make soak`): 7 games, one of every family, for about 40 s against
gunicorn, real Celery workers, beat, their own redis-server and their own PostgreSQL cluster
(initdb'd for the run, migrated by an owner role, used by a non-superuser app role), with every
fault injected once (a worker SIGKILLed, Redis restarted, the database's connections cut,
PostgreSQL restarted, webhook bots that hang, answer garbage or 500). The harness runs in a
process of its own; its end checks pass, the app role cannot change the log, no payload, play
page or email shows a hidden card, and its last line is `lost: 0`."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CI = os.environ.get("CI", "").lower() == "true"
# Where soak/infra.py looks for initdb (this package's name hides the soak package here).
INITDB = (
    Path(os.environ["SOAK_PG_BIN"], "initdb").is_file()
    if os.environ.get("SOAK_PG_BIN")
    else bool(glob.glob("/usr/lib/postgresql/*/bin/initdb") or shutil.which("initdb"))
)

pytestmark = pytest.mark.skipif(
    not CI and not (INITDB and shutil.which("redis-server")),
    reason="needs PostgreSQL's initdb and pg_ctl (SOAK_PG_BIN) and redis-server on the PATH",
)


def test_a_short_soak_loses_nothing_and_serves_no_hidden_card():
    command = [
        sys.executable, "-m", "soak", "--games", "7", "--minutes", "0.6", "--settle", "30",
        "--pause", "2",
    ]  # fmt: skip
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=200, check=False
    )
    output = done.stdout + done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, output
    assert lines[-1] == "lost: 0", output
    figures = "\n".join(lines)
    assert "faults injected: 7" in figures, output
    assert "postgres-restart: the soak's PostgreSQL restarted" in figures, output
    assert "leaks: 0" in figures, output
    # Play pages were loaded and checked, by people and by spectators.
    assert " play-page " in figures and " spectator-page " in figures, output
    assert "permission denied (3 of 3)" in figures and "superuser no" in figures, output
    # Clients saw the outages as 503s with a code, never a bare 500.
    assert "500 server_error" not in figures and "not-json" not in figures, output
    assert "page-error" not in figures, output
