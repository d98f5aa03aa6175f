"""A tournament's rounds: the first opened at start, each round's tables drawn
(tournaments/scheduling.py) and made as a competition's games are, an arena's seating, what a
round's deadline forfeits, and following the rounds to the end (the beat's sweep, and a game's
end through tournaments/dispatch.py). services.py holds what a person asks of a tournament;
this holds what the rounds do. No HTTP here. docs/tournaments.md.

The rounds read the results they decide on from the games' logs (tournaments/standings.py
`live_standings`), never from the read model, so a round opens as soon as the last game of the
one before it ends.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine import MATCH_OVER
from games import seat_facts
from games.actors import SYSTEM
from games.creation import SeatSpec, game_create
from games.errors import InvalidGame
from games.game_settings import GameSettings
from games.lobby import ranked_by_age
from games.models import Game, Seat
from games.seeds import keyed_seed
from league import ratings as skills
from league.ladder_reads import bot_ordinals
from ratings.pools import pool_of
from ratings.reads import pool_ordinals
from social.models import Notification
from social.notifications import game_url, notify
from tournaments import results, scheduling, standings
from tournaments.errors import (
    TournamentRefused,
)
from tournaments.models import Entry, Round, Tournament, TournamentGame

KIND = "tournament"
log = logging.getLogger(__name__)


def open_first_round(tournament: Tournament, *, now: datetime.datetime) -> Tournament:
    """Close entry and open the first round; services.py `tournament_start` checks who asks.
    Raises TournamentRefused (`not-open`, `too-few-entrants`, `too-few-for-duplicate`)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.Status.OPEN:
            raise TournamentRefused(f"{locked.name} has started", code="not-open")
        active = Entry.objects.filter(tournament=locked, withdrawn=False).count()
        if active < 2:
            raise TournamentRefused(
                f"{locked.name} has {active} entrants; it needs 2", code="too-few-entrants"
            )
        needed = scheduling.DUPLICATE_TABLES * locked.table_size
        if locked.format == Tournament.Format.DUPLICATE and active < needed:
            raise TournamentRefused(
                f"{locked.name} has {active} entrants; a duplicate event compares a deal's "
                f"seats across tables and needs {needed} (two tables of {locked.table_size})",
                code="too-few-for-duplicate",
            )
        locked.status = Tournament.Status.RUNNING
        locked.started_at = now
        drawn = None
        if locked.format == Tournament.Format.KNOCKOUT:
            drawn = _knockout_start(locked)
        elif locked.format == Tournament.Format.ARENA:
            # One round: the arena's whole length, its deadline when it stops seating.
            locked.rounds = 1
        locked.save(update_fields=["status", "started_at", "seeding", "rounds"])
        _open_round(locked, 1, now, drawn)
    return locked


def default_advance(table_size: int) -> int:
    """A knockout table sends its better half through (one at tables of two and three)."""
    return max(1, table_size // 2)


def entry_ratings(tournament: Tournament, entries: list[Entry]) -> dict[int, float]:
    """Each entry's rating in the pool of the tournament's family (ratings/pools.py `pool_of`):
    a person's displayed rating there (ratings/reads.py), a bot's ladder rating on a ladder of
    that pool (league/ladder_reads.py); a newcomer's (0, the ordinal of a first rating) for
    anyone without one. The same scale for both: the ladders' and the people's ratings are one
    model (league/ratings.py)."""
    pool = pool_of(tournament.variant)
    people = pool_ordinals([e.user_id for e in entries if e.user_id is not None], pool)
    bots = bot_ordinals([e.bot_id for e in entries if e.bot_id is not None], pool)
    newcomer = skills.Skill().ordinal
    return {
        entry.pk: (
            bots.get(entry.bot_id, newcomer)
            if entry.bot_id is not None
            else people.get(entry.user_id, newcomer)  # type: ignore[arg-type]
        )
        for entry in entries
    }


def _knockout_start(tournament: Tournament) -> scheduling.Round:
    """Seed the cup (scheduling.knockout_seeds: by rating, `entry_ratings`, equal ratings
    drawn from the tournament's seed; or, `seed_by` draw, the whole order drawn), keep the
    seeding and the rounds it will play, and draw its first round."""
    entries = list(Entry.objects.filter(tournament=tournament, withdrawn=False).order_by("pk"))
    drawn = tournament.seed_by == Tournament.SeedBy.DRAW
    rated = {} if drawn else entry_ratings(tournament, entries)
    field = [
        scheduling.Standing(entrant=entry.pk, points=0.0, rating=rated.get(entry.pk, 0.0))
        for entry in entries
    ]
    seeds = scheduling.knockout_seeds(field, tournament.seed, drawn=drawn)
    tournament.seeding = seeds
    tournament.rounds = scheduling.knockout_rounds(
        len(seeds), tournament.table_size, tournament.advance
    )
    try:
        return scheduling.knockout_bracket(seeds, tournament.table_size, tournament.advance)
    except scheduling.TournamentError as error:
        raise TournamentRefused(error.message, code=error.code) from error


def _knockout_next(tournament: Tournament, current: Round) -> scheduling.Round | None:
    """The cup's next round from the round that ended: each table's finishing order (the
    game's places, forfeited seats last, a tie to the better seed), its byes; None after the
    final."""
    ordered = []
    for table in current.tables.order_by("table"):
        record = results.match_ended(table.game_id)
        assert record is not None, f"game {table.game_id} is over"
        lines = results.table_lines(record, table.entries, tournament.table_size)
        order = scheduling.finishing_order(
            {line.entry: line.place for line in lines}, tournament.seeding
        )
        ordered.append((scheduling.Table(seats=tuple(table.entries)), order))
    try:
        return scheduling.knockout_next(
            ordered, tournament.table_size, tournament.advance, byes=current.byes
        )
    except scheduling.TournamentError as error:
        raise TournamentRefused(error.message, code=error.code) from error


def _open_round(
    tournament: Tournament,
    number: int,
    now: datetime.datetime,
    drawn: scheduling.Round | None = None,
) -> Round:
    """Make round `number`'s games and tell the people seated or sitting out: a knockout's
    `drawn` round, or a Swiss round drawn here (scheduling.swiss_round over the live standings
    and every table played so far). A withdrawn entrant a knockout sends through anyway (its
    table had too few others) forfeits its new seat at once."""
    everyone = {
        entry.pk: entry
        for entry in Entry.objects.filter(tournament=tournament).select_related("user", "bot")
    }
    active = {pk: entry for pk, entry in everyone.items() if not entry.withdrawn}
    if drawn is None and tournament.format == Tournament.Format.ARENA:
        # An arena seats its tables as entrants wait (`_arena_seat`), not all at once.
        drawn = scheduling.Round(tables=(), byes=())
    elif drawn is None and tournament.format == Tournament.Format.DUPLICATE:
        drawn = _duplicate_draw(tournament, number, active)
    elif drawn is None:
        drawn = _swiss_draw(tournament, number, active)
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        started_at=now,
        deadline=now + datetime.timedelta(seconds=tournament.round_seconds),
        byes=list(drawn.byes),
    )
    _make_tables(tournament, round_, drawn, everyone)
    for entrant in drawn.byes:
        if everyone[entrant].user_id is not None and not everyone[entrant].withdrawn:
            notify(
                everyone[entrant].user_id,
                Notification.Kind.TOURNAMENT,
                f"{tournament.name}: round {number} started; you sit this one out (a bye)",
                url=f"/tournaments/{tournament.slug}/",
                key=f"tournament-bye:{round_.pk}:{entrant}",
            )
    if tournament.format == Tournament.Format.ARENA:
        _arena_seat(tournament, round_, now)
    return round_


def _make_tables(
    tournament: Tournament,
    round_: Round,
    drawn: scheduling.Round,
    everyone: Mapping[int, Entry],
    first: int = 1,
) -> None:
    """The games of the drawn tables (numbered from `first`), one per table, each person told
    their table waits."""
    number = round_.number
    duplicate = tournament.format == Tournament.Format.DUPLICATE
    for table_number, table in enumerate(drawn.tables, start=first):
        entries = [everyone[entrant] for entrant in table.seats]
        if tournament.people_only and any(entry.is_bot for entry in entries):
            # Entry refuses bots here; a table the draw made otherwise is a bug, not a game.
            raise TournamentRefused(
                f"{tournament.name} is for people only", code="bots-not-allowed"
            )
        game = _table_game(tournament, round_, table_number, entries, duplicate=duplicate)
        TournamentGame.objects.create(
            round=round_,
            table=table_number,
            game=game,
            entries=[e.pk for e in entries],
        )
        # At once: withdrawn entrants share the last place (seat_facts.seats_forfeit).
        withdrawn = [seat for seat, entry in enumerate(entries) if entry.withdrawn]
        if withdrawn:
            seat_facts.seats_forfeit(
                game_id=game.pk,
                seats=withdrawn,
                actor=SYSTEM,
                note="withdrew before the round",
                by=f"your withdrawal from {tournament.name}",
            )
        for entry in entries:
            if entry.withdrawn:
                continue
            if entry.user_id is not None:
                notify(
                    entry.user_id,
                    Notification.Kind.TOURNAMENT,
                    (
                        f"{tournament.name}: a table waits for you (game {game.pk})"
                        if tournament.format == Tournament.Format.ARENA
                        else f"{tournament.name}: round {number} started, your table waits "
                        f"(game {game.pk})"
                    ),
                    url=game_url(game.pk),
                    key=f"tournament-table:{round_.pk}:{game.pk}:{entry.pk}",
                    game=game.pk,
                )


def _arena_seat(tournament: Tournament, round_: Round, now: datetime.datetime) -> int:
    """While the arena runs (before its round's deadline), seat the entrants waiting
    (scheduling.arena_tables: those who have waited longest first, full tables only).
    Returns the tables seated."""
    if now >= round_.deadline:
        return 0
    everyone = {
        entry.pk: entry
        for entry in Entry.objects.filter(tournament=tournament).select_related("user", "bot")
    }
    tables = list(
        TournamentGame.objects.filter(round=round_).select_related("game").order_by("game_id")
    )
    busy: set[int] = set()
    since: dict[int, datetime.datetime] = {}
    for table in tables:
        if table.game.status != MATCH_OVER:
            busy |= set(table.entries)
            continue
        ended = table.game.last_activity or table.game.created_at
        for entry in table.entries:
            since[entry] = max(since.get(entry, ended), ended)
    points = {line.entry: line for line in standings.live_standings(tournament)}
    for pk, entry in everyone.items():
        if entry.resumed_at is not None:
            since[pk] = max(since.get(pk, entry.resumed_at), entry.resumed_at)
    # A paused entrant is not waiting; it waits again from when it resumes.
    waiting = sorted(
        (
            pk
            for pk, entry in everyone.items()
            if not entry.withdrawn and not entry.paused and pk not in busy
        ),
        key=lambda pk: (since.get(pk, round_.started_at), pk),
    )
    seated, _ = scheduling.arena_tables(
        [standings.as_scheduling(points[pk]) for pk in waiting],
        tournament.table_size,
        [scheduling.Table(seats=tuple(table.entries)) for table in tables],
        playing=sum(table.game.status != MATCH_OVER for table in tables),
    )
    if seated:
        drawn = scheduling.Round(tables=seated, byes=())
        _make_tables(tournament, round_, drawn, everyone, first=len(tables) + 1)
    return len(seated)


def _swiss_draw(
    tournament: Tournament, number: int, active: Mapping[int, Entry]
) -> scheduling.Round:
    lines = [line for line in standings.live_standings(tournament) if line.entry in active]
    history = [
        scheduling.Table(seats=tuple(entries))
        for entries in TournamentGame.objects.filter(round__tournament=tournament).values_list(
            "entries", flat=True
        )
    ]
    try:
        return scheduling.swiss_round(
            [standings.as_scheduling(line) for line in lines],
            history,
            tournament.table_size,
            seed=tournament.seed + number,
        )
    except scheduling.TournamentError as error:
        raise TournamentRefused(error.message, code=error.code) from error


def _duplicate_draw(
    tournament: Tournament, number: int, active: Mapping[int, Entry]
) -> scheduling.Round:
    """A duplicate round (scheduling.duplicate_round): who met least sits together, each at
    the deal-seat it has held least, the byes to whoever has had fewest. (Rounds drawn before
    one game per table also hold rotations 1..k-1 of a table: its rotation 0 stands for it.)"""
    byes: dict[int, int] = {}
    for drawn_byes in Round.objects.filter(tournament=tournament).values_list("byes", flat=True):
        for entry in drawn_byes:
            byes[entry] = byes.get(entry, 0) + 1
    history = [
        scheduling.Table(seats=tuple(entries))
        for entries in TournamentGame.objects.filter(
            round__tournament=tournament, rotation=0
        ).values_list("entries", flat=True)
    ]
    try:
        return scheduling.duplicate_round(
            sorted(active),
            tournament.table_size,
            seed=tournament.seed + number,
            history=history,
            byes_so_far=byes,
        )
    except scheduling.TournamentError as error:
        raise TournamentRefused(error.message, code=error.code) from error


def _table_game(
    tournament: Tournament,
    round_: Round,
    table: int,
    entries: list[Entry],
    *,
    duplicate: bool = False,
) -> Game:
    seats = [
        SeatSpec(registered=entry.bot) if entry.bot_id else SeatSpec(user=entry.user)
        for entry in entries
    ]
    if tournament.variant.get("rules") == "newno":
        seats = ranked_by_age(seats)
    return game_create(
        variant_spec=tournament.variant,
        seats=seats,
        # Keyed: the draw's seed is public, the tables' cards must not be. A duplicate round
        # deals every table from one deal (so none of them is revealed while one plays).
        seed=keyed_seed(
            f"tournament:{tournament.pk}:{tournament.seed}:{round_.number}"
            + ("" if duplicate else f":{table}")
        ),
        settings=GameSettings(
            kind=KIND,
            tournament=tournament.pk,
            turn_seconds=tournament.turn_seconds,
            rated=tournament.rated,
            deal_group=(f"tournament:{tournament.pk}:round:{round_.number}" if duplicate else None),
            # No turn's clock runs past the round's deadline, when the seats still playing
            # forfeit (`forfeit_overdue`); an arena's deadline forfeits nobody.
            closes_at=None
            if tournament.format == Tournament.Format.ARENA
            else round_.deadline.isoformat(),
        ),
        # An entrant bot whose validation failed since it entered (its owner changed it) keeps
        # its place in the draw; the default bot plays its seat.
        seat_failed=True,
    )


def tournament_advance(tournament: Tournament, *, now: datetime.datetime | None = None) -> bool:
    """If the running tournament's current round has ended (every table's game is over), open
    the next one, or finish the tournament after its last round (or when fewer than two
    entrants are left; a duplicate event: fewer than two tables' worth). Safe twice at once
    (the tournament's row is locked). Returns whether anything changed."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.Status.RUNNING:
            return False
        current = Round.objects.filter(tournament=locked).order_by("-number").first()
        if current is None or current.finished_at is not None:
            return False
        if locked.format == Tournament.Format.ARENA:
            return _arena_advance(locked, current, now)
        if current.tables.exclude(game__status=MATCH_OVER).exists():
            return False
        current.finished_at = now
        current.save(update_fields=["finished_at"])
        if locked.format == Tournament.Format.KNOCKOUT:
            drawn = _knockout_next(locked, current)
            if drawn is None:
                _finish(locked, now)
            else:
                _open_round(locked, current.number + 1, now, drawn)
            return True
        active = Entry.objects.filter(tournament=locked, withdrawn=False).count()
        if locked.format == Tournament.Format.DUPLICATE:
            # Below two tables a duplicate round has nobody to compare a seat with.
            least = scheduling.DUPLICATE_TABLES * locked.table_size
        else:
            least = 2
        if current.number >= locked.rounds or active < least:
            _finish(locked, now)
        else:
            _open_round(locked, current.number + 1, now)
    return True


def _arena_advance(tournament: Tournament, current: Round, now: datetime.datetime) -> bool:
    """An arena seats whoever waits until its deadline; after it, once its last game is over,
    it finishes."""
    if now < current.deadline:
        return _arena_seat(tournament, current, now) > 0
    if current.tables.exclude(game__status=MATCH_OVER).exists():
        return False
    current.finished_at = now
    current.save(update_fields=["finished_at"])
    _finish(tournament, now)
    return True


def _finish(tournament: Tournament, now: datetime.datetime) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    people = Entry.objects.filter(tournament=tournament, user__isnull=False).values_list(
        "user_id", flat=True
    )
    for user_id in people:
        notify(
            user_id,
            Notification.Kind.TOURNAMENT,
            f"{tournament.name} has finished: see the final standings",
            url=f"/tournaments/{tournament.slug}/",
            key=f"tournament-finished:{tournament.pk}",
        )


def forfeit_overdue(*, now: datetime.datetime | None = None) -> int:
    """At a round's deadline, every seat still playing in its unfinished games that is not a
    built-in bot (people, webhook and pull bots) forfeits: the default bot plays it out and it
    is placed last, so the round ends. Returns the seats forfeited."""
    now = now or timezone.now()
    # An arena's deadline ends its seating; the games it seated play on to their end.
    overdue = (
        TournamentGame.objects.filter(
            round__finished_at=None, round__deadline__lte=now, round__tournament__status="running"
        )
        .exclude(game__status=MATCH_OVER)
        .exclude(round__tournament__format=Tournament.Format.ARENA)
        .select_related("round__tournament")
    )
    forfeited = 0
    for table in overdue:
        seats = Seat.objects.filter(game_id=table.game_id).filter(
            Q(user__isnull=False)
            | Q(registered_bot__isnull=False, registered_bot__kind__in=["webhook", "pull"])
        )
        try:
            # At once: the seats overdue together share the last place (seats_forfeit).
            forfeited += len(
                seat_facts.seats_forfeit(
                    game_id=table.game_id,
                    seats=[seat.number for seat in seats],
                    actor=SYSTEM,
                    note="the round deadline passed",
                    by=f"the round's deadline in {table.round.tournament.name}",
                )
            )
        except InvalidGame:
            # The game ended meanwhile.
            continue
    return forfeited


def start_due(*, now: datetime.datetime | None = None) -> int:
    """Start every open tournament whose entry has closed; one with too few entrants finishes
    without a round. Returns how many started."""
    now = now or timezone.now()
    started = 0
    for tournament in Tournament.objects.filter(status="open", entry_closes__lte=now):
        try:
            open_first_round(tournament, now=now)
            started += 1
        except TournamentRefused as error:
            if error.code in ("too-few-entrants", "too-few-for-duplicate"):
                with transaction.atomic():
                    _finish(Tournament.objects.select_for_update().get(pk=tournament.pk), now)
    return started


def advance_running(*, now: datetime.datetime | None = None) -> int:
    """Advance every running tournament whose round has ended (beat's sweep). One
    tournament's trouble is logged and leaves the others alone."""
    advanced = 0
    for tournament in Tournament.objects.filter(status="running").order_by("pk"):
        try:
            advanced += tournament_advance(tournament, now=now)
        except Exception:  # noqa: BLE001 (logged with its traceback)
            log.exception("advancing tournament %s failed", tournament.pk)
    return advanced
