"""Register a bot from a script (docs/bots-api.md): sign in as its owner, then POST /api/me/bots.

    UNO_PASSWORD=... python register_bot.py http://127.0.0.1:8000 <username> <bot name> pull
    UNO_PASSWORD=... python register_bot.py http://127.0.0.1:8000 <username> <bot name> \\
        webhook https://bots.example/gus [secret]

Prints the server's answer: the bot, `validating`, with its token (pull) or secret (webhook),
shown this once. The owners' API takes a signed-in session only, and every POST carries
Django's CSRF token: the `csrftoken` cookie's value, in the form and then in `X-CSRFToken`.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any


def register(base: str, username: str, password: str, bot: dict[str, Any]) -> dict[str, Any]:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def cookie(name: str) -> str:
        return next((c.value for c in jar if c.name == name), "")

    login = base.rstrip("/") + "/accounts/login/"
    opener.open(login, timeout=10).close()  # the sign-in page sets the csrftoken cookie
    form = {"username": username, "password": password, "csrfmiddlewaretoken": cookie("csrftoken")}
    opener.open(login, urllib.parse.urlencode(form).encode(), timeout=10).close()
    if not cookie("sessionid"):
        raise SystemExit(f"{username} could not sign in: wrong user name or password?")
    headers = {"Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken")}
    request = urllib.request.Request(
        base.rstrip("/") + "/api/me/bots", json.dumps(bot).encode(), headers, method="POST"
    )
    try:
        with opener.open(request, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:  # 400 {"code", "message"}, 429 throttled
        raise SystemExit(f"refused: {error.code} {error.read().decode()}") from None


if __name__ == "__main__":
    base, username, name, kind, *more = sys.argv[1:]
    bot = {"name": name, "kind": kind}
    if kind == "webhook":
        bot["url"] = more[0]
        if len(more) > 1:
            bot["secret"] = more[1]
    print(json.dumps(register(base, username, os.environ["UNO_PASSWORD"], bot), indent=2))
