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

from engine import MATCH_OVER, State, Variant
from engine.events import (
    FALLBACK_PLAYED,
    MATCH_ENDED,
    SEAT_FACTS,
    SEAT_FORFEITED,
    SEAT_HANDED_OVER,
    VACATION_TAKEN,
)
from engine.scoring import forfeit_end
from games import appends, event_reads, forfeit_notice
from games.actors import Actor, actor_label, is_person, seats_held
from games.commands import append_decided
from games.errors import Forbidden, GameNotFound, InvalidGame
from games.models import Game, Seat
from games.repository import repository
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
    version and who appended it, `[{"version": v, "event": {...}, "actor": "staff:3"}]`: what a
    story needs to tell the default bot's moves as a stand-in's, and a forfeit by the staff as
    theirs (web/story.py `tell`). No read when no seat is the default bot's now (`game.seats`,
    read with the game, say so: a forfeit is for good)."""
    if not any(seat.controller == Seat.Controller.FALLBACK for seat in game.seats.all()):
        return []
    found = event_reads.with_actors(game.pk, types=STAND_IN_FACTS)
    return [{"version": version, "event": event, "actor": actor} for version, event, actor in found]


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


def with_match_end(
    variant: Variant, state: State, events: list[Event], forfeited: Iterable[int]
) -> tuple[list[Event], State]:
    """`events` (the state after them: `state`), and the match-ended the forfeits end the match
    with when they leave at most one seat playing (engine/scoring.py `forfeit_end`), the state
    after it: a forfeit in a two-seat match is its end, not a game against the default bot."""
    ended = forfeit_end(state, set(forfeited))
    if not ended:
        return events, state
    return [*events, *ended], variant.replay(ended, state)


def ends_match(events: Iterable[Event]) -> bool:
    return any(event["type"] == MATCH_ENDED for event in events)


def stop_clocks(game: Game) -> None:
    """No seat of a game whose match a forfeit ended keeps a clock (the dispatcher would stop
    them after the commit; the caches are written with the event that changes them)."""
    Seat.objects.filter(game=game).exclude(deadline_at=None).update(deadline_at=None)


def _append_forfeits(game: Game, facts: list[Event], forfeited: set[int], actor: Actor) -> bool:
    """Append the seat-forfeited `facts` to the locked game; `forfeited`: every forfeited seat
    after them. While two seats or more play on, as facts (`append_facts`), and the default bot
    plays the new ones; else with the match-ended they end the match with (`with_match_end`),
    through the engine as any decided event. True when the match ended."""
    seats = [fact["seat"] for fact in facts]
    if game.seat_count - len(forfeited) > 1:
        append_facts(game, facts, actor=actor)
        to_fallback(game, seats)
        return False
    variant, state, version = repository.state(game)
    events, after = with_match_end(variant, variant.replay(facts, state), facts, forfeited)
    append_decided(game, variant, after, events, version, None, actor_label(actor))
    to_fallback(game, seats)
    stop_clocks(game)
    return ends_match(events)


def to_fallback(game: Game, seats: Iterable[int]) -> None:
    """The default bot moves these seats from now on: they keep no clock."""
    Seat.objects.filter(game=game, number__in=list(seats)).update(
        controller=Seat.Controller.FALLBACK, deadline_at=None
    )


def seat_forfeit(
    *, game_id: int, seat: int, actor: Actor, note: str = "", by: str = "", public: bool = False
) -> bool:
    """Forfeit one seat by a ruling (the caller checked the actor's authority: a club admin or
    staff): the same seat-forfeited event as resigning, reason `awarded`, the ruler as actor;
    when it leaves one seat playing, the match ends with it (`_append_forfeits`).
    The seat's person is told under the bell (games/forfeit_notice.py): `by` whom or what, in
    their words ("the league's ruling"), and `note` too when it is `public`. Returns False when
    the seat was forfeited already (nothing is written)."""
    forfeits = seats_forfeit(
        game_id=game_id, seats=[seat], actor=actor, note=note, by=by, public=public
    )
    return bool(forfeits)


def seats_forfeit(
    *,
    game_id: int,
    seats: Iterable[int],
    actor: Actor,
    note: str = "",
    by: str = "",
    public: bool = False,
) -> list[int]:
    """`seat_forfeit` for several seats of a game at once, in one append: seats forfeited for
    the same reason at the same moment (a round's deadline, entrants withdrawn before it) share
    the last place, where one after the other the last of them would win the match their
    forfeits end. Returns the seats forfeited now (not those forfeited already)."""
    with transaction.atomic():
        game = locked_game(game_id)
        asked = sorted(set(seats))
        for seat in asked:
            if not 0 <= seat < game.seat_count:
                raise InvalidGame(f"game {game_id} has no seat {seat}", code="invalid-seat")
        already = facts_of(game.pk).forfeited
        new = [seat for seat in asked if seat not in already]
        if not new:
            return []
        facts = [forfeited(seat, ForfeitReason.AWARDED, note=note) for seat in new]
        ended = _append_forfeits(game, facts, {*already, *new}, actor)
        for seat in new:
            said = note if public else ""
            forfeit_notice.tell_forfeited(game, seat, by=by, note=said, ended=ended)
    return new


def game_resign(*, game_id: int, actor: Actor) -> list[int]:
    """The actor (a person) resigns every seat it holds in a playing game: a seat-forfeited
    event each, after which the default bot plays them and they are placed last at the match
    end; when at most one seat is left playing, the match ends there and that seat wins
    (`_append_forfeits`). Returns the seats; resigning again changes nothing."""
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
            facts = [forfeited(seat, ForfeitReason.RESIGNED) for seat in new]
            _append_forfeits(game, facts, {*already, *new}, actor)
    return held
