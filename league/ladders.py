"""Ladders: entering and leaving (for a bot's owner or a person), matchmaking by rating, and
duplicate deals. The ratings themselves are the `ladder-ratings` projection
(league/projections.py) over league/ratings.py's model; docs/ladders.md.

Matchmaking seats a table of idle entrants close in rating as a LadderSet: with duplicate
deals, k games of one seed played one after the other, the seats rotated by one each game, so
every entrant plays every seat's cards; the next rotation is made when the last one ended
(by the next matchmaking run, which the end of a ladder game asks for at once:
league/dispatch.py).
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from engine import PLAYING
from games.actors import is_person
from games.errors import Forbidden
from games.models import Bot, Game, Seat
from league import ratings, rest
from league.errors import CompetitionError
from league.models import Competition, Entry, LadderSet, Rating
from league.services import competition_game, competition_join, competition_leave


def ladder_enter(competition: Competition, *, actor: Any, bot: Bot | None = None) -> Entry:
    """Enter `actor`'s `bot` (or `actor` in person, without one) in a ladder. Raises
    Forbidden (`not-owner`, `not-a-person`), CompetitionError (`not-a-ladder`) and
    EntryRefused (`bot-validating`, `bot-suspended`, `bot-failed`, `already-entered`,
    `birth-date-missing`), and Forbidden (`ladder-for-bots`) for a person in a ladder for
    bots only."""
    _check(competition, actor, bot)
    if bot is None:
        if is_for_bots(competition):
            raise Forbidden(
                f"{competition.name} is a ladder for bots: enter one of your bots, not yourself",
                code="ladder-for-bots",
            )
        return competition_join(competition, user=actor)
    return competition_join(competition, bot=bot)


def ladder_leave(competition: Competition, *, actor: Any, bot: Bot | None = None) -> Entry:
    """Take `actor`'s `bot` (or `actor`) out of a ladder: matchmaking seats it no more; a set
    it is playing plays on to its end, so its rating event is whole. Raises as ladder_enter,
    and EntryRefused (`not-entered`)."""
    _check(competition, actor, bot)
    if bot is None:
        return competition_leave(competition, user=actor)
    return competition_leave(competition, bot=bot)


def is_for_bots(competition: Competition) -> bool:
    """Whether a ladder seats bots only (settings.LEAGUE_BOT_LADDERS names it): a person may
    not enter it in person. Every other ladder mixes people and bots."""
    return competition.slug in settings.LEAGUE_BOT_LADDERS


def _check(competition: Competition, actor: Any, bot: Bot | None) -> None:
    if not is_person(actor):
        raise Forbidden("only a signed-in person enters a ladder", code="not-a-person")
    if competition.kind != Competition.Kind.LADDER:
        raise CompetitionError(f"{competition.name} is not a ladder", code="not-a-ladder")
    if bot is not None and bot.owner_id != actor.pk:
        raise Forbidden(f"bot {bot.name} is not yours", code="not-owner")


def open_sets(competition: Competition) -> QuerySet[LadderSet]:
    """The ladder's sets with rotations still to make."""
    return LadderSet.objects.filter(competition=competition, made__lt=F("size"))


def idle_entries(competition: Competition) -> QuerySet[Entry]:
    """The entries matchmaking may seat: active, a person or an active bot (a suspended,
    failed or validating bot waits), not seated in a playing game of the ladder, not in a
    set with rotations still to play and within the day's budget of sets (league/rest.py)."""
    playing = Seat.objects.filter(game__status=PLAYING, game__context__competition=competition.pk)
    in_sets = {int(entry) for entries in open_sets(competition).values_list("entries", flat=True)
               for entry in entries}  # fmt: skip
    return (
        Entry.objects.filter(competition=competition, active=True)
        .filter(Q(bot__isnull=True) | Q(bot__status=Bot.Status.ACTIVE))
        # NOT IN over a list holding NULL is never true: keep the NULLs out of the subqueries.
        .exclude(user__in=playing.filter(user__isnull=False).values("user"))
        .exclude(bot__in=playing.filter(registered_bot__isnull=False).values("registered_bot"))
        .exclude(pk__in=in_sets | rest.over_budget(competition))
        .select_related("user", "bot")
        .order_by("pk")
    )


def candidates(competition: Competition, entries: list[Entry]) -> list[ratings.Candidate]:
    """The entries with their skill as matchmaking sees it: decayed to now; a newcomer's
    default without a rating."""
    now = timezone.now()
    rows = {row.entry_id: row for row in Rating.objects.filter(entry__in=entries)}
    found = []
    for entry in entries:
        row = rows.get(entry.pk)
        skill = ratings.Skill()
        if row is not None:
            skill = ratings.decayed(ratings.Skill(row.mu, row.sigma), row.rated_at, now)
        found.append(ratings.Candidate(entry.pk, skill))
    return found


def ladder_continue(competition: Competition) -> list[Game]:
    """Make the next rotation of every set of the ladder whose last game ended; seats no new
    table (the end of a game asks for this at once; new tables wait for beat's matchmaking, so
    a ladder of bots playing in-process never turns into one endless chain of games)."""
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        # Paused (by staff) since the caller looked: a run under way seats nobody after it.
        if not competition.matchmaking:
            return []
        return _continue_sets(competition)


def _continue_sets(competition: Competition) -> list[Game]:
    games = [_next_rotation(competition, s) for s in open_sets(competition).order_by("pk")]
    return [game for game in games if game is not None]


def ladder_matchmaking(competition: Competition, *, rng: random.Random | None = None) -> list[Game]:
    """Make the next rotation of every set whose last game ended, then seat the idle entrants
    at new tables close in rating (ratings.draw_tables); those who fill no table wait for the
    next run. Returns the games made.

    Safe to run twice at once: the competition's row is locked until the games are committed,
    so a second run waits and then finds the entrants seated and the rotations made. A ladder
    whose matchmaking is off (paused by staff) makes nothing. Raises CompetitionError
    (`not-a-ladder`).
    """
    rng = rng or random.Random()
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        if competition.kind != Competition.Kind.LADDER:
            raise CompetitionError(f"{competition.name} is not a ladder", code="not-a-ladder")
        if not competition.matchmaking:
            return []
        made = _continue_sets(competition)
        waiting = list(idle_entries(competition))
        by_pk = {entry.pk: entry for entry in waiting}
        size = competition.seats_per_game
        for table in ratings.draw_tables(candidates(competition, waiting), size, rng):
            ladder_set = LadderSet.objects.create(
                competition=competition,
                entries=table,
                seed=secrets.token_hex(8),
                size=size if competition.duplicate else 1,
            )
            made.append(_make_rotation(competition, ladder_set, [by_pk[pk] for pk in table]))
        return made


def ladder_set_close(ladder_set_id: int) -> bool:
    """Make no more rotations of a set: one of its games was aborted (staff/actions.py). The
    ratings projection rates a set only when every rotation ended, so the rest would be played
    for nothing while its entrants wait outside matchmaking; closed, they are idle at once.
    Returns whether the set was still open."""
    still_open = LadderSet.objects.filter(pk=ladder_set_id, made__lt=F("size"))
    return bool(still_open.update(made=F("size")))


def _next_rotation(competition: Competition, ladder_set: LadderSet) -> Game | None:
    """The set's next game, if its last one has ended."""
    playing = Game.objects.filter(context__ladder_set=ladder_set.pk, status=PLAYING)
    if ladder_set.made and playing.exists():
        return None
    entries = Entry.objects.in_bulk([int(pk) for pk in ladder_set.entries])
    return _make_rotation(competition, ladder_set, [entries[int(pk)] for pk in ladder_set.entries])


def _make_rotation(competition: Competition, ladder_set: LadderSet, entries: list[Entry]) -> Game:
    rotation = ladder_set.made
    seated = [entries[(seat - rotation) % len(entries)] for seat in range(len(entries))]
    game = competition_game(
        competition,
        seated,
        seed=ladder_set.seed,
        ladder_set=ladder_set.pk,
        rotation=rotation,
        set_size=ladder_set.size,
        require_active=rotation == 0,
    )
    LadderSet.objects.filter(pk=ladder_set.pk).update(made=F("made") + 1)
    ladder_set.made += 1
    return game
