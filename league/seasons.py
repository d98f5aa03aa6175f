"""A club's seasons: create one, enter its entrants, start it (the fixtures are drawn), open its
rounds, rule on a fixture (a forfeit, a new deadline: events in the fixture's game), close it
(final tables archived) and follow it with the next (promotion and relegation).

No HTTP here; the errors are league/errors.py's. docs/leagues.md.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine import MATCH_OVER
from engine.events import FIXTURE_RETIMED
from games import appends, seat_facts
from games.actors import actor_label, is_person
from games.errors import InvalidGame
from games.models import Bot, Game
from games.seeds import keyed_seed
from league import scheduling, season_notices, standings
from league.clubs import check_admin, is_admin, is_member
from league.errors import (
    CompetitionError,
    NotClubAdmin,
    NotYourBot,
    SeasonError,
    SeasonNotFound,
)
from league.models import (
    Bye,
    Club,
    ClubRecord,
    Competition,
    Division,
    DivisionEntry,
    Entry,
    Fixture,
    FixtureSeat,
    Season,
)
from league.services import (
    competition_create,
    competition_game,
    competition_join,
    competition_leave,
)
from social.models import Notification
from social.notifications import game_url, notify

# A fixture whose game has not been made or has not ended.
UNFINISHED = ~Q(game__status=MATCH_OVER) | Q(game=None)


@dataclass(frozen=True, slots=True)
class DivisionSpec:
    name: str
    promote: int = 0
    relegate: int = 0


def season_create(
    *,
    club: Club,
    admin: Any,
    name: str,
    slug: str,
    variant: Mapping[str, Any],
    start_date: datetime.date,
    seats_per_game: int = 4,
    placement_points: Sequence[int] | None = None,
    round_days: int = 7,
    rounds: int | None = None,
    turn_seconds: int | None = None,
    vacation_days: int = 0,
    divisions: Sequence[DivisionSpec] | None = None,
    seed: int | None = None,
) -> Season:
    """Create a draft season of the club (its competition, kind `league`, and its divisions;
    tier 1 first). Raises NotClubAdmin, InvalidCompetition (rules, table size, time limits,
    `slug-taken`), SeasonError (`invalid-season`)."""
    check_admin(club, admin)
    points = list(placement_points or scheduling.default_points(seats_per_game))
    check_settings(points, seats_per_game, round_days, rounds, divisions)
    with transaction.atomic():
        competition = competition_create(
            name=name,
            slug=slug,
            kind=Competition.Kind.LEAGUE,
            variant=variant,
            seats_per_game=seats_per_game,
            turn_seconds=turn_seconds,
            vacation_days=vacation_days,
            created_by=admin,
        )
        season = Season.objects.create(
            club=club,
            competition=competition,
            placement_points=points,
            start_date=start_date,
            round_days=round_days,
            rounds=rounds,
            seed=random.randrange(2**31) if seed is None else seed,
        )
        specs = list(divisions or [DivisionSpec("Division 1")])
        for tier, spec in enumerate(specs, start=1):
            Division.objects.create(
                season=season,
                tier=tier,
                name=spec.name,
                promote=spec.promote if tier > 1 else 0,
                relegate=spec.relegate if tier < len(specs) else 0,
            )
    return season


def check_settings(
    points: list[int],
    seats: int,
    round_days: int,
    rounds: int | None,
    divisions: Sequence[DivisionSpec] | None,
) -> None:
    """SeasonError (`invalid-season`, every problem said) unless the season's own settings are
    sound: season_create's and league/season_drafts.py season_edit's check."""
    problems = []
    if len(points) != seats or any(not isinstance(p, int) or p < 0 for p in points):
        problems.append(f"placement points are {seats} whole numbers of 0 or more, one per place")
    elif any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
        problems.append("placement points never grow with a worse place")
    if not isinstance(round_days, int) or not 1 <= round_days <= 365:
        problems.append("a round lasts 1 to 365 days")
    if rounds is not None and (not isinstance(rounds, int) or not 1 <= rounds <= 200):
        problems.append("a season has 1 to 200 rounds")
    if divisions is not None and not 1 <= len(divisions) <= 20:
        problems.append("a season has 1 to 20 divisions")
    for spec in divisions or []:
        if not spec.name.strip() or min(spec.promote, spec.relegate) < 0:
            problems.append("a division needs a name and counts of 0 or more")
    if problems:
        raise SeasonError("; ".join(problems), code="invalid-season")


def _draft(season: Season) -> None:
    if season.status != Season.Status.DRAFT:
        raise SeasonError(f"{season.name} has started", code="not-draft")


def season_enter(
    *,
    season: Season,
    actor: Any,
    user: Any = None,
    bot: Bot | None = None,
    tier: int | None = None,
) -> Entry:
    """Enter a member (an admin enters anyone of the club; a member enters themselves) or a
    bot (an admin, one they own) in a draft season. An admin chooses the division, `tier`
    (default: the lowest); a member entering themselves goes where the season's rules put them
    (`rules_tier`), and a `tier` they send is refused (NotClubAdmin: only an admin chooses a
    division). Raises NotClubAdmin, NotYourBot (`not-your-bot`: another owner's bot),
    SeasonError (`not-draft`, `not-a-member`, `invalid-season`), EntryRefused."""
    _draft(season)
    if is_admin(season.club, actor):
        if bot is not None and bot.owner_id != actor.pk:
            # The web form offers only the admin's own bots; the service holds to it too.
            raise NotYourBot(
                f"{bot.name} is another owner's bot: an admin of {season.club.name} enters "
                "only their own bots"
            )
    else:
        if not (user is not None and user == actor and is_member(season.club, actor)):
            check_admin(season.club, actor)
        if tier is not None:
            raise NotClubAdmin(
                f"only an admin of {season.club.name} chooses a division; entering yourself, "
                "you go where the season's rules put you"
            )
        tier = rules_tier(season, user)
    return _enter(season, user, bot, tier)


def _moved(tier: int, zone: str) -> int:
    """The tier a final table's line goes to next season: up one, down one, or the same."""
    return tier + {"up": -1, "down": 1}.get(zone, 0)


def rules_tier(season: Season, user: Any) -> int:
    """The division the season's rules give a member: where the previous season's final table
    sent them (promoted up a tier, relegated down one, the rest where they were), as
    `season_next` placed them; a newcomer to the club's seasons, the lowest. Where an admin
    had put them before they withdrew does not count: only an admin places anyone elsewhere."""
    tiers = sorted(season.divisions.values_list("tier", flat=True))
    previous = season.previous
    if previous is None:
        return tiers[-1]
    entry = Entry.objects.filter(competition_id=previous.competition_id, user=user).first()
    if entry is None:
        return tiers[-1]
    for division in previous.divisions.all():
        for line in division.final_table or []:
            if line["entry"] == entry.pk:
                return min(max(_moved(division.tier, line["zone"]), tiers[0]), tiers[-1])
    return tiers[-1]


def _enter(season: Season, user: Any, bot: Bot | None, tier: int | None) -> Entry:
    if user is not None and not is_member(season.club, user):
        raise SeasonError(
            f"{user.get_username()} is not a member of {season.club.name}", code="not-a-member"
        )
    with transaction.atomic():
        # The season's row locked, as an edit or a deletion of the draft locks it
        # (league/season_drafts.py): the entry waits for either and reads what it left.
        current = Season.objects.select_for_update().filter(pk=season.pk).first()
        if current is None:
            raise SeasonNotFound(f"season {season.name} any more: it was deleted")
        _draft(current)
        divisions = list(current.divisions.all())
        division = (
            divisions[-1] if tier is None else next((d for d in divisions if d.tier == tier), None)
        )
        if division is None:
            raise SeasonError(f"{season.name} has no division {tier}", code="invalid-season")
        entry = competition_join(season.competition, user=user, bot=bot)
        DivisionEntry.objects.update_or_create(entry=entry, defaults={"division": division})
    return entry


def season_withdraw(
    *, season: Season, actor: Any, user: Any = None, bot: Bot | None = None
) -> None:
    """Take an entrant out of a draft season (an admin, or a member themselves)."""
    _draft(season)
    if not (user is not None and user == actor):
        check_admin(season.club, actor)
    with transaction.atomic():
        if not Season.objects.select_for_update().filter(pk=season.pk).exists():
            raise SeasonNotFound(f"season {season.name} any more: it was deleted")
        entry = competition_leave(season.competition, user=user, bot=bot)
        DivisionEntry.objects.filter(entry=entry).delete()


def division_entries(division: Division) -> list[Entry]:
    """The division's active entrants in entry order (the draw's member numbers)."""
    return list(
        Entry.objects.filter(division_entry__division=division, active=True)
        .select_related("user", "bot")
        .order_by("pk")
    )


def season_start(*, season: Season, admin: Any, now: datetime.datetime | None = None) -> Season:
    """Draw every division's fixtures (league/scheduling.py) and open the rounds due: the first
    round on the season's start date, or now if that day has passed (the start date then
    becomes today's, the day its first round opened). Raises
    NotClubAdmin, SeasonError (`not-draft`, `too-few-entrants`)."""
    check_admin(season.club, admin)
    now = now or timezone.now()
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("competition").get(pk=season.pk)
        _draft(season)
        table = season.competition.seats_per_game
        first_open = max(
            now,
            datetime.datetime.combine(season.start_date, datetime.time(), tzinfo=datetime.UTC),
        )
        for division in season.divisions.all():
            entries = division_entries(division)
            if len(entries) < table:
                raise SeasonError(
                    f"{division.name} has {len(entries)} "
                    f"entrant{'' if len(entries) == 1 else 's'}; a table needs {table}",
                    code="too-few-entrants",
                )
            if season.rounds:
                drawn = scheduling.schedule(
                    members=len(entries),
                    table_size=table,
                    rounds=season.rounds,
                    seed=season.seed + division.tier,
                )
            else:
                drawn = scheduling.meeting_season(
                    members=len(entries), table_size=table, seed=season.seed + division.tier
                )
            _create_fixtures(season, division, entries, drawn, first_open)
        season.status = Season.Status.RUNNING
        season.started_at = now
        # Started after its planned day, the first round opens today: the date the season
        # shows for its first round (and its club lists it from) is that day, not the plan.
        season.start_date = max(season.start_date, first_open.date())
        season.save(update_fields=["status", "started_at", "start_date"])
        season_notices.tell_started(season)
    open_due_rounds(season=season, now=now)
    return season


def _create_fixtures(
    season: Season,
    division: Division,
    entries: list[Entry],
    drawn: scheduling.Schedule,
    first_open: datetime.datetime,
) -> None:
    days = datetime.timedelta(days=season.round_days)
    for number, (tables, byes) in enumerate(zip(drawn.rounds, drawn.byes, strict=True), start=1):
        opens = first_open + (number - 1) * days
        for table_number, members in enumerate(tables, start=1):
            fixture = Fixture.objects.create(
                division=division,
                round=number,
                table=table_number,
                opens_at=opens,
                deadline=opens + days,
            )
            FixtureSeat.objects.bulk_create(
                FixtureSeat(fixture=fixture, entry=entries[member], number=seat)
                for seat, member in enumerate(members)
            )
        Bye.objects.bulk_create(
            Bye(division=division, round=number, entry=entries[member]) for member in byes
        )


def open_due_rounds(*, season: Season | None = None, now: datetime.datetime | None = None) -> int:
    """Make the games of the fixtures whose round is due: its date has come, or every fixture
    of the round before it (in its division) has finished. Safe to run twice at once (the
    fixture rows are locked). Returns how many games were made."""
    now = now or timezone.now()
    running = Season.objects.filter(status=Season.Status.RUNNING)
    if season is not None:
        running = running.filter(pk=season.pk)
    made = 0
    for division in Division.objects.filter(season__in=running).order_by("pk"):
        with transaction.atomic():
            waiting = Fixture.objects.select_for_update().filter(division=division, game=None)
            next_round = waiting.order_by("round").values_list("round", flat=True).first()
            if next_round is None:
                continue
            before = Fixture.objects.filter(division=division, round=next_round - 1)
            # The first round has no round before it: it waits for its day (the start date).
            previous_done = next_round > 1 and not before.filter(UNFINISHED).exists()
            due = waiting.filter(round=next_round)
            if not previous_done:
                due = due.filter(opens_at__lte=now)
            for fixture in due.order_by("table"):
                _open(division.season, fixture, now)
                made += 1
    return made


def _open(season: Season, fixture: Fixture, now: datetime.datetime) -> None:
    entries = [seat.entry for seat in fixture.seats.select_related("entry").order_by("number")]
    competition = season.competition
    fixture.game = competition_game(
        competition,
        entries,
        # Keyed: the season's draw seed is public, the fixtures' cards must not be.
        seed=keyed_seed(f"{season.seed}:{fixture.pk}"),
        fixture=fixture.pk,
    )
    fixture.opened_at = now
    fixture.save(update_fields=["game", "opened_at"])
    for entry in entries:
        if entry.user_id is not None:
            notify(
                entry.user_id,
                Notification.Kind.SEASON,
                f"Your fixture is open: {season.name}, {fixture.division.name}, round "
                f"{fixture.round} (game {fixture.game.pk})",
                url=game_url(fixture.game.pk),
                key=f"fixture:{fixture.pk}",
                game=fixture.game.pk,
            )


def _running(season: Season) -> None:
    if season.status != Season.Status.RUNNING:
        raise SeasonError(f"{season.name} is not running", code="not-running")


def _fixture_game(fixture: Fixture) -> Game:
    if fixture.game_id is None:
        raise SeasonError(f"{fixture} has not opened yet", code="fixture-not-open")
    game = Game.objects.get(pk=fixture.game_id)
    if game.status == MATCH_OVER:
        raise SeasonError(f"{fixture} is over", code="fixture-over")
    return game


def fixture_forfeit(*, fixture: Fixture, actor: Any, seat: int, note: str = "") -> bool:
    """A club admin or staff forfeits a seat of an open fixture (the player did not play):
    a seat-forfeited event (reason `awarded`) in the fixture's game, the ruler as its actor;
    the default bot plays the seat out and it is placed last. Returns False when the seat was
    forfeited already. Nobody rules on a fixture they play in (`own-fixture`): another admin
    of the club, or the staff, does. Raises NotClubAdmin, SeasonError."""
    season = fixture.division.season
    check_admin(season.club, actor)
    if plays_in(fixture, actor):
        raise SeasonError(
            "you play in this fixture: another admin of the club, or the staff, rules on it",
            code="own-fixture",
        )
    _running(season)
    game = _fixture_game(fixture)
    try:
        return seat_facts.seat_forfeit(
            game_id=game.pk,
            seat=seat,
            actor=actor,
            note=note,
            # The ruling's note is shown on its fixture to everyone (web/season_tables.py).
            by="the league's ruling",
            public=True,
        )
    except InvalidGame as error:
        raise SeasonError(error.message, code=error.code) from error


def fixture_retime(
    *, fixture: Fixture, actor: Any, deadline: datetime.datetime, note: str = ""
) -> Fixture:
    """A club admin or staff moves an open fixture's deadline: a fixture-retimed event in its
    game (the log keeps who moved it, when and why), and the fixture's cached deadline; the
    people seated in it (but the ruler) hear it under the bell. Raises NotClubAdmin,
    SeasonError (`invalid-deadline`: not in the future)."""
    season = fixture.division.season
    check_admin(season.club, actor)
    _running(season)
    if timezone.is_naive(deadline) or deadline <= timezone.now():
        raise SeasonError("the new deadline must be a future time", code="invalid-deadline")
    deadline = deadline.astimezone(datetime.UTC).replace(microsecond=0)
    with transaction.atomic():
        game = seat_facts.locked_game(_fixture_game(fixture).pk)
        event = {"type": FIXTURE_RETIMED, "deadline": deadline.isoformat(), "note": note}
        appended = appends.append(
            game_id=game.pk,
            events=[event],
            expected_version=game.version,
            actor=actor_label(actor),
            visibilities=["public"],
        )
        fixture.deadline = deadline
        fixture.save(update_fields=["deadline"])
        season_notices.tell_retimed(season, fixture, actor, appended.last_version)
    return fixture


def unfinished_fixtures(season: Season) -> list[Fixture]:
    return list(
        Fixture.objects.filter(division__season=season)
        .filter(UNFINISHED)
        .select_related("division")
    )


def season_close(*, season: Season, admin: Any) -> Season:
    """Close a running season whose fixtures have all finished: each division's final table
    (with who goes up and down) is archived on the division. Raises NotClubAdmin, SeasonError
    (`not-running`, `fixtures-unfinished`)."""
    check_admin(season.club, admin)
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        _running(season)
        left = unfinished_fixtures(season)
        if left:
            raise SeasonError(
                f"{len(left)} fixtures have not finished (rule a forfeit to end one)",
                code="fixtures-unfinished",
            )
        divisions = list(season.divisions.select_related("season__competition"))
        tables = standings.division_tables(divisions)
        for division in divisions:
            division.final_table = [line.as_dict() for line in tables[division.pk]]
            division.save(update_fields=["final_table"])
        season.status = Season.Status.CLOSED
        season.closed_at = timezone.now()
        season.save(update_fields=["status", "closed_at"])
        add_to_club_records(season, [(d, tables[d.pk]) for d in divisions])
        season_notices.tell_closed(season, divisions)
    return season


def add_to_club_records(
    season: Season, tables: list[tuple[Division, list[standings.StandingLine]]]
) -> None:
    """Add a closed season's final tables to its club's all-time rows (ClubRecord), under a
    lock on the club so two seasons closing at once both count."""
    Club.objects.select_for_update().filter(pk=season.club_id).first()
    lines: dict[tuple[int | None, int | None], standings.AllTimeLine] = {}
    entrants = standings.entrant_keys(Entry.objects.filter(competition=season.competition_id))
    standings.add_season(lines, season, tables, entrants)
    records = {
        (record.user_id, record.bot_id): record
        for record in ClubRecord.objects.filter(club=season.club_id)
    }
    for (user, bot), line in lines.items():
        record = records.get((user, bot)) or ClubRecord(
            club_id=season.club_id, user_id=user, bot_id=bot
        )
        record.seasons += line.seasons
        record.played += line.played
        record.wins += line.wins
        record.league_points += line.league_points
        record.titles += line.titles
        record.save()


def season_next(
    *, season: Season, admin: Any, name: str, slug: str, start_date: datetime.date
) -> Season:
    """A draft season following a closed one: the same rules, settings and divisions, its
    entrants placed by the final tables (promoted up a tier, relegated down one, the rest
    where they were); members who left the club are not entered. Raises NotClubAdmin,
    SeasonError (`not-closed`, `has-next`)."""
    check_admin(season.club, admin)
    season = Season.objects.select_related("competition", "club").get(pk=season.pk)
    if season.status != Season.Status.CLOSED:
        raise SeasonError(f"{season.name} has not closed", code="not-closed")
    if Season.objects.filter(previous=season).exists():
        raise SeasonError(f"{season.name} already has a next season", code="has-next")
    old = season.competition
    divisions = list(season.divisions.order_by("tier"))
    with transaction.atomic():
        following = season_create(
            club=season.club,
            admin=admin,
            name=name,
            slug=slug,
            variant=old.variant,
            start_date=start_date,
            seats_per_game=old.seats_per_game,
            placement_points=season.placement_points,
            round_days=season.round_days,
            rounds=season.rounds,
            turn_seconds=old.turn_seconds,
            vacation_days=old.vacation_days,
            divisions=[DivisionSpec(d.name, d.promote, d.relegate) for d in divisions],
        )
        following.previous = season
        following.save(update_fields=["previous"])
        for division in divisions:
            for line in division.final_table or []:
                _carry_over(following, line, _moved(division.tier, line["zone"]))
    return following


def _carry_over(season: Season, line: Mapping[str, Any], tier: int) -> None:
    entry = Entry.objects.select_related("user", "bot").get(pk=line["entry"])
    if entry.user_id is not None and not is_member(season.club, entry.user):
        return
    try:
        _enter(season, entry.user, entry.bot, tier)
    except CompetitionError:
        # A bot that failed validation since, a member without the birth date newno needs:
        # they sit this season out (an admin may enter them by hand).
        return


def plays_in(fixture: Fixture, user: Any) -> bool:
    """Whether `user` holds a seat of the fixture (as a person; a bot they own plays itself)."""
    return is_person(user) and fixture.seats.filter(entry__user_id=user.pk).exists()


def can_rule(season: Season, user: Any) -> bool:
    """Whether `user` may rule on the season's fixtures (a club admin or staff)."""
    return is_admin(season.club, user)
