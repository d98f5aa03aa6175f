"""A game as staff inspect it: the stored log whole (hidden cards included: staff see what the
store holds, not a player's view), the engine's state after any event, the seats, the settings;
and the search that finds a game by id, player, bot or competition. A staff member who plays in
the game gets the log and the state as their seat sees them instead (`seat`;
staff/inspections.py decides, and records every look at hidden cards).

Reads only: nothing here appends or changes a row. The actions on a game are staff/actions.py's.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q

from bots.strategies import STRATEGIES
from games import event_reads
from games.game_settings import GameSettings
from games.models import Bot, Game, Seat
from games.repository import repository
from games.seats import effective
from league.models import Competition
from staff.figures import FRIENDLY, duration_words, seat_name
from tournaments.models import Tournament, TournamentGame

# How the log names a person: "user:12" as a player, "staff:12" ruling from the staff console
# (games/actors.py actor_label).
PERSON_ACTOR = re.compile(r"^(user|staff):(\d+)$")


def pretty(value: Any) -> str:
    """JSON for people: indented, keys in their order, sets as sorted lists."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    return str(value)


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One stored event with every column, as the store holds it (data not upcast)."""

    global_position: int
    version: int
    type: str
    schema_version: int
    data: dict[str, Any]
    visibility: str
    actor: str
    # The actor in words: a person's username for "user:12", "<username> (staff)" for
    # "staff:12", else the label itself.
    actor_name: str
    command_id: str | None
    recorded_at: datetime
    # Since the game's previous event (None for the first).
    since_previous: timedelta | None

    @property
    def data_json(self) -> str:
        return json.dumps(self.data, ensure_ascii=False, separators=(", ", ": "))

    @property
    def since_words(self) -> str:
        if self.since_previous is None:
            return ""
        return "+" + duration_words(self.since_previous.total_seconds())


# Events the inspector shows at once: a 10,000-event match is a window at a time, not 8 MB.
LOG_WINDOW = 200


@dataclass(frozen=True, slots=True)
class LogWindow:
    """Events `first` to `last` of the game's log, and where the windows beside it start."""

    first: int
    last: int
    events: list[LoggedEvent]
    # The first version of the window before and after this one (None: none there).
    earlier: int | None
    later: int | None
    # The first version of the log's last window.
    final: int


def window_around(game: Game, version: int, size: int | None = None) -> int:
    """The first version of the window that shows event `version` in its middle."""
    size = size or LOG_WINDOW
    return max(1, min(version - size // 2, game.version - size + 1))


def log_window(
    game: Game, first: int, seat: int | None = None, size: int | None = None
) -> LogWindow:
    """`size` (LOG_WINDOW) events of the log from version `first` (game_log's rows), and the
    windows beside."""
    size = size or LOG_WINDOW
    last = min(game.version, first + size - 1)
    return LogWindow(
        first=first,
        last=last,
        events=game_log(game, seat, first=first, last=last),
        earlier=max(1, first - size) if first > 1 else None,
        later=last + 1 if last < game.version else None,
        final=max(1, game.version - size + 1),
    )


def game_log(
    game: Game, seat: int | None = None, *, first: int = 1, last: int | None = None
) -> list[LoggedEvent]:
    """The game's events `first` to `last` (by default all) in version order, with the time
    since the one before; with `seat`, each event's data as that seat sees it (the engine's
    view_event), not as stored."""
    # The event before the first too, for the first's time since it.
    rows = [
        (
            row.position,
            row.version,
            row.type,
            row.schema_version,
            row.data,
            row.visibility,
            row.actor,
            row.command_id,
            row.recorded_at,
        )
        for row in event_reads.stream_events(game.pk, after=max(1, first - 1) - 1, until=last)
    ]
    people = _usernames(
        int(match[2]) for row in rows if (match := PERSON_ACTOR.match(row[6])) is not None
    )
    seen: dict[int, dict[str, Any]] | None = None
    if seat is not None:
        variant = repository.variant(game)
        events = event_reads.load(game.pk, after=first - 1, until=last)
        seen = {first + n: variant.view_event(event, seat) for n, event in enumerate(events)}
    log = []
    previous: datetime | None = None
    for position, version, kind, schema, data, visibility, actor, command_id, at in rows:
        if version < first:
            previous = at
            continue
        log.append(
            LoggedEvent(
                global_position=position,
                version=version,
                type=kind,
                schema_version=schema,
                data=data if seen is None else seen[version],
                visibility=visibility,
                actor=actor,
                actor_name=_actor_name(actor, people),
                command_id=command_id,
                recorded_at=at,
                since_previous=at - previous if previous is not None else None,
            )
        )
        previous = at
    return log


def _actor_name(actor: str, people: dict[int, str]) -> str:
    match = PERSON_ACTOR.match(actor)
    if match is None or int(match[2]) not in people:
        return actor
    name = people[int(match[2])]
    return f"{name} (staff)" if match[1] == "staff" else name


def _usernames(ids: Any) -> dict[int, str]:
    wanted = set(ids)
    if not wanted:
        return {}
    users = get_user_model().objects.filter(pk__in=wanted)
    return dict(users.values_list("pk", "username"))


@dataclass(frozen=True, slots=True)
class StateAt:
    version: int
    # The engine's State after event `version`, as plain data (dataclasses.asdict).
    state: dict[str, Any]

    @property
    def state_json(self) -> str:
        return pretty(self.state)


def state_at(game: Game, version: int, seat: int | None = None) -> StateAt:
    """The engine's full state after the game's first `version` events: the engine's own replay
    (Variant.replay) of the stored log, under the variant the stream was recorded with, so it is
    what the services decide against; with `seat`, that seat's view of it (Variant.view) instead.
    Raises ValueError for a version the log does not hold."""
    if not 1 <= version <= game.version:
        raise ValueError(f"game {game.pk} has events 1 to {game.version}, not {version}")
    # From the newest snapshot below it (games/repository.py): the same fold, bounded work.
    variant, state, _ = repository.state(game, until=version)
    return StateAt(version, asdict(state) if seat is None else variant.view(state, seat))


@dataclass(frozen=True, slots=True)
class SeatRow:
    number: int
    who: str
    # "person", "built-in", or the registered bot's kind.
    sits: str
    username: str
    bot_id: int | None
    bot_status: str
    controller: str
    # Who moves it now: the controller, or the fallback for a suspended or failed bot.
    effective: str
    deadline_at: datetime | None
    vacation_until: datetime | None
    age: int | None
    to_act: bool


def seat_rows(game: Game) -> list[SeatRow]:
    seats = Seat.objects.filter(game=game).select_related("user", "registered_bot")
    rows = []
    for seat in seats.order_by("number"):
        bot = seat.registered_bot
        sits = bot.kind if bot else ("person" if seat.user_id else "built-in")
        rows.append(
            SeatRow(
                number=seat.number,
                who=seat_name(seat),
                sits=sits,
                username=seat.user.get_username() if seat.user is not None else "",
                bot_id=bot.pk if bot else None,
                bot_status=bot.status if bot else "",
                controller=seat.controller,
                effective=effective(seat.controller, bot.status if bot else None),
                deadline_at=seat.deadline_at,
                vacation_until=seat.vacation_until,
                age=seat.age,
                to_act=seat.number in (game.to_act or []),
            )
        )
    return rows


@dataclass(frozen=True, slots=True)
class GameFacts:
    kind: str
    settings: GameSettings
    competition: Competition | None
    variant_json: str
    context_json: str
    # Each effective limit: the game's own setting or the site's of today.
    limits: dict[str, Any]


def game_facts(game: Game) -> GameFacts:
    """The game's settings and context, with the limits the workers would apply today."""
    settings = GameSettings.of(game.context)
    competition = None
    if settings.competition is not None:
        competition = Competition.objects.filter(pk=settings.competition).first()
    limits = {
        "turn seconds": settings.turn_limit,
        "webhook bot seconds": settings.webhook_limit,
        "pull bot seconds": settings.pull_limit,
        "vacation days": settings.vacation_budget,
    }
    return GameFacts(
        kind=settings.kind or FRIENDLY,
        settings=settings,
        competition=competition,
        variant_json=pretty(game.variant),
        context_json=pretty(game.context),
        limits=limits,
    )


# Search --------------------------------------------------------------------------------------

SEARCH_LIMIT = 50
# The longest search: longer than any username, bot name, strategy, competition slug or name.
QUERY_LENGTH = 150
GAME_ID = re.compile(r"^#?(\d+)$")


@dataclass(frozen=True, slots=True)
class Found:
    game: Game
    kind: str
    seats: list[str]
    # The address (slug) of its competition or tournament, if any.
    competition: str
    # Why it matched: "id", "player", "bot", "competition" (a competition's or tournament's).
    matched: list[str]


def search(
    query: str, *, before: int | None = None, limit: int | None = None
) -> tuple[list[Found], int | None]:
    """Games by id (`123` or `#123`), player username, bot name (a built-in strategy or a
    registered bot), or a competition's or tournament's address (slug) or name; the newest first
    (by id), `limit` at a time (SEARCH_LIMIT when not given): those older than game `before`, a
    keyset (never an offset). Parts of names match (case-insensitive), an id only whole. An
    empty query finds the latest games. Returns the page and the id of its last game when older
    ones match (the next page's `before`), else None."""
    query = query.strip()
    limit = limit or SEARCH_LIMIT
    games = Game.objects.all() if before is None else Game.objects.filter(pk__lt=before)
    seats = Prefetch("seats", Seat.objects.select_related("user", "registered_bot"))
    if not query:
        found = list(games.prefetch_related(seats).order_by("-pk")[: limit + 1])
    else:
        # Each way a game may match gives its newest limit + 1 ids (a query a kind: people,
        # bots, strategies, a competition, an id); the page is the newest of them all. One
        # query over every game joined to every seat under an OR of them scanned them all.
        # The matching people and bots first (small tables), as ids: the seats' query then
        # has its planner's estimate of those ids' seats, and none is made for no match.
        people = get_user_model().objects.filter(username__icontains=query)
        bots = Bot.objects.filter(name__icontains=query)
        kinds = [
            Q(**{field: values})
            for field, values in (
                ("user__in", list(people.values_list("pk", flat=True))),
                ("registered_bot__in", list(bots.values_list("pk", flat=True))),
                ("bot__in", [name for name in STRATEGIES if query.lower() in name]),
            )
            if values
        ]
        ids: set[int] = set()
        for kind in kinds:
            seated = Seat.objects.filter(kind)
            if before is not None:
                seated = seated.filter(game_id__lt=before)
            ids.update(
                seated.order_by("-game_id")
                .values_list("game_id", flat=True)
                .distinct()[: limit + 1]
            )
        # Competitions and tournaments by address or name (small tables: a bounded icontains).
        named = Q(slug__icontains=query) | Q(name__icontains=query)
        matching = list(Competition.objects.filter(named).values_list("pk", flat=True))
        if matching:
            ids.update(
                games.filter(context__competition__in=matching)
                .order_by("-pk")
                .values_list("pk", flat=True)[: limit + 1]
            )
        cups = list(Tournament.objects.filter(named).values_list("pk", flat=True))
        if cups:
            # A tournament's tables, by their game (unique, so indexed), newest first.
            tables = TournamentGame.objects.filter(round__tournament__in=cups)
            if before is not None:
                tables = tables.filter(game_id__lt=before)
            ids.update(tables.order_by("-game_id").values_list("game_id", flat=True)[: limit + 1])
        if (number := GAME_ID.match(query)) is not None:
            ids.update(games.filter(pk=int(number[1])).values_list("pk", flat=True))
        newest = sorted(ids, reverse=True)[: limit + 1]
        found = list(Game.objects.filter(pk__in=newest).prefetch_related(seats).order_by("-pk"))
    older = found[limit - 1].pk if len(found) > limit else None
    found = found[:limit]
    settings = [GameSettings.of(game.context) for game in found]
    competitions = {each.competition for each in settings} - {None}
    tournaments = {each.tournament for each in settings} - {None}
    names = {
        ("competition", pk): (slug, name)
        for pk, slug, name in Competition.objects.filter(pk__in=competitions).values_list(
            "pk", "slug", "name"
        )
    } | {
        ("tournament", pk): (slug, name)
        for pk, slug, name in Tournament.objects.filter(pk__in=tournaments).values_list(
            "pk", "slug", "name"
        )
    }
    return [_found(game, query, names) for game in found], older


def _found(game: Game, query: str, names: dict[tuple[str, int], tuple[str, str]]) -> Found:
    settings = GameSettings.of(game.context)
    key = (
        ("competition", settings.competition)
        if settings.competition is not None
        else ("tournament", settings.tournament)
        if settings.tournament is not None
        else None
    )
    slug, name = names.get(key, ("", "")) if key is not None else ("", "")
    seats = list(game.seats.all())
    needle = query.lower()
    matched = []
    if needle:
        number = GAME_ID.match(query)
        if number is not None and int(number[1]) == game.pk:
            matched.append("id")
        if any(s.user is not None and needle in s.user.get_username().lower() for s in seats):
            matched.append("player")
        if any(
            needle in s.bot.lower()
            or (s.registered_bot and needle in s.registered_bot.name.lower())
            for s in seats
        ):
            matched.append("bot")
        if slug and (needle in slug.lower() or needle in name.lower()):
            matched.append("competition")
    return Found(
        game=game,
        kind=settings.kind or FRIENDLY,
        seats=[seat_name(seat) for seat in seats],
        competition=slug,
        matched=matched,
    )
