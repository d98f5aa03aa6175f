"""Tournament services: what a person asks of a tournament. Create one, enter and withdraw,
start it, an arena's pause and resume, and the listings. What the rounds do (their tables, the
deadline's forfeits, following them to the end) is tournaments/rounds.py's. No HTTP here; the
errors are tournaments/errors.py's. docs/tournaments.md.

Who may run one: a club's admins (or staff) for the club, anyone signed in for an open one,
staff for a site-wide one (league/clubs.py `is_admin`).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import Profile
from engine import MATCH_OVER, Variant
from games import seat_facts
from games.actors import SYSTEM, is_person
from games.models import Bot
from league.clubs import is_admin, is_member
from league.models import Club
from tournaments import scheduling, standings
from tournaments.errors import (
    NotOrganiser,
    TournamentEntryRefused,
    TournamentNotFound,
    TournamentRefused,
)
from tournaments.models import Entry, Round, Tournament, TournamentGame
from tournaments.rounds import default_advance, open_first_round, tournament_advance


def tournament_get(slug: str) -> Tournament:
    found = Tournament.objects.select_related("club", "organiser").filter(slug=slug).first()
    if found is None:
        raise TournamentNotFound(slug)
    return found


def can_run(tournament: Tournament, user: Any) -> bool:
    """The organiser, a club admin of a club's tournament, or staff."""
    if not is_person(user):
        return False
    if user.is_staff or user.pk == tournament.organiser_id:
        return True
    return tournament.club is not None and is_admin(tournament.club, user)


def tournament_create(
    *,
    organiser: Any,
    name: str,
    slug: str,
    variant: Mapping[str, Any],
    entry_closes: datetime.datetime,
    format: str = Tournament.Format.SWISS,
    table_size: int = 4,
    target: int | None = None,
    turn_seconds: int | None = None,
    round_seconds: int = 86400,
    rounds: int = 3,
    advance: int | None = None,
    entry_opens: datetime.datetime | None = None,
    max_entrants: int = 64,
    rated: bool = False,
    bots_allowed: bool = True,
    club: Club | None = None,
    site_wide: bool = False,
    seed: int | None = None,
    seed_by: str = Tournament.SeedBy.RATING,
) -> Tournament:
    """Create a tournament taking entries from `entry_opens` (default now) to `entry_closes`,
    when it starts. Raises NotOrganiser (`not-club-admin`, `not-staff`, `not-organiser`),
    TournamentRefused (`invalid-tournament`, `invalid-variant`,
    `slug-taken`)."""
    if not is_person(organiser):
        raise NotOrganiser("sign in to run a tournament")
    if club is not None and not is_admin(club, organiser):
        raise NotOrganiser(
            f"only an admin of {club.name} runs its tournaments", code="not-club-admin"
        )
    if site_wide and not organiser.is_staff:
        raise NotOrganiser("only staff run a site-wide tournament", code="not-staff")
    if club is not None and site_wide:
        raise TournamentRefused("a club's tournament is not site-wide", code="invalid-tournament")
    if format not in Tournament.Format.values:
        raise TournamentRefused(
            f"format is one of {', '.join(Tournament.Format.values)}", code="invalid-tournament"
        )
    spec = dict(variant)
    if target is not None:
        spec["options"] = {**(spec.get("options") or {}), "target": target}
    try:
        parsed = Variant.from_spec(spec)
    except ValueError as error:
        raise TournamentRefused(str(error), code="invalid-variant") from error
    now = timezone.now()
    opens = entry_opens or now
    problems = []
    if not isinstance(table_size, int) or not (
        scheduling.MIN_TABLE_SIZE <= table_size <= scheduling.MAX_TABLE_SIZE
    ):
        problems.append(f"a table seats {scheduling.MIN_TABLE_SIZE} to {scheduling.MAX_TABLE_SIZE}")
    else:
        try:
            parsed.start(table_size, seed=0)
        except ValueError as error:
            problems.append(str(error))
    if advance is None:
        advance = default_advance(table_size)
    if format == Tournament.Format.KNOCKOUT and (
        not isinstance(advance, int) or not 1 <= advance < table_size
    ):
        problems.append(f"a knockout table of {table_size} sends 1 to {table_size - 1} through")
    if not isinstance(rounds, int) or not 1 <= rounds <= 50:
        problems.append("a tournament has 1 to 50 rounds")
    if not isinstance(round_seconds, int) or not 60 <= round_seconds <= 60 * 86400:
        problems.append("a round lasts 60 seconds to 60 days")
    if turn_seconds is not None and (not isinstance(turn_seconds, int) or turn_seconds < 1):
        problems.append("a turn lasts at least a second")
    # A round's deadline forfeits whoever still plays (not an arena's), and no turn's clock runs
    # past it (tournaments/rounds.py `_table_game`): a turn longer than a round is refused, and
    # the site's default turn is cut to the round.
    fits = format != Tournament.Format.ARENA and isinstance(round_seconds, int)
    if turn_seconds is None:
        turn_seconds = settings.GAMES_TURN_SECONDS
        if fits:
            turn_seconds = min(turn_seconds, round_seconds)
    elif fits and isinstance(turn_seconds, int) and turn_seconds > round_seconds:
        problems.append(
            f"a turn ({turn_seconds} s) is no longer than a round ({round_seconds} s), whose "
            "deadline forfeits whoever still plays"
        )
    if seed_by not in Tournament.SeedBy.values:
        problems.append(f"a knockout is seeded by {' or '.join(Tournament.SeedBy.values)}")
    if not isinstance(max_entrants, int) or not 2 <= max_entrants <= 1000:
        problems.append("2 to 1000 entrants")
    if entry_closes < opens:
        problems.append("entry closes after it opens")
    if not name.strip() or len(name) > 100 or not slug or len(slug) > 64:
        problems.append("a name of 1 to 100 characters and an address of 1 to 64")
    if problems:
        raise TournamentRefused("; ".join(problems), code="invalid-tournament")
    try:
        with transaction.atomic():
            return Tournament.objects.create(
                name=name.strip(),
                slug=slug,
                format=format,
                variant=parsed.spec,
                table_size=table_size,
                turn_seconds=turn_seconds,
                round_seconds=round_seconds,
                rounds=rounds,
                advance=advance,
                entry_opens=opens,
                entry_closes=entry_closes,
                max_entrants=max_entrants,
                rated=rated,
                bots_allowed=bots_allowed,
                organiser=organiser,
                club=club,
                site_wide=site_wide,
                seed=random.randrange(2**31) if seed is None else seed,
                seed_by=seed_by,
            )
    except IntegrityError as error:
        raise TournamentRefused(f"the address {slug!r} is taken", code="slug-taken") from error


def _entrant_name(user: Any, bot: Bot | None) -> str:
    return f"bot {bot.name}" if bot is not None else str(user.get_username())


def tournament_enter(
    tournament: Tournament,
    *,
    actor: Any,
    user: Any = None,
    bot: Bot | None = None,
    now: datetime.datetime | None = None,
) -> Entry:
    """Enter a person (themselves) or a bot (its owner, or the organiser) while entry is open
    (`entry_open`: late too, into a running Swiss or arena). Raises TournamentEntryRefused,
    NotOrganiser (`not-your-bot`)."""
    now = now or timezone.now()
    if (user is None) == (bot is None):
        raise TournamentEntryRefused(
            "an entrant is a person or a bot (one of them)", code="invalid-entrant"
        )
    if user is not None and (not is_person(actor) or actor.pk != user.pk):
        raise NotOrganiser("a person enters themselves", code="not-organiser")
    if bot is not None and not (
        is_person(actor) and (actor.pk == bot.owner_id or can_run(tournament, actor))
    ):
        raise NotOrganiser(f"bot {bot.name} is entered by its owner", code="not-your-bot")
    if bot is not None:
        if not tournament.bots_allowed:
            raise TournamentEntryRefused(
                f"{tournament.name} is for people only", code="bots-not-allowed"
            )
        if bot.status == Bot.Status.FAILED:
            raise TournamentEntryRefused(f"bot {bot.name} failed its validation", code="bot-failed")
        # A club's tournament is its members' (docs/tournaments.md, "Entering"): a bot comes
        # in with its owner's membership, or by the organiser's (or an admin's) choice.
        if (
            tournament.club is not None
            and not can_run(tournament, actor)
            and not is_member(tournament.club, actor)
        ):
            raise TournamentEntryRefused(
                f"{tournament.name} is for members of {tournament.club.name} and their bots",
                code="not-a-member",
            )
    else:
        if tournament.club is not None and not is_member(tournament.club, user):
            raise TournamentEntryRefused(
                f"{tournament.name} is for members of {tournament.club.name}", code="not-a-member"
            )
        if (
            tournament.variant.get("rules") == "newno"
            and not Profile.objects.filter(user=user, birth_date__isnull=False).exists()
        ):
            raise TournamentEntryRefused(
                "newno's Youngest Rule needs your birth date (profile page)",
                code="birth-date-missing",
            )
    already = TournamentEntryRefused(
        f"{_entrant_name(user, bot)} is already entered in {tournament.name}",
        code="already-entered",
    )
    with transaction.atomic():
        # Its status as it stands, not as the caller read it (a start or a round meanwhile).
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status == Tournament.Status.FINISHED:
            raise TournamentEntryRefused(f"{locked.name} has finished", code="tournament-finished")
        if not entry_open(locked, now):
            raise TournamentEntryRefused(
                f"entry to {locked.name} is closed", code="tournament-closed"
            )
        # The bot's row locked and read as it stands: a retirement under way (bots/registry.py
        # bot_retire) commits first and is seen here, or waits and is refused by this entry.
        if bot is not None and _bot_status(bot) == Bot.Status.RETIRED:
            raise TournamentEntryRefused(
                f"bot {bot.name} is retired: it enters nothing", code="bot-retired"
            )
        entry = Entry.objects.filter(tournament=locked, user=user, bot=bot).first()
        if entry is not None and not entry.withdrawn:
            raise already
        if Entry.objects.filter(tournament=locked, withdrawn=False).count() >= locked.max_entrants:
            raise TournamentEntryRefused(f"{tournament.name} is full", code="tournament-full")
        if entry is not None:
            entry.withdrawn = False
            entry.withdrawn_at = None
            entry.paused = False
            entry.save(update_fields=["withdrawn", "withdrawn_at", "paused"])
        else:
            entry = Entry.objects.create(tournament=locked, user=user, bot=bot)
    if locked.status == Tournament.Status.RUNNING:
        # A late entrant: an arena seats it as soon as a table fills; a Swiss draws it from
        # its next round, with no points for the rounds it missed.
        tournament_advance(tournament, now=now)
    return entry


def _bot_status(bot: Bot) -> str:
    return str(Bot.objects.select_for_update().values_list("status", flat=True).get(pk=bot.pk))


def entry_open(tournament: Tournament, now: datetime.datetime) -> bool:
    """Whether an entrant may enter now: in the entry window before the start; late, into a
    running Swiss while a round is still to be drawn, or a running arena while it seats."""
    if tournament.status == Tournament.Status.OPEN:
        return tournament.entry_opens <= now <= tournament.entry_closes
    if tournament.status != Tournament.Status.RUNNING:
        return False
    current = Round.objects.filter(tournament=tournament).order_by("-number").first()
    if current is None:
        return False
    if tournament.format == Tournament.Format.SWISS:
        return current.number < tournament.rounds
    if tournament.format == Tournament.Format.ARENA:
        return now < current.deadline
    return False


def tournament_withdraw(
    tournament: Tournament, *, actor: Any, user: Any = None, bot: Bot | None = None
) -> Entry:
    """Withdraw an entrant (a person themselves, a bot's owner, or the organiser). Once the
    tournament runs, the entrant's seats in its unfinished games are forfeited (the default bot
    plays them out, placed last) and it is drawn no more. Raises TournamentEntryRefused
    (`not-entered`, `tournament-finished`), NotOrganiser."""
    if (user is None) == (bot is None):
        raise TournamentEntryRefused(
            "an entrant is a person or a bot (one of them)", code="invalid-entrant"
        )
    owner = user.pk if user is not None else bot.owner_id  # type: ignore[union-attr]
    if not (is_person(actor) and (actor.pk == owner or can_run(tournament, actor))):
        raise NotOrganiser("an entrant withdraws themselves (or the organiser does)")
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentEntryRefused(f"{tournament.name} has finished", code="tournament-finished")
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update()
            .filter(tournament=tournament, user=user, bot=bot, withdrawn=False)
            .first()
        )
        if entry is None:
            raise TournamentEntryRefused(
                f"{_entrant_name(user, bot)} is not entered in {tournament.name}",
                code="not-entered",
            )
        entry.withdrawn = True
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn", "withdrawn_at"])
        for table in TournamentGame.objects.filter(round__tournament=tournament).exclude(
            game__status=MATCH_OVER
        ):
            if entry.pk in table.entries:
                seat_facts.seat_forfeit(
                    game_id=table.game_id,
                    seat=table.entries.index(entry.pk),
                    actor=SYSTEM,
                    note=f"withdrew from {tournament.name}",
                    by=f"your withdrawal from {tournament.name}",
                )
    return entry


def _own_entry(tournament: Tournament, actor: Any, user: Any, bot: Bot | None) -> Entry:
    """The live entry of a person (themselves) or a bot (its owner, or the organiser), locked.
    Raises TournamentEntryRefused (`invalid-entrant`, `not-entered`), NotOrganiser."""
    if (user is None) == (bot is None):
        raise TournamentEntryRefused(
            "an entrant is a person or a bot (one of them)", code="invalid-entrant"
        )
    owner = user.pk if user is not None else bot.owner_id  # type: ignore[union-attr]
    if not (is_person(actor) and (actor.pk == owner or can_run(tournament, actor))):
        raise NotOrganiser("an entrant pauses themselves (or the organiser does)")
    entry = (
        Entry.objects.select_for_update()
        .filter(tournament=tournament, user=user, bot=bot, withdrawn=False)
        .first()
    )
    if entry is None:
        raise TournamentEntryRefused(
            f"{_entrant_name(user, bot)} is not entered in {tournament.name}", code="not-entered"
        )
    return entry


def _check_pausable(tournament: Tournament) -> None:
    if tournament.format != Tournament.Format.ARENA:
        raise TournamentEntryRefused(
            f"{tournament.name} is not an arena: only an arena's entrants pause",
            code="not-an-arena",
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentEntryRefused(f"{tournament.name} has finished", code="tournament-finished")


def tournament_pause(
    tournament: Tournament,
    *,
    actor: Any,
    user: Any = None,
    bot: Bot | None = None,
) -> Entry:
    """Pause an arena entrant (before or while it runs): it is not seated again until it
    resumes; its points stay, and a game it is playing now plays on to its end. Raises
    TournamentEntryRefused (`not-an-arena`, `tournament-finished`, `not-entered`,
    `already-paused`, `invalid-entrant`), NotOrganiser."""
    _check_pausable(tournament)
    with transaction.atomic():
        entry = _own_entry(tournament, actor, user, bot)
        if entry.paused:
            raise TournamentEntryRefused(f"{entry.name} is paused already", code="already-paused")
        entry.paused = True
        entry.save(update_fields=["paused"])
    return entry


def tournament_resume(
    tournament: Tournament,
    *,
    actor: Any,
    user: Any = None,
    bot: Bot | None = None,
    now: datetime.datetime | None = None,
) -> Entry:
    """Resume a paused arena entrant: it waits again from now (at the end of the waiting list)
    and, while the arena seats, is seated as soon as a table fills. Raises
    TournamentEntryRefused (`not-an-arena`, `tournament-finished`, `not-entered`, `not-paused`,
    `invalid-entrant`), NotOrganiser."""
    _check_pausable(tournament)
    now = now or timezone.now()
    with transaction.atomic():
        entry = _own_entry(tournament, actor, user, bot)
        if not entry.paused:
            raise TournamentEntryRefused(f"{entry.name} is not paused", code="not-paused")
        entry.paused = False
        entry.resumed_at = now
        entry.save(update_fields=["paused", "resumed_at"])
    tournament_advance(tournament, now=now)
    return entry


def tournament_start(
    tournament: Tournament, *, actor: Any = SYSTEM, now: datetime.datetime | None = None
) -> Tournament:
    """Close entry and open the first round (the organiser may start early; the beat task
    starts it when entry closes). Raises NotOrganiser, TournamentRefused (`not-open`,
    `too-few-entrants`, `too-few-for-duplicate`: a duplicate event below two full tables)."""
    if actor is not SYSTEM and not can_run(tournament, actor):
        raise NotOrganiser(f"only the organiser of {tournament.name} starts it")
    return open_first_round(tournament, now=now or timezone.now())


def listing(status: str | None = None, club: Club | None = None) -> list[Tournament]:
    found = Tournament.objects.select_related("club", "organiser").order_by("entry_closes", "pk")
    if status is not None:
        found = found.filter(status=status)
    if club is not None:
        found = found.filter(club=club)
    return list(found)


def upcoming(club: Club | None = None, limit: int = 10) -> list[Tournament]:
    """Tournaments taking entries or running, the soonest to close entry first (the lobby's
    list, a club's)."""
    found = Tournament.objects.filter(status__in=["open", "running"]).select_related("club")
    if club is not None:
        found = found.filter(club=club)
    return list(found.order_by("status", "entry_closes", "pk")[:limit])


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished tournament and who won it: the names ranked first in its final standings
    (more than one when the first place is shared; none when nothing was played)."""

    tournament: Tournament
    winners: list[str]


# The finished tournaments a club's page lists, the newest first.
RECENT_FINISHED = 5


def recent_finished(club: Club, limit: int = RECENT_FINISHED) -> list[Finished]:
    """A club's tournaments that finished, the last to finish first, with their winners (the
    club's page: a finished tournament stays in sight there, not only at /tournaments/)."""
    found = Tournament.objects.filter(club=club, status=Tournament.Status.FINISHED).order_by(
        F("finished_at").desc(nulls_last=True), "-pk"
    )[:limit]
    return [
        Finished(
            tournament, [line.name for line in standings.standings(tournament) if line.rank == 1]
        )
        for tournament in found
    ]
