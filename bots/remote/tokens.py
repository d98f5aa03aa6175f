"""Pull bots' API tokens: a random token is shown once; only its SHA-256 is stored."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import User

from games import rows
from games.models import Bot


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(bot: Bot) -> str:
    """Give a pull bot a new token (the old one stops working) and return it, once."""
    token = secrets.token_urlsafe(32)
    bot.token_hash = token_hash(token)
    bot.save(update_fields=["token_hash", "updated_at"])
    return token


# Every pull bot's request reads it (games/rows.py: the SQL written once, not compiled each time).
_BOT_OF: rows.Select[Bot] = rows.Select(
    'SELECT {b_columns}, {u_columns} FROM "games_bot" b JOIN "auth_user" u ON u.id = b.owner_id '
    "WHERE b.kind = %s AND b.token_hash = %s",
    [rows.Table(Bot, "b"), rows.Table(User, "u")],
    ["owner"],
)


def bot_for_token(token: str) -> Bot | None:
    if not token:
        return None
    # With its owner: the API's request.user, read in the same query.
    return _BOT_OF.first([Bot.Kind.PULL.value, token_hash(token)])
