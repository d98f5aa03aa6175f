"""League services: create a competition, enter and leave it, create its games (ladders'
matchmaking and ratings: league/ladders.py). No HTTP here; the errors are league/errors.py's
(and games.errors.InvalidGame).

A competition's settings are copied into the context of each game it creates, where the workers
read them (games/game_settings.py): a game keeps the settings it was created
with, whatever later happens to its competition. docs/league.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import Profile
from games.creation import SeatSpec, game_create
from games.errors import InvalidGame
from games.game_settings import GameSettings
from games.lobby import ranked_by_age
from games.models import Bot, Game
from league.errors import EntryRefused, InvalidCompetition
from league.models import Competition, Entry, default_turn_seconds


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
    grace_seconds: float | None = None,
    vacation_days: int = 0,
    matchmaking: bool | None = None,
    duplicate: bool = True,
    created_by: Any = None,
) -> Competition:
    """Create a league or a ladder. A time limit left out is the site's setting of today
    (GAMES_TURN_SECONDS, BOTS_WEBHOOK_TIMEOUT, BOTS_PULL_TIMEOUT, GAMES_GRACE_SECONDS);
    `matchmaking` defaults to on for a ladder. Raises InvalidCompetition (`invalid-variant`,
    `invalid-setting`, `slug-taken`) and creates nothing then."""
    limits = {
        "turn_seconds": turn_seconds,
        "bot_timeout": bot_timeout,
        "pull_timeout": pull_timeout,
        "grace_seconds": grace_seconds,
    }
    competition = Competition(
        name=name,
        slug=slug,
        kind=kind,
        variant=variant,
        seats_per_game=seats_per_game,
        vacation_days=vacation_days,
        matchmaking=kind == Competition.Kind.LADDER if matchmaking is None else matchmaking,
        duplicate=duplicate,
        created_by=created_by,
        **{field: value for field, value in limits.items() if value is not None},
    )
    _save_checked(competition)
    return competition


def _save_checked(competition: Competition, fields: list[str] | None = None) -> None:
    """Save the competition (only `fields`, when given) after the model's validators and
    clean(), which the admin's forms check too. InvalidCompetition (`slug-taken` when another
    request took the slug between the check and the write)."""
    try:
        competition.full_clean()
    except ValidationError as error:
        raise _invalid(error) from error
    try:
        with transaction.atomic():
            competition.save(update_fields=fields)
    except IntegrityError as error:
        raise InvalidCompetition(
            f"the slug {competition.slug!r} is taken", code="slug-taken"
        ) from error


def competition_update(competition: Competition, **fields: Any) -> Competition:
    """Change a competition's settings (name, slug, variant, seats_per_game, turn_seconds,
    vacation_days; a `turn_seconds` of None is the site's setting of today), checked as
    `competition_create` checks them. Its games made before keep theirs (their context). The
    caller holds the lock that says no game is being made. Raises InvalidCompetition
    (`invalid-variant`, `invalid-setting`, `slug-taken`) and changes nothing then."""
    if "turn_seconds" in fields and fields["turn_seconds"] is None:
        fields["turn_seconds"] = default_turn_seconds()
    for field, value in fields.items():
        setattr(competition, field, value)
    _save_checked(competition, list(fields))
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
    only; a bot that failed its validation or retired can enter nothing. Joining again after
    leaving turns the old entry back on. Raises EntryRefused."""
    _check_entrant(user, bot)
    if bot is None and competition.variant.get("rules") == "newno" and not _born(user):
        raise EntryRefused(
            f"{user.get_username()} has given no birth date, which newno's Youngest Rule needs "
            "(profile page)",
            code="birth-date-missing",
        )
    already = EntryRefused(
        f"{_name(user, bot)} is already entered in {competition.name}", code="already-entered"
    )
    with transaction.atomic():
        if bot is not None:
            _check_bot(competition, bot)
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
    still seated in them; resigning is games.seat_facts.game_resign). Raises EntryRefused
    (`not-entered`)."""
    _check_entrant(user, bot)
    entries = Entry.objects.filter(competition=competition, user=user, bot=bot)
    if not entries.filter(active=True).update(active=False):
        raise EntryRefused(
            f"{_name(user, bot)} is not entered in {competition.name}", code="not-entered"
        )
    return entries.get()


def _check_bot(competition: Competition, bot: Bot) -> None:
    """EntryRefused unless the bot may enter: never a failed or retired one, and a ladder takes
    an active one only. Its row is locked and read as it stands: a retirement under way
    (bots/registry.py bot_retire) either commits first and is seen here, or waits for this
    entry and withdraws it (a ladder's) or is refused by it (a season's)."""
    status, by_staff = (
        Bot.objects.select_for_update().values_list("status", "suspended_by_staff").get(pk=bot.pk)
    )
    if status == Bot.Status.FAILED:
        raise EntryRefused(f"bot {bot.name} failed its validation", code="bot-failed")
    if status == Bot.Status.RETIRED:
        raise EntryRefused(f"bot {bot.name} is retired: it enters nothing", code="bot-retired")
    if competition.kind == Competition.Kind.LADDER and status == Bot.Status.VALIDATING:
        raise EntryRefused(
            f"bot {bot.name} is still playing its validation games: a ladder takes "
            "validated bots only",
            code="bot-validating",
        )
    if competition.kind == Competition.Kind.LADDER and by_staff:
        raise EntryRefused(
            f"bot {bot.name} is suspended by the staff; only the staff can lift the suspension",
            code="bot-suspended-by-staff",
        )
    if competition.kind == Competition.Kind.LADDER and status == Bot.Status.SUSPENDED:
        raise EntryRefused(
            f"bot {bot.name} is suspended (too many strikes in a row); ask for a new "
            "validation to reinstate it",
            code="bot-suspended",
        )


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
    ladder_set: int | None = None,
    rotation: int | None = None,
    set_size: int | None = None,
    require_active: bool = True,
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
        # A ladder set's later rotations seat whoever sat at its first game, left or not.
        if entry.competition_id != competition.pk or (require_active and not entry.active):
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
            ladder_set=ladder_set,
            rotation=rotation,
            set_size=set_size,
            turn_seconds=competition.turn_seconds,
            bot_timeout=competition.bot_timeout,
            pull_timeout=competition.pull_timeout,
            vacation_days=competition.vacation_days,
            grace_seconds=competition.grace_seconds,
        ),
    )
