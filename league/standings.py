"""Reading the standings: a division's table ranked by the tiebreaks, a player's record across
seasons and families, a club's all-time table. The rows are the `league-standings` and
`player-families` projections' (league/projections.py); nothing here writes. docs/leagues.md,
"Standings".

Tiebreaks, in order: league points, match wins, points scored (fewer is better under
`running-total` scoring, where points are penalties), head-to-head among the entrants still
tied (how often each finished ahead of the others at a shared table, less how often behind),
then the place is shared. Entrants sharing a place are listed by entry order, which also
decides a promotion or relegation line that falls inside a shared place when the season closes.

The pages mark only what the table can say (`zone_marks`): a final table its zones as they were
archived (who went up and down); a running one none until a result is in, then its zones as
things stand, saying where entry order drew a line through a shared place (`tied_across`).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from itertools import groupby
from typing import Any

from django.db.models import F, Q, QuerySet

from league.models import (
    Club,
    ClubRecord,
    Division,
    DivisionEntry,
    Entry,
    Meeting,
    PlayerFamilyRecord,
    Season,
    Standing,
)


@dataclass(slots=True)
class StandingLine:
    entry: int
    name: str
    kind: str  # "person" or "bot"
    user_id: int | None
    played: int = 0
    wins: int = 0
    placements: list[int] = field(default_factory=list)
    league_points: int = 0
    hands_won: int = 0
    points_scored: int = 0
    forfeits: int = 0
    head_to_head: int = 0
    rank: int = 0
    shared: bool = False
    # "up" (promoted), "down" (relegated) or "".
    zone: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def entrant_name(entry: Entry) -> str:
    if entry.bot is not None:
        return entry.bot.name
    assert entry.user is not None  # an entry is a person or a bot (a database constraint)
    return entry.user.get_username()


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One tiebreak of the standings: what it compares, in words (the season page's legend),
    and the sort key it gives a line (lower ranks first); `low_points_win`: under
    `running-total` scoring, where points are penalties."""

    words: str
    key: Callable[[StandingLine, bool], int]
    # Its words when fewer is better (None: the same).
    low_words: str | None = None


# The tiebreaks before head-to-head, in order: `rank` sorts by them, the season page's legend
# (web/season_tables.py) reads them; the one place either learns a new one.
TIEBREAKS = (
    Tiebreak("league points", lambda line, low: -line.league_points),
    Tiebreak("match wins", lambda line, low: -line.wins),
    Tiebreak(
        "points scored",
        lambda line, low: line.points_scored if low else -line.points_scored,
        "points scored (fewer is better: they are penalty points)",
    ),
)
# What the legend says after them.
HEAD_TO_HEAD = (
    "head-to-head (H2H) among the entrants still tied: how often each finished ahead of "
    "the others at a shared table, less how often behind"
)
SHARED = "otherwise the place is shared, shown as “2=”"


def tiebreak_words(*, low_points_win: bool) -> list[str]:
    """The order of the tiebreaks in words (docs/leagues.md, "Standings")."""
    words = [
        (tiebreak.low_words if low_points_win else None) or tiebreak.words for tiebreak in TIEBREAKS
    ]
    return [*words, HEAD_TO_HEAD, SHARED]


def rank(
    lines: list[StandingLine],
    ahead: Mapping[tuple[int, int], int],
    *,
    low_points_win: bool = False,
) -> list[StandingLine]:
    """Order and rank the lines by the tiebreaks (the module's docstring); `ahead[(a, b)]` is how
    often entry a finished ahead of entry b. Sets `rank`, `shared` and `head_to_head`."""

    def key(line: StandingLine) -> tuple[int, ...]:
        return tuple(tiebreak.key(line, low_points_win) for tiebreak in TIEBREAKS)

    ordered: list[StandingLine] = []
    for _, group_lines in groupby(sorted(lines, key=lambda ln: (key(ln), ln.entry)), key=key):
        group = list(group_lines)
        ids = [line.entry for line in group]
        for line in group:
            line.head_to_head = sum(
                ahead.get((line.entry, other), 0) - ahead.get((other, line.entry), 0)
                for other in ids
                if other != line.entry
            )
        group.sort(key=lambda ln: (-ln.head_to_head, ln.entry))
        ordered.extend(group)
    for position, line in enumerate(ordered):
        before = ordered[position - 1] if position else None
        if before is not None and (key(before), before.head_to_head) == (
            key(line),
            line.head_to_head,
        ):
            line.rank = before.rank
            line.shared = before.shared = True
        else:
            line.rank = position + 1
    return ordered


def division_table(division: Division) -> list[StandingLine]:
    """The division's table now: every entrant (none played yet: zeros), ranked, with the
    promotion and relegation zones marked."""
    return division_tables([division])[division.pk]


def division_tables(divisions: Iterable[Division]) -> dict[int, list[StandingLine]]:
    """division_table of each division, by its id, in three queries whatever their number (the
    entrants, their rows of the projection, their meetings); each division's season and
    competition are read with it (select_related), or once each."""
    divisions = list(divisions)
    if not divisions:
        return {}
    ids = [division.pk for division in divisions]
    members: dict[int, list[Entry]] = defaultdict(list)
    for member in (
        Entry.objects.filter(division_entry__division__in=ids)
        .select_related("user", "bot")
        .annotate(division_id=F("division_entry__division_id"))
        .order_by("pk")
    ):
        members[member.division_id].append(member)
    rows = {
        (row.division_id, row.entry_id): row for row in Standing.objects.filter(division__in=ids)
    }
    ahead: dict[int, dict[tuple[int, int], int]] = defaultdict(dict)
    for meeting in Meeting.objects.filter(division__in=ids):
        ahead[meeting.division_id][(meeting.entry_id, meeting.other_id)] = meeting.ahead
    tables = {}
    for division in divisions:
        competition = division.season.competition
        lines = []
        for entry in members[division.pk]:
            line = StandingLine(
                entry=entry.pk,
                name=entrant_name(entry),
                kind="bot" if entry.bot_id else "person",
                user_id=entry.user_id,
                placements=[0] * competition.seats_per_game,
            )
            row = rows.get((division.pk, entry.pk))
            if row is not None:
                line.played, line.wins, line.placements = row.played, row.wins, list(row.placements)
                line.league_points, line.hands_won = row.league_points, row.hands_won
                line.points_scored, line.forfeits = row.points_scored, row.forfeits
            lines.append(line)
        scoring = competition.variant.get("options", {}).get("scoring")
        ordered = rank(lines, ahead[division.pk], low_points_win=scoring == "running-total")
        _mark_zones(division, ordered)
        tables[division.pk] = ordered
    return tables


def _mark_zones(division: Division, ordered: list[StandingLine]) -> None:
    if division.promote:
        for line in ordered[: division.promote]:
            line.zone = "up"
    if division.relegate:
        for line in ordered[len(ordered) - division.relegate :]:
            line.zone = "down" if line.zone == "" else line.zone


def zone_marks(table: list[StandingLine], *, final: bool) -> dict[int, str]:
    """The promotion and relegation marks a page shows, by entry: "up" or "down", none for the
    rest. A final table (a closed season's) is what happened: every zone. A running table marks
    nothing before a result is in (every entrant tied on nothing: entry order alone would pick),
    then its zones as things stand, a line through a shared place drawn by entry order as at
    the close (`tied_across`, which the page says)."""
    if not final and not any(line.played for line in table):
        return {}
    return {line.entry: line.zone for line in table if line.zone}


def tied_across(table: list[StandingLine]) -> list[list[StandingLine]]:
    """The shared places a zone's line runs through (some of the place in the zone, some out),
    each as its lines in table order: entry order drew the line there."""
    places: dict[int, list[StandingLine]] = defaultdict(list)
    for line in table:
        places[line.rank].append(line)
    return [lines for lines in places.values() if len({line.zone for line in lines}) > 1]


def season_tables(season: Season) -> list[tuple[Division, list[StandingLine]]]:
    """Each division with its table: the archived final table once the season has closed."""
    return seasons_tables([season])[season.pk]


def seasons_tables(
    seasons: Iterable[Season],
) -> dict[int, list[tuple[Division, list[StandingLine]]]]:
    """season_tables of each season, by its id, in a constant number of queries whatever their
    number: their divisions, then (for the divisions with no archived table) division_tables."""
    by_pk = {season.pk: season for season in seasons}
    divisions = list(Division.objects.filter(season__in=list(by_pk)).order_by("season", "tier"))
    live = []
    for division in divisions:
        # The season as the caller read it (with its competition), not read again.
        division.season = by_pk[division.season_id]
        if not (
            division.season.status == Season.Status.CLOSED and division.final_table is not None
        ):
            live.append(division)
    tables = division_tables(live)
    result: dict[int, list[tuple[Division, list[StandingLine]]]] = {pk: [] for pk in by_pk}
    for division in divisions:
        lines = tables.get(division.pk)
        if lines is None:
            lines = [StandingLine(**line) for line in division.final_table or []]
        result[division.season_id].append((division, lines))
    return result


# --------------------------------------------------------------------------- across seasons


@dataclass(slots=True)
class FamilyRecord:
    family: str
    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "hands": self.hands,
            "mean_points_per_hand": round(self.points_per_hand, 2),
        }


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    season: Season
    division: Division
    line: StandingLine | None
    # The mark the pages show on the line: "up", "down" or "" (zone_marks).
    zone: str = ""


def family_of(variant: Mapping[str, Any]) -> str:
    """`official`, ..., or `precognitive` (whatever its base)."""
    if variant.get("rules") == "precognitive":
        return "precognitive"
    return str(variant.get("rules", ""))


# Seasons a player's page and GET /api/players/<username> list at once, newest first.
PLAYER_SEASONS = 20


def player_record(
    user: Any, *, after: tuple[datetime.date, int] | None = None, limit: int | None = None
) -> tuple[list[SeasonRecord], list[FamilyRecord], int | None]:
    """The seasons the person entered, newest first (start date, then id), `limit` at a time
    (PLAYER_SEASONS when not given): those after `after` (a season's start date and id) in that
    order, a keyset, never an offset; each with their line of the table (every season's tables
    read at once). Per family, their finished matches of any kind: matches, wins, win rate,
    mean points scored per hand. The third item is the id of the page's last season when older
    ones follow (else None). league/selectors.py `player_page` finds `after` from a season."""
    limit = limit or PLAYER_SEASONS
    places = DivisionEntry.objects.filter(entry__user=user).select_related(
        "division__season__competition", "division__season__club", "entry"
    )
    if after is not None:
        mark, before = after
        places = places.filter(
            Q(division__season__start_date__lt=mark)
            | Q(division__season__start_date=mark, division__season__lt=before)
        )
    found = list(places.order_by("-division__season__start_date", "-division__season")[: limit + 1])
    older = found[limit - 1].division.season_id if len(found) > limit else None
    found = found[:limit]
    # The page's seasons' tables at once: a constant number of queries however many seasons.
    tables = seasons_tables(
        {place.division.season_id: place.division.season for place in found}.values()
    )
    seasons = []
    for place in found:
        division = place.division
        table = next(lines for shown, lines in tables[division.season_id] if shown == division)
        line = next((line for line in table if line.entry == place.entry_id), None)
        final = division.season.status == Season.Status.CLOSED
        zone = zone_marks(table, final=final).get(place.entry_id, "")
        seasons.append(SeasonRecord(division.season, division, line, zone))
    return seasons, family_records(user), older


def family_records(user: Any) -> list[FamilyRecord]:
    """Per family, over the person's finished games (the `player-families` projection's rows,
    league/projections.py: one indexed read whatever their number of games); never a practice
    deal (a seed its creator chose, who could know every hand: games/lobby.py)."""
    return [
        FamilyRecord(row.family, row.matches, row.wins, row.hands, row.points)
        for row in PlayerFamilyRecord.objects.filter(user=user).order_by("family")
    ]


@dataclass(slots=True)
class AllTimeLine:
    name: str
    kind: str
    user_id: int | None
    # A bot's id, for its page (/bots/<id>/); None for a person.
    bot_id: int | None = None
    seasons: int = 0
    played: int = 0
    wins: int = 0
    league_points: int = 0
    titles: int = 0
    # The place in the table: entrants level on league points and wins share it (`shared`).
    rank: int = 0
    shared: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def club_all_time(club: Club) -> list[AllTimeLine]:
    """The club's all-time table over every season (every division): seasons entered, matches,
    wins, league points, titles (first in a top division of a closed season). The closed
    seasons are the club's ClubRecord rows (added to as each closes, league/seasons.py); the
    seasons still open (a draft or running one or two) are read from their tables: a constant
    number of queries, and a cost that does not grow with the seasons played."""
    lines: dict[tuple[int | None, int | None], AllTimeLine] = {}
    for record in ClubRecord.objects.filter(club=club).select_related("user", "bot"):
        if record.bot is not None:
            line = AllTimeLine(record.bot.name, "bot", None, record.bot_id)
        else:
            assert record.user is not None  # a person or a bot (a database constraint)
            line = AllTimeLine(record.user.get_username(), "person", record.user_id)
        line.seasons, line.played, line.wins = record.seasons, record.played, record.wins
        line.league_points, line.titles = record.league_points, record.titles
        lines[record.user_id, record.bot_id] = line
    running = club.seasons.exclude(status=Season.Status.CLOSED)
    entrants = entrant_keys(Entry.objects.filter(competition__season__in=running))
    seasons = list(running.select_related("competition").order_by("start_date", "pk"))
    tables = seasons_tables(seasons)
    for season in seasons:
        add_season(lines, season, tables[season.pk], entrants)
    return rank_all_time(lines.values())


def rank_all_time(lines: Iterable[AllTimeLine]) -> list[AllTimeLine]:
    """The all-time lines in order, most league points first, then most wins; entrants level on
    both share their place (`rank`, `shared`: shown "3=", as a season's table shows a shared
    place), listed by name. The table counts nothing else, so it never places apart two entrants
    it has no way to tell apart (two seats forfeited in the only fixture, say: both placed last,
    no points, no win)."""
    ordered = sorted(lines, key=lambda t: (-t.league_points, -t.wins, t.name))
    for position, line in enumerate(ordered):
        before = ordered[position - 1] if position else None
        if before is not None and (before.league_points, before.wins) == (
            line.league_points,
            line.wins,
        ):
            line.rank = before.rank
            line.shared = before.shared = True
        else:
            line.rank = position + 1
    return ordered


def entrant_keys(entries: QuerySet[Entry]) -> dict[int, tuple[int | None, int | None]]:
    """Each entry's entrant, (user id, bot id), by entry id: an entrant is the same person or
    bot from season to season, not the same entry."""
    return {pk: (user, bot) for pk, user, bot in entries.values_list("pk", "user_id", "bot_id")}


def add_season(
    lines: dict[tuple[int | None, int | None], AllTimeLine],
    season: Season,
    tables: list[tuple[Division, list[StandingLine]]],
    entrants: Mapping[int, tuple[int | None, int | None]],
) -> None:
    """Add one season's tables (seasons_tables) to all-time lines by entrant."""
    closed = season.status == Season.Status.CLOSED
    for division, table in tables:
        for line in table:
            key = entrants[line.entry]
            total = lines.setdefault(key, AllTimeLine(line.name, line.kind, line.user_id, key[1]))
            total.seasons += 1
            total.played += line.played
            total.wins += line.wins
            total.league_points += line.league_points
            total.titles += closed and division.tier == 1 and line.rank == 1
