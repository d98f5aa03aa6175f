"""THE rule for a finished match's places as the service records them (`placing`): the engine's
places with the forfeited seats sharing the last place. Pure; every page and table reads it, the
projections through games/match_outcomes.py, the pages (the play page, its story, the replay,
the API's game) directly (docs/rules.md, "What the service adds")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Placing:
    """A finished match's places as the service records them (`placing`)."""

    places: list[int]
    # None when first place is shared.
    winner: int | None


def placing(places: list[int], winner: int | None, forfeited: Iterable[int]) -> Placing:
    """THE rule for the places of a finished match, which every page and table reads (the play
    page and its story, the API's game and fixtures, the season's fixtures and tables through
    the standings, the club's all-time table, ratings and tournaments): the engine's `places`
    and `winner` with every forfeited seat sharing the place after all the seats that played on
    (`places_with_forfeits`), whatever the default bot made of the seat after the forfeit; the
    others keep their order and ties, and the winner is the one seat then first, None when
    first place is shared. A forfeited seat so never wins, and two forfeited seats are never
    placed apart (docs/rules.md, "What the service adds")."""
    forfeited = sorted(set(forfeited))
    if not forfeited:
        return Placing(list(places), winner)
    placed = places_with_forfeits(places, forfeited)
    firsts = [seat for seat, place in enumerate(placed) if place == 1]
    return Placing(placed, firsts[0] if len(firsts) == 1 else None)


def places_with_forfeits(places: list[int], forfeited: list[int]) -> list[int]:
    """The engine's places with the forfeited seats moved last: the others keep their order and
    ties (a place is 1 + the other kept seats placed strictly better); the forfeited seats share
    the place after them."""
    kept = [seat for seat in range(len(places)) if seat not in forfeited]
    return [
        len(kept) + 1
        if seat in forfeited
        else 1 + sum(1 for other in kept if places[other] < place)
        for seat, place in enumerate(places)
    ]


# The English endings by the last digit; 11th, 12th and 13th, and every other, take "th".
_ENDINGS = {1: "st", 2: "nd", 3: "rd"}


def ordinal(place: int) -> str:
    """A place in words: "1st", "2nd", "4th", "11th", "21st" (the pages' tables, the notices
    of a match's end and a season's close)."""
    teen = place % 100 in (11, 12, 13)
    return f"{place}{'th' if teen else _ENDINGS.get(place % 10, 'th')}"


def won_by_forfeit(winner: int | None, forfeited: Iterable[int], seats: int) -> bool:
    """Whether the match was won by forfeit: it has a winner and every other seat was forfeited
    (the forfeits left that seat alone playing, and the match ended with it: engine/scoring.py
    `forfeit_end`). A match played on to its end after some forfeits was won at the table."""
    if winner is None or seats < 2:
        return False
    out = set(forfeited)
    return winner not in out and all(seat in out for seat in range(seats) if seat != winner)
