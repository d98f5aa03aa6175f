"""A service error's HTTP status, the same in the API's answers (api/errors.py) and the staff
console's action pages (staff/action_views.py)."""

from __future__ import annotations

from analysis.errors import AnalysisRefused
from chat.errors import ChatConflict, ChatRateLimited
from games.errors import (
    BotRefused,
    Conflict,
    Forbidden,
    GameError,
    GameNotFound,
    GameOver,
    GameRefused,
    IllegalMove,
    RematchRefused,
)
from tables.errors import TableRefused

# A GameError's status is its nearest class's here (the subclasses of these inherit their
# status); any other GameError is 400. docs/api.md has the table.
STATUS: dict[type[GameError], int] = {
    GameNotFound: 404,
    Forbidden: 403,
    Conflict: 409,
    BotRefused: 409,
    RematchRefused: 409,
    GameRefused: 409,
    AnalysisRefused: 409,
    TableRefused: 409,
    IllegalMove: 422,
    # The engine's own `game-over` is 422; the same refusal of a command on an older version too.
    GameOver: 422,
    ChatConflict: 409,
    ChatRateLimited: 429,
}
DEFAULT_STATUS = 400


def status_for(error: GameError) -> int:
    """The HTTP status of a service error: its nearest class's in STATUS, else 400."""
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return DEFAULT_STATUS
