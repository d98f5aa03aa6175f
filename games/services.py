"""Game services: create a game, run a command (load → decide → append), show a game to a viewer.

Every event and view that reaches a person or a bot leaves through `_shown` or the engine's
`view`, which hide what the viewer may not see; nothing here hands out the raw log, except when
the match is over and the game's reveal setting makes the whole log public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games import store
from games.bots import find_strategy
from games.engine import HAND_OVER, MATCH_OVER, IllegalCommand, State, Variant
from games.engine.commands import NEXT_HAND, SYSTEM_COMMANDS

from .actors import SYSTEM, Actor, actor_label, seats_held
from .errors import Conflict, Forbidden, GameNotFound, IllegalMove, InvalidGame
from .models import Bot, Game, GameEvent, Seat

Event = dict[str, Any]
Command = dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in one seat: a user, a built-in bot (by strategy name) or a registered Bot;
    `age` for newno."""

    user: Any = None
    bot: str = ""
    age: int | None = None
    registered: Bot | None = None


@dataclass(frozen=True, slots=True)
class CommandResult:
    game_id: int
    # The game's version right after the command's events.
    version: int
    # The events the command appended, as the acting seat may see them.
    events: list[dict[str, Any]]
    # True when the command id had been run before: nothing was written this time.
    repeated: bool = False


def game_create(
    *,
    variant_spec: Mapping[str, Any],
    seats: Sequence[SeatSpec],
    seed: int | str | None = None,
    deck: list[str] | None = None,
    dealer: int | None = None,
    first: int | None = None,
    context: Mapping[str, Any] | None = None,
    reveal: str = Game.Reveal.AFTER_MATCH,
    actor: Actor = SYSTEM,
) -> Game:
    """Create a game and deal its first hand (a random deal from `seed`, or a stacked `deck`)."""
    try:
        variant = Variant.from_spec(variant_spec)
    except ValueError as error:
        raise InvalidGame(str(error), code="invalid-variant") from error
    if reveal not in Game.Reveal.values:
        raise InvalidGame(f"reveal must be one of {', '.join(Game.Reveal.values)}")
    for number, spec in enumerate(seats):
        _check_seat(number, spec)
    ages = [spec.age for spec in seats if spec.age is not None] or None
    if ages is not None and len(ages) != len(seats):
        raise InvalidGame("give every seat an age, or none", code="invalid-seat")
    try:
        events = variant.start(
            len(seats), seed=seed, deck=deck, dealer=dealer, first=first, ages=ages
        )
    except ValueError as error:
        raise InvalidGame(str(error)) from error
    state = variant.replay(events)
    with transaction.atomic():
        game = Game.objects.create(
            variant=variant.spec,
            seat_count=len(seats),
            context=dict(context or {}),
            reveal=reveal,
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=number,
                user=spec.user,
                bot=_strategy(spec),
                registered_bot=spec.registered,
                age=spec.age,
            )
            for number, spec in enumerate(seats)
        )
        append_decided(game, variant, state, events, 0, None, actor)
    game.refresh_from_db()
    return game


def _strategy(spec: SeatSpec) -> str:
    # A registered built-in bot plays its strategy in-process, like a plain built-in seat.
    if spec.registered is not None and spec.registered.kind == Bot.Kind.BUILTIN:
        return spec.registered.strategy
    return spec.bot


def _check_seat(number: int, spec: SeatSpec) -> None:
    if [spec.user is not None, bool(spec.bot), spec.registered is not None].count(True) != 1:
        raise InvalidGame(f"seat {number} needs a user or a bot (one of them)", code="invalid-seat")
    if spec.registered is not None and spec.registered.status == Bot.Status.FAILED:
        raise InvalidGame(f"bot {spec.registered.name} failed its validation", code="bot-failed")
    if spec.registered is not None and spec.registered.kind == Bot.Kind.BUILTIN:
        spec = SeatSpec(bot=spec.registered.strategy)
    if spec.bot:
        try:
            find_strategy(spec.bot)
        except ValueError as error:
            raise InvalidGame(str(error), code="unknown-bot") from error


def game_command(
    *,
    game_id: int,
    actor: Actor,
    command: Command,
    expected_version: int,
    command_id: str | None = None,
) -> CommandResult:
    """Run one command from `actor` against the game at `expected_version`.

    Raises GameNotFound, Forbidden (a seat the actor does not hold, a system command from anyone
    but the system), Conflict (the game is at another version) or IllegalMove (the engine's
    reason); nothing is written then. A command id that already ran returns its first result.
    When the command ends a hand and the match goes on, the next hand starts in the same append.
    """
    game = _get_game(game_id)
    seat = _acting_seat(game, actor, command)
    if command_id is not None:
        original = store.recorded(game_id=game.pk, command_id=command_id)
        if original is not None:
            return _repeated(game, original, seat)
    if game.version != expected_version:
        raise Conflict(expected_version=expected_version, current_version=game.version)
    variant = _variant(game)
    # Up to the expected version only: a move that commits meanwhile must come back as a
    # conflict from the append, not as a decision against a state the actor never saw.
    state = variant.replay(store.load(game.pk, until=expected_version))
    try:
        events = variant.decide(state, command)
    except IllegalCommand as error:
        raise IllegalMove.from_engine(error) from error
    state = variant.replay(events, state)
    if state.status == HAND_OVER:
        more = variant.decide(state, {"type": NEXT_HAND})
        state = variant.replay(more, state)
        events += more
    appended = append_decided(game, variant, state, events, expected_version, command_id, actor)
    if appended.repeated:
        # The same command id won a race with this one: its result stands, ours was not written.
        return _repeated(game, appended, seat)
    game.status = state.status
    return CommandResult(
        game_id=game.pk,
        version=appended.version,
        events=_shown(game, variant, events, appended.first_version, seat),
    )


def game_resign(*, game_id: int, actor: Actor) -> list[int]:
    """The actor (a person) resigns every seat it holds in a playing game: the default bot plays
    them from now on and they are placed last at the match end (games/deadlines.py). Returns the
    seats; resigning again changes nothing."""
    from games import deadlines

    if not getattr(actor, "is_authenticated", False) or isinstance(actor, Bot):
        raise Forbidden("only a person resigns a seat", code="not-a-person")
    with transaction.atomic():
        # Locked against the append that would end the match meanwhile.
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise GameNotFound(game_id)
        if game.status == MATCH_OVER:
            raise InvalidGame(f"game {game_id} is over", code="match-over")
        held = seats_held(actor, game.seats.all())
        if not held:
            raise Forbidden(f"you hold no seat in game {game_id}", code="not-seated")
        Seat.objects.filter(game=game, number__in=held).update(
            resigned=True, auto_played=True, forfeited=True, deadline_at=None
        )
        deadlines.hand_to_worker(game.pk)
    return held


def _repeated(game: Game, original: store.AppendResult, seat: int | None) -> CommandResult:
    events = store.load(game.pk, after=original.first_version - 1, until=original.last_version)
    return CommandResult(
        game_id=game.pk,
        version=original.version,
        events=_shown(game, _variant(game), events, original.first_version, seat),
        repeated=True,
    )


def _acting_seat(game: Game, actor: Actor, command: Any) -> int | None:
    """The seat the command acts for, once the actor is known to hold it (None: the system)."""
    seat = command.get("seat") if isinstance(command, dict) else None
    if actor is SYSTEM:
        return seat if isinstance(seat, int) else None
    kind = command.get("type") if isinstance(command, dict) else None
    if kind in SYSTEM_COMMANDS:
        raise Forbidden(f"{kind} is sent by the system only", code="system-command")
    held = seats_held(actor, game.seats.all())
    if not held:
        raise Forbidden(f"you hold no seat in game {game.pk}", code="not-seated")
    if isinstance(seat, int) and seat not in held:
        raise Forbidden(f"seat {seat} is not yours", code="not-your-seat")
    # A missing or malformed seat is the engine's to refuse, with its reason.
    return seat if seat in held else None


def append_decided(
    game: Game,
    variant: Variant,
    state: State,
    events: list[Event],
    expected_version: int,
    command_id: str | None,
    actor: Actor | str,
) -> store.AppendResult:
    """Append events the engine decided, with their visibilities and the state's read fields.

    `actor` is an Actor or an already made label (games/turns.py labels a run of bot turns).
    """
    return store.append(
        game_id=game.pk,
        events=events,
        expected_version=expected_version,
        command_id=command_id,
        actor=actor if isinstance(actor, str) else actor_label(actor),
        visibilities=[_visibility(variant, event) for event in events],
        game_fields={
            "status": state.status,
            "hand_number": state.hand_number,
            "to_act": list(state.to_act),
        },
    )


def _visibility(variant: Variant, event: Event) -> str:
    # A spectator sees the least; if even a spectator sees the whole event, everyone does.
    if variant.view_event(event, None) == event:
        return GameEvent.Visibility.PUBLIC
    return GameEvent.Visibility.PRIVATE


def game_view(*, game_id: int, viewer: Actor, seat: int | None = None) -> dict[str, Any]:
    """The game as `viewer` may see it: from `seat`, else the viewer's first seat, else as a
    spectator. Adds `version` (to send as the expected version) and `legal` (the commands the
    seat may send now); once the match is over and revealed, every hand and lane.
    """
    game = _get_game(game_id)
    seat = _viewing_seat(game, viewer, seat)
    variant = _variant(game)
    events = store.load(game.pk)
    state = variant.replay(events)
    view = variant.view(state, seat)
    view["version"] = len(events)
    view["legal"] = variant.legal_commands(state, seat) if seat is not None else []
    if _revealed(game, state.status):
        view["hands"] = [list(hand) for hand in state.hands]
        view["lane"] = [list(lane) for lane in state.lanes]
    return view


def game_events(
    *, game_id: int, viewer: Actor, after: int = 0, seat: int | None = None
) -> list[dict[str, Any]]:
    """The game's events after version `after` as `viewer` may see them (seat as in game_view):
    `[{"version": 1, "event": {...}}, ...]`. The whole log once the match is over and revealed.
    """
    game = _get_game(game_id)
    seat = _viewing_seat(game, viewer, seat)
    return _shown(game, _variant(game), store.load(game.pk, after=after), after + 1, seat)


def _viewing_seat(game: Game, viewer: Actor, seat: int | None) -> int | None:
    held = seats_held(viewer, game.seats.all())
    if seat is None:
        return held[0] if held else None
    if seat in held or (viewer is SYSTEM and seat in range(game.seat_count)):
        return seat
    raise Forbidden(f"seat {seat} is not yours", code="not-your-seat")


def _shown(
    game: Game, variant: Variant, events: list[Event], first_version: int, seat: int | None
) -> list[dict[str, Any]]:
    # Read before the events were loaded, `game.status` can only lag: a log that just ended is
    # shown redacted once more, never the other way round.
    revealed = _revealed(game, game.status)
    return [
        {"version": version, "event": event if revealed else variant.view_event(event, seat)}
        for version, event in enumerate(events, start=first_version)
    ]


def _revealed(game: Game, status: str) -> bool:
    return status == MATCH_OVER and game.reveal == Game.Reveal.AFTER_MATCH


def _get_game(game_id: int) -> Game:
    try:
        return Game.objects.prefetch_related("seats").get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise GameNotFound(game_id) from None


def _variant(game: Game) -> Variant:
    return Variant.from_spec(game.variant)
