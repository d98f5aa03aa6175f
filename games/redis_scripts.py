"""A Lua script registered once on a Redis client that is kept for the process (the throttles'
count, frontdoor/throttles.py; the dispatcher's hand-over, games/dispatch.py): one EVALSHA a
call, and redis-py's Script sends the script again to a Redis that lost it (a restart)."""

from __future__ import annotations

from typing import Any


def kept_script(client: Any, name: str, source: str) -> Any:
    """The script `source`, registered on `client` the first time it is asked for by `name`
    and kept on the client as the attribute `name`."""
    script = getattr(client, name, None)
    if script is None:
        script = client.register_script(source)
        setattr(client, name, script)
    return script
