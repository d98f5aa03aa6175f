"""Moving games forward without a keyboard: runs of bot turns, and the safety nets behind them.

`advance_game` plays every consecutive turn of the game's built-in bots: the bots decide
in-process against a state held in memory, and the whole run is appended at once, with the
version it was read at as the expected version and a command id made from that version. So two
workers advancing the same game write it once: the second gets a conflict (or the first's
result) and stops. The event log is the truth; tasks are hints (docs/workers.md).

The driver gives chances the way games/simulation.py does: out-of-turn calls and catches while
someone owes a call (the owing seat first), newno jump-ins while a window is open, an open
choice to its seats in a random order and, when only bots are eligible and none acts, the
system `close-window` at once. It stops when the next decision belongs to a person or a remote
bot, when the match is over, or after `batch` commands.

When nothing is left for the built-in bots and a webhook bot is to act, `advance_game` asks it
(games/remote_bots.py) and appends its one decision alone; the append dispatches the next
advance. A pull bot's turn is left to the bot (and, past the deadline, to `expire_pull_turns`).
A suspended or failed registered bot, and a person's seat that is `auto_played` (resigned, or
timed out too often: games/deadlines.py), are played by the fallback strategy, in-process, like a
built-in seat.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q
from django.utils import timezone

from games import remote_bots, services, store
from games.bots import Strategy, find_strategy
from games.engine import HAND_OVER, MATCH_OVER, PLAYING, IllegalCommand, State, Variant
from games.engine.commands import NEXT_HAND

from .actors import SYSTEM
from .errors import Conflict, IllegalMove
from .models import Bot, Game, Seat

log = logging.getLogger(__name__)

Command = dict[str, Any]

CLOSE_WINDOW = "close-window"


class BotFailed(RuntimeError):
    """A built-in bot gave no command, or an illegal one, in its own turn: a bug in the bot."""

    code = "bot-failed"


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


def advance_game(*, game_id: int, batch: int | None = None) -> Advance:
    """Play the game's consecutive built-in bot turns and append them in one append.

    Safe to run twice, and at once with anyone else writing the game: the append expects the
    version the run was decided at. At most `batch` commands (GAMES_ADVANCE_BATCH) per append;
    the append's listener dispatches the next run.
    """
    batch = batch or settings.GAMES_ADVANCE_BATCH
    seats_with_bots = Prefetch("seats", Seat.objects.select_related("registered_bot"))
    game = Game.objects.prefetch_related(seats_with_bots).get(pk=game_id)
    if game.status == MATCH_OVER:
        return Advance(game_id, 0, game.version)
    bots = builtin_bots(game.seats.all())
    webhooks = webhook_bots(game.seats.all())
    if not bots and not webhooks:
        return Advance(game_id, 0, game.version)
    variant = Variant.from_spec(game.variant)
    log_so_far = store.load(game.pk)
    version = len(log_so_far)
    state = variant.replay(log_so_far)
    # Seeded by the game and version, so a repeated run decides the same moves.
    rng = random.Random(f"{game.pk}:{version}")
    events: list[dict[str, Any]] = []
    acted: set[str] = set()
    commands = 0
    while commands < batch and state.status != MATCH_OVER:
        command = next_command(variant, state, bots, rng)
        if command is None:
            break
        try:
            decided = variant.decide(state, command)
        except IllegalCommand as error:
            raise BotFailed(f"game {game.pk} v{version}: {command} was refused: {error}") from error
        state = variant.replay(decided, state)
        events += decided
        commands += 1
        if "seat" in command:
            seat = next(s for s in game.seats.all() if s.number == command["seat"])
            acted.add(seat.bot or "fallback")
        if state.status == HAND_OVER:
            # The next hand starts in the same append, as game_command does.
            more = variant.decide(state, {"type": NEXT_HAND})
            state = variant.replay(more, state)
            events += more
    if not events:
        seat = remote_to_act(state, webhooks)
        if seat is None:
            return Advance(game_id, 0, version)
        turn = remote_bots.webhook_turn(
            game=game, variant=variant, state=state, version=version, seat=seat, bot=webhooks[seat]
        )
        return Advance(game_id, turn.commands, turn.version, turn.conflict, turn.strike)
    label = "bot:" + "+".join(sorted(acted)) if acted else "system"
    try:
        appended = services.append_decided(
            game, variant, state, events, version, f"advance:{version}", label
        )
    except Conflict as conflict:
        return Advance(game_id, 0, conflict.current_version, conflict=True)
    return Advance(game_id, 0 if appended.repeated else commands, appended.version)


def builtin_bots(seats: Iterable[Seat]) -> dict[int, Strategy]:
    """The strategy the worker plays in-process for each seat, by seat number: a built-in bot's,
    or the fallback's for a suspended or failed registered bot or an auto-played seat."""
    strategies = {}
    for seat in seats:
        if seat.bot:
            strategies[seat.number] = find_strategy(seat.bot)
        elif seat.auto_played or (
            seat.registered_bot_id and seat.registered_bot.status in remote_bots.REPLACED
        ):
            strategies[seat.number] = find_strategy(settings.BOTS_FALLBACK_STRATEGY)
    return strategies


def webhook_bots(seats: Iterable[Seat]) -> dict[int, Bot]:
    """The webhook bot of every seat one holds (and the worker still asks), by seat number."""
    return {
        seat.number: seat.registered_bot
        for seat in seats
        if seat.registered_bot_id
        and not seat.bot
        and not seat.auto_played
        and seat.registered_bot.kind == Bot.Kind.WEBHOOK
        and seat.registered_bot.status not in remote_bots.REPLACED
    }


def remote_to_act(state: State, remote: Mapping[int, Bot]) -> int | None:
    """The seat of `remote` whose decision the game waits for, if any (in an open choice, the
    first eligible one)."""
    if state.status != PLAYING or not state.to_act:
        return None
    waiting = state.to_act if "seats" in (state.pending or {}) else state.to_act[:1]
    return next((seat for seat in waiting if seat in remote), None)


def next_command(
    variant: Variant, state: State, bots: Mapping[int, Strategy], rng: random.Random
) -> Command | None:
    """The next command the bots in `bots` (or the system for them) send, or None when the next
    decision is someone else's."""
    if state.status == HAND_OVER:
        return {"type": NEXT_HAND}
    if state.status != PLAYING or not state.to_act:
        return None
    command = _out_of_turn(variant, state, bots, rng)
    if command is not None:
        return command
    if "seats" in (state.pending or {}):
        # An open choice: whoever wants to act first; when only bots may and none does, the
        # Youngest Rule at once (RULES.md); with a person eligible, after the timeout
        # (close_open_choices).
        eligible = list(state.to_act)
        for seat in rng.sample(eligible, len(eligible)):
            if seat in bots and (command := _ask(variant, state, seat, bots[seat], rng)):
                return command
        if all(seat in bots for seat in eligible):
            return {"type": CLOSE_WINDOW}
        return None
    seat = state.to_act[0]
    if seat not in bots:
        return None
    command = _ask(variant, state, seat, bots[seat], rng)
    if command is None:
        raise BotFailed(f"the bot in seat {seat} returned no command in its turn")
    return command


def _out_of_turn(
    variant: Variant, state: State, bots: Mapping[int, Strategy], rng: random.Random
) -> Command | None:
    if state.uncalled:
        owing = sorted(state.uncalled)
        for seat in owing + [s for s in range(state.seats) if s not in state.uncalled]:
            if seat in bots and (seat in owing or seat not in state.to_act):
                if command := _ask(variant, state, seat, bots[seat], rng):
                    return command
    window = (state.pending or {}).get("jump")
    if window is not None:
        holders = [
            s
            for s in range(state.seats)
            if s in bots
            and s not in state.to_act
            and s != window["by"]
            and window["card"] in state.hands[s]
        ]
        for seat in rng.sample(holders, len(holders)):
            if command := _ask(variant, state, seat, bots[seat], rng):
                return command
    return None


def _ask(
    variant: Variant, state: State, seat: int, bot: Strategy, rng: random.Random
) -> Command | None:
    legal = variant.legal_commands(state, seat)
    if not legal:
        return None
    return bot(variant.view(state, seat), legal, rng)


# The seats a worker moves: built-in bots, webhook bots, and suspended or failed registered bots and
# auto-played seats (played by the fallback). Pull bots move themselves.
WORKER_SEATS = (
    ~Q(bot="")
    | Q(auto_played=True)
    | Q(registered_bot__kind=Bot.Kind.WEBHOOK)
    | Q(registered_bot__status__in=remote_bots.REPLACED)
)


SEAT_ROW = (
    "number",
    "user_id",
    "bot",
    "auto_played",
    "deadline_at",
    "registered_bot__kind",
    "registered_bot__status",
    "game__status",
    "game__to_act",
    "game__context",
)


def seat_rows(game_id: int) -> list[Any]:
    """The game's seats with what the dispatch decides on, in one query (named tuples of
    SEAT_ROW). The append listener reads these once for both the bots and the turn clocks."""
    return list(Seat.objects.filter(game_id=game_id).order_by().values_list(*SEAT_ROW, named=True))


def worker_moves(row: Any) -> bool:
    """Whether a worker moves this seat (WORKER_SEATS, for a row of seat_rows)."""
    return bool(
        row.bot
        or row.auto_played
        or row.registered_bot__kind == Bot.Kind.WEBHOOK
        or row.registered_bot__status in remote_bots.REPLACED
    )


def worker_to_act(rows: Iterable[Any]) -> bool:
    """Whether the game waits for a seat a worker moves. Validation games played in-process
    (`inline`) are driven by bot_validate itself."""
    return any(
        row.game__status == PLAYING
        and row.number in (row.game__to_act or [])
        and not (row.game__context or {}).get("inline")
        and worker_moves(row)
        for row in rows
    )


def bot_to_act(game_id: int) -> bool:
    """Whether a seat the worker moves is one the game waits for (one query)."""
    return worker_to_act(seat_rows(game_id))


def stalled_games(*, idle: timedelta) -> list[int]:
    """Games a worker should move that have not moved for `idle`: a lost task, a killed
    worker. The reconciler advances them again."""
    cutoff = timezone.now() - idle
    candidates = (
        Seat.objects.filter(WORKER_SEATS, game__status=PLAYING, game__last_activity__lte=cutoff)
        .values_list("game_id", "number", "game__to_act")
        .order_by("game_id")
    )
    return sorted({game_id for game_id, number, to_act in candidates if number in (to_act or [])})


def close_open_choices(*, timeout: timedelta) -> list[int]:
    """Send the system `close-window` to every newno open choice that has waited `timeout`
    (RULES.md: the Youngest Rule after a timeout). Returns the games closed."""
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
            services.game_command(
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
