"""A game read with its seats, in one query (games/rows.py: the SQL written once), as every
command and view reads it: the seats left on the game as prefetch_related("seats") leaves them,
each seat's game the same instance."""

from __future__ import annotations

from itertools import groupby
from operator import attrgetter

from django.contrib.auth.models import User
from django.db.models import QuerySet

from engine import PLAYING
from games import rows
from games.errors import GameNotFound
from games.models import Bot, Game, Seat

_SEATS_OF: rows.Select[Seat] = rows.Select(
    'SELECT {s_columns}, {g_columns}, {b_columns} FROM "games_seat" s '
    'JOIN "games_game" g ON g.id = s.game_id '
    'LEFT JOIN "games_bot" b ON b.id = s.registered_bot_id WHERE s.game_id = %s ORDER BY s.number',
    [rows.Table(Seat, "s"), rows.Table(Game, "g"), rows.Table(Bot, "b")],
    ["game", "registered_bot"],
)


_NAMED_SEATS_OF: rows.Select[Seat] = rows.Select(
    'SELECT {s_columns}, {g_columns}, {u_columns}, {b_columns} FROM "games_seat" s '
    'JOIN "games_game" g ON g.id = s.game_id LEFT JOIN "auth_user" u ON u.id = s.user_id '
    'LEFT JOIN "games_bot" b ON b.id = s.registered_bot_id WHERE s.game_id = %s ORDER BY s.number',
    [rows.Table(Seat, "s"), rows.Table(Game, "g"), rows.Table(User, "u"), rows.Table(Bot, "b")],
    ["game", "user", "registered_bot"],
)
_PULL_GAMES: rows.Select[Seat] = rows.Select(
    'SELECT {s_columns}, {g_columns} FROM "games_seat" s JOIN "games_game" g ON g.id = s.game_id '
    'WHERE g.status = %s AND s.game_id IN (SELECT p.game_id FROM "games_seat" p '
    "WHERE p.registered_bot_id = %s AND p.controller = %s) ORDER BY s.game_id, s.number",
    [rows.Table(Seat, "s"), rows.Table(Game, "g")],
    ["game"],
)


def seats_of(game_id: int, *, names: bool = False) -> list[Seat]:
    """The game's seats in order, each with its game and its registered bot (with `names`, its
    person too), in one query: the dispatcher reads them with names, for its seat rows
    (turns.rows_of) and the turn clocks (deadlines.sync_deadlines)."""
    return list((_NAMED_SEATS_OF if names else _SEATS_OF).fetch([game_id]))


def game_for(game_id: int, *, names: bool = False) -> Game:
    """The game with its seats in one query, as the services read it (with `names`, the seats'
    people and registered bots too, for a listing); GameNotFound if there is none."""
    try:
        number = int(game_id)
    except (ValueError, TypeError):
        raise GameNotFound(game_id) from None
    # Every command and view reads it: the SQL is written once (games/rows.py).
    seats = (_NAMED_SEATS_OF if names else _SEATS_OF).fetch([number])
    if seats:
        return seated(seats[0].game, seats)
    # A stream with no seats (a simulated match's, a copy of a log), or no game at all.
    found = Game.objects.filter(pk=number).first()
    if found is None:
        raise GameNotFound(game_id)
    return seated(found, [])


def playing_games_of(bot: Bot) -> list[Game]:
    """The playing games where `bot` holds a seat it pulls (PULL_SEATS), oldest first, each
    with its seats read in the same query (as game_for reads them)."""
    seats = _PULL_GAMES.fetch([PLAYING, bot.pk, Seat.Controller.PULL.value])
    return [
        seated(first.game, [first, *rest])
        for _, (first, *rest) in groupby(seats, key=attrgetter("game_id"))
    ]


def seated(game: Game, seats: list[Seat]) -> Game:
    """The game with `seats` as what prefetch_related("seats") leaves on it, without its
    second query (bots/turns.py's read of a game leaves its seats here too)."""
    for seat in seats:
        seat.game = game
    # Django's private attributes, set as prefetch_related sets them. The public way to leave
    # seats on a game is prefetch_related's second query: a read of a game and its seats took
    # 1,790 µs that way, 220 µs this way (docs/performance.md, "Django's private attributes").
    # The game's seats query has its filter deferred, as Django's related managers defer it:
    # built only when something asks for the query (a filter, an update, an aggregate), never
    # for reading the rows below (building it on every read: 464 µs a read against 220, and 5.4%
    # of a request's samples: docs/performance.md, "API"). tests/games/test_rows.py pins what
    # Django does with them: the seats answer without a query, and a filter, an update or an
    # aggregate stays within this game.
    prefetched: QuerySet[Seat] = QuerySet(model=Seat)
    prefetched._deferred_filter = (False, (), {"game": game})  # type: ignore[attr-defined]
    prefetched._result_cache = seats
    prefetched._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"seats": prefetched}  # type: ignore[attr-defined]
    return game
