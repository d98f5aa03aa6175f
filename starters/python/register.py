"""Register, validate and enter your bot with a personal token only (docs/bots-api.md).

    export UNO_URL=https://uno.example.org UNO_TOKEN=<personal token, scope bots>
    python3 register.py new <name> pull                        # prints BOT_TOKEN, then waits
    BOT_SECRET=<secret> python3 register.py new <name> webhook <url of your running bot>
    python3 register.py status|calls|validate|enter|leave <bot id>

`new` registers the bot, waits while it plays its validation matches (a pull bot's start at its
first poll: start it with the token printed), enters the ladder UNO_LADDER (bot-arena; empty:
none) once it is active, and prints its calls. `validate` asks for a new validation round and
does the same. `calls` prints the strikes and each kept call's verdict and reason code.
Exits 1 if the bot is not active at the end.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.error
import urllib.request
from typing import Any

LADDER = os.environ.get("UNO_LADDER", "bot-arena")


def api(method: str, path: str, body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Token {os.environ['UNO_TOKEN']}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    data = None if body is None else json.dumps(body).encode()
    url = os.environ["UNO_URL"].rstrip("/") + path
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:  # {"code": ..., "message": ...}
        return error.code, json.load(error)


def must(method: str, path: str, body: Any = None) -> Any:
    status, answer = api(method, path, body)
    if status >= 300:
        sys.exit(f"{method} {path}: {status} {answer.get('code')}: {answer.get('message')}")
    return answer


def show(bot: dict[str, Any]) -> None:
    stats = ", ".join(
        f"{key} {value:.3f}" if isinstance(value, float) else f"{key} {value}"
        for key, value in bot["stats"].items()
    )
    print(f"bot {bot['id']} {bot['name']}: {bot['status']} ({bot['status_reason']})")
    print(f"  strikes in a row {bot['strikes']}; {stats}", flush=True)


def calls(bot_id: int) -> None:
    """The last kept calls: a count per reason code, then every call that was not ok."""
    page = must("GET", f"/api/me/bots/{bot_id}/calls")
    codes: dict[str, int] = {}
    for call in page["calls"]:
        codes[call["code"]] = codes.get(call["code"], 0) + 1
    counts = ", ".join(f"{code} {count}" for code, count in codes.items())
    print(f"  calls (newest {len(page['calls'])}): {counts or 'none'}")
    for call in page["calls"]:
        if call["code"] != "ok":
            strike = "a strike" if call["strike"] else "no strike"
            print(f"  {call['at']} game {call['decision']['game']}: {call['code']}, {strike}")
            print(f"    {call['message']}")


def settle(bot: dict[str, Any]) -> None:
    """Wait out the validation; enter the ladder if it passed; print the calls."""
    reason = None
    while bot["status"] == "validating":
        if bot["status_reason"] != reason:
            show(bot)
            reason = bot["status_reason"]
        time.sleep(1)
        bot = must("GET", f"/api/me/bots/{bot['id']}")
    show(bot)
    if bot["status"] == "active" and LADDER:
        status, entry = api("POST", f"/api/ladders/{LADDER}/enter", {"bot": bot["id"]})
        print(f"ladder {LADDER}:", "entered" if status == 201 else entry.get("message"))
    calls(bot["id"])
    sys.exit(0 if bot["status"] == "active" else 1)


if __name__ == "__main__":
    command, *args = sys.argv[1:] or ["help"]
    if command == "new" and len(args) >= 2:
        name, kind, *url = args
        body = {"name": name, "kind": kind}
        if kind == "webhook":
            body.update(url=url[0], secret=os.environ["BOT_SECRET"])
        bot = must("POST", "/api/me/bots", body)
        if bot["token"]:  # a pull bot's token, shown this once: keep it
            print(f"BOT_TOKEN={bot['token']}", flush=True)
            print(f"start the bot now: BOT_TOKEN=... python3 bot.py pull  (bot {bot['id']})")
        settle(bot)
    elif command == "validate" and args:
        settle(must("POST", f"/api/me/bots/{args[0]}/validate"))
    elif command in ("enter", "leave") and args:
        print(must("POST", f"/api/ladders/{LADDER}/{command}", {"bot": int(args[0])}))
    elif command == "status" and args:
        show(must("GET", f"/api/me/bots/{args[0]}"))
    elif command == "calls" and args:
        calls(int(args[0]))
    else:
        sys.exit(__doc__)
