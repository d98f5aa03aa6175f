"""`python -m bots.arena`: a bot tried locally without the server (no database, no Django).

Command bots are a few lines of Python written into tmp_path; webhook bots are served by
http.server on 127.0.0.1 in a thread. No network beyond loopback.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from bots import arena

ROOT = Path(__file__).resolve().parents[3]
# Short matches: two families, a low target.
OFFICIAL = '{"rules": "official", "options": {"target": 100}}'
NEWNO = '{"rules": "newno", "options": {"target": 100}}'
REQUEST_KEYS = {"game", "variant", "seat", "version", "view", "legal", "deadline"}

# Answers its first legal command; takes every out-of-turn window it is offered. It writes each
# request it gets to the file named by its first argument.
PLAYER = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    request = json.loads(line)
    log.write(line)
    log.flush()
    legal = request["legal"]
    print(json.dumps(legal[0] if legal else None), flush=True)
"""

# Answers a command for the next seat, then an answer that is not JSON, then a card that does not
# exist, then sleeps past the deadline once; declines every window.
CHEAT = """
import json, sys, time
n = 0
for line in sys.stdin:
    request = json.loads(line)
    if request.get("optional"):
        print("null", flush=True)
        continue
    n += 1
    if n == 1:
        answer = json.dumps({"type": "draw", "seat": (request["seat"] + 1) % 4})
    elif n == 2:
        answer = "not json"
    elif n == 3:
        answer = json.dumps({"type": "play", "seat": request["seat"], "card": "zz"})
    elif n == 4:
        time.sleep(0.6)
        answer = json.dumps(request["legal"][0])
    else:
        answer = json.dumps(request["legal"][0])
    print(answer, flush=True)
"""


def write_bot(tmp_path: Path, source: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(source)
    return f"{sys.executable} {path} {tmp_path / 'requests.jsonl'}"


def run_in_process(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return arena.main(list(args), out=out), out.getvalue()


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bots.arena", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


class Webhook:
    """A webhook bot on 127.0.0.1: checks the signature and answers its first legal command,
    or, if `cheat`, a command for another seat; keeps every request."""

    def __init__(self, secret: str, *, cheat: bool = False) -> None:
        self.requests: list[dict[str, Any]] = []
        self.bad_signatures = 0
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
                if self.headers.get("X-Uno-Signature") != expected:
                    hook.bad_signatures += 1
                request = json.loads(body)
                hook.requests.append(request)
                if request.get("optional"):
                    answer: Any = None
                elif cheat:
                    answer = {"type": "draw", "seat": (request["seat"] + 1) % 4}
                else:
                    answer = request["legal"][0]
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/move"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def webhook() -> Iterator[Webhook]:
    hook = Webhook("s3cret")
    yield hook
    hook.close()


@pytest.mark.parametrize("rules", [OFFICIAL, NEWNO])
def test_a_command_bot_that_answers_legally_plays_its_games_unstruck(tmp_path, rules):
    code, output = run_in_process(
        "--command", write_bot(tmp_path, PLAYER), "--rules", rules, "--games", "2", "--seats", "3"
    )

    assert code == 0, output
    assert "strike:" not in output
    assert "strikes: 0" in output
    assert re.search(r"^your bot\s+2\s", output, re.MULTILINE)
    assert re.search(r"^game 2 points per seat: 0 greedy \d+, 1 your bot \d+", output, re.MULTILINE)
    # It was asked what the ladder asks, a line a request.
    requests = [json.loads(line) for line in (tmp_path / "requests.jsonl").read_text().splitlines()]
    assert requests and all(REQUEST_KEYS <= set(r) for r in requests)
    assert {r["seat"] for r in requests if r["game"] == 1} == {0}
    assert {r["seat"] for r in requests if r["game"] == 2} == {1}


def test_a_command_bot_s_start_up_is_not_a_timeout_but_a_slow_answer_after_it_is(tmp_path):
    """The first question waits STARTUP seconds more (bots/arena_bots.py: an interpreter
    starting, its imports); every later one has the time limit alone."""
    slow_start = "import time\ntime.sleep(1.0)\n" + PLAYER
    done = run_in_process(
        "--command", write_bot(tmp_path, slow_start), "--rules", OFFICIAL, "--timeout", "0.5"
    )
    assert done[0] == 0, done[1]
    assert "strikes: 0" in done[1]

    # The same bot, but slow on its second decision instead of its start.
    slow_later = PLAYER.replace("for line in sys.stdin:", "n = 0\nfor line in sys.stdin:").replace(
        "    legal = request",
        "    n += 1\n    if n == 2:\n        __import__('time').sleep(1.0)\n    legal = request",
    )
    code, output = run_in_process(
        "--command", write_bot(tmp_path, slow_later), "--rules", OFFICIAL, "--timeout", "0.5"
    )
    assert code == 1, output
    assert re.search(r"^strike: game 1 version \d+ seat 0 bot-timeout: timeout", output, re.M)


def test_the_runner_imports_nothing_of_django():
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, bots.arena; print(sorted({m.split('.')[0] for m in sys.modules}))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "'django'" not in found and "'bots'" in found


def test_a_command_bot_s_every_kind_of_failure_is_printed_as_the_ladder_s_strike(tmp_path):
    done = run_module(
        "--command",
        write_bot(tmp_path, CHEAT),
        "--rules",
        OFFICIAL,
        "--games",
        "1",
        "--timeout",
        "0.4",
    )

    assert done.returncode == 1, done.stderr
    strikes = re.findall(r"^strike: game 1 version \d+ seat 0 (\S+): (.*)$", done.stdout, re.M)
    assert [code for code, _ in strikes] == [
        "bot-illegal",
        "bot-error",
        "bot-illegal",
        "bot-timeout",
    ]
    assert "wrong-seat: the answer is no command for seat 0" in strikes[0][1]
    assert strikes[1][1] == "error: the answer is not JSON"
    assert "unknown-card" in strikes[2][1]
    assert strikes[3][1] == "timeout: no answer in time"
    assert "strikes: 4 (1 bot-error, 2 bot-illegal, 1 bot-timeout)" in done.stdout
    assert "the ladder would have suspended the bot: 4 strikes in a row" in done.stdout
    # The late answer was thrown away: the game went on to its end, every later answer legal.
    assert re.search(r"^your bot\s+1\s", done.stdout, re.MULTILINE)


# PLAYER, quitting at its 41st question (in the middle of a game).
QUITTER = PLAYER.replace(
    "for line in sys.stdin:", "for n, line in enumerate(sys.stdin):\n    if n == 40: sys.exit(3)"
)


@pytest.mark.parametrize(
    ("source", "game"),
    [("import sys\nsys.exit(3)\n", 1), (QUITTER, None)],  # 1: never starts (node nosuch.mjs)
    ids=["at-once", "mid-run"],
)
def test_a_command_bot_whose_program_ends_stops_the_run_and_says_so(tmp_path, source, game):
    done = run_module("--command", write_bot(tmp_path, source), "--rules", OFFICIAL, "--games", "3")

    assert done.returncode == 1, done.stderr
    stopped = re.search(
        r"^stopped in game (\d+): your bot's program ended \(exit status 3\) before answering",
        done.stdout,
        re.M,
    )
    assert stopped, done.stdout
    if game is not None:
        assert int(stopped.group(1)) == game
    # Not a strike for every later question: the run ended there.
    assert "would have suspended" not in done.stdout


@pytest.mark.parametrize("rules", ["censorship", NEWNO])
def test_a_webhook_bot_is_asked_the_ladder_s_signed_request(webhook, rules):
    code, output = run_in_process(
        "--url", webhook.url, "--secret", "s3cret", "--rules", rules, "--games", "1"
    )

    assert code == 0, output
    assert "strikes: 0" in output
    assert webhook.requests and webhook.bad_signatures == 0
    asked = [r for r in webhook.requests if not r.get("optional")]
    assert all(set(r) == REQUEST_KEYS and r["seat"] == 0 for r in asked)
    # Each question at a later version than the last (every answer was appended).
    versions = [r["version"] for r in asked]
    assert versions == sorted(set(versions)) and versions[0] >= 1
    assert all(r["legal"] for r in asked)
    windows = [r for r in webhook.requests if r.get("optional")]
    assert all(set(r) == REQUEST_KEYS | {"optional"} for r in windows)


def test_a_webhook_bot_answering_for_another_seat_is_struck_and_the_run_fails():
    hook = Webhook("s3cret", cheat=True)
    try:
        # Every strike here is the cheat's: a loaded machine's slow answer past the 1 s
        # default would add a bot-timeout to the count.
        done = run_module(
            "--url", hook.url, "--secret", "s3cret", "--rules", OFFICIAL, "--timeout", "10"
        )
    finally:
        hook.close()

    assert done.returncode == 1, done.stderr
    assert re.search(
        r"^strike: game 1 version \d+ seat 0 bot-illegal: illegal answer "
        r"\{'type': 'draw', 'seat': 1\} at version \d+: wrong-seat",
        done.stdout,
        re.MULTILINE,
    )
    assert re.search(r"^strikes: \d+ \(\d+ bot-illegal\)$", done.stdout, re.MULTILINE)


def test_a_private_url_is_refused_as_the_server_refuses_it():
    done = run_module("--url", "http://10.0.0.1/move")
    assert done.returncode == 2
    assert "refused" in done.stderr and "private" in done.stderr


def test_the_example_webhook_bot_plays_unstruck_and_a_wrong_secret_is_struck():
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "docs" / "examples" / "webhook_bot.py"), "0"],
        env={"BOT_SECRET": "the webhook secret", "PATH": ""},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        code, output = run_in_process(
            "--url", url, "--secret", "the webhook secret", "--rules", NEWNO, "--games", "2"
        )
        assert code == 0, output
        assert "strikes: 0" in output
        assert re.search(r"^your bot: \d+ decisions asked, \d+ answered legally", output, re.M)

        code, output = run_in_process("--url", url, "--secret", "another", "--rules", OFFICIAL)
        assert code == 1
        assert re.search(
            r"^strike: game 1 version \d+ seat 0 bot-error: error: HTTP 40\d$", output, re.M
        )
    finally:
        process.terminate()
        process.wait(timeout=5)
