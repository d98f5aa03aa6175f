"""What a viewer may see of a game: how the log files each event (public or private), the
events and the view of the game as a seat or a spectator sees them, and the whole log once it
is revealed (games/reveal.py).

Every event and view that reaches a person or a bot leaves through `shown` or the engine's
`view`, which hide what the viewer may not see; nothing here hands out the raw log, except when
the match is over and the game's reveal setting makes the whole log public.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine import Variant
from engine.events import (
    CARD_FLIPPED,
    CARD_PLAYED,
    COLOR_CHOSEN,
    DIRECTION_CHANGED,
    HAND_ENDED,
    HANDS_ROTATED,
    HANDS_SWAPPED,
    MATCH_ENDED,
    UNO_CALLED,
    UNO_CAUGHT,
    UNO_EXPIRED,
    UNO_OWED,
)
from engine.view import staff_words
from games import event_reads
from games.actors import SYSTEM, Viewer, seats_held
from games.errors import Forbidden
from games.models import Game, GameEvent
from games.repository import Loaded, repository
from games.reveal import deal_kept, revealed

Event = dict[str, Any]

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
    game_id's row as the repository read it, when the caller has it already (read once).
    """
    if game is None or game.pk != game_id:
        game = repository.game(game_id)
    return view_of(repository.get(game_id, game=game), viewing_seat(game, viewer, seat))


def view_of(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """game_view of a game already loaded, from `seat` (a seat the viewer may see from, or None
    for a spectator)."""
    variant, state = loaded.variant, loaded.state
    view = variant.view(state, seat)
    view["version"] = loaded.version
    view["legal"] = variant.legal_commands(state, seat) if seat is not None else []
    if revealed(loaded.game, state.status):
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
    game: Game | None = None,
) -> list[dict[str, Any]]:
    """The game's events after version `after` as `viewer` may see them (seat as in game_view):
    `[{"version": 1, "event": {...}}, ...]`, at most `limit`. The whole log once the match is
    over and revealed. `game` as in game_view.
    """
    if game is None or game.pk != game_id:
        game = repository.game(game_id)
    seat = viewing_seat(game, viewer, seat)
    until = None if limit is None else after + limit
    events = event_reads.load(game.pk, after=after, until=until)
    return shown(game, repository.variant(game), events, after + 1, seat)


def events_since(
    game: Game,
    variant: Variant,
    seat: int | None,
    *,
    after: int,
    until: int | None = None,
    marks: Collection[str] = (),
) -> list[dict[str, Any]]:
    """The game's events in (after, until] as `seat` may see them (a seat the viewer may see
    from, or None), with, before them, every earlier event of a type in `marks` (the play
    page's last hand result), in version order: the tail of the log in one query."""
    rows = event_reads.tail(game.pk, after=after, until=until, marks=marks)
    everything = revealed(game)
    return [
        {"version": version, "event": _seen(variant, event, seat, everything)}
        for version, event in rows
    ]


def game_replay(*, game_id: int) -> list[dict[str, Any]]:
    """The whole log, every card, for anyone: only once the match is over and the game's reveal
    setting allows (else Forbidden `not-revealed`)."""
    game = repository.game(game_id)
    if not revealed(game):
        raise Forbidden(
            f"game {game.pk} is shown whole only after its match, when its reveal setting "
            "allows it",
            code="not-revealed",
        )
    events = event_reads.load(game.pk)
    repository.variant(game, events)
    return [
        {"version": version, "event": staff_words(event, None)}
        for version, event in enumerate(events, 1)
    ]


def viewing_seat(game: Game, viewer: Viewer, seat: int | None) -> int | None:
    """The seat `viewer` sees the game from: `seat` if they hold it (the system: any), their
    first seat when `seat` is None, else None (a spectator); Forbidden `not-your-seat`, and
    `deal-in-play` for a spectator while the game's deal group plays (reveal.deal_kept)."""
    held = seats_held(viewer, game.seats.all())
    if seat is None:
        if held:
            return held[0]
        if viewer is not SYSTEM and deal_kept(game):
            raise Forbidden(
                "the other tables of this game's round are still playing its cards: only its "
                "own seats watch it until they end",
                code="deal-in-play",
            )
        return None
    if seat in held or (viewer is SYSTEM and seat in range(game.seat_count)):
        return seat
    raise Forbidden(f"seat {seat} is not yours", code="not-your-seat")


def shown(
    game: Game, variant: Variant, events: list[Event], first_version: int, seat: int | None
) -> list[dict[str, Any]]:
    """`events` (versions from `first_version` on) as `seat` may see them."""
    # Read before the events were loaded, `game.status` can only lag: a log that just ended is
    # shown redacted once more, never the other way round.
    everything = revealed(game)
    return [
        {"version": version, "event": _seen(variant, event, seat, everything)}
        for version, event in enumerate(events, start=first_version)
    ]


def _seen(variant: Variant, event: Event, seat: int | None, everything: bool) -> Event:
    """The event as `seat` sees it: every card once the game is revealed, but never the
    staff's words that are not theirs (engine/view.py staff_words)."""
    return staff_words(event, seat) if everything else variant.view_event(event, seat)
