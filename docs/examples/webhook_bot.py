"""A complete webhook bot (docs/bots-api.md): answers each signed decision with a command.

    BOT_SECRET=<secret> python webhook_bot.py [port, 0 for any free one] [host]

Standard library only. It prints its URL, checks every request's signature, and plays a random
legal command, a card when it can; never an uno call or catch that costs cards (basic-plus,
newno).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import random
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SECRET = os.environ["BOT_SECRET"].encode()


def choose(decision: dict[str, Any]) -> dict[str, Any] | None:
    owed = decision["view"]["uncalled"]  # calling or catching a seat listed here is free
    free = [c for c in decision["legal"] if c["type"] not in ("call-uno", "catch")
            or c.get("target", c["seat"]) in owed]  # fmt: skip
    plays = [c for c in free if c["type"] in ("play", "submit")]
    options = [c for c in plays if c.get("uno")] or plays or free
    return random.choice(options) if options else None  # None: let an optional window go


class Bot(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        expected = "sha256=" + hmac.new(SECRET, body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, self.headers.get("X-Uno-Signature", "")):
            self.send_error(401, "bad signature")  # not from the server: do not play it
            return
        answer = json.dumps(choose(json.loads(body))).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # one line per decision would drown the terminal


port = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
server = ThreadingHTTPServer((sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1", port), Bot)
print(f"http://{server.server_address[0]}:{server.server_address[1]}/", flush=True)
server.serve_forever()
