"""Imported first by the bench scripts that import the project's `engine` package.

Python puts a script's own folder first on sys.path, and this folder holds bench/engine.py,
which would shadow the `engine` package. Importing this module puts the repository root first
instead and takes bench/ off the path; a script then imports the project as a test would, and
another script beside it as `bench.<name>`.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
_HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(REPO_ROOT)] + [
    p for p in sys.path if p != str(REPO_ROOT) and str(Path(p or ".").resolve()) != _HERE
]
