"""The errors of the game services and the store: a stable `code` for programs, a `message` for
people. The API maps each class to a status (404, 403, 409, 422, 400); nothing is written when one
is raised.
"""

from __future__ import annotations

from engine import IllegalCommand


class GameError(Exception):
    code = "game-error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class GameNotFound(GameError):
    code = "game-not-found"

    def __init__(self, game_id: object) -> None:
        super().__init__(f"there is no game {game_id}")
        self.game_id = game_id


class Forbidden(GameError):
    """The actor may not do this: the seat is someone else's, or the command is the system's."""

    code = "forbidden"


class Conflict(GameError):
    """The game has moved on since the version the writer expected; reload and decide again."""

    code = "version-conflict"

    def __init__(self, *, expected_version: int, current_version: int) -> None:
        super().__init__(
            f"expected version {expected_version}, but the game is at version {current_version}"
        )
        self.expected_version = expected_version
        self.current_version = current_version


class GameOver(Conflict):
    """A command for a game whose match is over, decided on an older version: the answer says
    the game is over (the engine's own `game-over`, 422), not that it moved on. A kind of
    Conflict, so that what a bot's refused answer costs stays that of a conflict: nothing."""

    code = "game-over"

    def __init__(self, *, game_id: int, expected_version: int, current_version: int) -> None:
        super().__init__(expected_version=expected_version, current_version=current_version)
        self.message = (
            f"game {game_id} is over (at version {current_version}): the match has ended and "
            "takes no more commands"
        )
        self.args = (self.message,)


class IllegalMove(GameError):
    """The rules refuse the command; `code` is the engine's reason (e.g. "not-your-turn")."""

    code = "illegal-move"

    @classmethod
    def from_engine(cls, error: IllegalCommand) -> IllegalMove:
        return cls(error.message, code=error.code)


class InvalidGame(GameError):
    """A game that cannot be created as asked (unknown rules or option, wrong seats)."""

    code = "invalid-game"


class BotRefused(GameError):
    """What a bot's owner asked is refused by the state the bot is in (bots/registry.py):
    `bot-busy` (retiring a bot that a running game, a ladder set, a club season or a
    tournament still holds), `bot-retired` (changing, validating or giving a token to a
    retired bot). A 409, like a conflict, but with no game version to report."""

    code = "bot-refused"


class GameRefused(GameError):
    """A game that may be started, but not now (games/lobby.py): `too-many-practice-matches`,
    past GAMES_MAX_PRACTICE_MATCHES running practice matches. A 409, like a conflict."""

    code = "game-refused"


class RematchRefused(GameError):
    """A rematch that cannot be offered or answered now (games/rematch.py): `not-over`,
    `not-rematchable`, `already-offered`, `no-offer`, `already-answered`, `offer-closed`."""

    code = "rematch-refused"
