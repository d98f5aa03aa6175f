"""The refusals of chat, boards and moderation, each a GameError with a stable code (the API
renders {"code", "message"}; frontdoor/errors.py maps the classes to statuses): 400 for text
that is empty or too long (ChatInvalid), 403 for who may not say or read it (ChatForbidden,
ChatRestricted with `until`), 404 for no such message, post or person (ChatNotFound), 409 for a
report already made or handled (ChatConflict), 429 `chat-rate-limited` (ChatRateLimited)."""

from __future__ import annotations

from datetime import datetime

from games.errors import Forbidden, GameError, GameNotFound


class ChatInvalid(GameError):
    """`empty-message`, `message-too-long`, `bad-channel`, `bad-after`, `reason-required`,
    `cannot-mute-self`, `bad-hours`."""

    code = "chat-invalid"


class ChatForbidden(Forbidden):
    """`not-seated`, `seated` (a seat writes to the spectators), `spectators-hidden`,
    `not-signed-in`, `not-a-member`, `not-club-admin`, `own-message`."""

    code = "chat-forbidden"


class ChatRestricted(Forbidden):
    """Staff restricted the person from chat until `until`."""

    code = "chat-restricted"

    def __init__(self, until: datetime) -> None:
        super().__init__(f"you may not chat until {until:%Y-%m-%d %H:%M} UTC")
        self.until = until


class ChatNotFound(GameNotFound):
    code = "not-found"

    def __init__(self, message: str) -> None:
        GameError.__init__(self, message)


class ChatConflict(GameError):
    """`already-reported`, `already-handled`, `already-hidden`."""

    code = "chat-conflict"


class ChatRateLimited(GameError):
    """More messages in a short time than a conversation needs; `wait` seconds to go."""

    code = "chat-rate-limited"

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many messages: wait {wait} s")
        self.wait = wait
