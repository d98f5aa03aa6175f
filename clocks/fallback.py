"""The default bot's moves for a seat that did not move itself: a person past their deadline, a
webhook bot that failed to answer, a pull bot past its deadline.

Each is one append, by the system: a `fallback-played` event saying for which seat and why
(a typed reason, games/seat_facts.py), then the default bot's (BOTS_FALLBACK_STRATEGY) moves
for that seat, decided by the driver (bots/driver.py) as any bot's are. A policy says how many
moves (a person's whole turn, or a bot's one decision) and whether timeouts add up to a
forfeit (which ends the match when it leaves one seat playing: seat_facts.with_match_end).
The command id is the system's and names the version it was decided at, so two workers doing
the same write it once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from bots.driver import play
from bots.strategies import Strategy, find_strategy
from engine import PLAYING
from games import forfeit_notice, seat_facts
from games.actors import SYSTEM, actor_label
from games.commands import append_decided, command_key
from games.errors import Conflict
from games.models import Game
from games.repository import repository
from games.seat_facts import FallbackReason, ForfeitReason

# Moves the default bot makes for one timed-out turn at most (a draw, then a play or a pass).
MAX_TURN_MOVES = 5


@dataclass(frozen=True, slots=True)
class Policy:
    reason: FallbackReason
    # At most this many moves for the seat (it stops sooner when the turn has passed on).
    moves: int
    # This many timed-out turns forfeit the seat (people); None: never.
    forfeit_after: int | None = None


def person_timeout() -> Policy:
    """A person's turn past its deadline: the default bot plays the whole turn; at
    GAMES_TIMEOUTS_TO_FORFEIT such turns the seat is forfeited (docs/rules.md, "What the service
    adds": the turn clock)."""
    return Policy(FallbackReason.TURN_TIMEOUT, MAX_TURN_MOVES, settings.GAMES_TIMEOUTS_TO_FORFEIT)


def bot_failure(reason: FallbackReason) -> Policy:
    """A registered bot's failed decision: the default bot makes that one decision."""
    return Policy(reason, 1)


@dataclass(frozen=True, slots=True)
class Fallback:
    version: int
    commands: int
    # True when this fallback forfeited the seat.
    forfeited: bool = False
    # True when the same fallback had been written before (by another worker): nothing was.
    repeated: bool = False


def fallback_strategy() -> Strategy:
    return find_strategy(settings.BOTS_FALLBACK_STRATEGY)


def play_fallback(*, game_id: int, seat: int, version: int, policy: Policy) -> Fallback | None:
    """Append the default bot's moves for `seat` of the game at `version`, under `policy`;
    None when it has no move to make (a pass in a newno open choice, a match over, a seat not
    to move). Seeded by the game and version, so a repeated run decides the same moves. Raises
    Conflict when the game has moved on."""
    game = Game.objects.get(pk=game_id)
    if game.version != version:
        raise Conflict(expected_version=version, current_version=game.version)
    variant, state, _ = repository.state(game, until=version)
    if state.status != PLAYING:
        return None
    rng = random.Random(f"{game_id}:{version}")
    run = play(variant, state, {seat: fallback_strategy()}, rng, limit=policy.moves)
    if not run.commands:
        return None
    decided = [seat_facts.fallback_played(seat, policy.reason), *run.events]
    after, forfeits, timeouts = run.state, False, 0
    if policy.forfeit_after is not None:
        facts = seat_facts.facts_of(game_id)
        timeouts = facts.timeouts[seat] + 1
        forfeits = timeouts >= policy.forfeit_after and run.state.status == PLAYING
        if forfeits:
            decided.append(seat_facts.forfeited(seat, ForfeitReason.TIMED_OUT))
            # The last seat but one forfeited: the match ends, the other seat wins.
            decided, after = seat_facts.with_match_end(
                variant, run.state, decided, {*facts.forfeited, seat}
            )
    with transaction.atomic():
        appended = append_decided(
            game,
            variant,
            after,
            decided,
            version,
            command_key(SYSTEM, f"fallback:{seat}:{version}"),
            actor_label(SYSTEM),
        )
        if forfeits and not appended.repeated:
            seat_facts.to_fallback(game, [seat])
            ended = seat_facts.ends_match(decided)
            if ended:
                seat_facts.stop_clocks(game)
            forfeit_notice.tell_forfeited(
                game, seat, by=f"the turn clock: {timeouts} of your turns ran out", ended=ended
            )
    return Fallback(appended.version, run.commands, forfeits, appended.repeated)
