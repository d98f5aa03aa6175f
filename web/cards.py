"""Cards as people see them: names in words ("red 7", "wild draw four"), the short visible mark
on a card ("7", "+2") with its colour's letter, and the order a hand is shown in.

Colour is never the only cue (colour-blind players, screen readers): every card carries its
name as text and a letter for its colour.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import (
    ACTION_RANKS,
    COLOR_OF,
    COLORS,
    NUMBER_RANKS,
    RANK_OF,
    WILD,
    WILD_DRAW4,
)

BLACK = "black"
_RANK_WORDS = {"skip": "skip", "reverse": "reverse", "draw2": "draw two", WILD: "wild"}
_RANK_WORDS[WILD_DRAW4] = "wild draw four"
_MARKS = {"skip": "⊘", "reverse": "⇄", "draw2": "+2", WILD: "W", WILD_DRAW4: "+4"}
_LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", BLACK: "W"}
_COLOR_ORDER = {color: i for i, color in enumerate((*COLORS, BLACK))}
_RANK_ORDER = {rank: i for i, rank in enumerate((*NUMBER_RANKS, *ACTION_RANKS, WILD, WILD_DRAW4))}


@dataclass(frozen=True, slots=True)
class Face:
    """One card's face: `code` as the engine names it, `color` ("black" for wild cards), `name`
    in words, `mark` (the big symbol) and `letter` (the colour's initial)."""

    code: str
    color: str
    name: str
    mark: str
    letter: str


def face(code: str) -> Face:
    color = COLOR_OF[code] or BLACK
    rank = RANK_OF[code]
    return Face(
        code=code,
        color=color,
        name=card_name(code),
        mark=_MARKS.get(rank, rank),
        letter=_LETTERS[color],
    )


def card_name(code: str) -> str:
    """The card in words: "red 7", "blue draw two", "wild draw four"."""
    color = COLOR_OF[code]
    words = _RANK_WORDS.get(RANK_OF[code], RANK_OF[code])
    return words if color is None else f"{color} {words}"


def card_list(codes: Iterable[str]) -> str:
    """Cards in words, joined: "red 7, blue 2 and wild"."""
    names = [card_name(code) for code in codes]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def sort_key(code: str) -> tuple[int, int]:
    return _COLOR_ORDER[COLOR_OF[code] or BLACK], _RANK_ORDER[RANK_OF[code]]


def sorted_faces(codes: Iterable[str]) -> list[Face]:
    """A hand as it is shown: by colour (red, yellow, green, blue, black), then by rank."""
    return [face(code) for code in sorted(codes, key=sort_key)]
