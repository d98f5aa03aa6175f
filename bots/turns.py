"""Moving games forward without a keyboard: runs of bot turns, and the safety nets behind them.

`advance_game` plays every consecutive turn of the seats a worker moves in-process (built-in
strategies, and the default bot for forfeited, handed-over, suspended or failed seats): the
driver (bots/driver.py) decides them against a state held in memory, and the whole run is
appended at once, with the version it was read at as the expected version and the system's
command id `advance:<version>`. So two workers advancing the same game write it once: the
second gets a conflict (or the first's result) and stops. The event log is the truth; tasks
are hints (docs/workers.md).

It stops when the next decision belongs to a person or a remote bot, when the match is over, or
after `batch` commands. When nothing is left for the in-process seats and a webhook bot is to
act, it asks that bot (bots/remote/webhook_turns.py) and appends its one decision alone; the
append dispatches the next advance. A pull bot's turn is left to the bot (and, past its
deadline, to the overdue-turn sweep, clocks/overdue.py).

A game with webhook seats is advanced by one run at a time: a run takes the game's lease
(bots/remote/leases.py) before it reads the game, and a run that finds it held stops at once,
leaving it to the holder to advance the game again; the holder renews it just before each
request to a bot and asks nothing once it is gone; so a bot is never asked one decision twice.

Remote bots' out-of-turn chances (bots/remote/windows.py): before a run, the windows the last
append opened for webhook and pull seats are offered, and the run waits for them; a run stops
where a remote seat gets a new chance, so that its window comes before the next command. A game
without remote seats skips all of it.

People's out-of-turn chances get a grace: while a person is at the table (clocks/presence.py
`at_table`: the play page open in front), the run stops where that person gets a new chance (a
jump-in on a card they hold, an uno call they owe or a catch, an open choice they may answer:
the newno open start), and the next advance holds the game for the game's grace
(GameSettings.grace, GAMES_GRACE_SECONDS; the open start, dealt before the person reaches the
page, OPEN_START_GRACE_FACTOR times that) from the append that opened it, recorded in
`Game.grace_until` for the page's countdown; then the bots move as before. A person away holds
nobody up. The grace ends by the advance's countdown (games/tasks.py), the page's poll
(web/play.py) or the end_graces sweep, whichever comes first; each clears it once.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from bots.driver import BotFailed, play
from bots.remote import leases, windows
from bots.remote.webhook_turns import webhook_turn
from bots.strategies import Strategy, find_strategy
from clocks import presence
from clocks.fallback import fallback_strategy
from engine import MATCH_OVER, PLAYING, State, Variant
from engine.commands import CLOSE_WINDOW
from games import commands, reads
from games.actors import SYSTEM, actor_label
from games.errors import Conflict, IllegalMove
from games.game_settings import GameSettings
from games.models import Bot, Game, Seat
from games.repository import Loaded, repository
from games.seats import WORKER_SEATS, Controller, SeatRow, effective, rows_of, worker_to_act


@dataclass(frozen=True, slots=True)
class Advance:
    """What one advance did: the commands it decided and the version the game is now at."""

    game_id: int
    commands: int
    version: int
    # True when another writer moved the game first; nothing was written by this advance.
    conflict: bool = False
    # Why a remote bot got a strike in this advance ("" when none did).
    strike: str = ""
    # Seconds the game holds for a pull bot's out-of-turn window: advance again then, with
    # `windows_over` (games/tasks.py).
    hold: float = 0.0
    # True when another run held the game's lease (bots/remote/leases.py): nothing was done,
    # and that run advances the game again when it is over.
    busy: bool = False
    # True when a run was refused while this one held the lease: advance the game again.
    again: bool = False


def advance_game(
    *, game_id: int, batch: int | None = None, windows_over: int | None = None
) -> Advance:
    """Play the game's consecutive in-process bot turns and append them in one append.

    Safe to run twice, and at once with anyone else writing the game: the append expects the
    version the run was decided at. At most `batch` commands (GAMES_ADVANCE_BATCH) per append;
    the append's listener dispatches the next run. First the remote bots' windows at this
    version are offered, unless `windows_over` is this version (their time is up).

    A game with webhook seats is run under its lease (bots/remote/leases.py), so no two runs
    ask its bots at once: `busy` when another run holds it, `again` when a run was refused
    while this one held it.
    """
    batch = batch or settings.GAMES_ADVANCE_BATCH
    game, seats = game_and_seats(game_id)
    if game.status == MATCH_OVER:
        return Advance(game_id, 0, game.version)
    if not webhook_bots(seats):
        return _advance(game, seats, batch, windows_over)
    lease = leases.acquire(game_id, seconds=leases.run_seconds(game))
    if lease is None:
        return Advance(game_id, 0, game.version, busy=True)
    try:
        # Read again under the lease: a run that held it may have moved the game meanwhile.
        game, seats = game_and_seats(game_id)
        if game.status == MATCH_OVER:
            advance = Advance(game_id, 0, game.version)
        else:
            advance = _advance(game, seats, batch, windows_over, lease)
    except leases.LeaseLost:
        # The lease ran out before a bot was asked (it may be another run's now): nothing asked,
        # a note left; when no run holds the lease, this run's task sends the game again.
        leases.release(lease, failed=True)
        held = leases.note(game_id)
        return Advance(game_id, 0, game.version, busy=True, again=not held)
    except BaseException:
        # The note of a run refused meanwhile stays on the lease, for the reconciler.
        leases.release(lease, failed=True)
        raise
    again = leases.release(lease)
    return replace(advance, again=True) if again else advance


def _advance(
    game: Game,
    seats: list[Seat],
    batch: int,
    windows_over: int | None,
    lease: leases.Lease | None = None,
) -> Advance:
    game_id = game.pk
    strategies = in_process(seats)
    webhooks = webhook_bots(seats)
    pulls = remote_bots(seats, Controller.PULL)
    # A newno open choice a pull bot is eligible for: closed at once if nobody can answer it.
    choice = len(game.to_act or []) > 1 and any(seat in pulls for seat in game.to_act or [])
    if not strategies and not webhooks and not choice:
        return Advance(game_id, 0, game.version)
    loaded = repository.get(game_id, game=game)
    variant, state, version = loaded.variant, loaded.state, loaded.version
    remote = frozenset(webhooks) | frozenset(pulls)
    people = people_at_table(game, seats) if strategies else frozenset()
    hold = 0.0
    # Seats struck at this version with no move appended: not asked again here.
    struck = lease.struck_seats(version) if lease is not None else frozenset()
    if remote and windows_over != version:
        offered = windows.offer(
            game=game, variant=variant, state=state, version=version, webhooks=webhooks,
            pulls=pulls, in_turn=remote_to_act(variant, state, webhooks, struck), lease=lease,
        )  # fmt: skip
        if offered is not None and (offered.commands or offered.conflict or not offered.hold):
            return Advance(
                game_id, offered.commands, offered.version, offered.conflict, offered.strike,
                offered.hold,
            )  # fmt: skip
        hold = offered.hold if offered is not None else 0.0
    if people and windows_over != version:
        hold = max(hold, grace_left(game, variant, state, people))
    if hold > 0:
        start_grace(game_id, version, hold)
        return Advance(game_id, 0, version, hold=hold)
    if windows_over == version and game.grace_until is not None:
        end_grace(game_id, version)
    # Seeded by the game and version, so a repeated run decides the same moves.
    rng = random.Random(f"{game.pk}:{version}")
    try:
        run = play(variant, state, strategies, rng, limit=batch, remote=remote, people=people)
    except BotFailed as error:
        raise BotFailed(f"game {game.pk} v{version}: {error}") from error
    if not run.events:
        seat = remote_to_act(variant, state, webhooks, struck)
        if seat is None:
            return Advance(game_id, 0, version)
        turn = webhook_turn(
            game=game, variant=variant, state=state, version=version, seat=seat,
            bot=webhooks[seat], lease=lease,
        )  # fmt: skip
        return Advance(game_id, turn.commands, turn.version, turn.conflict, turn.strike)
    names = {_strategy_name(seat) for seat in seats if seat.number in run.seats}
    label = "bot:" + "+".join(sorted(names)) if names else actor_label(SYSTEM)
    try:
        appended = commands.append_decided(
            game,
            variant,
            run.state,
            run.events,
            version,
            commands.command_key(SYSTEM, f"advance:{version}"),
            label,
        )
    except Conflict as conflict:
        return Advance(game_id, 0, conflict.current_version, conflict=True)
    if not appended.repeated:
        repository.saved(game, appended.version, variant, run.state, settled=version)
    return Advance(game_id, 0 if appended.repeated else run.commands, appended.version)


def people_at_table(game: Game, seats: Sequence[Seat]) -> frozenset[int]:
    """The seats of the people at the table now (clocks/presence.py `at_table`) who still move
    their own seat (one query, none when no person moves a seat)."""
    users = {seat.user_id: seat.number for seat in seats if _effective(seat) == Controller.PERSON}
    if not users:
        return frozenset()
    return frozenset(users[user] for user in presence.at_table(game.pk) if user in users)


# newno's open start waits this many times the game's grace (docs/workers.md, "People's
# out-of-turn grace"): counted from the deal, so the person must reach the page and read it first.
OPEN_START_GRACE_FACTOR = 3


def grace_left(game: Game, variant: Variant, state: State, people: Collection[int]) -> float:
    """Seconds the bots still wait for `people` at this version: the game's grace from the
    append that opened a chance for one of them (a new uno debt to call or catch, a jump-in
    on a card they hold, an open choice they may answer); 0 when none has one or it is over."""
    choice = any(_may_answer(variant, state, seat) for seat in people)
    if not choice and not windows.new_chances(game, variant, state, people):
        return 0.0
    opened = game.last_activity or game.created_at
    seconds = GameSettings.of(game.context).grace
    if (state.pending or {}).get("type") == "first-play":
        # The open start comes with the deal, while the person who made the table is still on
        # their way to its page (the redirect, the page, a look at the hand): a longer grace.
        seconds *= OPEN_START_GRACE_FACTOR
    end = opened + timedelta(seconds=seconds)
    return max((end - timezone.now()).total_seconds(), 0.0)


def start_grace(game_id: int, version: int, seconds: float) -> None:
    """Record that the game waits `seconds` at `version` (the play page's countdown; ended by
    the advance's countdown, the page's poll or the end_graces sweep)."""
    Game.objects.filter(pk=game_id, version=version).update(
        grace_until=timezone.now() + timedelta(seconds=seconds), grace_version=version
    )


def end_grace(game_id: int, version: int) -> bool:
    """Clear the game's grace at `version` if it is over; True for the one caller that cleared
    it (who then advances the game past the windows of that version)."""
    return bool(
        Game.objects.filter(
            pk=game_id, grace_version=version, grace_until__lte=timezone.now()
        ).update(grace_until=None)
    )


def ended_graces() -> list[tuple[int, int]]:
    """The games whose grace is over, each cleared here, with the version to advance past (a
    stale grace, whose game moved on meanwhile, is cleared and left)."""
    ended = []
    over = Game.objects.filter(grace_until__lte=timezone.now()).values_list(
        "pk", "grace_version", "version"
    )
    for game_id, grace_version, version in over:
        if grace_version is None:
            continue
        if end_grace(game_id, grace_version) and grace_version == version:
            ended.append((game_id, version))
    return ended


def waiting_for(game: Game, seat: int | None, *, loaded: Loaded | None = None) -> datetime | None:
    """When the grace the game holds for `seat` (a person at the table with an out-of-turn
    chance now) ends, or None: for the play page's countdown (which passes the game as it
    `loaded` it)."""
    if seat is None or game.grace_until is None or game.grace_version != game.version:
        return None
    if game.grace_until <= timezone.now() or game.status != PLAYING:
        return None
    if loaded is None or loaded.version != game.version:
        loaded = repository.get(game.pk, game=game)
    variant, state = loaded.variant, loaded.state
    if _may_answer(variant, state, seat) or windows.new_chances(game, variant, state, {seat}):
        return game.grace_until
    return None


def _may_answer(variant: Variant, state: State, seat: int) -> bool:
    """Whether `seat` may answer the open choice the game waits for (the newno open start and
    second play: any of several seats may move): it is one of them and has a move that costs
    nothing (a newno seat may always try a costly catch). A seat with no card it may play is
    listed among them but holds nobody up (docs/rules.md)."""
    return (
        "seats" in (state.pending or {})
        and seat in state.to_act
        and bool(variant.free_commands(state, seat))
    )


def game_and_seats(game_id: int) -> tuple[Game, list[Seat]]:
    """The game and its seats with their registered bots, in one query, as the repository reads
    every game (GameNotFound if there is none)."""
    game = repository.game(game_id)
    return game, list(game.seats.all())


def _effective(seat: Seat) -> str:
    status = seat.registered_bot.status if seat.registered_bot is not None else None
    return effective(seat.controller, status)


def _strategy_name(seat: Seat) -> str:
    return seat.bot if _effective(seat) == Controller.BUILTIN else "fallback"


def in_process(seats: Iterable[Seat]) -> dict[int, Strategy]:
    """The strategy a worker plays in-process for each seat, by seat number: a built-in bot's,
    or the default bot's for a seat played by the fallback."""
    strategies = {}
    for seat in seats:
        controller = _effective(seat)
        if controller == Controller.BUILTIN:
            strategies[seat.number] = find_strategy(seat.bot)
        elif controller == Controller.FALLBACK:
            strategies[seat.number] = fallback_strategy()
    return strategies


def webhook_bots(seats: Iterable[Seat]) -> dict[int, Bot]:
    """The webhook bot of every seat one holds (and the worker still asks), by seat number."""
    return remote_bots(seats, Controller.WEBHOOK)


def remote_bots(seats: Iterable[Seat], controller: str) -> dict[int, Bot]:
    """The registered bot of every seat it moves as `controller` (webhook or pull; not while
    suspended or failed), by seat number."""
    return {
        seat.number: seat.registered_bot
        for seat in seats
        if seat.registered_bot is not None and _effective(seat) == controller
    }


def remote_to_act(
    variant: Variant, state: State, remote: Mapping[int, Bot], struck: Collection[int] = ()
) -> int | None:
    """The seat of `remote` whose decision the game waits for, if any (in an open choice, the
    first eligible one with a card to play: one with only catches that cost cards is not asked),
    leaving out the seats `struck` at this version (leases.Lease)."""
    if state.status != PLAYING or not state.to_act:
        return None
    waiting: Sequence[int] = state.to_act[:1]
    if "seats" in (state.pending or {}):
        waiting = [seat for seat in state.to_act if variant.free_commands(state, seat)]
    return next((seat for seat in waiting if seat in remote and seat not in struck), None)


def seat_rows(game_id: int) -> list[SeatRow]:
    """The game's seats with what the dispatch decides on, in one query (named tuples of
    SEAT_ROW)."""
    return rows_of(reads.seats_of(game_id))


def bot_to_act(game_id: int) -> bool:
    """Whether a seat a worker moves is one the game waits for (one query)."""
    return worker_to_act(seat_rows(game_id))


def stalled_games(*, idle: timedelta) -> list[int]:
    """Games a worker should move that have not moved for `idle`: a lost task, a killed
    worker. The reconciler advances them again."""
    cutoff = timezone.now() - idle
    # The idle games first (the partial index `game_playing`), then their seats by the game's
    # index: a join would scan every seat ever sat, a cost that grows with every game played.
    waiting = dict(
        Game.objects.filter(status=PLAYING, last_activity__lte=cutoff).values_list("pk", "to_act")
    )
    seats = Seat.objects.filter(WORKER_SEATS, game_id__in=list(waiting)).values_list(
        "game_id", "number"
    )
    return sorted({game_id for game_id, number in seats if number in (waiting[game_id] or [])})


def close_open_choices(*, timeout: timedelta) -> list[int]:
    """Send the system `close-window` to every newno open choice that has waited `timeout`
    (docs/rules.md "newno": the Youngest Rule after a timeout). Returns the games closed."""
    cutoff = timezone.now() - timeout
    closed = []
    waiting = Game.objects.filter(status=PLAYING, last_activity__lte=cutoff).values_list(
        "pk", "version", "to_act", "variant"
    )
    for game_id, version, to_act, variant in waiting:
        # Only an open choice waits for several seats to act at once.
        if variant.get("rules") != "newno" or len(to_act or []) < 2:
            continue
        try:
            commands.game_command(
                game_id=game_id,
                actor=SYSTEM,
                command={"type": CLOSE_WINDOW},
                expected_version=version,
                command_id=f"close-window:{version}",
            )
        except (Conflict, IllegalMove):
            # Someone acted meanwhile, or it was no open choice: nothing to close.
            continue
        closed.append(game_id)
    return closed
