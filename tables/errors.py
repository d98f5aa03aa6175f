"""The refusals of open tables and challenges (tables/services.py), each with a stable code.
Kinds of games.errors' classes, so every front door gives them their status
(frontdoor/errors.py): TableNotFound 404, NotYours 403, TableRefused 409, InvalidTable 400."""

from __future__ import annotations

from games.errors import Forbidden, GameError, GameNotFound, InvalidGame


class TableNotFound(GameNotFound):
    code = "table-not-found"

    def __init__(self, table_id: object) -> None:
        GameError.__init__(self, f"there is no table {table_id}")
        self.game_id = table_id


class NotYours(Forbidden):
    """`not-challenged` (someone else's challenge), `not-opener` (cancelling another's table)."""

    code = "not-yours"


class TableRefused(GameError):
    """The table cannot take this now: `table-full`, `own-table`, `already-seated`,
    `not-seated`, `table-not-open`, `too-many-tables`. 409 (frontdoor/errors.py)."""

    code = "table-refused"


class InvalidTable(InvalidGame):
    """A table that cannot be opened as asked: `invalid-variant`, `invalid-seats`,
    `invalid-turn-seconds`, `invalid-fill`, `unknown-user`, `challenge-self`,
    `birth-date-missing`."""

    code = "invalid-table"
