"""bench/analysis.py: its smoke run plays, analyses and prints every figure and its last line
(the full run, whose figures docs/analysis.md shows, takes minutes: `make bench`)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_smoke_run_prints_each_bots_cost_the_cpu_and_the_separation():
    done = subprocess.run(
        [sys.executable, "bench/analysis.py", "--smoke"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    out = done.stdout
    for bot in ("random", "greedy", "colour-control"):
        assert re.search(rf"^\| {bot} \| \d+ \| [\d.]+ \| \d+ \| [\d.]+ ± [\d.inf]+ \|", out, re.M)
    assert re.search(r"^CPU per 4-seat 100-point match \(2 playouts\): [\d.]+ s", out, re.M)
    assert re.match(r"separation: -?[\d.]+$", out.splitlines()[-1])
