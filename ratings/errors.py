"""The errors of the ratings reads: games.errors.GameError's kind, a stable `code` for programs
and a `message` for people."""

from __future__ import annotations

from games.errors import GameError, GameNotFound


class PoolNotFound(GameNotFound):
    """No rating pool of that name (code `not-found`; the API's 404)."""

    code = "not-found"

    def __init__(self, pool: str) -> None:
        GameError.__init__(self, f"there is no rating pool {pool!r}")
