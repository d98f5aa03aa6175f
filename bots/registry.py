"""Registering bots and managing them for their owners: register, update (rename), re-validate,
new token, retire.

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

A name is checked the same way when a bot is registered and when it is renamed (`_check_name`,
`_check_name_free`: one owner's bots' names differ in more than case). Nothing stores a copy of
it but the records of what was true then (the log's actor labels, a closed season's archived
table, open-data files already written): every page reads the bot's row, so a new name shows
wherever the bot is shown (docs/bots-api.md, "Renaming and retiring a bot").

A retired bot (`bot_retire`) is retired for good: it plays nothing new, is out of its ladders,
its pull token opens nothing (api/bots.py), and it cannot be changed, validated or given a new
token (BotRefused `bot-retired`); its games, ratings and standings stay. What it still plays
holds it (`retirement_holds`): a retirement is refused then (BotRefused `bot-busy`), and
changes nothing.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from bots.remote.tokens import issue_token
from bots.remote.validation import open_round
from bots.remote.webhook import RefusedURL, check_url
from bots.strategies import STRATEGIES
from engine import PLAYING
from games.actors import is_person
from games.errors import BotRefused, Forbidden, GameError
from games.models import Bot, Seat
from league.models import Competition, Entry, LadderSet, Season
from tournaments.models import Entry as TournamentEntry
from tournaments.models import Tournament

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
    token = None
    try:
        with transaction.atomic():
            _check_name_free(owner, name)
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
        raise _name_taken(name) from None
    bot.refresh_from_db()
    return bot, token


def bot_update(
    *,
    bot: Bot,
    owner: Any,
    name: str | None = None,
    url: str | None = None,
    secret: str | None = None,
    strategy: str | None = None,
) -> Bot:
    """Rename a bot, change its URL and secret (webhook) or strategy (built-in); None leaves a
    field as it is. A new name is checked as at registration; a new URL or strategy puts the
    bot back to validating and sends its validation. BotRefused `bot-retired` for a retired
    bot."""
    _check_owner(bot, owner)
    _check_in_service(bot, "changed")
    given = {"strategy": strategy, "url": url, "secret": secret}
    _check_fields(bot.kind, {field for field, value in given.items() if value is not None})
    if name is not None:
        name = _check_name(name)
    if strategy is not None:
        _check_strategy(strategy)
    if url is not None:
        _check_url(url)
    if secret is not None:
        _check_secret(secret, required=True)
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        _check_in_service(locked, "changed")
        if name is not None and name != locked.name:
            _check_name_free(owner, name, other_than=locked.pk)
        wanted = {"name": name, **given}
        changed = [
            f for f, value in wanted.items() if value is not None and value != getattr(locked, f)
        ]
        for field in changed:
            setattr(locked, field, wanted[field])
        if changed:
            try:
                with transaction.atomic():
                    locked.save(update_fields=[*changed, "updated_at"])
            except IntegrityError:
                # The name taken by a concurrent request, between the check and the update.
                raise _name_taken(str(name)) from None
        # A new name or secret alone does not change how the bot plays. A bot the staff
        # suspended stays suspended: its new URL or strategy is validated when the staff
        # reinstate it.
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
        _check_in_service(locked, "validated again")
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
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        _check_in_service(locked, "given a new token")
        return issue_token(locked)


# Running games a refusal to retire names at most (then "and more").
GAMES_NAMED = 3


def bot_retire(*, bot: Bot, owner: Any) -> Bot:
    """Retire the bot for good: it plays nothing new, its active ladder entries are withdrawn
    (as leaving does: its ratings stay on the boards), its pull token opens nothing; its games,
    ratings and standings stay. A retired bot asked again is returned as it is. BotRefused
    `bot-busy`, naming what holds it, while a running game, an open ladder set, a club season
    or a tournament still holds it (`retirement_holds`); nothing changes then."""
    _check_owner(bot, owner)
    with transaction.atomic():
        # Locked before the checks: a change of the bot, or an entry of it (which locks it
        # too), waits for the retirement. A game made from its status read just before is
        # played by the fallback (games/seats.py REPLACED).
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        if locked.status == Bot.Status.RETIRED:
            return locked
        held = retirement_holds(locked)
        if held:
            raise BotRefused(
                f"bot {locked.name} cannot retire yet: {'; '.join(held)}", code="bot-busy"
            )
        locked.status = Bot.Status.RETIRED
        locked.status_reason = "retired by its owner"
        locked.retired_at = timezone.now()
        locked.save(update_fields=["status", "status_reason", "retired_at", "updated_at"])
        Entry.objects.filter(
            bot=locked, active=True, competition__kind=Competition.Kind.LADDER
        ).update(active=False)
    return locked


def retirement_holds(bot: Bot) -> list[str]:
    """What keeps the bot from retiring, a clause each (none: it may retire): a game it is
    seated in that is still played (a validation game too), unless its seat there was forfeited
    or handed over to the default bot, a ladder set of its with games
    still to make (the set is one rating event for everyone at its table), a club season it is
    entered in that is not closed, a tournament that is not finished (entered in one still
    open; entered or withdrawn in a running one, whose draw may still seat it)."""
    held = []
    # A seat forfeited or handed over is the default bot's (games/seat_facts.py to_fallback):
    # the bot is never asked in that game again, so the game holds it no more.
    games = list(
        Seat.objects.filter(registered_bot=bot, game__status=PLAYING)
        .exclude(controller=Seat.Controller.FALLBACK)
        .order_by("game_id")
        .values_list("game_id", flat=True)
        .distinct()[: GAMES_NAMED + 1]
    )
    if games:
        named = [str(pk) for pk in games[:GAMES_NAMED]]
        if len(games) > GAMES_NAMED:
            named.append("more")
        more = "s" if len(games) > 1 else ""
        held.append(f"it is seated in game{more} {_and(named)}, still being played")
    ladders = dict(
        Entry.objects.filter(bot=bot, competition__kind=Competition.Kind.LADDER).values_list(
            "pk", "competition_id"
        )
    )
    open_sets = LadderSet.objects.filter(
        competition_id__in=set(ladders.values()), made__lt=F("size")
    ).values_list("competition__name", "entries")
    for ladder in sorted(
        {name for name, entries in open_sets if set(map(int, entries)) & set(ladders)}
    ):
        held.append(f"its set in ladder {ladder} still has games to play")
    seasons = Entry.objects.filter(
        bot=bot,
        active=True,
        competition__season__status__in=[Season.Status.DRAFT, Season.Status.RUNNING],
    ).values_list(
        "competition__name", "competition__season__club__name", "competition__season__status"
    )
    for season, club, status in sorted(seasons):
        if status == Season.Status.DRAFT:
            held.append(
                f"it is entered in season {season} of {club}, not started yet (a club admin may "
                "withdraw it)"
            )
        else:
            held.append(f"it is entered in season {season} of {club}, still running")
    tournaments = (
        TournamentEntry.objects.filter(bot=bot)
        .filter(
            Q(tournament__status=Tournament.Status.RUNNING)
            | Q(tournament__status=Tournament.Status.OPEN, withdrawn=False)
        )
        .values_list("tournament__name", "tournament__status")
    )
    for tournament, status in sorted(tournaments):
        if status == Tournament.Status.OPEN:
            held.append(f"it is entered in tournament {tournament}, not started: withdraw it first")
        else:
            held.append(f"it is entered in tournament {tournament}, still running")
    return held


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _check_in_service(bot: Bot, done: str) -> None:
    """BotRefused `bot-retired` for a retired bot: nothing about it changes any more."""
    if bot.status == Bot.Status.RETIRED:
        raise BotRefused(f"bot {bot.name} is retired: it cannot be {done}", code="bot-retired")


def _check_owner(bot: Bot, owner: Any) -> None:
    if not is_person(owner) or bot.owner_id != owner.pk:
        raise Forbidden(f"bot {bot.pk} is not yours", code="not-your-bot")


def _check_name(name: str) -> str:
    """The name trimmed; InvalidBot unless it has 1 to NAME_LENGTH characters."""
    name = (name or "").strip()
    if not name or len(name) > NAME_LENGTH:
        raise InvalidBot(f"a bot's name has 1 to {NAME_LENGTH} characters")
    return name


def _check_name_free(owner: Any, name: str, *, other_than: int | None = None) -> None:
    """NameTaken when another of the owner's bots (not `other_than`, the one being renamed) has
    the name, in any case: "gus" beside "Gus" would be two bots a person cannot tell apart. A
    retired bot keeps its name: its pages and records show it, so two bots of one owner never
    share one. Called inside the transaction that writes the name, with the owner's row locked,
    so that two requests for "Gus" and "gus" are checked one after the other (the database's
    constraint, bot_name_unique_per_owner, is on the exact name only)."""
    get_user_model().objects.select_for_update().filter(pk=owner.pk).values_list("pk").first()
    same = Bot.objects.filter(owner=owner, name__iexact=name)
    if other_than is not None:
        same = same.exclude(pk=other_than)
    holder = same.values_list("name", "status").first()
    if holder is None:
        return
    held, status = holder
    if status == Bot.Status.RETIRED:
        raise NameTaken(
            f"your retired bot is named {held!r}, and a retired bot keeps its name: choose another"
        )
    raise _name_taken(held)


def _name_taken(name: str) -> NameTaken:
    return NameTaken(f"you already have a bot named {name!r}")


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
