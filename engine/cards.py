"""Card codes, the 108-card deck and card points (docs/rules.md "Cards").

Cards are plain strings at every boundary (`red-7`, `wild-draw4`). Inside the engine they stay
strings too: CPython compares and hashes short interned strings quickly, and the tables below turn
every question the rules ask about a card into one dict lookup (which cards may be played on a
top card in a colour: one lookup for the whole answer).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

Card = str
Color = str

COLORS: Final = ("red", "yellow", "green", "blue")
NUMBER_RANKS: Final = tuple(str(n) for n in range(10))
ACTION_RANKS: Final = ("skip", "reverse", "draw2")
WILD: Final = "wild"
WILD_DRAW4: Final = "wild-draw4"
BLACK: Final = frozenset({WILD, WILD_DRAW4})


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for color in COLORS:
        cards.append(f"{color}-0")
        for rank in NUMBER_RANKS[1:] + ACTION_RANKS:
            cards += [f"{color}-{rank}"] * 2
    cards += [WILD] * 4 + [WILD_DRAW4] * 4
    return tuple(cards)


# The full deck in a fixed canonical order; a shuffle is a permutation of it.
DECK: Final = _build_deck()
CARD_CODES: Final = frozenset(DECK)

# card -> colour (None for black cards), card -> rank ("7", "skip", "wild", "wild-draw4").
COLOR_OF: Final[dict[Card, Color | None]] = {}
RANK_OF: Final[dict[Card, str]] = {}
POINTS: Final[dict[Card, int]] = {}
for _card in CARD_CODES:
    if _card in BLACK:
        COLOR_OF[_card], RANK_OF[_card], POINTS[_card] = None, _card, 50
    else:
        _color, _rank = _card.split("-", 1)
        COLOR_OF[_card], RANK_OF[_card] = _color, _rank
        POINTS[_card] = int(_rank) if _rank.isdigit() else 20


def matches(card: Card, top: Card, color: Color | None) -> bool:
    """Return True when `card` may be played on `top` whose current colour is `color`."""
    card_color = COLOR_OF[card]
    return card_color is None or card_color == color or RANK_OF[card] == RANK_OF[top]


class _PlayableOn(dict[tuple[Card | None, Color | None], frozenset[Card]]):
    def __missing__(self, key: tuple[Card | None, Color | None]) -> frozenset[Card]:
        # A colour no decision names (a hand-made log): ask `matches`, remember nothing.
        top, color = key
        if top is None:
            raise KeyError("no card is on the discard pile")
        return frozenset(card for card in CARD_CODES if matches(card, top, color))


# PLAYABLE_ON[top, colour in force] -> every card `matches` allows on it: the rules' most asked
# question as one dict lookup (Ruleset.playable, Ruleset.playable_cards).
PLAYABLE_ON: Final = _PlayableOn(
    {
        (top, color): frozenset(card for card in CARD_CODES if matches(card, top, color))
        for top in CARD_CODES
        for color in (*COLORS, None)
    }
)


def playable_on(top: Card, color: Color | None) -> frozenset[Card]:
    """The cards that may be played on `top` whose current colour is `color`."""
    return PLAYABLE_ON[top, color]


def points(cards: list[Card]) -> int:
    return sum(POINTS[c] for c in cards)


def is_full_deck(cards: Any) -> bool:
    """A stacked deck must be exactly the 108 cards, in any order."""
    if len(cards) != len(DECK) or not all(isinstance(c, str) for c in cards):
        return False
    return sorted(cards) == sorted(DECK)


def multiset_contains(hand: list[Card], cards: list[Card]) -> bool:
    """Whether `hand` holds every card of `cards`, each as many times as it is named there."""
    need = Counter(cards)
    have = Counter(hand)
    return all(have[c] >= n for c, n in need.items())
