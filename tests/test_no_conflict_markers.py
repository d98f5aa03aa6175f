"""No merge's conflict markers are left in a tracked file (one stood in docs/web.md's routes
table for a day)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKERS = ("<<<<<<< ", ">>>>>>> ")


def test_no_tracked_file_holds_a_conflict_marker():
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    found = []
    for name in filter(None, tracked):
        path = ROOT / name.decode()
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        found += [
            f"{name.decode()}:{number}"
            for number, line in enumerate(text.splitlines(), start=1)
            if line.startswith(MARKERS)
        ]
    assert found == []
