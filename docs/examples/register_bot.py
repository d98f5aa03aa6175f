"""Register a bot from a script (docs/bots-api.md) with a personal token: POST /api/me/bots.

    UNO_TOKEN=... python register_bot.py http://127.0.0.1:8000 <bot name> pull
    UNO_TOKEN=... python register_bot.py http://127.0.0.1:8000 <bot name> \\
        webhook https://bots.example/gus [secret]

UNO_TOKEN is a personal API token with scope `bots` (the profile page, or POST /api/me/tokens).
Prints the server's answer: the bot, `validating`, with its token (pull) or secret (webhook),
shown this once. No cookie, no CSRF token: `Authorization: Token <key>` is all.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from typing import Any


def register(base: str, key: str, bot: dict[str, Any]) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", "Authorization": f"Token {key}"}
    request = urllib.request.Request(
        base.rstrip("/") + "/api/me/bots", json.dumps(bot).encode(), headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:  # 400 {"code", "message"}, 401, 403, 429
        raise SystemExit(f"refused: {error.code} {error.read().decode()}") from None


if __name__ == "__main__":
    base, name, kind, *more = sys.argv[1:]
    bot = {"name": name, "kind": kind}
    if kind == "webhook":
        bot["url"] = more[0]
        if len(more) > 1:
            bot["secret"] = more[1]
    print(json.dumps(register(base, os.environ["UNO_TOKEN"], bot), indent=2))
