"""Reading ladders as anyone may see them: the list of ladders, a ladder's leaderboard, an
entrant's rating history and head-to-head, a bot's ladders and recent games. Nothing here
writes; the numbers are the `ladder-ratings` projection's (league/projections.py), with the
decay for time away applied as of now (league/ratings.py)."""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from engine import MATCH_OVER
from games.errors import GameNotFound
from games.game_settings import GameSettings
from games.models import Bot, Game, MatchResult, Seat
from games.reveal import aborted_of
from league import ratings
from league.errors import BotNotFound, LadderNotFound, LeagueNotFound
from league.models import Competition, Entry, LadderMeeting, Rating, RatingChange
from league.standings import entrant_name
from ratings.pools import pool_of


def ladders() -> QuerySet[Competition]:
    """Every ladder with `entrant_count` (active entries) and its active entries prefetched as
    `active_entries` (with their people, bots and owners), by name."""
    active = Entry.objects.filter(active=True).select_related("user", "bot__owner")
    return (
        Competition.objects.filter(kind=Competition.Kind.LADDER)
        .annotate(entrant_count=Count("entries", filter=Q(entries__active=True)))
        .prefetch_related(Prefetch("entries", queryset=active, to_attr="active_entries"))
        .order_by("name", "pk")
    )


def ladder_counts() -> QuerySet[Competition]:
    """Every ladder with `entrant_count` (active entries) alone, by name: the staff
    dashboard's matchmaking switches (one query, no entrant read)."""
    return (
        Competition.objects.filter(kind=Competition.Kind.LADDER)
        .annotate(entrant_count=Count("entries", filter=Q(entries__active=True)))
        .order_by("name", "pk")
    )


def ladder_of(slug: str) -> Competition:
    """The ladder of this slug. Raises LadderNotFound."""
    found = Competition.objects.filter(kind=Competition.Kind.LADDER, slug=slug).first()
    if found is None:
        raise LadderNotFound(f"ladder {slug!r}")
    return found


def bot_of(bot_id: int) -> Bot:
    """A registered bot, for its public page. Raises BotNotFound."""
    found = Bot.objects.select_related("owner").filter(pk=bot_id).first()
    if found is None:
        raise BotNotFound(f"bot {bot_id}")
    return found


@dataclass(frozen=True, slots=True)
class Entrant:
    """An entry as lists show it: marked bot or person, with its owner."""

    entry: Entry
    name: str
    kind: str  # "bot" or "person"
    owner: str  # a bot's owner's username; a person's own
    bot_id: int | None


def owner_name(entry: Entry) -> str:
    """A bot's owner's username, or the person's own."""
    owner = entry.bot.owner if entry.bot is not None else entry.user
    assert owner is not None  # an entry is a person or a bot (a database constraint)
    return str(owner.get_username())


def entrant(entry: Entry) -> Entrant:
    kind = "bot" if entry.bot_id else "person"
    return Entrant(entry, entrant_name(entry), kind, owner_name(entry), entry.bot_id)


def bot_ordinals(bot_ids: list[int], pool: str, *, now: Any = None) -> dict[int, float]:
    """Each of these bots' ladder rating (the ordinal, decayed as of now) on a ladder of the
    rating pool `pool` (ratings/pools.py `pool_of` of the ladder's variant); of several, the
    ladder it played most games on. A bot on no such ladder is not in the answer."""
    now = now or timezone.now()
    best: dict[int, tuple[int, float]] = {}
    rows = Rating.objects.filter(
        entry__bot_id__in=bot_ids, competition__kind=Competition.Kind.LADDER
    ).select_related("entry", "competition")
    for row in rows.order_by("pk"):
        if pool_of(row.competition.variant) != pool:
            continue
        skill = ratings.decayed(ratings.Skill(row.mu, row.sigma), row.rated_at, now)
        bot_id = int(row.entry.bot_id)  # type: ignore[arg-type]
        if bot_id not in best or row.games > best[bot_id][0]:
            best[bot_id] = (row.games, skill.ordinal)
    return {bot_id: ordinal for bot_id, (_, ordinal) in best.items()}


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One entrant of a ladder as the leaderboard shows it (sigma decayed as of now)."""

    rank: int | None  # None: off the board (not rated for BOARD_DAYS, or never)
    entry: Entry
    name: str
    kind: str  # "bot" or "person"
    owner: str  # a bot's owner's username; a person's own
    bot_id: int | None
    mu: float
    sigma: float
    ordinal: float
    sets: int
    games: int
    win_rate: float | None
    last_played: datetime.datetime | None
    trend: list[float]  # the ordinal after each of the last rating events, oldest first
    active: bool


def _line(entry: Entry, row: Rating | None, now: Any, rank: int | None = None) -> BoardLine:
    skill = ratings.Skill()
    if row is not None:
        skill = ratings.decayed(ratings.Skill(row.mu, row.sigma), row.rated_at, now)
    owner = owner_name(entry)
    return BoardLine(
        rank=rank,
        entry=entry,
        name=entrant_name(entry),
        kind="bot" if entry.bot_id else "person",
        owner=owner,
        bot_id=entry.bot_id,
        mu=skill.mu,
        sigma=skill.sigma,
        ordinal=skill.ordinal,
        sets=row.events if row else 0,
        games=row.games if row else 0,
        win_rate=row.wins / row.games if row and row.games else None,
        last_played=row.last_played if row else None,
        trend=list(row.trend) if row else [],
        active=entry.active,
    )


@dataclass(frozen=True, slots=True)
class Board:
    ranked: list[BoardLine]
    # Entered but off the board: never rated, or not rated for BOARD_DAYS.
    unranked: list[BoardLine]


@dataclass(frozen=True, slots=True)
class BoardOrder:
    """The board's order without its lines: (entry id, rank) of the ranked entrants best
    first, then (entry id, None) of those off the board by name; `split`: how many are
    ranked. Read from the ladder's entries and ratings alone, a few numbers an entrant (one
    query), so a page builds only the lines it shows."""

    places: list[tuple[int, int | None]]
    split: int
    # The names (casefolded) that more than one entrant on the board goes by: "Gus" of ana and
    # "Gus" of bob, each owner's own (bots/registry.py checks a name per owner only).
    shared_names: frozenset[str] = frozenset()


def board_order(competition: Competition, *, now: Any = None) -> BoardOrder:
    """The ladder's entrants by ordinal (mu - 3 sigma, decayed as of now), best first; those
    rated within BOARD_DAYS are ranked (ties share a rank), then the active others by name."""
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(days=ratings.BOARD_DAYS)
    rows = (
        Entry.objects.filter(competition=competition)
        .order_by("pk")
        .values_list(
            "pk", "active", "bot__name", "user__username", "rating__mu", "rating__sigma",
            "rating__rated_at", "rating__events",
        )
    )  # fmt: skip
    on_board: list[tuple[float, str, int]] = []
    off_board: list[tuple[str, int]] = []
    for pk, active, bot_name, username, mu, sigma, rated_at, sets in rows:
        name = bot_name if bot_name is not None else username
        if sets and rated_at is not None and rated_at >= cutoff:
            skill = ratings.decayed(ratings.Skill(mu, sigma), rated_at, now)
            on_board.append((-skill.ordinal, name, pk))
        elif active:
            off_board.append((name, pk))
    on_board.sort(key=lambda key: (key[0], key[1]))
    places: list[tuple[int, int | None]] = []
    for index, (ordinal, _, pk) in enumerate(on_board):
        shared = index and round(on_board[index - 1][0], 6) == round(ordinal, 6)
        places.append((pk, places[-1][1] if shared else index + 1))
    off_board.sort(key=lambda key: key[0])
    names = Counter(
        name.casefold() for name in [*(n for _, n, _ in on_board), *(n for n, _ in off_board)]
    )
    return BoardOrder(
        [*places, *((pk, None) for _, pk in off_board)],
        len(places),
        frozenset(name for name, count in names.items() if count > 1),
    )


def board_lines(places: list[tuple[int, int | None]], now: Any) -> list[BoardLine]:
    """The lines of these (entry id, rank) places, in their order: two queries, whatever
    the ladder's size."""
    ids = [pk for pk, _ in places]
    entries = Entry.objects.filter(pk__in=ids).select_related("user", "bot__owner").in_bulk()
    rows = {row.entry_id: row for row in Rating.objects.filter(entry__in=ids)}
    return [_line(entries[pk], rows.get(pk), now, rank) for pk, rank in places]


def leaderboard(competition: Competition, *, now: Any = None) -> Board:
    """The whole board, every line (board_order's order); a page reads board_page."""
    now = now or timezone.now()
    order = board_order(competition, now=now)
    lines = board_lines(order.places, now)
    return Board(lines[: order.split], lines[order.split :])


# Lines of a leaderboard a ladder's page and GET /api/ladders/<slug> show at once.
BOARD_PAGE = 50


@dataclass(frozen=True, slots=True)
class BoardPage:
    """A page of a leaderboard: its lines in the board's order, the ranked ones first, then
    those off the board."""

    ranked: list[BoardLine]
    unranked: list[BoardLine]
    # Whether the page goes past the ranked lines (it shows those off the board that follow
    # them, or none are left).
    ranked_end: bool
    # The entry id of the page's last line when more follow (the next page's `after`).
    after: int | None
    # The names more than one entrant on the whole board goes by (BoardOrder.shared_names).
    shared_names: frozenset[str] = frozenset()


def board_page(
    competition: Competition,
    *,
    after: int | None = None,
    limit: int | None = None,
    now: Any = None,
) -> BoardPage:
    """The `limit` lines (BOARD_PAGE when not given) that follow entry `after`'s line in the
    board's order (ranked best first, then off the board by name), or its first lines: only
    those lines are built (board_order, board_lines). Raises LeagueNotFound when `after` is no
    entrant on the board."""
    now = now or timezone.now()
    limit = limit or BOARD_PAGE
    order = board_order(competition, now=now)
    places = order.places
    start = 0
    if after is not None:
        position = next((n for n, (pk, _) in enumerate(places) if pk == after), None)
        if position is None:
            raise LeagueNotFound(f"entrant {after} on this leaderboard")
        start = position + 1
    end = start + limit
    split = order.split
    lines = board_lines(places[start:end], now)
    shown_ranked = max(0, min(end, split) - start)
    return BoardPage(
        ranked=lines[:shown_ranked],
        unranked=lines[shown_ranked:],
        ranked_end=end > split or end >= len(places),
        after=places[end - 1][0] if end < len(places) else None,
        shared_names=order.shared_names,
    )


@dataclass(frozen=True, slots=True)
class HeadToHead:
    name: str
    kind: str
    owner: str  # a bot's owner's username; a person's own
    bot_id: int | None
    games: int
    ahead: int
    behind: int


def head_to_head(entry: Entry) -> list[HeadToHead]:
    """Every entrant `entry` met on its ladder: games at one table, finishes ahead and behind;
    most met first."""
    mine = LadderMeeting.objects.filter(entry=entry).select_related(
        "other__user", "other__bot__owner"
    )
    theirs = dict(LadderMeeting.objects.filter(other=entry).values_list("entry", "ahead"))
    found = [
        HeadToHead(
            name=entrant_name(row.other),
            kind="bot" if row.other.bot_id else "person",
            owner=owner_name(row.other),
            bot_id=row.other.bot_id,
            games=row.games,
            ahead=row.ahead,
            behind=theirs.get(row.other_id, 0),
        )
        for row in mine
    ]
    return sorted(found, key=lambda line: (-line.games, line.name))


# The rating events a bot's page and the API show: the latest, so a page costs the same
# however long an entrant has played.
HISTORY_POINTS = 200


def history(entry: Entry, *, limit: int = HISTORY_POINTS) -> list[RatingChange]:
    """The entrant's last `limit` rating events, oldest first."""
    latest = RatingChange.objects.filter(entry=entry).order_by("-position")[:limit]
    return list(latest)[::-1]


@dataclass(frozen=True, slots=True)
class LadderRecord:
    """A bot's (or a person's) standing on one ladder, for its page."""

    ladder: Competition
    line: BoardLine
    rank: int | None
    history: list[RatingChange]
    head_to_head: list[HeadToHead]


def records(entries: QuerySet[Entry], *, now: Any = None) -> list[LadderRecord]:
    """The ladders of these entries (a bot's, or a person's) with rank, history and
    head-to-head: the rank from each ladder's board_order, never its every line."""
    now = now or timezone.now()
    found = []
    for entry in entries.filter(competition__kind=Competition.Kind.LADDER).select_related(
        "competition", "user", "bot__owner"
    ):
        order = board_order(entry.competition, now=now)
        rank = next((rank for pk, rank in order.places if pk == entry.pk), None)
        line = _line(entry, Rating.objects.filter(entry=entry).first(), now, rank)
        found.append(
            LadderRecord(entry.competition, line, line.rank, history(entry), head_to_head(entry))
        )
    return found


@dataclass(frozen=True, slots=True)
class RecentGame:
    game: Game
    seat: int
    what: str  # "ladder <name>", "validation round 2", "game"
    place: int | None
    seats: int
    finished: bool
    # Ended by the staff (game-aborted): over, with no result.
    aborted: bool = False


# The games a bot's page and GET /api/bots/<id> list at once.
RECENT_GAMES = 20


def recent_games(
    bot: Bot, *, before: int | None = None, limit: int | None = None
) -> tuple[list[RecentGame], int | None]:
    """The bot's games, newest first (by game id, the order they were made), `limit` at a time
    (RECENT_GAMES when not given): those after game `before`, a keyset on the seats' index
    (never an offset), so a page costs the same however many games the bot has played. Ladder
    games, validation games (a failed round included, so its owner sees what went wrong) and
    any other; with its place once over. Returns the page and the id of its last game when
    older ones follow (else None). Raises GameNotFound when `before` is no game of the bot."""
    limit = limit or RECENT_GAMES
    mine = Seat.objects.filter(registered_bot=bot)
    if before is not None:
        if not mine.filter(game_id=before).exists():
            raise GameNotFound(before)
        mine = mine.filter(game_id__lt=before)
    seats = list(mine.select_related("game").order_by("-game_id", "number")[: limit + 1])
    older = seats[limit - 1].game_id if len(seats) > limit else None
    seats = seats[:limit]
    games = [seat.game_id for seat in seats]
    results = MatchResult.objects.in_bulk(games)
    aborted = aborted_of(
        (seat.game_id, seat.game.version) for seat in seats if seat.game.status == MATCH_OVER
    )
    competitions = {GameSettings.of(seat.game.context).competition for seat in seats}
    names = dict(Competition.objects.filter(pk__in=competitions).values_list("pk", "name"))
    found = []
    for seat in seats:
        settings = GameSettings.of(seat.game.context)
        if settings.is_validation:
            what = f"validation round {settings.round}"
        elif settings.competition is not None:
            what = f"{settings.kind} {names.get(settings.competition, '')}".strip()
        elif settings.watched_by is not None:
            # Its owner's practice match (games/lobby.py): for no record.
            what = "practice match"
        else:
            what = "game"
        result = results.get(seat.game_id)
        found.append(
            RecentGame(
                game=seat.game,
                seat=seat.number,
                what=what,
                place=result.places[seat.number] if result else None,
                seats=seat.game.seat_count,
                finished=seat.game.status == MATCH_OVER,
                aborted=seat.game_id in aborted,
            )
        )
    return found, older
