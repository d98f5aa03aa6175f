"""Commands: run one command against a game (load → decide → append), and append what the
engine decided (people's commands, bot runs, fallback moves: `append_decided`).

A command is decided against the game as the repository loads it (games/repository.py) and
answered with its events as the acting seat may see them (games/visibility.py), the decisions
the game waits for from the actor now, and the game as the command left it (`loaded`), so that
a page can be drawn without loading the game again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bots.driver import nothing_to_answer, step
from engine import PLAYING, IllegalCommand, State, Variant
from engine.commands import SYSTEM_COMMANDS, parse
from engine.events import SERVICE_FACTS
from games import appends, event_reads, metrics
from games.actors import SYSTEM, Actor, actor_key, actor_label, seats_held
from games.errors import Conflict, Forbidden, GameNotFound, GameOver, IllegalMove, InvalidGame
from games.models import Bot, Game, Seat
from games.repository import Loaded, repository
from games.seats import asks_no_worker
from games.visibility import shown, visibility

Event = dict[str, Any]
Command = dict[str, Any]


@dataclass(frozen=True, slots=True)
class CommandResult:
    game_id: int
    # The game's version right after the command's events.
    version: int
    # The events the command appended, as the acting seat may see them.
    events: list[dict[str, Any]]
    # True when the command id had been run before: nothing was written this time.
    repeated: bool = False
    # What the game waits for from the actor now, right after the command (a draw's decision to
    # play the card or pass, the next turn of a seat the actor also holds): `next_decisions`.
    # Empty for a repeated command, and when the game waits for others.
    next: tuple[dict[str, Any], ...] = ()
    # The game as the command left it (its row and seats as the request read them, with the
    # status, version and seats to act the append wrote), for a page drawn right after it; the
    # acting seat, whose view `events` are. None for a repeated command.
    loaded: Loaded | None = None
    seat: int | None = None


def command_key(actor: Actor, command_id: str | None) -> str | None:
    """The stored id of an actor's command id: each actor has its own namespace, so nobody's id
    can take the one another actor (the system included) will use."""
    return None if command_id is None else f"{actor_key(actor)}/{command_id}"


# uno_commands_total's outcome for each refusal of game_command (docs/operations.md).
# A command on a finished game is `illegal` on whichever version it was decided.
_REFUSALS: dict[type[Exception], str] = {
    Conflict: "conflict", IllegalMove: "illegal", GameOver: "illegal", Forbidden: "forbidden",
    GameNotFound: "not-found", InvalidGame: "invalid",
}  # fmt: skip


@metrics.counted_commands(lambda error: _REFUSALS.get(type(error), "error"))
def game_command(
    *,
    game_id: int,
    actor: Actor,
    command: Command,
    expected_version: int,
    command_id: str | None = None,
    game: Game | None = None,
) -> CommandResult:
    """Run one command from `actor` against the game at `expected_version`.

    Raises GameNotFound, Forbidden (a seat the actor does not hold, a system command from anyone
    but the system), IllegalMove (a command of the wrong shape, or the engine's reason),
    GameOver (the match is over and the command was decided on an older version) or Conflict
    (the game is at another version); nothing is written then. A command id the
    actor already sent returns its first result. Seat facts appended since the expected
    version (a vacation, a resignation) change no card: the command is decided after them.
    `game` is game_id's row as the repository read it, when the caller has it already (read
    once).
    """
    if game is None or game.pk != game_id:
        game = repository.game(game_id)
    seat = _acting_seat(game, actor, command)
    key = command_key(actor, command_id)
    if key is not None:
        original = appends.recorded(game_id=game.pk, command_id=key)
        if original is not None:
            return _repeated(game, original, seat)
    if actor is not SYSTEM:
        # After the repeat: a command accepted before its seat was handed over keeps its result.
        _check_controller(game, seat)
    if game.version != expected_version:
        if game.status == Game.Status.MATCH_OVER:
            # Over is the answer, whatever version the command was decided on: no new read of
            # the game would let it through.
            raise GameOver(
                game_id=game.pk, expected_version=expected_version, current_version=game.version
            )
        expected_version = _past_seat_facts(game, expected_version)
    # Up to the expected version only: a move that commits meanwhile must come back as a
    # conflict from the append, not as a decision against a state the actor never saw.
    loaded = repository.get(game.pk, until=expected_version, game=game)
    variant = loaded.variant
    try:
        events, state = step(variant, loaded.state, command)
    except IllegalCommand as error:
        raise IllegalMove.from_engine(error) from error
    appended = append_decided(
        game,
        variant,
        state,
        events,
        expected_version,
        key,
        actor_label(actor),
        quiet=asks_no_worker(game, state),
    )
    if appended.repeated:
        # The same command id won a race with this one: its result stands, ours was not written.
        return _repeated(game, appended, seat)
    # The row as the append left it (the seats' clocks are the dispatcher's to change).
    game.status, game.version, game.to_act = state.status, appended.version, list(state.to_act)
    # Decided from the state at expected_version, whose load kept the snapshots up to it.
    repository.saved(game, appended.version, variant, state, settled=expected_version)
    return CommandResult(
        game_id=game.pk,
        version=appended.version,
        events=shown(game, variant, events, appended.first_version, seat),
        next=next_decisions(game, actor, variant, state, appended.version),
        loaded=Loaded(game, variant, state, appended.version),
        seat=seat,
    )


def next_decisions(
    game: Game, actor: Actor, variant: Variant, state: State, version: int
) -> tuple[dict[str, Any], ...]:
    """The decisions the game waits for from `actor`'s seats in `state` (the game at
    `version`), as game_view shows each seat: `{"game", "seat", "version", "view", "legal"}`,
    in seat order. A seat handed over to the default bot is not the actor's to move."""
    if actor is SYSTEM or state.status != PLAYING:
        return ()
    decisions = []
    for seat in game.seats.all():
        if seat.number not in state.to_act or seat.controller == Seat.Controller.FALLBACK:
            continue
        if seat.number not in seats_held(actor, [seat]):
            continue
        view = variant.view(state, seat.number)
        view["version"] = version
        view["legal"] = legal = variant.legal_commands(state, seat.number)
        if isinstance(actor, Bot) and nothing_to_answer(view, legal):
            continue  # a newno open choice the bot has no card for: it is not asked
        decisions.append(
            {"game": game.pk, "seat": seat.number, "version": version, "view": view, "legal": legal}
        )
    return tuple(decisions)


def _past_seat_facts(game: Game, expected_version: int) -> int:
    """The game's version, when only seat facts (or a league's ruling) were appended since
    `expected_version` (the state the actor decided on is the same); else Conflict."""
    if expected_version < game.version:
        since = event_reads.load(game.pk, after=expected_version, until=game.version)
        if since and all(event["type"] in SERVICE_FACTS for event in since):
            return game.version
    raise Conflict(expected_version=expected_version, current_version=game.version)


def _repeated(game: Game, original: appends.AppendResult, seat: int | None) -> CommandResult:
    events = event_reads.load(
        game.pk, after=original.first_version - 1, until=original.last_version
    )
    return CommandResult(
        game_id=game.pk,
        version=original.version,
        events=shown(game, repository.variant(game), events, original.first_version, seat),
        repeated=True,
    )


def _acting_seat(game: Game, actor: Actor, command: Any) -> int | None:
    """The seat the command acts for, once the actor is known to hold it (None: the system).
    The command's shape is checked first, so nothing below reads a malformed one."""
    held = [] if actor is SYSTEM else seats_held(actor, game.seats.all())
    if actor is not SYSTEM and not held:
        raise Forbidden(f"you hold no seat in game {game.pk}", code="not-seated")
    try:
        command = parse(command, game.seat_count)
    except IllegalCommand as error:
        raise IllegalMove.from_engine(error) from error
    seat = command.get("seat")
    if actor is SYSTEM:
        return seat if isinstance(seat, int) else None
    if command["type"] in SYSTEM_COMMANDS:
        raise Forbidden(f"{command['type']} is sent by the system only", code="system-command")
    if seat not in held:
        raise Forbidden(f"seat {seat} is not yours", code="not-your-seat")
    return int(seat)


def _check_controller(game: Game, seat: int | None) -> None:
    """Forbidden `seat-handed-over` when the seat was forfeited or handed over
    (games/seat_facts.py): the default bot plays it now."""
    if seat is None:
        return
    if next(s for s in game.seats.all() if s.number == seat).controller == Seat.Controller.FALLBACK:
        raise Forbidden(f"seat {seat} is played by the default bot now", code="seat-handed-over")


def append_decided(
    game: Game,
    variant: Variant,
    state: State,
    events: list[Event],
    expected_version: int,
    key: str | None,
    label: str,
    *,
    quiet: bool = False,
) -> appends.AppendResult:
    """Append events the engine decided, with their visibilities and the state's read fields:
    the one way decisions reach the log (people's commands, bot runs, fallback moves). `key` is
    the stored command id (command_key), `label` the actor as the log names it, `quiet` the
    store's (seats.asks_no_worker)."""
    return appends.append(
        game_id=game.pk,
        events=events,
        expected_version=expected_version,
        command_id=key,
        actor=label,
        visibilities=[visibility(variant, event) for event in events],
        game_fields={
            "status": state.status,
            "hand_number": state.hand_number,
            "to_act": list(state.to_act),
        },
        quiet=quiet,
    )
