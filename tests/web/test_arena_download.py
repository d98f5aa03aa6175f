"""The arena in one file, /downloads/uno-arena.pyz (web/downloads.py, bots/bundle.py): downloaded
through the site, saved outside the repository and run by an isolated interpreter (`-I`: no
PYTHONPATH, no current directory on the path), it plays a bot as `python -m bots.arena` does,
with nothing but the file and the standard library."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.test import Client

from bots import bundle
from tests.games.bots.test_standalone_arena import Webhook

ROOT = Path(__file__).resolve().parents[2]
URL = "/downloads/uno-arena.pyz"
SHORT = '{"rules": "official", "options": {"target": 100}}'

# A command bot: its first legal command, or nothing in an out-of-turn window.
BOT = """
import json, sys
for line in sys.stdin:
    legal = json.loads(line)["legal"]
    print(json.dumps(legal[0] if legal else None), flush=True)
"""


@pytest.fixture
def downloaded(tmp_path: Path) -> Path:
    response = Client().get(URL)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="uno-arena.pyz"'
    path = tmp_path / "uno-arena.pyz"
    path.write_bytes(response.content)
    assert not path.resolve().is_relative_to(ROOT)
    # Nothing of the project is importable there but through the file.
    alone = isolated(tmp_path, "-c", "import bots")
    assert alone.returncode == 1 and "No module named 'bots'" in alone.stderr
    return path


def isolated(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_played_unstruck(run: subprocess.CompletedProcess[str]) -> None:
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.rstrip().endswith("strikes: 0"), run.stdout
    asked, legal = re.search(r"(\d+) decisions asked, (\d+) answered legally", run.stdout).groups()
    assert asked == legal and int(asked) > 0
    assert re.search(r"^your bot\s+1\s", run.stdout, re.MULTILINE), run.stdout


def test_the_downloaded_file_plays_a_command_bot_alone(downloaded):
    here = downloaded.parent
    (here / "bot.py").write_text(BOT)
    run = isolated(
        here,
        "uno-arena.pyz",
        "--command",
        f"{sys.executable} -I bot.py",
        "--rules",
        SHORT,
        "--seats",
        "3",
        "--games",
        "1",
        "--timeout",
        "2",
    )
    assert_played_unstruck(run)


def test_the_downloaded_file_plays_a_webhook_bot_on_loopback(downloaded):
    hook = Webhook("s3cret")
    try:
        run = isolated(
            downloaded.parent,
            str(downloaded),
            "--url",
            hook.url,
            "--secret",
            "s3cret",
            "--rules",
            SHORT,
            "--games",
            "1",
            "--timeout",
            "2",
        )
    finally:
        hook.close()
    assert_played_unstruck(run)
    assert hook.requests and hook.bad_signatures == 0


def test_the_file_holds_the_arena_s_sources_only_and_says_its_version(downloaded):
    with zipfile.ZipFile(downloaded) as archive:
        names = set(archive.namelist())
    assert downloaded.read_bytes().startswith(b"#!/usr/bin/env python3\n")
    assert {"__main__.py", "bots/arena.py", "bots/remote/wire.py", "engine/rules/base.py"} <= names
    assert all(name.endswith(".py") for name in names)
    # Not the site's modules, nor the engine's parts the arena never imports.
    assert not names & {"bots/registry.py", "bots/remote/webhook.py", "engine/env.py"}
    assert names == {"__main__.py", *bundle.build().modules}

    run = isolated(downloaded.parent, downloaded.name, "--version")
    response = Client().head(URL)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"uno-arena.pyz {response['X-Arena-Version']}"


def test_the_file_is_the_same_bytes_each_build_under_a_strong_etag():
    first, again = bundle.build(), bundle.build()
    assert first.data == again.data

    response = Client().get(URL)
    etag = response["ETag"]
    assert etag == f'"{first.digest}"'  # strong: no W/
    assert response["Content-Type"] == "application/octet-stream"
    assert Client().get(URL, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert Client().post(URL).status_code == 405


def test_the_modules_found_are_what_the_arena_imports_in_a_fresh_interpreter():
    """The static reading of the imports (bots/bundle.py) against a real import of bots.arena
    from the repository, with the pure engine's sources."""
    found = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            "import sys; sys.path.insert(0, '.'); import bots.arena; "
            "print('\\n'.join(m for m in sys.modules if m.split('.')[0] in ('bots', 'engine')))",
        ],
        cwd=ROOT,
        env={**os.environ, "UNO_ENGINE_PURE": "1"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    files = {
        (name.replace(".", "/") + "/__init__.py")
        if (ROOT / name.replace(".", "/")).is_dir()
        else name.replace(".", "/") + ".py"
        for name in found
    }
    assert files == set(bundle.module_files())
