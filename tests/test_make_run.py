"""`make run` (Makefile): runserver on 127.0.0.1 at PORT, 8000 unless given, and the email links'
SITE_URL with it (README.md, "Two commands"). `make -n` prints the recipe without running it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")


def dry_run(*args: str) -> str:
    return subprocess.run(
        ["make", "--no-print-directory", "-n", "run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_make_run_serves_on_port_8000_by_default():
    assert "manage.py runserver 127.0.0.1:8000" in dry_run()


def test_make_run_serves_on_the_port_given():
    recipe = dry_run("PORT=8123")
    assert "manage.py runserver 127.0.0.1:8123" in recipe
    assert "127.0.0.1:8000" not in recipe
