"""A UNO league bot, standard library only (docs/bots-api.md). The strategy is strategy.py.

    BOT_SECRET=<secret> python3 bot.py webhook [port] [host]   # the server POSTs decisions
    UNO_URL=<site> BOT_TOKEN=<token> python3 bot.py pull       # the bot polls for them
    python3 bot.py stdio                                       # JSON lines, python -m bots.arena

webhook: listens on host (127.0.0.1) and port (PORT, else 8080; 0 picks a free one), prints its
URL, checks every request's X-Uno-Signature and answers the command. pull: GET
/api/bot/decisions, POST each command, and wait UNO_POLL_SECONDS (1), or the poll's
Retry-After if longer, after a round in which no command was taken (a refused one is not sent
again at once). stdio: one request a line on stdin, one answer a line on stdout.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
import time
import traceback
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from strategy import choose


class Webhook(BaseHTTPRequestHandler):
    secret = b""

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        # HMAC-SHA256 of the body's exact bytes, compared in constant time.
        expected = "sha256=" + hmac.new(self.secret, body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, self.headers.get("X-Uno-Signature", "")):
            self.answer(401, {"error": "bad signature"})  # not from the server: play nothing
            return
        self.answer(200, choose(json.loads(body)))

    def do_GET(self) -> None:  # noqa: N802 (a health check for your own monitoring)
        self.answer(200, {"ok": True})

    def answer(self, status: int, value: Any) -> None:
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a line per decision would drown the terminal


def webhook(port: int, host: str) -> None:
    Webhook.secret = os.environ["BOT_SECRET"].encode()
    server = ThreadingHTTPServer((host, port), Webhook)
    print(f"http://{host}:{server.server_address[1]}/", flush=True)
    server.serve_forever()


def call(method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
    """One request of the pull API: (status, JSON body, seconds to wait before asking again)."""
    headers = {"Authorization": f"Bot {os.environ['BOT_TOKEN']}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    data = None if body is None else json.dumps(body).encode()
    url = os.environ["UNO_URL"].rstrip("/") + path
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            # GET /api/bot/decisions says when to ask again (the server's poll interval).
            wait = float(response.headers.get("Retry-After") or 0)
            return response.status, json.load(response), wait
    except urllib.error.HTTPError as error:  # the body: {"code": ..., "message": ...}
        wait = float(error.headers.get("Retry-After") or 0)  # set on a 429
        return error.code, error.read().decode(errors="replace"), wait
    except (OSError, ValueError) as error:  # the server is down or restarting: later
        return 0, str(error), 5.0


def pull(idle: float) -> None:
    while True:
        status, decisions, wait = call("GET", "/api/bot/decisions")
        if status != 200:
            print("GET /api/bot/decisions:", status, decisions, file=sys.stderr)
            decisions = []
        sent = False
        while decisions:  # each answer's `next` is answered at once, without polling
            decision = decisions.pop(0)
            try:
                command = choose(decision)
            except Exception:  # a bug in the strategy: the deadline's fallback moves instead
                traceback.print_exc()
                continue
            if command is None:
                continue  # an optional window let go
            body = {
                "command": command,
                "expected_version": decision["version"],
                "command_id": f"{decision['seat']}:{decision['version']}",
            }
            status, answer, wait = call("POST", f"/api/bot/games/{decision['game']}/commands", body)
            if status == 200:
                sent = True
                decisions.extend(answer["next"])
            elif status != 409 and answer.get("code") != "game-over":
                # 409: the game moved on, the next poll has it again; game-over: it ended.
                print("refused:", command, status, answer, file=sys.stderr)
        time.sleep(max(wait, 0.0 if sent else idle))


def stdio() -> None:
    for line in sys.stdin:
        print(json.dumps(choose(json.loads(line))), flush=True)


if __name__ == "__main__":
    mode, *args = sys.argv[1:] or ["help"]
    if mode == "webhook":
        port = int(args[0]) if args else int(os.environ.get("PORT", "8080"))
        webhook(port, args[1] if len(args) > 1 else "127.0.0.1")
    elif mode == "pull":
        pull(float(os.environ.get("UNO_POLL_SECONDS", "1")))
    elif mode == "stdio":
        stdio()
    else:
        sys.exit(__doc__)
