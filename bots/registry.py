"""Registering bots and managing them for their owners: register, update, re-validate, new token.

A new bot, or one whose URL or strategy changed, starts a validation round in the same
transaction (bots/remote/validation.py `open_round`): it is `validating` until the round is
decided. A bot the staff suspended (`Bot.suspended_by_staff`) is not: its owner may change it,
but only the staff lift the suspension (staff.actions.bot_reinstate), and its owner's
re-validation is refused (SuspendedByStaff).
A built-in or webhook bot's round is played by the `validate_bot` task, sent when the change
commits; a pull bot's starts at its first poll for decisions. A webhook bot gets a random secret
when its owner gives none; a pull bot gets a token, returned once (only its SHA-256 is stored).
Every check runs before anything is written, so a refused request changes nothing.
docs/workers.md describes the kinds and their statuses.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction

from bots.remote.tokens import issue_token
from bots.remote.validation import open_round
from bots.remote.webhook import RefusedURL, check_url
from bots.strategies import STRATEGIES
from games.actors import is_person
from games.errors import Forbidden, GameError
from games.models import Bot

NAME_LENGTH = int(Bot._meta.get_field("name").max_length or 0)
URL_LENGTH = int(Bot._meta.get_field("url").max_length or 0)
SECRET_LENGTH = int(Bot._meta.get_field("secret").max_length or 0)
# The fields each kind of bot has, besides its name.
FIELDS: dict[str, set[str]] = {
    Bot.Kind.BUILTIN: {"strategy"},
    Bot.Kind.WEBHOOK: {"url", "secret"},
    Bot.Kind.PULL: set(),
}


class SuspendedByStaff(Forbidden):
    """The staff suspended the bot: only the staff lift it (staff.actions.bot_reinstate), so its
    owner's re-validation is refused."""

    code = "suspended-by-staff"


class InvalidBot(GameError):
    """A bot that cannot be registered or changed as asked (kind, name, fields of its kind)."""

    code = "invalid-bot"


class NameTaken(GameError):
    """The owner already has a bot of that name."""

    code = "name-taken"


class UnknownStrategy(GameError):
    """A built-in bot's strategy that bots.strategies.STRATEGIES does not have."""

    code = "unknown-strategy"


class InvalidURL(GameError):
    """A webhook URL the server will not call (not http(s), malformed, a private address)."""

    code = "invalid-url"


def bot_register(
    *, owner: Any, name: str, kind: str, strategy: str = "", url: str = "", secret: str = ""
) -> tuple[Bot, str | None]:
    """Register a bot of `owner` and send its validation on commit; returns the bot and, for a
    pull bot, its API token (shown this once). A webhook bot without a secret gets one."""
    if not is_person(owner):
        raise Forbidden("only a signed-in person registers a bot", code="not-a-person")
    name = _check_name(name)
    if kind not in Bot.Kind.values:
        raise InvalidBot(f"kind must be one of {', '.join(Bot.Kind.values)}, not {kind!r}")
    given = {"strategy": strategy, "url": url, "secret": secret}
    _check_fields(kind, {field for field, value in given.items() if value})
    if kind == Bot.Kind.BUILTIN:
        _check_strategy(strategy)
    if kind == Bot.Kind.WEBHOOK:
        _check_url(url)
        _check_secret(secret, required=False)
        secret = secret or secrets.token_urlsafe(32)
    if Bot.objects.filter(owner=owner, name=name).exists():
        raise NameTaken(f"you already have a bot named {name!r}")
    token = None
    try:
        with transaction.atomic():
            bot = Bot.objects.create(
                owner=owner,
                name=name,
                kind=kind,
                strategy=strategy,
                url=url,
                secret=secret,
                status=Bot.Status.VALIDATING,
            )
            if kind == Bot.Kind.PULL:
                token = issue_token(bot)
            open_round(bot.pk)
    except IntegrityError:
        # The same name registered by a concurrent request, between the check and the insert.
        raise NameTaken(f"you already have a bot named {name!r}") from None
    bot.refresh_from_db()
    return bot, token


def bot_update(
    *,
    bot: Bot,
    owner: Any,
    url: str | None = None,
    secret: str | None = None,
    strategy: str | None = None,
) -> Bot:
    """Change a bot's URL and secret (webhook) or strategy (built-in); None leaves a field as it
    is. A new URL or strategy puts the bot back to validating and sends its validation."""
    _check_owner(bot, owner)
    given = {"strategy": strategy, "url": url, "secret": secret}
    _check_fields(bot.kind, {field for field, value in given.items() if value is not None})
    if strategy is not None:
        _check_strategy(strategy)
    if url is not None:
        _check_url(url)
    if secret is not None:
        _check_secret(secret, required=True)
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        changed = [
            f for f, value in given.items() if value is not None and value != getattr(locked, f)
        ]
        for field in changed:
            setattr(locked, field, given[field])
        if changed:
            locked.save(update_fields=[*changed, "updated_at"])
        # A new secret alone does not change how the bot plays. A bot the staff suspended stays
        # suspended: its new URL or strategy is validated when the staff reinstate it.
        if {"strategy", "url"} & set(changed) and not locked.suspended_by_staff:
            open_round(locked.pk)
    locked.refresh_from_db()
    return locked


def bot_revalidate(*, bot: Bot, owner: Any) -> Bot:
    """Start a new validation round (after a failure, a fix, a suspension for its strikes). A
    bot already validating keeps its round: asking again queues nothing more. Raises
    SuspendedByStaff while a suspension by the staff stands (only the staff lift it)."""
    _check_owner(bot, owner)
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        if locked.suspended_by_staff:
            raise SuspendedByStaff(
                f"bot {locked.name} was suspended by the staff: only the staff can lift the "
                "suspension, so it cannot be validated again until they do"
            )
        if locked.status != Bot.Status.VALIDATING:
            open_round(locked.pk)
    locked.refresh_from_db()
    return locked


def bot_new_token(*, bot: Bot, owner: Any) -> str:
    """Give a pull bot a new API token and return it, once; the old one stops working."""
    _check_owner(bot, owner)
    if bot.kind != Bot.Kind.PULL:
        raise InvalidBot(f"a {bot.kind} bot has no token; only pull bots do", code="not-a-pull-bot")
    return issue_token(bot)


def _check_owner(bot: Bot, owner: Any) -> None:
    if not is_person(owner) or bot.owner_id != owner.pk:
        raise Forbidden(f"bot {bot.pk} is not yours", code="not-your-bot")


def _check_name(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > NAME_LENGTH:
        raise InvalidBot(f"a bot's name has 1 to {NAME_LENGTH} characters")
    return name


def _check_fields(kind: str, given: set[str]) -> None:
    """Refuse the fields another kind of bot has (a pull bot's URL would never be called)."""
    extra = sorted(given - FIELDS[kind])
    if extra:
        raise InvalidBot(f"a {kind} bot has no {' or '.join(extra)}")


def _check_strategy(strategy: str) -> None:
    if not strategy:
        raise UnknownStrategy(f"a builtin bot needs a strategy: one of {', '.join(STRATEGIES)}")
    if strategy not in STRATEGIES:
        raise UnknownStrategy(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")


def _check_secret(secret: str, *, required: bool) -> None:
    if (required and not secret) or len(secret) > SECRET_LENGTH:
        raise InvalidBot(f"a webhook secret has 1 to {SECRET_LENGTH} characters")


def _check_url(url: str) -> None:
    if not url:
        raise InvalidURL("a webhook bot needs the URL it is asked at")
    if len(url) > URL_LENGTH:
        raise InvalidURL(f"the URL is longer than {URL_LENGTH} characters")
    try:
        URLValidator(schemes=["http", "https"])(url)
        # The worker's own check: http(s) with a host, and no private address unless allowed.
        check_url(url)
    except ValidationError:
        raise InvalidURL(f"{url!r} is not an http(s) URL") from None
    except RefusedURL as error:
        raise InvalidURL(str(error)) from None
