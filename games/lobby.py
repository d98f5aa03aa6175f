"""People's games: start one with people and bots, list a person's games, show one.

The people's API (api/games.py) and the web pages (web/) both go through here, so a game made
in the browser and one made by a script are the same game. Views of a game come from
games/visibility.py, which hides what the viewer may not see.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Profile
from bots.strategies import STRATEGIES
from clocks import presence
from engine import MATCH_OVER
from engine.events import SEAT_FORFEITED
from games import event_reads
from games.actors import Person, Viewer, is_person, lock_person, seats_held
from games.creation import SeatSpec, game_create
from games.errors import Forbidden, GameNotFound, GameRefused, InvalidGame
from games.game_settings import WATCH_KEY, GameSettings
from games.models import Bot, Game, Seat
from games.placings import placing
from games.repository import Loaded, repository
from games.visibility import view_of, viewing_seat

# newno's Youngest Rule compares seat ages (docs/rules.md: people from their profile, bots by
# registration, the newest youngest).
# Built-in bots count as registered the day the service opened.
BUILTIN_BOTS_REGISTERED = datetime.date(2026, 1, 1)
# A person's turn: from a minute to four weeks.
TURN_SECONDS = (60, 28 * 24 * 3600)

ME = "me"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as everyone may see it."""

    seat: int
    name: str
    kind: str  # "person" or "bot"
    user_id: int | None = None


def seat_listing(game: Game) -> list[SeatInfo]:
    """Who sits where: a person by username, a bot by name (built-in ones by strategy)."""
    seats = game.seats.all()
    return [
        SeatInfo(seat.number, seat.user.username, "person", seat.user_id)
        if seat.user is not None
        else SeatInfo(seat.number, _bot_name(seat), "bot")
        for seat in sorted(seats, key=lambda s: s.number)
    ]


def opponents(seats: Sequence[SeatInfo], seat: int) -> str:
    """Who sits at the seats other than `seat`, in words: "maya", "maya, greedy and bo";
    "yourself" when nobody else does. Names only, as every list of games shows them. A name
    held twice gets its seat ("greedy (seat 2) and greedy (seat 3)"); the person's own other
    seats are not "against" them and are left out (a turn email, the notice of a match's end)."""
    names = [info.name for info in seats]
    mine = next((info.user_id for info in seats if info.seat == seat), None)
    others = [
        f"{info.name} (seat {info.seat + 1})" if names.count(info.name) > 1 else info.name
        for info in seats
        if info.seat != seat and (mine is None or info.user_id != mine)
    ]
    against = ", ".join(others[:-1]) + " and " + others[-1] if len(others) > 1 else "".join(others)
    return against or "yourself"


def seed_chooser(game: Game, seats: Sequence[SeatInfo] | None = None) -> str | None:
    """The username of the person who chose the game's seed (a practice deal, which counts for
    no record), or None for a deal the server drew."""
    chooser = GameSettings.of(game.context).seed_chosen_by
    if chooser is None:
        return None
    for info in seats if seats is not None else seat_listing(game):
        if info.user_id == chooser:
            return info.name
    # The chooser always holds a seat (game_start); a name for a row edited by hand.
    return User.objects.filter(pk=chooser).values_list("username", flat=True).first() or "?"


def watcher(game: Game) -> str | None:
    """The username of the bot owner watching their practice match (a game of bots alone they
    started: game_start), or None for any other game."""
    watching = GameSettings.of(game.context).watched_by
    if watching is None:
        return None
    return User.objects.filter(pk=watching).values_list("username", flat=True).first() or "?"


def _bot_name(seat: Seat) -> str:
    if seat.registered_bot is not None:
        return seat.registered_bot.name
    return seat.bot


def game_start(
    *,
    creator: Person,
    variant_spec: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    seed: int | None = None,
    turn_seconds: int | None = None,
) -> Game:
    """Start a game for `creator`, who must hold one of its seats, or else start a practice
    match for a bot's owner: every seat a bot, one of them at least the creator's own registered
    bot and no one else's (check_watch), which the creator watches from no seat.

    Each seat is `{"user": "me" | username}`, `{"bot": strategy}` or `{"bot_id": id}` (an
    active registered bot). A `seed` makes a practice deal: allowed only when nobody else sits
    at the table (_check_practice); the game says so to every seat and counts for no record.
    InvalidGame with a code for anything wrong, Forbidden `not-your-bot`, GameRefused
    `too-many-practice-matches`; nothing is written then.

    Everyone named is seated, asked or not: a person's new game that names other people goes
    through tables/invitations.py `start_or_invite` instead, which asks them first (the web's
    /play/new/ and POST /api/games); this is for the games whose people agreed (an accepted
    invitation, and tests and benchmarks that set games up).
    """
    check_turn_seconds(turn_seconds)
    specs = [seat_spec(number, seat, creator) for number, seat in enumerate(seats)]
    seated = any(spec.user is not None and spec.user.pk == creator.pk for spec in specs)
    if not seated:
        check_watch(specs, creator)
    if seed is not None:
        check_practice(specs, creator)
    if isinstance(variant_spec, Mapping) and variant_spec.get("rules") == "newno":
        specs = ranked_by_age(specs)
    with transaction.atomic():
        if not seated:
            _check_practice_matches(creator)
        game = game_create(
            variant_spec=variant_spec,
            seats=specs,
            seed=seed,
            settings=GameSettings(
                turn_seconds=turn_seconds,
                seed_chosen_by=creator.pk if seed is not None else None,
                watched_by=None if seated else creator.pk,
            ),
            actor=creator,
        )
        if seated:
            # The creator is at the game they just started (clocks/presence.py): its first
            # turn, which starts when this commits, is no email.
            presence.seen(creator.pk, game.pk)
    return game


def check_turn_seconds(turn_seconds: int | None) -> None:
    """InvalidGame `invalid-turn-seconds` for a turn length out of TURN_SECONDS."""
    if turn_seconds is not None and not TURN_SECONDS[0] <= turn_seconds <= TURN_SECONDS[1]:
        raise InvalidGame(
            f"turn_seconds must be from {TURN_SECONDS[0]} to {TURN_SECONDS[1]}",
            code="invalid-turn-seconds",
        )


def check_watch(specs: Sequence[SeatSpec], creator: Person) -> None:
    """A game its creator holds no seat in: a practice match for a bot's owner, allowed when
    every seat is a bot, every registered bot among them the creator's own (built-in bots
    too) and one at least is. InvalidGame `creator-not-seated` for a person's seat or no bot
    of theirs, Forbidden `not-your-bot` for someone else's registered bot."""
    for number, spec in enumerate(specs):
        if spec.user is not None:
            raise InvalidGame(
                f"you must hold a seat in a game you start ({spec.user.username} sits at seat "
                f"{number}): only a game of bots alone, one of them yours, may be watched "
                "from no seat",
                code="creator-not-seated",
            )
    for number, spec in enumerate(specs):
        if spec.registered is not None and spec.registered.owner_id != creator.pk:
            raise Forbidden(
                f"seat {number} is bot {spec.registered.name}, which is not yours: a game you "
                "watch from no seat may seat built-in bots and your own registered bots only",
                code="not-your-bot",
            )
    if not any(spec.registered is not None for spec in specs):
        raise InvalidGame(
            "you must hold a seat in a game you start, or seat one of your own registered bots "
            "to watch it play from no seat",
            code="creator-not-seated",
        )


def _check_practice_matches(creator: Person) -> None:
    """GameRefused `too-many-practice-matches` when the creator already has
    GAMES_MAX_PRACTICE_MATCHES practice matches running; called in the transaction that makes
    the game, with the creator's row locked so two requests at once cannot pass it together."""
    lock_person(creator)
    limit = settings.GAMES_MAX_PRACTICE_MATCHES
    running = practice_matches(creator).count()
    if running >= limit:
        raise GameRefused(
            f"you have {running} practice matches running already (at most {limit}): watch "
            "one to its end first",
            code="too-many-practice-matches",
        )


def practice_matches(person: Person) -> QuerySet[Game]:
    """The person's practice matches (games of bots alone they watch) not over yet, newest
    first. The has-key condition is the partial index `game_watched_by`'s (games/models/store.py):
    with it the database reads that index, the practice matches alone, not every game."""
    return (
        Game.objects.filter(**{"context__has_key": WATCH_KEY, f"context__{WATCH_KEY}": person.pk})
        .exclude(status=Game.Status.MATCH_OVER)
        .order_by("-pk")
    )


def check_practice(specs: Sequence[SeatSpec], creator: Person) -> None:
    """A seed chosen by a person tells them every hand and the draw order (the engine is open:
    docs/verifying-deals.md), so it is for practice alone: every other seat a built-in bot or
    one of the creator's own bots. InvalidGame `seed-not-allowed` otherwise."""
    for number, spec in enumerate(specs):
        if spec.user is not None and spec.user.pk != creator.pk:
            other = f"{spec.user.username} sits at seat {number}"
        elif spec.registered is not None and spec.registered.owner_id != creator.pk:
            other = f"seat {number} is bot {spec.registered.name}, which is not yours"
        else:
            continue
        raise InvalidGame(
            f"a chosen seed would show you every hand, so it is only for practice against "
            f"built-in bots or your own bots; {other}. Leave the seed out and the server deals "
            "at random",
            code="seed-not-allowed",
        )


def seat_spec(number: int, seat: Mapping[str, Any], creator: Person) -> SeatSpec:
    if not isinstance(seat, Mapping) or len(seat) != 1:
        raise InvalidGame(
            f"seat {number} must be one of {{'user': ...}}, {{'bot': ...}}, {{'bot_id': ...}}",
            code="invalid-seat",
        )
    ((key, value),) = seat.items()
    if key == "user" and isinstance(value, str):
        if value == ME:
            return SeatSpec(user=creator)
        user = User.objects.filter(username=value, is_active=True).first()
        if user is None:
            raise InvalidGame(f"seat {number}: nobody is called {value!r}", code="unknown-user")
        return SeatSpec(user=user)
    if key == "bot" and isinstance(value, str):
        if value not in STRATEGIES:
            raise InvalidGame(_unknown_builtin(number, value), code="unknown-bot")
        return SeatSpec(bot=value)
    if key == "bot_id" and type(value) is int:
        bot = Bot.objects.filter(pk=value).first()
        if bot is None:
            raise InvalidGame(f"seat {number}: there is no bot {value}", code="unknown-bot")
        if bot.status != Bot.Status.ACTIVE:
            raise InvalidGame(
                f"seat {number}: bot {bot.name} is {bot.status}, not active",
                code="bot-not-active",
            )
        return SeatSpec(registered=bot)
    raise InvalidGame(
        f"seat {number} must be one of {{'user': name}}, {{'bot': strategy}}, {{'bot_id': id}}",
        code="invalid-seat",
    )


def _unknown_builtin(number: int, name: str) -> str:
    """The refusal of a seat's `bot` that names no built-in strategy. Ladders and tournaments
    name a registered bot `{"bot": 12}`; a seat names it `{"bot_id": 12}` (`bot` is a
    strategy's name, never guessed to be an id), so a number here gets that hint."""
    message = f"seat {number}: unknown bot {name!r}; known: {', '.join(STRATEGIES)}"
    if re.fullmatch(r"\s*\d+\s*", name, re.ASCII):
        return message + (
            f'. For a registered bot, use {{"bot_id": {name.strip()}}}: a seat\'s "bot" is a '
            "built-in strategy's name"
        )
    return message + ' (a registered bot is seated with {"bot_id": <its id>})'


def ranked_by_age(specs: list[SeatSpec]) -> list[SeatSpec]:
    """The seats with their ages as ranks (0 the youngest, equal ages equal ranks): the Youngest
    Rule needs only the order, and the log, which every seat reads, keeps no birth date."""
    days = [_age_in_days(number, spec) for number, spec in enumerate(specs)]
    rank = {age: place for place, age in enumerate(sorted(set(days)))}
    return [
        SeatSpec(user=s.user, bot=s.bot, registered=s.registered, age=rank[age])
        for s, age in zip(specs, days, strict=True)
    ]


def _age_in_days(number: int, spec: SeatSpec) -> int:
    if spec.user is not None:
        born = Profile.objects.filter(user=spec.user).values_list("birth_date", flat=True).first()
        if born is None:
            raise InvalidGame(
                f"seat {number}: {spec.user.username} has given no birth date, which newno's "
                "Youngest Rule needs (profile page)",
                code="birth-date-missing",
            )
    elif spec.registered is not None:
        born = spec.registered.created_at.date()
    else:
        born = BUILTIN_BOTS_REGISTERED
    return (timezone.localdate() - born).days


@dataclass(frozen=True, slots=True)
class GameRow:
    """One of a person's games, as the lobby and GET /api/games list it."""

    game: Game
    my_seats: list[int]
    my_turn: bool
    deadline: datetime.datetime | None
    seats: list[SeatInfo]


def games_of(*, person: Person, status: str | None = None, my_turn: bool = False) -> list[GameRow]:
    """The games where `person` holds a seat, newest activity first.

    `status` "playing" (every game not over) or "finished"; `my_turn`: only games waiting for
    one of the person's seats. A person's finished games only grow: list them a page at a
    time (finished_page).
    """
    games = _games_of(person)
    if status == "playing":
        games = games.exclude(status=Game.Status.MATCH_OVER)
    elif status == "finished":
        games = games.filter(status=Game.Status.MATCH_OVER)
    rows = [_row(game, person) for game in games.order_by("-last_activity", "-pk")]
    return [row for row in rows if row.my_turn] if my_turn else rows


# A page of finished games: what the lobby's tab and GET /api/games?status=finished show at once.
FINISHED_PAGE = 50


@dataclass(frozen=True, slots=True)
class FinishedPage:
    rows: list[GameRow]
    # The id of the last game shown, for the next page (`before`); None on the last page.
    before: int | None


def finished_page(
    *, person: Person, before: int | None = None, limit: int | None = None
) -> FinishedPage:
    """The person's finished games, newest activity first, `limit` at a time: those after game
    `before` in that order (a keyset, never an offset, so a page costs the same however many
    games come before it, and a game finished meanwhile shifts nothing). Raises GameNotFound
    when there is no game `before`. `limit`: FINISHED_PAGE when not given."""
    limit = limit or FINISHED_PAGE
    games = _games_of(person).filter(status=Game.Status.MATCH_OVER)
    if before is not None:
        mark = Game.objects.filter(pk=before).values_list("last_activity", flat=True).first()
        if mark is None:
            raise GameNotFound(before)
        games = games.filter(Q(last_activity__lt=mark) | Q(last_activity=mark, pk__lt=before))
    found = list(games.order_by("-last_activity", "-pk")[: limit + 1])
    rows = [_row(game, person) for game in found[:limit]]
    return FinishedPage(rows, rows[-1].game.pk if len(found) > limit else None)


def practice_rows(person: Person) -> list[GameRow]:
    """The person's running practice matches (practice_matches) as rows of the lobby, newest
    first: they hold no seat there, so none is their turn."""
    games = practice_matches(person).prefetch_related("seats__user", "seats__registered_bot")
    return [_row(game, person) for game in games]


def finished_count(*, person: Person) -> int:
    """How many of the person's games are over (the lobby's empty Playing tab says so)."""
    return Game.objects.filter(seats__user=person, status=Game.Status.MATCH_OVER).distinct().count()


def _games_of(person: Person) -> QuerySet[Game]:
    return (
        Game.objects.filter(seats__user=person)
        .distinct()
        .prefetch_related("seats__user", "seats__registered_bot")
    )


def _row(game: Game, person: Person) -> GameRow:
    mine = seats_held(person, game.seats.all())
    return GameRow(
        game=game,
        my_seats=mine,
        my_turn=any(seat in game.to_act for seat in mine) and game.status == Game.Status.PLAYING,
        deadline=turn_deadline(game),
        seats=seat_listing(game),
    )


def turn_deadline(game: Game) -> datetime.datetime | None:
    """When the turn the game waits for runs out (the earliest of the seats to act), if timed."""
    deadlines = [
        seat.deadline_at
        for seat in game.seats.all()
        if seat.number in game.to_act and seat.deadline_at is not None
    ]
    return min(deadlines, default=None)


def game_detail(
    *,
    game_id: int,
    viewer: Viewer,
    seat: int | None = None,
    loaded: Loaded | None = None,
    decided: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A game as `viewer` may see it: GET /api/games/{id}'s body and the play page's data.
    `loaded`: the game as a command just left it (commands.CommandResult.loaded), read with
    its seats' people, and `decided` that command's `next`, when the page is drawn right after
    it: then nothing is read or folded again."""
    if loaded is None or loaded.game.pk != game_id:
        # Read once, with its seats' people and bots, for the view and the listing.
        loaded = repository.get(game_id, names=True)
    game = loaded.game
    seat = viewing_seat(game, viewer, seat)
    # The command built this seat's view already when the game waits for it again.
    made = next((item["view"] for item in decided if item["seat"] == seat), None)
    view = dict(made) if made is not None else view_of(loaded, seat)
    legal = view.pop("legal")
    version = view.pop("version")
    seats = seat_listing(game)
    return {
        "game": game.pk,
        "version": version,
        "status": view["status"],
        "variant": game.variant,
        "seats": seats,
        "seed_chosen_by": seed_chooser(game, seats),
        "watched_by": watcher(game),
        "my_seats": seats_held(viewer, game.seats.all()) if is_person(viewer) else [],
        "view": view,
        "legal": legal,
        "deadline": turn_deadline(game),
        "result": match_result(game.pk, view),
    }


def match_result(game_id: int, view: Mapping[str, Any]) -> dict[str, Any] | None:
    """A finished match's result as the service records it, for any viewer: each seat's place
    and the winner by the one rule (games/match_outcomes.py `placing`: the forfeited seats share
    the last place), and the forfeited seats; None while the match plays, or when it ended
    without places (a staff's abort). The view's own `places` and `winner` are the rules' alone.
    Reads the game's seat-forfeited events (one query), only once the match is over."""
    if view["status"] != MATCH_OVER or view.get("places") is None:
        return None
    forfeited = sorted({e["seat"] for e in event_reads.load(game_id, types={SEAT_FORFEITED})})
    placed = placing(view["places"], view.get("winner"), forfeited)
    return {"winner": placed.winner, "places": placed.places, "forfeited": forfeited}


def as_recorded(view: dict[str, Any], result: Mapping[str, Any] | None) -> dict[str, Any]:
    """The view with a finished match's places and winner as the service records them
    (`match_result`), for a page that shows the result; the view itself when there is none."""
    if result is None:
        return view
    return {**view, "places": result["places"], "winner": result["winner"]}
