"""The starter kits (starters/python, starters/javascript) as their authors run them: each
script a subprocess of its kit's own interpreter, `python3 -S` (the standard library only: no
site-packages) or `node`, with only the environment the kit's README names."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STARTERS = ROOT / "starters"
KITS = ["python", "javascript"]
LOOPBACK = "127.0.0.1,localhost"
# Python's urllib must not send a loopback call through a proxy named in the environment.
NO_PROXY = {"NO_PROXY": LOOPBACK, "no_proxy": LOOPBACK}


def node() -> str:
    """The `node` on PATH; without one a skip, but under CI a failure."""
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is not on PATH; CI must run the JavaScript starter", pytrace=False)
        pytest.skip("node is not on PATH")
    return found


def command(kit: str, script: str, *args: str) -> list[str]:
    """The command line that runs `script` (bot, register) of `kit` with `args`."""
    if kit == "python":
        return [sys.executable, "-S", str(STARTERS / kit / f"{script}.py"), *args]
    return [node(), str(STARTERS / kit / f"{script}.mjs"), *args]


def start(kit: str, script: str, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        command(kit, script, *args),
        cwd=STARTERS / kit,
        env={**os.environ, **NO_PROXY, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(process: subprocess.Popen[str]) -> str:
    """Stop a starter's process; what it wrote on stderr."""
    process.terminate()
    return process.communicate(timeout=10)[1]


def webhook_bot(kit: str, secret: str, port: int = 0) -> tuple[subprocess.Popen[str], str]:
    """The kit's webhook bot on loopback (`port` 0: a free one); the process and the URL it
    printed."""
    process = start(kit, "bot", "webhook", str(port), BOT_SECRET=secret)
    assert process.stdout is not None
    url = process.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), (url, stop(process))
    return process, url
