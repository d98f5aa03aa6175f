"""Pull bots' API tokens: a random token is shown once; only its SHA-256 is stored."""

from __future__ import annotations

import hashlib
import secrets

from games.models import Bot


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(bot: Bot) -> str:
    """Give a pull bot a new token (the old one stops working) and return it, once."""
    token = secrets.token_urlsafe(32)
    bot.token_hash = token_hash(token)
    bot.save(update_fields=["token_hash", "updated_at"])
    return token


def bot_for_token(token: str) -> Bot | None:
    if not token:
        return None
    # With its owner: the API's request.user, read in the same query.
    return (
        Bot.objects.select_related("owner")
        .filter(kind=Bot.Kind.PULL, token_hash=token_hash(token))
        .first()
    )
