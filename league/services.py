"""League services: create a competition, enter and leave it, create its games, ladder
matchmaking. No HTTP here; the errors are league/errors.py's (and games.errors.InvalidGame).

A competition's settings are copied into the context of each game it creates, where the workers
read them (games/game_settings.py): a game keeps the settings it was created
with, whatever later happens to its competition. docs/league.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet

from accounts.models import Profile
from games.engine import PLAYING
from games.errors import InvalidGame
from games.game_settings import GameSettings
from games.lobby import ranked_by_age
from games.models import Bot, Game, Seat
from games.services import SeatSpec, game_create

from .errors import CompetitionError, EntryRefused, InvalidCompetition
from .models import Competition, Entry


def competition_create(
    *,
    name: str,
    slug: str,
    kind: str,
    variant: Mapping[str, Any],
    seats_per_game: int = 4,
    turn_seconds: int | None = None,
    bot_timeout: float | None = None,
    pull_timeout: float | None = None,
    vacation_days: int = 0,
    matchmaking: bool | None = None,
    created_by: Any = None,
) -> Competition:
    """Create a league or a ladder. A time limit left out is the site's setting of today
    (GAMES_TURN_SECONDS, BOTS_WEBHOOK_TIMEOUT, BOTS_PULL_TIMEOUT); `matchmaking` defaults to on
    for a ladder. Raises InvalidCompetition (`invalid-variant`, `invalid-setting`,
    `slug-taken`) and creates nothing then."""
    limits = {
        "turn_seconds": turn_seconds,
        "bot_timeout": bot_timeout,
        "pull_timeout": pull_timeout,
    }
    competition = Competition(
        name=name,
        slug=slug,
        kind=kind,
        variant=variant,
        seats_per_game=seats_per_game,
        vacation_days=vacation_days,
        matchmaking=kind == Competition.Kind.LADDER if matchmaking is None else matchmaking,
        created_by=created_by,
        **{field: value for field, value in limits.items() if value is not None},
    )
    try:
        # The model's validators and clean(): the admin's forms check the same things.
        competition.full_clean()
    except ValidationError as error:
        raise _invalid(error) from error
    try:
        with transaction.atomic():
            competition.save()
    except IntegrityError as error:
        # Another request took the slug between the check and the insert.
        raise InvalidCompetition(f"the slug {slug!r} is taken", code="slug-taken") from error
    return competition


def _invalid(error: ValidationError) -> InvalidCompetition:
    problems = error.message_dict
    if "variant" in problems:
        code = "invalid-variant"
    elif any(e.code == "unique" for e in error.error_dict.get("slug", [])):
        code = "slug-taken"
    else:
        code = "invalid-setting"
    message = "; ".join(f"{field}: {' '.join(texts)}" for field, texts in problems.items())
    return InvalidCompetition(message, code=code)


def competition_join(
    competition: Competition, *, user: Any = None, bot: Bot | None = None
) -> Entry:
    """Enter a person or a registered bot (one of them). A ladder takes active (validated) bots
    only; a bot that failed its validation can enter nothing. Joining again after leaving turns
    the old entry back on. Raises EntryRefused."""
    _check_entrant(user, bot)
    if bot is not None:
        status = Bot.objects.values_list("status", flat=True).get(pk=bot.pk)
        if competition.kind == Competition.Kind.LADDER and status != Bot.Status.ACTIVE:
            raise EntryRefused(
                f"bot {bot.name} is {status}: a ladder takes active (validated) bots only",
                code="bot-not-active",
            )
        if status == Bot.Status.FAILED:
            raise EntryRefused(f"bot {bot.name} failed its validation", code="bot-failed")
    elif competition.variant.get("rules") == "newno" and not _born(user):
        raise EntryRefused(
            f"{user.get_username()} has given no birth date, which newno's Youngest Rule needs "
            "(profile page)",
            code="birth-date-missing",
        )
    already = EntryRefused(
        f"{_name(user, bot)} is already entered in {competition.name}", code="already-entered"
    )
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update()
            .filter(competition=competition, user=user, bot=bot)
            .first()
        )
        if entry is not None:
            if entry.active:
                raise already
            entry.active = True
            entry.save(update_fields=["active"])
            return entry
        try:
            with transaction.atomic():
                return Entry.objects.create(competition=competition, user=user, bot=bot)
        except IntegrityError as error:
            # Another request entered the same entrant meanwhile.
            raise already from error


def competition_leave(
    competition: Competition, *, user: Any = None, bot: Bot | None = None
) -> Entry:
    """Withdraw an entrant: matchmaking seats it no more. Its running games play on (it is
    still seated in them; resigning is games.services.game_resign). Raises EntryRefused
    (`not-entered`)."""
    _check_entrant(user, bot)
    entries = Entry.objects.filter(competition=competition, user=user, bot=bot)
    if not entries.filter(active=True).update(active=False):
        raise EntryRefused(
            f"{_name(user, bot)} is not entered in {competition.name}", code="not-entered"
        )
    return entries.get()


def _born(user: Any) -> bool:
    return Profile.objects.filter(user=user, birth_date__isnull=False).exists()


def _check_entrant(user: Any, bot: Bot | None) -> None:
    if (user is None) == (bot is None):
        raise EntryRefused("an entrant is a user or a bot (one of them)", code="invalid-entrant")


def _name(user: Any, bot: Bot | None) -> str:
    return f"bot {bot.name}" if bot is not None else user.get_username()


def competition_game(
    competition: Competition,
    entries: Iterable[Entry],
    *,
    seed: int | str | None = None,
    fixture: int | None = None,
) -> Game:
    """Create a game of the competition: one seat per entry, in the order given, and the
    competition's settings in the game's context (with the league fixture it is made for).

    Entries must be active entries of this competition, each once (InvalidGame, code
    `invalid-entry`); the table size is the engine's to check, so a later fixture may seat
    fewer than `seats_per_game`. In newno the seats get their ages as ranks
    (games.lobby.ranked_by_age: people by birth date, which competition_join asks of them).
    """
    entries = list(entries)
    for entry in entries:
        if entry.competition_id != competition.pk or not entry.active:
            raise InvalidGame(
                f"{entry} is not an active entry of {competition.name}", code="invalid-entry"
            )
    if len({entry.pk for entry in entries}) != len(entries):
        raise InvalidGame("an entry takes one seat of a game", code="invalid-entry")
    seats = [
        SeatSpec(registered=entry.bot) if entry.bot_id else SeatSpec(user=entry.user)
        for entry in entries
    ]
    if competition.variant.get("rules") == "newno":
        seats = ranked_by_age(seats)
    return game_create(
        variant_spec=competition.variant,
        seats=seats,
        seed=seed,
        settings=GameSettings(
            kind=competition.kind,
            competition=competition.pk,
            fixture=fixture,
            turn_seconds=competition.turn_seconds,
            bot_timeout=competition.bot_timeout,
            pull_timeout=competition.pull_timeout,
            vacation_days=competition.vacation_days,
        ),
    )


def idle_entries(competition: Competition) -> QuerySet[Entry]:
    """The entries matchmaking may seat: active, a person or an active bot (a suspended,
    failed or validating bot waits), and not seated in a playing game of the competition."""
    playing = Seat.objects.filter(game__status=PLAYING, game__context__competition=competition.pk)
    return (
        Entry.objects.filter(competition=competition, active=True)
        .filter(Q(bot__isnull=True) | Q(bot__status=Bot.Status.ACTIVE))
        # NOT IN over a list holding NULL is never true: keep the NULLs out of the subqueries.
        .exclude(user__in=playing.filter(user__isnull=False).values("user"))
        .exclude(bot__in=playing.filter(registered_bot__isnull=False).values("registered_bot"))
        .select_related("user", "bot")
        .order_by("pk")
    )


def ladder_matchmaking(competition: Competition, *, rng: random.Random | None = None) -> list[Game]:
    """Seat the ladder's idle entrants (idle_entries) in as many new games of `seats_per_game`
    as they fill, in random groups; the rest wait for the next run. Returns the games.

    Safe to run twice at once: the competition's row is locked until the games are committed,
    so a second run waits and then finds their entrants seated. Raises CompetitionError
    (`not-a-ladder`).
    """
    rng = rng or random.Random()
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        if competition.kind != Competition.Kind.LADDER:
            raise CompetitionError(f"{competition.name} is not a ladder", code="not-a-ladder")
        waiting = list(idle_entries(competition))
        rng.shuffle(waiting)
        size = competition.seats_per_game
        return [
            competition_game(competition, waiting[start : start + size])
            for start in range(0, len(waiting) - size + 1, size)
        ]
