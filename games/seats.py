"""Who moves a seat: its controller, and the one rule for "a worker moves this seat".

A seat says who sits there (a person, a built-in strategy, a registered Bot) and who moves it
now (`Seat.controller`): the person, a worker playing a strategy in-process, a worker asking a
webhook, a pull bot polling the API, or the default bot (BOTS_FALLBACK_STRATEGY) once the seat
was forfeited or handed over. A registered bot that is suspended, failed or retired is not asked
any more: the default bot plays its seats, whatever their controller says (`effective`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import reduce
from typing import Any, NamedTuple

from django.db.models import Q

from engine import MATCH_OVER, PLAYING, State
from games.game_settings import GameSettings
from games.models import Bot, Game, Seat

Controller = Seat.Controller

# A registered bot in one of these states is not asked any more: the fallback plays its seats.
# A retired bot is seated in no running game (bots/registry.py bot_retire refuses while it is,
# and no game seats it after): only a game made from a status read just before the retirement
# committed could, and the fallback plays that one.
REPLACED = frozenset({Bot.Status.SUSPENDED, Bot.Status.FAILED, Bot.Status.RETIRED})

# The controllers whose seats a worker moves: in-process strategies and webhook calls.
WORKER_CONTROLLERS = frozenset({Controller.BUILTIN, Controller.WEBHOOK, Controller.FALLBACK})


def seat_plays(*, bot: str, registered: Bot | None) -> tuple[str, str]:
    """The controller of a new seat and the strategy a worker plays for it in-process ("" for
    none), from who sits there: a person (neither), a built-in bot (`bot`, a strategy's name)
    or a registered bot. The one place that says a registered built-in bot plays its strategy
    in-process, like a plain built-in seat (creation.game_create stores both, and checks the
    strategy is one there is)."""
    if registered is not None:
        strategy = registered.strategy if registered.kind == Bot.Kind.BUILTIN else ""
        return str(registered.kind), strategy
    return (Controller.BUILTIN if bot else Controller.PERSON), bot


def effective(controller: str, bot_status: str | None) -> str:
    """Who moves the seat now: its controller, or the fallback for a replaced registered bot."""
    if bot_status in REPLACED:
        return Controller.FALLBACK
    return controller


def worker_moves(controller: str, bot_status: str | None) -> bool:
    """Whether a worker moves the seat (WORKER_SEATS says the same in SQL)."""
    return effective(controller, bot_status) in WORKER_CONTROLLERS


def _where(moves: Callable[[str, str | None], bool]) -> Q:
    """`moves(controller, bot_status)` as a filter on Seat, for the sweeps that look across
    games: derived from the function itself over every controller and bot status (None: no
    registered bot), so the SQL cannot say other than the Python."""
    statuses: list[str | None] = [None, *Bot.Status.values]
    # The controllers grouped by the statuses at which `moves` says yes.
    groups: dict[tuple[str | None, ...], list[str]] = {}
    for controller in Controller.values:
        yes = tuple(status for status in statuses if moves(controller, status))
        if yes:
            groups.setdefault(yes, []).append(controller)
    parts = []
    for yes, controllers in groups.items():
        if len(yes) == len(statuses):
            parts.append(Q(controller__in=controllers))
            continue
        named = [status for status in yes if status is not None]
        by_status = [Q(registered_bot__status__in=named)] if named else []
        if None in yes:
            by_status.append(Q(registered_bot__isnull=True))
        parts.append(Q(controller__in=controllers) & reduce(operator.or_, by_status))
    return reduce(operator.or_, parts) if parts else Q(pk__in=[])


def pulls_itself(controller: str, bot_status: str | None) -> bool:
    """Whether the seat's pull bot moves it itself (effective controller `pull`)."""
    return effective(controller, bot_status) == Controller.PULL


# worker_moves and pulls_itself as filters on Seat.
WORKER_SEATS = _where(worker_moves)
PULL_SEATS = _where(pulls_itself)


class SeatRow(NamedTuple):
    """A seat with what the dispatch decides on (`rows_of` builds them from seats read with
    their game and registered bot)."""

    number: int
    controller: str
    deadline_at: datetime | None
    registered_bot__status: str | None
    game__status: str
    game__to_act: list[int] | None
    game__context: dict[str, Any]


SEAT_ROW = SeatRow._fields


def rows_of(
    seats: Iterable[Seat], *, status: str | None = None, to_act: list[int] | None = None
) -> list[SeatRow]:
    """Seats read with their game and registered bot (reads.seats_of, reads.game_for) as
    SEAT_ROW's tuples; with `status` and `to_act` instead of the game's (an append's, about to
    be written)."""
    return [
        SeatRow(
            seat.number,
            seat.controller,
            seat.deadline_at,
            None if seat.registered_bot is None else seat.registered_bot.status,
            seat.game.status if status is None else status,
            seat.game.to_act if to_act is None else to_act,
            seat.game.context,
        )
        for seat in seats
    ]


def worker_to_act(rows: Iterable[SeatRow]) -> bool:
    """Whether the game waits for a seat a worker moves. Validation games played in-process
    (`inline`) are driven by bot_validate itself."""
    return any(
        row.game__status == PLAYING
        and row.number in (row.game__to_act or [])
        and not GameSettings.of(row.game__context).inline
        and worker_moves(row.controller, row.registered_bot__status)
        for row in rows
    )


def webhook_out_of_turn(rows: Iterable[SeatRow]) -> bool:
    """Whether a webhook bot's seat is out of turn in a playing game (SEAT_ROW rows): the append
    may have opened a window for it, which only a worker can offer. Validation games played
    in-process are left to bot_validate."""
    return any(
        row.game__status == PLAYING
        and row.number not in (row.game__to_act or [])
        and not GameSettings.of(row.game__context).inline
        and effective(row.controller, row.registered_bot__status) == Controller.WEBHOOK
        for row in rows
    )


def pull_open_choice(rows: Iterable[SeatRow]) -> bool:
    """Whether a pull bot's seat is eligible for a newno open choice (several seats in
    `to_act`) in a playing game: a worker's run sends close-window at once when no eligible seat
    has a card to answer it with (bots/driver.py), so nobody waits for a bot that cannot act."""
    return any(
        row.game__status == PLAYING
        and len(row.game__to_act or []) > 1
        and row.number in (row.game__to_act or [])
        and not GameSettings.of(row.game__context).inline
        and effective(row.controller, row.registered_bot__status) == Controller.PULL
        for row in rows
    )


def clocks_to_change(rows: Iterable[SeatRow]) -> bool:
    """Whether deadlines.sync_deadlines has anything to do: a person's seat in `to_act` with no
    deadline, or out of it with one. Most appends change no clock."""
    for row in rows:
        if row.controller != Controller.PERSON:
            continue
        to_act = row.game__to_act or [] if row.game__status == PLAYING else []
        if (row.number in to_act) == (row.deadline_at is None):
            return True
    return False


class Work(NamedTuple):
    """What the workers have to do after an append, from the game's seats as it left them
    (SEAT_ROW rows): the one decision the dispatcher acts on (dispatch.dispatch_game) and a
    request asks before it sends the dispatcher anything (`asks_no_worker`)."""

    # Start or stop people's turn clocks (deadlines.sync_deadlines).
    clocks: bool
    # Advance the game (tasks.advance_game): a seat a worker moves is to act, or a webhook
    # bot is out of turn, with a window only a worker can offer (bots/remote/windows.py).
    advance: bool
    # The match is over: a validation round to settle, the league's listeners.
    match_over: bool

    def __bool__(self) -> bool:
        return self.clocks or self.advance or self.match_over


def work_for(rows: Sequence[SeatRow]) -> Work:
    """What the workers have to do for a game whose seats are `rows` (Work)."""
    return Work(
        clocks=clocks_to_change(rows),
        advance=worker_to_act(rows) or webhook_out_of_turn(rows) or pull_open_choice(rows),
        match_over=bool(rows) and rows[0].game__status == MATCH_OVER,
    )


def asks_no_worker(game: Game, state: State) -> bool:
    """Whether an append leaving `game` in `state` gives the workers nothing to do: `work_for`,
    the dispatcher's own decision, asked of the seats the request read (their bots joined)
    with the state it appends. The match goes on, no seat a worker moves is to act, no webhook
    bot is out of turn (a window), and no person's turn clock starts or stops (a pull bot's own
    seats; a person who drew and still decides, or whose skip came back to them, with the clock
    already running), and no person's turn starts or ends with this append. Then the
    dispatcher would find nothing and its task is not sent. Anything else, and any doubt, is
    dispatched as before."""
    if state.status != PLAYING:
        return False
    to_act = list(state.to_act)
    before = set(game.to_act or [])
    seats = game.seats.all()
    for seat in seats:
        if seat.controller == Seat.Controller.PERSON and (seat.number in before) != (
            seat.number in to_act
        ):
            # A person's turn starts or ends: always the worker's (the clock the request read
            # may be one an earlier append's dispatch is about to change).
            return False
        if seat.registered_bot_id is not None and not Seat.registered_bot.is_cached(seat):
            return False  # not read with the seat (game_for joins it): never a query here
    return not work_for(rows_of(seats, status=state.status, to_act=to_act))
