"""Facts about seats, as events in the game's stream: forfeits, hand-overs, fallback moves.

The rules never decide these; the service writes them (engine/events.py lists the types,
which the engine folds as no-ops). The log is the truth: who resigned, how many turns a seat
timed out, how much vacation it took, which moves the default bot made for it and why are all
read back from it with `fold`, and the projections read the same events. `Seat.controller`
and its clock columns are caches, written in the same transaction as the event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.db import transaction

from engine import MATCH_OVER, Variant
from engine.events import (
    FALLBACK_PLAYED,
    SEAT_FACTS,
    SEAT_FORFEITED,
    SEAT_HANDED_OVER,
    VACATION_TAKEN,
)
from games import appends, event_reads, forfeit_notice
from games.actors import Actor, actor_label, is_person, seats_held
from games.errors import Forbidden, GameNotFound, InvalidGame
from games.models import Game, Seat
from games.visibility import visibility

Event = dict[str, Any]


class ForfeitReason(StrEnum):
    RESIGNED = "resigned"
    # GAMES_TIMEOUTS_TO_FORFEIT turns timed out (clocks/overdue.py).
    TIMED_OUT = "timed-out"
    # A league's ruling: a club admin or staff forfeited the seat (league.services.fixture_forfeit).
    AWARDED = "awarded"


class FallbackReason(StrEnum):
    """Why the default bot moved for a seat that was to move itself."""

    # A person's turn passed its deadline.
    TURN_TIMEOUT = "turn-timeout"
    # A registered bot's decision: no answer in time, a failed call, an illegal answer.
    BOT_TIMEOUT = "bot-timeout"
    BOT_ERROR = "bot-error"
    BOT_ILLEGAL = "bot-illegal"


class HandOverReason(StrEnum):
    # The bot's validation round was decided; the fallback finishes its games.
    VALIDATION_OVER = "validation-over"


def forfeited(seat: int, reason: ForfeitReason, *, note: str = "") -> Event:
    event: Event = {"type": SEAT_FORFEITED, "seat": seat, "reason": str(reason)}
    if note:
        event["note"] = note
    return event


def handed_over(seat: int, reason: HandOverReason) -> Event:
    return {"type": SEAT_HANDED_OVER, "seat": seat, "reason": str(reason)}


def fallback_played(seat: int, reason: FallbackReason) -> Event:
    return {"type": FALLBACK_PLAYED, "seat": seat, "reason": str(reason)}


@dataclass(slots=True)
class SeatFacts:
    """What a game's log says about its seats."""

    # Seat -> why it was forfeited (placed last, played by the default bot).
    forfeited: dict[int, str] = field(default_factory=dict)
    # Seats the default bot plays without a forfeit.
    handed_over: set[int] = field(default_factory=set)
    # Turns a seat timed out (fallback-played with reason turn-timeout).
    timeouts: Counter[int] = field(default_factory=Counter)
    vacation_days: Counter[int] = field(default_factory=Counter)


def fold(events: Iterable[Event]) -> SeatFacts:
    facts = SeatFacts()
    for event in events:
        kind = event["type"]
        if kind not in SEAT_FACTS:
            continue
        seat = event["seat"]
        if kind == SEAT_FORFEITED:
            facts.forfeited.setdefault(seat, event["reason"])
        elif kind == SEAT_HANDED_OVER:
            facts.handed_over.add(seat)
        elif kind == FALLBACK_PLAYED and event["reason"] == FallbackReason.TURN_TIMEOUT:
            facts.timeouts[seat] += 1
        elif kind == VACATION_TAKEN:
            facts.vacation_days[seat] += event["days"]
    return facts


def facts_of(game_id: int) -> SeatFacts:
    """The seat facts of one game, from its log."""
    return fold(event_reads.load(game_id, types=SEAT_FACTS))


# The seat facts after which the default bot plays a seat (a forfeit, a hand-over).
STAND_IN_FACTS = frozenset({SEAT_FORFEITED, SEAT_HANDED_OVER})


def stand_in_facts(game: Game) -> list[dict[str, Any]]:
    """The game's seat-forfeited and seat-handed-over events (both public), each with its
    version, `[{"version": v, "event": {...}}]`: what a story needs to tell the default bot's
    moves as a stand-in's (web/story.py `tell`). No read when no seat is the default bot's now
    (`game.seats`, read with the game, say so: a forfeit is for good)."""
    if not any(seat.controller == Seat.Controller.FALLBACK for seat in game.seats.all()):
        return []
    found = event_reads.load_many([game.pk], types=STAND_IN_FACTS).get(game.pk, [])
    return [{"version": record.version, "event": record.event} for record in found]


def append_facts(game: Game, facts: list[Event], *, actor: Actor) -> appends.AppendResult:
    """Append seat facts to a game whose row the caller has locked (select_for_update), so the
    version read is the one appended at; visibilities as the engine's view of them says."""
    variant = Variant.from_spec(game.variant)
    return appends.append(
        game_id=game.pk,
        events=facts,
        expected_version=game.version,
        actor=actor_label(actor),
        visibilities=[visibility(variant, fact) for fact in facts],
    )


def locked_game(game_id: int) -> Game:
    """The game's row, locked until the caller's transaction ends (against the append that
    would end the match meanwhile); InvalidGame `match-over` once it is over."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(game_id)
    if game.status == MATCH_OVER:
        raise InvalidGame(f"game {game_id} is over", code="match-over")
    return game


def to_fallback(game: Game, seats: Iterable[int]) -> None:
    """The default bot moves these seats from now on: they keep no clock."""
    Seat.objects.filter(game=game, number__in=list(seats)).update(
        controller=Seat.Controller.FALLBACK, deadline_at=None
    )


def seat_forfeit(
    *, game_id: int, seat: int, actor: Actor, note: str = "", by: str = "", public: bool = False
) -> bool:
    """Forfeit one seat by a ruling (the caller checked the actor's authority: a club admin or
    staff): the same seat-forfeited event as resigning, reason `awarded`, the ruler as actor.
    The seat's person is told under the bell (games/forfeit_notice.py): `by` whom or what, in
    their words ("the league's ruling"), and `note` too when it is `public`. Returns False when
    the seat was forfeited already (nothing is written)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if not 0 <= seat < game.seat_count:
            raise InvalidGame(f"game {game_id} has no seat {seat}", code="invalid-seat")
        if seat in facts_of(game.pk).forfeited:
            return False
        append_facts(game, [forfeited(seat, ForfeitReason.AWARDED, note=note)], actor=actor)
        to_fallback(game, [seat])
        forfeit_notice.tell_forfeited(game, seat, by=by, note=note if public else "")
    return True


def game_resign(*, game_id: int, actor: Actor) -> list[int]:
    """The actor (a person) resigns every seat it holds in a playing game: a seat-forfeited
    event each, after which the default bot plays them and they are placed last at the match
    end. Returns the seats; resigning again changes nothing."""
    if not is_person(actor):
        raise Forbidden("only a person resigns a seat", code="not-a-person")
    with transaction.atomic():
        game = locked_game(game_id)
        held = seats_held(actor, game.seats.all())
        if not held:
            raise Forbidden(f"you hold no seat in game {game_id}", code="not-seated")
        already = facts_of(game.pk).forfeited
        new = [seat for seat in held if seat not in already]
        if new:
            append_facts(
                game, [forfeited(seat, ForfeitReason.RESIGNED) for seat in new], actor=actor
            )
            to_fallback(game, new)
    return held
