"""The standalone runner, `python -m bots.arena` (docs/bots-api.md, "Trying a bot locally"),
plays each starter kit against the built-in bots as its README says: the webhook bot by URL,
and the stdio mode as a `--command` bot. The ladder would strike neither (exit 0). A request
signed with another secret is refused (401) and played nothing, so the runner strikes every
decision. No server, no database: loopback only."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.games.bots.test_standalone_arena import run_module
from tests.starters.kits import KITS, STARTERS, command, stop, webhook_bot

NEWNO = '{"rules": "newno", "options": {"target": 100}}'
CENSORSHIP = '{"rules": "censorship", "options": {"target": 100}}'


# `python -m bots.arena` with these arguments, as tests/games/bots/test_standalone_arena.py runs it.
arena = run_module


def assert_no_strike(run: subprocess.CompletedProcess[str]) -> None:
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.rstrip().endswith("strikes: 0"), run.stdout
    asked, legal = re.search(r"(\d+) decisions asked, (\d+) answered legally", run.stdout).groups()
    assert asked == legal and int(asked) > 0


@pytest.mark.parametrize("kit", KITS)
def test_the_runner_plays_the_webhook_starter_with_no_strike(kit):
    process, url = webhook_bot(kit, "s3cret")
    try:
        played = arena("--url", url, "--secret", "s3cret", "--rules", NEWNO, "--games", "2")
        assert_no_strike(played)
        # Signed with another secret: refused with a 401, so every decision is a strike.
        struck = arena("--url", url, "--secret", "other", "--rules", NEWNO, "--games", "1")
    finally:
        errors = stop(process)
    assert struck.returncode == 1, struck.stdout
    assert "bot-error: error: HTTP 401" in struck.stdout, struck.stdout
    assert errors == "", errors


@pytest.mark.parametrize("kit", KITS)
def test_the_runner_plays_the_stdio_starter_with_no_strike(kit):
    # The first answer also waits for the interpreter to start (STARTUP, bots/arena_bots.py);
    # the limit is the server's webhook limit doubled, for a machine loaded by the rest of the
    # suite.
    bot = " ".join(command(kit, "bot", "stdio"))
    run = arena("--command", bot, "--rules", CENSORSHIP, "--games", "2", "--timeout", "2")
    assert_no_strike(run)


@pytest.mark.parametrize("kit", KITS)
def test_the_webhook_starter_refuses_a_request_without_the_signature(kit):
    process, url = webhook_bot(kit, "s3cret")
    try:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        for headers in ({"X-Uno-Signature": "sha256=00"}, {}):
            request = urllib.request.Request(url, b"{}", headers)
            with pytest.raises(urllib.error.HTTPError) as refused:
                opener.open(request, timeout=10)
            assert refused.value.code == 401
    finally:
        assert stop(process) == ""


def test_the_starters_use_only_their_standard_library():
    for path in (STARTERS / "python").glob("*.py"):
        modules = re.findall(r"^(?:from|import) (\w+)", path.read_text(), flags=re.M)
        assert set(modules) <= sys.stdlib_module_names | {"__future__", "strategy"}, path
    for path in (STARTERS / "javascript").glob("*.mjs"):
        sources = re.findall(r'^import .* from "([^"]+)";', path.read_text(), flags=re.M)
        assert all(s.startswith(("node:", "./")) for s in sources), path
