"""The repository is self-contained: its code and docs cite only files inside it. The rules'
home is docs/rules.md; no file names the design notes a clone of the repository does not have."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The names of files that live outside the repository, spelt so that this file does not match.
OUTSIDE = re.compile(r"(?<![\w/])(?:" + "|".join(("STYLE", "DESIGN", "RULES")) + r")\.md")


def tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [ROOT / name.decode() for name in listed if name]


def test_no_file_cites_a_file_outside_the_repository():
    found = []
    for path in tracked_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
