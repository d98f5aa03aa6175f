"""Your strategy: the one function to change. bot.py asks it for every decision, whichever way
the bot is run (webhook, pull or stdio).

A decision is {"game", "variant", "seat", "version", "view", "legal", "deadline", "optional"?}
(docs/bots-api.md, "A decision"); `legal` lists every command the seat may send now, each ready
to send as it is. Return one of them, or None to let an optional window go.
"""

from __future__ import annotations

from typing import Any


def choose(decision: dict[str, Any]) -> dict[str, Any] | None:
    """The default: the first sensible legal command.

    An uno call or a catch is free only while the seat it names is in view["uncalled"]; any
    other one costs cards in basic-plus and newno (docs/bots-api.md, "Legal commands that cost
    cards"), so it is never sent. In an optional window (out of turn) it takes a free call or
    catch and lets anything else go; in turn it plays a card if it can (with its uno call when
    the play leaves one card), else the first free command (draw, pass, accept, ...).
    """
    owed = decision["view"]["uncalled"]
    free = [
        command
        for command in decision["legal"]
        if command["type"] not in ("call-uno", "catch")
        or command.get("target", command["seat"]) in owed
    ]
    if decision.get("optional"):
        calls = [command for command in free if command["type"] in ("call-uno", "catch")]
        return calls[0] if calls else None
    cards = [command for command in free if command["type"] in ("play", "submit")]
    calling = [command for command in cards if command.get("uno")]
    options = calling or cards or free
    return options[0] if options else None
