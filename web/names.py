"""Seats named for one viewer: the viewer is "You", the others by name.

A person counts seats from 1: where a seat is told by its number ("greedy (seat 2)"), the
number is the log's 0-based index plus one. The data keeps the index (the API's fields, the
play page's `?seat=N`, form values, the event log): `seat_label` is for words only."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from games.lobby import SeatInfo, seat_listing
from games.models import Game


def seat_label(seat: int) -> str:
    """Seat `seat` (the log's 0-based index) as a person reads it: "seat 1" is the first."""
    return f"seat {seat + 1}"


_SEAT_IN_TEXT = re.compile(r"\bseat (\d+)\b")


def seats_counted(text: str, index: Callable[[int], int | None] = lambda seat: seat) -> str:
    """A service's message with each seat it names by number ("seat 0 is played by the default
    bot now", 0-based) said as a person counts it ("seat 1 ..."); `index` gives the seat's
    index for the number the message uses (None: the words are left as they are)."""

    def said(found: re.Match[str]) -> str:
        seat = index(int(found[1]))
        return found[0] if seat is None else seat_label(seat)

    return _SEAT_IN_TEXT.sub(said, text)


def seat_names(seats: Sequence[SeatInfo]) -> list[str]:
    """Each seat's name from lobby's seat listing; a name held twice gets its seat's label
    (counted from 1: the log's seats 1 and 2 are "greedy (seat 2)" and "greedy (seat 3)")."""
    names = [seat.name for seat in seats]
    return [
        f"{name} ({seat_label(number)})" if names.count(name) > 1 else name
        for number, name in enumerate(names)
    ]


def names_at(game: Game) -> list[str]:
    """The names at `game`'s seats, seat by seat, as its play page gives them: what a list of
    games shows everyone (no card), two greedy bots at the first two seats told apart as
    "greedy (seat 1)" and "greedy (seat 2)"."""
    return seat_names(seat_listing(game))


# The words of the roles sentences name beside a seat ("greedy (the censor)"): a seat named so
# is quoted (`Names.who`).
ROLE_WORDS = frozenset({"censor", "the censor", "dealer", "the dealer"})


class Names:
    """How to name seats in sentences for `viewer` (a seat, or None for a spectator)."""

    def __init__(self, names: Sequence[str], viewer: int | None) -> None:
        self.names = names
        self.viewer = viewer

    def who(self, seat: int | None, *, start: bool = True) -> str:
        if seat is None:
            return "Nobody" if start else "nobody"
        if seat == self.viewer:
            return "You" if start else "you"
        if not 0 <= seat < len(self.names):
            return seat_label(seat)
        name = self.names[seat]
        # In quotes where it is a role's word (a built-in bot is called "censor"), so "“censor”
        # must submit a card to you, the censor" tells the seat from the role.
        return f"“{name}”" if name.strip().lower() in ROLE_WORDS else name

    def whose(self, seat: int, *, start: bool = True) -> str:
        if seat == self.viewer:
            return "Your" if start else "your"
        return f"{self.who(seat)}'s"

    def verb(self, seat: int, one: str, you: str, *, start: bool = True) -> str:
        """The seat and its verb: `one` for others ("owes"), `you` for the viewer ("owe")."""
        return f"{self.who(seat, start=start)} {you if seat == self.viewer else one}"

    def seats(self, seats: Sequence[int], *, start: bool = True, conj: str = "and") -> str:
        """Several seats: "Ana, Ben and you" (or "Ana or Ben", with `conj`)."""
        names = [self.who(seat, start=start and i == 0) for i, seat in enumerate(seats)]
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {conj} {names[-1]}"
