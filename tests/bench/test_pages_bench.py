"""bench/pages.py in small (`make bench` runs it at size): it fills a scratch PostgreSQL
database with the project's own code, times every page through gunicorn at a tenth of the size
and at the size, prints a table for each with the SQL queries each page makes, drops its
database, and ends with `worst page p95 ms: X at N events` and, last, `growth: Y`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import dj_database_url
import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
URL = os.environ.get("DATABASE_URL", "")
HEADER = "| page | median ms | p95 ms | queries | bytes |"
ROW = re.compile(r"^\| (?P<page>.+?) \| [\d.]+ \| [\d.]+ \| (?P<queries>\d+) \| [\d,]+ \|$")

# `slow`: a fresh database migrated, filled and served costs about a minute of CPU, a sixth of
# the whole suite's budget (docs/performance.md, "The test suite"); UNO_SLOW_TESTS=1 runs it.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not URL.startswith(("postgres://", "postgresql://")),
        reason="needs DATABASE_URL=postgres://",
    ),
]


def test_the_pages_bench_prints_both_tables_and_its_two_last_lines():
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    # One gunicorn process of one thread: the requests come one at a time.
    env.update(GUNICORN_WORKERS="1", GUNICORN_THREADS="1", PYTHONPATH=str(ROOT))
    command = [
        sys.executable, "bench/pages.py", "--events", "2000", "--requests", "1", "--warmups", "0",
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=400, check=False
    )
    output = done.stdout + done.stderr[-3000:]
    assert done.returncode == 0, output
    lines = done.stdout.strip().splitlines()
    assert re.fullmatch(r"worst page p95 ms: \d+ at \d+ events", lines[-2]), output
    assert re.fullmatch(r"growth: \d+\.\d\d", lines[-1]), output

    tables = [index for index, line in enumerate(lines) if line == HEADER]
    assert len(tables) == 2, output
    for start in tables:
        rows = []
        for line in lines[start + 2 :]:
            if not line.startswith("| "):
                break
            rows.append(ROW.match(line))
        assert all(rows), output
        pages = {row["page"] for row in rows}
        for page in (
            "staff dashboard /staff/", "staff activity part", "lobby, finished tab",
            "player page (many games)", "GET /api/players/<name>", "GET /api/games finished",
            "100-bot ladder page", "play page, short match",
        ):  # fmt: skip
            assert page in pages, output
        # A row per length of match (100 and 1,000 events at this size) for each of these.
        for kind in ("staff inspector", "play page", "board", "replay"):
            lengths = {
                int(found[1].replace(",", "")) // 100
                for page in pages
                if (found := re.match(rf"{kind}, ([\d,]+)-event match", page))
            }
            assert lengths == {1, 10}, (kind, output)
        # Every page answered (a failing one is named with its status).
        assert not any("(HTTP " in page for page in pages), output
        assert all(int(row["queries"]) > 0 for row in rows), output

    # The scratch database is gone.
    scratch = re.search(r"^database: (\S+);", done.stdout, re.MULTILINE)
    assert scratch, output
    parts = dj_database_url.parse(URL)
    with psycopg.connect(
        host=parts["HOST"] or "127.0.0.1", port=parts["PORT"] or 5432, user=parts["USER"],
        password=parts["PASSWORD"] or None, dbname=parts["NAME"],
    ) as connection:  # fmt: skip
        found = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [scratch[1]]
        ).fetchall()
    assert found == [], output


def test_a_kept_tenth_is_measured_page_by_page_beside_the_size():
    # --stop-at-tenth fills and stops; a copy of it is the tenth (--tenth) of a run that fills
    # the size on and alternates each page's requests between the two databases.
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.update(GUNICORN_WORKERS="1", GUNICORN_THREADS="1", PYTHONPATH=str(ROOT))
    parts = dj_database_url.parse(URL)
    size, tenth = (
        f"{parts['NAME']}_pages_size_{os.getpid()}",
        f"{parts['NAME']}_pages_tenth_{os.getpid()}",
    )
    admin = psycopg.connect(
        host=parts["HOST"] or "127.0.0.1", port=parts["PORT"] or 5432, user=parts["USER"],
        password=parts["PASSWORD"] or None, dbname=parts["NAME"], autocommit=True,
    )  # fmt: skip
    bench = [sys.executable, "bench/pages.py", "--reuse", size, "--events", "2000"]

    def run(*args: str) -> str:
        done = subprocess.run(
            [*bench, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=400,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr[-3000:]
        return done.stdout

    try:
        admin.execute(f'CREATE DATABASE "{size}"')
        filled = run("--stop-at-tenth")
        assert HEADER not in filled and "growth:" not in filled, filled
        admin.execute(f'CREATE DATABASE "{tenth}" TEMPLATE "{size}"')
        out = run("--tenth", tenth, "--requests", "1", "--warmups", "0")
        assert re.search(r"^measured \d+ pages on 2 database\(s\)", out, re.MULTILINE), out
        lines = out.strip().splitlines()
        assert re.fullmatch(r"worst page p95 ms: \d+ at \d+ events", lines[-3]), out
        assert re.fullmatch(r"growth: \d+\.\d\d", lines[-2]), out
        assert sum(line == HEADER for line in lines) == 2, out
        assert "(HTTP " not in out, out
    finally:
        for name in (size, tenth):
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
