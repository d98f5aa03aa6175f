"""bench/tournament_schedules.py: a small run prints a table per format and its last line; at
full size (slow) its tables are the ones docs/tournaments.md shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "bench/tournament_schedules.py", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_a_small_run_prints_every_format():
    out = run("--entrants", "8", "--sizes", "2,4")
    for name in ("Swiss", "Knockout", "Arena", "Duplicate"):
        assert f"{name}: " in out
    # Eight at tables of two: three rounds of a Swiss without a pair meeting twice; a cup of
    # three rounds without byes.
    assert "| 8 | 0 (0) / " in out
    assert "| 8 | 3 / 0 | 2 / 0 |" in out
    assert out.splitlines()[-1].startswith("tournament schedules: ")


@pytest.mark.slow
def test_the_docs_show_the_tables_of_a_full_run():
    tables = run().rsplit("tournament schedules:", 1)[0].strip()
    doc = (ROOT / "docs" / "tournaments.md").read_text()
    assert tables in doc, "the figures changed: paste `bench/tournament_schedules.py`'s tables"
