"""How forfeits are told: why a seat was forfeited, who rules a game's forfeits, and whether
forfeits end its match (games/seat_facts.py `with_match_end`: at most one seat left playing),
for the story (web/story.py) and the resign page (web/play.py `resign`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import events as ev
from games import seat_facts
from games.game_settings import GameSettings
from games.models import Game
from web.names import names_at

Event = Mapping[str, Any]

# Why a seat was forfeited, after its name (the story); the season page's fixtures say it too
# (web/season_tables.py).
FORFEIT_REASONS = {
    "resigned": "resigned",
    "timed-out": "ran out of time too often",
    "awarded": "was forfeited by the league's ruling",
}


def ruled_by(context: Mapping[str, Any] | None) -> str:
    """Who forfeits a seat of a game by a ruling (a seat-forfeited event of reason `awarded`),
    in a player's words: a league's fixture is ruled by the league (a club's admin, or the
    staff for it), a tournament's game by the tournament (its round's deadline, a withdrawal:
    the event's note says which), any other game by the staff alone."""
    found = GameSettings.of(context or {})
    if found.fixture is not None:
        return "the league's ruling"
    if found.tournament is not None:
        return "the tournament"
    return "the staff"


def forfeits_end(events: Sequence[Mapping[str, Any]], index: int) -> list[Event | None]:
    """When the seat-forfeited at `index` and only forfeits after it end the match: [the
    match-ended, when right after it, else None]; [] when the match goes on."""
    kinds = [item["event"]["type"] for item in events[index + 1 :]]
    rest = next((at for at, kind in enumerate(kinds) if kind != ev.SEAT_FORFEITED), None)
    if rest is None or kinds[rest] != ev.MATCH_ENDED:
        return []
    return [events[index + 1]["event"] if rest == 0 else None]


def resign_ends(game: Game, seats: Sequence[int]) -> tuple[bool, str | None]:
    """Whether resigning `seats` of `game` ends its match (at most one seat left playing), and
    the name of the seat that then wins (None: no seat is left, nobody wins)."""
    forfeited = {*seat_facts.facts_of(game.pk).forfeited, *seats}
    left = [seat for seat in range(game.seat_count) if seat not in forfeited]
    if len(left) > 1:
        return False, None
    return True, names_at(game)[left[0]] if left else None
