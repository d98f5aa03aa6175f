"""Game services: create a game, run a command (load → decide → append), show a game to a viewer.

Every event and view that reaches a person or a bot leaves through `_shown` or the engine's
`view`, which hide what the viewer may not see; nothing here hands out the raw log, except when
the match is over and the game's reveal setting makes the whole log public.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings as site_settings
from django.db import transaction

from bots.driver import step
from bots.strategies import find_strategy
from engine import MATCH_OVER, PLAYING, IllegalCommand, RulesVersionMismatch, State, Variant
from engine.commands import SYSTEM_COMMANDS, parse
from engine.events import (
    CARD_FLIPPED,
    CARD_PLAYED,
    COLOR_CHOSEN,
    DIRECTION_CHANGED,
    GAME_ABORTED,
    HAND_ENDED,
    HANDS_ROTATED,
    HANDS_SWAPPED,
    MATCH_ENDED,
    SERVICE_FACTS,
    UNO_CALLED,
    UNO_CAUGHT,
    UNO_EXPIRED,
    UNO_OWED,
)
from games import metrics, snapshots, store
from games import recent as _recent
from games.actors import SYSTEM, Actor, Viewer, actor_key, actor_label, seats_held
from games.errors import Conflict, Forbidden, GameNotFound, IllegalMove, InvalidGame
from games.game_settings import GameSettings
from games.models import Bot, Game, GameEvent, Seat
from games.reads import game_for
from games.seats import (
    SeatRow,
    clocks_to_change,
    controller_for,
    webhook_out_of_turn,
    worker_to_act,
)

Event = dict[str, Any]
Command = dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in one seat: a user, a built-in bot (by strategy name) or a registered Bot;
    `age` for newno."""

    user: Any = None  # a Person
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
    # What the game waits for from the actor now, right after the command (a draw's decision to
    # play the card or pass, the next turn of a seat the actor also holds): `next_decisions`.
    # Empty for a repeated command, and when the game waits for others.
    next: tuple[dict[str, Any], ...] = ()


def game_create(
    *,
    variant_spec: Mapping[str, Any],
    seats: Sequence[SeatSpec],
    seed: int | str | None = None,
    deck: list[str] | None = None,
    dealer: int | None = None,
    first: int | None = None,
    settings: GameSettings | None = None,
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
            context=(settings or GameSettings()).as_context(),
            reveal=reveal,
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=number,
                user=spec.user,
                bot=_strategy(spec),
                registered_bot=spec.registered,
                controller=controller_for(user=spec.user, bot=spec.bot, registered=spec.registered),
                age=spec.age,
            )
            for number, spec in enumerate(seats)
        )
        append_decided(game, variant, state, events, 0, None, actor_label(actor))
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
    if strategy := _strategy(spec):
        try:
            find_strategy(strategy)
        except ValueError as error:
            raise InvalidGame(str(error), code="unknown-bot") from error


def command_key(actor: Actor, command_id: str | None) -> str | None:
    """The stored id of an actor's command id: each actor has its own namespace, so nobody's id
    can take the one another actor (the system included) will use."""
    return None if command_id is None else f"{actor_key(actor)}/{command_id}"


# uno_commands_total's outcome for each refusal of game_command (docs/operations.md).
_REFUSALS: dict[type[Exception], str] = {
    Conflict: "conflict", IllegalMove: "illegal", Forbidden: "forbidden",
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
    but the system), IllegalMove (a command of the wrong shape, or the engine's reason) or
    Conflict (the game is at another version); nothing is written then. A command id the
    actor already sent returns its first result. Seat facts appended since the expected
    version (a vacation, a resignation) change no card: the command is decided after them.
    `game` is game_id's row as `game_for` read it, when the caller has it already (read once).
    """
    if game is None or game.pk != game_id:
        game = _get_game(game_id)
    seat = _acting_seat(game, actor, command)
    key = command_key(actor, command_id)
    if key is not None:
        original = store.recorded(game_id=game.pk, command_id=key)
        if original is not None:
            return _repeated(game, original, seat)
    if actor is not SYSTEM:
        # After the repeat: a command accepted before its seat was handed over keeps its result.
        _check_controller(game, seat)
    if game.version != expected_version:
        expected_version = _past_seat_facts(game, expected_version)
    # Up to the expected version only: a move that commits meanwhile must come back as a
    # conflict from the append, not as a decision against a state the actor never saw.
    variant, state, _ = load_state(game, until=expected_version)
    try:
        events, state = step(variant, state, command)
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
    game.status = state.status
    # Decided from the state at expected_version, whose load kept the snapshots up to it.
    _recent.keep(game, appended.version, variant, state, settled=expected_version)
    return CommandResult(
        game_id=game.pk,
        version=appended.version,
        events=_shown(game, variant, events, appended.first_version, seat),
        next=next_decisions(game, actor, variant, state, appended.version),
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
        decisions.append(
            {"game": game.pk, "seat": seat.number, "version": version, "view": view, "legal": legal}
        )
    return tuple(decisions)


def _past_seat_facts(game: Game, expected_version: int) -> int:
    """The game's version, when only seat facts (or a league's ruling) were appended since
    `expected_version` (the state the actor decided on is the same); else Conflict."""
    if expected_version < game.version:
        since = store.load(game.pk, after=expected_version, until=game.version)
        if since and all(event["type"] in SERVICE_FACTS for event in since):
            return game.version
    raise Conflict(expected_version=expected_version, current_version=game.version)


def load_state(game: Game, *, until: int | None = None) -> tuple[Variant, State, int]:
    """The game's variant, from its stream's first event, its state at `until` (default: the
    end of the log) and the version of that state.

    From the newest snapshot at or below `until` and the events after it (games/snapshots.py),
    else from the whole log. A fold that passes a multiple of `snapshots.EVERY` keeps the state
    there as a new snapshot, so a load folds fewer than EVERY events more than the ones since
    the last load, however long the match. First of all, from this process's own newest state
    of the game (games/recent.py), when it is at or below `until` and no snapshot is due since.
    """
    bound = game.version if until is None else until
    recent = _recent.get(game, bound)
    if recent is not None and snapshots.due(recent.settled, bound) is None:
        # This process's own newest state of the game, and no snapshot to keep since it.
        if recent.version == bound:
            return recent.variant, recent.state, bound
        since = store.load(game.pk, after=recent.version, until=until)
        folded = recent.variant.replay(since, recent.state)
        at = recent.version + len(since)
        _recent.keep(game, at, recent.variant, folded, settled=bound)
        return recent.variant, folded, at
    # Snapshots sit at multiples of EVERY: a shorter log has none to look up.
    found = snapshots.newest(game.pk, until=until) if bound >= snapshots.EVERY else None
    if found is None:
        events = store.load(game.pk, until=until)
        variant = stream_variant(game, events)
        base, started, state = 0, events[0], None
    else:
        events = store.load(game.pk, after=found.version, until=until)
        variant = stream_variant(game, [found.started])
        base, started, state = found.version, found.started, found.state
    version = base + len(events)
    mark = snapshots.due(base, version)
    if mark is not None:
        kept = variant.replay(events[: mark - base], state)
        snapshots.keep(game.pk, mark, started, kept)
        events, state = events[mark - base :], kept
    if state is None or events:
        state = variant.replay(events, state)
    _recent.keep(game, version, variant, state, settled=version)
    return variant, state, version


def stream_variant(game: Game, events: Sequence[Event]) -> Variant:
    """The variant the game's stream was recorded under (its first event says); InvalidGame
    `rules-version` for a stream of rules this engine does not play, never a silent re-read."""
    try:
        return Variant.from_stream(events[0], game.variant)
    except RulesVersionMismatch as error:
        raise InvalidGame(f"game {game.pk}: {error}", code="rules-version") from error


def _repeated(game: Game, original: store.AppendResult, seat: int | None) -> CommandResult:
    events = store.load(game.pk, after=original.first_version - 1, until=original.last_version)
    return CommandResult(
        game_id=game.pk,
        version=original.version,
        events=_shown(game, _first_variant(game), events, original.first_version, seat),
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
) -> store.AppendResult:
    """Append events the engine decided, with their visibilities and the state's read fields:
    the one way decisions reach the log (people's commands, bot runs, fallback moves). `key` is
    the stored command id (command_key), `label` the actor as the log names it, `quiet` the
    store's (asks_no_worker)."""
    return store.append(
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


def asks_no_worker(game: Game, state: State) -> bool:
    """Whether an append leaving `game` in `state` gives the workers nothing to do: the
    dispatcher's own questions (dispatch.dispatch_game) asked of the seats the request read
    (their bots joined) with the state it appends. The match goes on, no seat a worker moves
    is to act, no webhook bot is out of turn (a window), and no person's turn clock starts or
    stops (a pull bot's own seats; a person who drew and still decides, or whose skip came back
    to them, with the clock already running), and no person's turn starts or ends with this
    append. Then the dispatcher would find nothing and its task is not sent. Anything else, and
    any doubt, is dispatched as before."""
    if state.status != PLAYING:
        return False
    to_act = list(state.to_act)
    before = set(game.to_act or [])
    rows = []
    for seat in game.seats.all():
        if seat.controller == Seat.Controller.PERSON and (seat.number in before) != (
            seat.number in to_act
        ):
            # A person's turn starts or ends: always the worker's (the clock the request read
            # may be one an earlier append's dispatch is about to change).
            return False
        if seat.registered_bot_id is not None and not Seat.registered_bot.is_cached(seat):
            return False  # not read with the seat (game_for joins it): never a query here
        bot = seat.registered_bot
        rows.append(
            SeatRow(
                seat.number,
                seat.controller,
                seat.deadline_at,
                None if bot is None else bot.status,
                state.status,
                to_act,
                game.context,
            )
        )
    return not (clocks_to_change(rows) or worker_to_act(rows) or webhook_out_of_turn(rows))


# Event types every family shows whole to everyone, whatever they hold: engine/view.py's
# event_view returns them as they are (rare ones, a false uno call or a dealer's pass, are
# simply checked; tests/games/test_visibility.py compares this with the
# full check on every type of every family's seeded matches). Any other type is checked.
ALWAYS_PUBLIC = frozenset(
    {
        CARD_FLIPPED,
        CARD_PLAYED,
        COLOR_CHOSEN,
        DIRECTION_CHANGED,
        UNO_OWED,
        UNO_CALLED,
        UNO_EXPIRED,
        UNO_CAUGHT,
        HANDS_SWAPPED,
        HANDS_ROTATED,
        HAND_ENDED,
        MATCH_ENDED,
    }
)


def visibility(variant: Variant, event: Event) -> str:
    """How the log files an event: public when a spectator sees it whole, else private."""
    if event["type"] in ALWAYS_PUBLIC:
        return GameEvent.Visibility.PUBLIC
    # A spectator sees the least; if even a spectator sees the whole event, everyone does.
    seen = variant.view_event(event, None)
    if seen is event or seen == event:
        return GameEvent.Visibility.PUBLIC
    return GameEvent.Visibility.PRIVATE


def game_view(
    *, game_id: int, viewer: Viewer, seat: int | None = None, game: Game | None = None
) -> dict[str, Any]:
    """The game as `viewer` may see it: from `seat`, else the viewer's first seat, else as a
    spectator. Adds `version` (to send as the expected version) and `legal` (the commands the
    seat may send now); once the match is over and revealed, every hand and lane. `game` is
    game_id's row as `game_for` read it, when the caller has it already (read once).
    """
    if game is None or game.pk != game_id:
        game = _get_game(game_id)
    seat = _viewing_seat(game, viewer, seat)
    variant, state, version = load_state(game)
    view = variant.view(state, seat)
    view["version"] = version
    view["legal"] = variant.legal_commands(state, seat) if seat is not None else []
    if _revealed(game, state.status):
        view["hands"] = [list(hand) for hand in state.hands]
        view["lane"] = [list(lane) for lane in state.lanes]
    return view


def game_events(
    *,
    game_id: int,
    viewer: Viewer,
    after: int = 0,
    seat: int | None = None,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """The game's events after version `after` as `viewer` may see them (seat as in game_view):
    `[{"version": 1, "event": {...}}, ...]`, at most `limit`. The whole log once the match is
    over and revealed.
    """
    game = _get_game(game_id)
    seat = _viewing_seat(game, viewer, seat)
    until = None if limit is None else after + limit
    events = store.load(game.pk, after=after, until=until)
    return _shown(game, _first_variant(game), events, after + 1, seat)


def game_replay(*, game_id: int) -> list[dict[str, Any]]:
    """The whole log, every card, for anyone: only once the match is over and the game's reveal
    setting allows (else Forbidden `not-revealed`)."""
    game = _get_game(game_id)
    if not _revealed(game, game.status):
        raise Forbidden(
            f"game {game.pk} is shown whole only after its match, when its reveal setting "
            "allows it",
            code="not-revealed",
        )
    events = store.load(game.pk)
    stream_variant(game, events)
    return [{"version": version, "event": event} for version, event in enumerate(events, 1)]


def _viewing_seat(game: Game, viewer: Viewer, seat: int | None) -> int | None:
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
    if status != MATCH_OVER or game.reveal != Game.Reveal.AFTER_MATCH:
        return False
    found = GameSettings.of(game.context)
    if found.ladder_set is None or not found.set_size or found.set_size < 2:
        return True
    return set_over(found.ladder_set, found.set_size)


def revealed(game: Game) -> bool:
    """Whether the game's whole log (seed, decks, every hand) is public now: its match is over,
    it reveals after the match, and, a ladder rotation, its whole set is over."""
    return _revealed(game, game.status)


def set_over(ladder_set: int, size: int) -> bool:
    """Every rotation of a duplicate-deal set has ended, or staff aborted one (then no more
    are made). The rotations share one seed: a rotation's cards, shown early, would be the
    next rotation's (docs/ladders.md)."""
    games = Game.objects.filter(context__ladder_set=ladder_set)
    if games.filter(status=PLAYING).exists():
        return False
    ended = games.count()
    aborted = GameEvent.objects.filter(game__in=games, type=GAME_ABORTED).exists()
    return ended >= size or aborted


def keyed_seed(label: str) -> str:
    """A game's seed derived from `label` ("validation:12:3:0") and the site's SECRET_KEY:
    the same for the same label (a task run twice deals the same game), but nobody who knows
    the label (a bot's owner, a season's public draw seed) can compute the cards. The seed is
    published with the log after the match (docs/verifying-deals.md)."""
    key = site_settings.SECRET_KEY.encode()
    return hmac.new(key, label.encode(), hashlib.sha256).hexdigest()[:16]


_get_game = game_for


def _first_variant(game: Game) -> Variant:
    """stream_variant, reading only the stream's first event."""
    return stream_variant(game, store.load(game.pk, until=1))
