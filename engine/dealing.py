"""Every random choice the decider makes, as functions of the game's seed and public facts.

The deciders (`rules/`) draw their randomness only from here, and `verify.py` recomputes it
from here, so a game's log can be checked against its seed once the seed is published
(docs/verifying-deals.md). docs/examples/verify_deals.py is an independent copy of these
formulas with the standard library alone: change one and you change the other, and
tests/games/test_verify_game.py sees them disagree.

The choices:
- the deck of each hand (`seeded_deck`);
- the first hand's dealer (basic-plus: its first seat) when none was given (`drawn_anchor`);
- the order of each reshuffle (`reshuffle_order`, by `reshuffle_places`' permutation);
- the place a flipped wild-draw4 goes back to (`choice_rng`, purpose `reinsert`).

Newno's open choices are not random (the Youngest Rule hands them to the youngest seat), nor
is anything in censorship or the precognitive modifier: lanes are what seats precommitted.
"""

from __future__ import annotations

import _random
import functools
import hashlib
import json
import random
from collections.abc import Callable
from json.encoder import encode_basestring_ascii
from typing import Any, Final

from engine.cards import CARD_CODES, DECK, Card

# Names the format of a commitment, so that a later format is never mistaken for this one.
COMMITMENT_TAG = "uno-deal-commitment/1"
COMMITMENT_PREFIX = "sha256:"


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """`rng.randrange(n)` for n >= 1, from the generator's `getrandbits`: CPython's
    `Random._randbelow`, spelled out, so the same draws give the same number, without
    randrange's argument checks and calls.

    The one statement of a draw below a bound: the league's fixture search draws with it
    (league/fixture_search.py; tests/league/test_scheduling.py holds it to `randrange` over many
    seeds and bounds), and `shuffle` inlines it.
    """
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, cards: list[Any]) -> None:
    """`rng.shuffle(cards)`, spelled out: the same draws from `rng`, so the same order.

    CPython's `Random.shuffle` calls `_randbelow` once per card; inlined, a deal costs a third
    of that. tests/engine/test_fast_paths.py holds it to `Random.shuffle` over many seeds, so
    a Python whose shuffle draws differently is noticed, never silently dealt from.
    """
    shuffle_with(rng.getrandbits, cards)


def shuffle_with(getrandbits: Callable[[int], int], cards: list[Any]) -> None:
    """`shuffle` with the generator's `getrandbits`."""
    n = len(cards)
    # `below(getrandbits, i + 1)` for each i from the top down, inlined with its bits from a
    # table for a deck's sizes (`j > i` is `j >= i + 1`): calling it per card measured a few
    # percent slower compiled and about 75% slower in pure Python.
    steps = _STEPS[n] if n < len(_STEPS) else _steps(n)
    for i, k in steps:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _steps(n: int) -> tuple[tuple[int, int], ...]:
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


_STEPS = [_steps(n) for n in range(2 * len(DECK) + 1)]


def seeded_bits(text: str) -> Callable[[int], int]:
    """`random.Random(text).getrandbits`: a generator seeded as CPython seeds one from a str
    (`Random.seed`, version 2: the int of the text's UTF-8 bytes followed by their SHA-512),
    made without the Python-level `Random.__init__` and `seed` in between.
    tests/engine/test_fast_paths.py holds it to `random.Random`."""
    data = text.encode()
    digest = _SHA512.copy()  # a copy costs less than looking the algorithm up again
    digest.update(data)
    return _random.Random(int.from_bytes(data + digest.digest(), "big")).getrandbits


_SHA512: Final = hashlib.sha512()


def seeded_shuffle(text: str, cards: list[Any]) -> None:
    """`random.Random(text).shuffle(cards)`: `shuffle` with a generator of its own, made by
    `seeded_bits`. tests/engine/test_fast_paths.py holds it to `Random.shuffle` over many seeds
    and sizes."""
    shuffle_with(seeded_bits(text), cards)


def seeded_deck(seed: str, hand: int) -> list[Card]:
    """The deck order of hand `hand` dealt from `seed` (the order hand-started records):
    `random.Random(f"{seed}:deal:{hand}").shuffle` of DECK."""
    deck = list(DECK)
    seeded_shuffle(f"{seed}:deal:{hand}", deck)
    return deck


def drawn_anchor(seed: str, purpose: str, seats: int) -> int:
    """The seat the seed draws for the first hand: `dealer`, or basic-plus's `first` seat
    (`random.Random(f"{seed}:{purpose}").randrange(seats)`)."""
    return below(seeded_bits(f"{seed}:{purpose}"), seats)


def deal_commitment(seed: Any, hand: Any, deck: Any, *, codes: bool = False) -> str:
    """The public commitment to hand `hand`'s deck order, recorded in its hand-started.

    SHA-256 over a canonical JSON array of a tag, the seed, the hand and the deck. The seed in
    it is the salt: until the seed is published the hash says nothing of the deck (nobody can
    try the 108! orders without it), and once it is, anyone recomputes the hash from the log.
    It binds the seed as well, so the first hand's commitment also fixes every later deck,
    reshuffle and reinsertion, which are drawn from the same seed.

    `codes`: the caller knows `deck` is a list of card codes (a deal's own deck, or a stacked
    one checked whole), which need not be checked again.
    """
    if type(hand) is int and deck and (codes or _all_codes(deck)):
        # The same text json.dumps writes (card codes need no escaping), built directly; a str
        # seed as json.dumps writes one (its encoder's own function).
        cards = '","'.join(deck)
        text = encode_basestring_ascii(seed) if type(seed) is str else json.dumps(seed)
        canonical = f'[{_TAG_JSON},{text},{hand},["{cards}"]]'
    else:  # a log's deck, checked by verify.py, may hold anything
        canonical = json.dumps([COMMITMENT_TAG, seed, hand, deck], separators=(",", ":"))
    digest = _SHA256.copy()  # hashlib.sha256(), without looking the algorithm up again
    digest.update(canonical.encode("utf-8"))
    return COMMITMENT_PREFIX + digest.hexdigest()


_TAG_JSON = json.dumps(COMMITMENT_TAG)
_SHA256: Final = hashlib.sha256()


def _all_codes(cards: list[Any]) -> bool:
    try:
        return CARD_CODES.issuperset(cards)
    except TypeError:  # an unhashable entry
        return False


def reshuffle_places(seed: str, hand: int, shuffles: int) -> list[int]:
    """The seeded permutation of DECK's 108 places that orders the `shuffles`-th reshuffle
    of hand `hand` (Ruleset.reshuffle): the place in DECK of the copy drawn first, second…

    The one statement of a reshuffle's seeding; `reshuffle_order` and `copy_ranks` read it.
    """
    places = list(range(_SLOT_COUNT))
    seeded_shuffle(f"{seed}:{hand}:reshuffle:{shuffles}", places)
    return places


@functools.lru_cache(maxsize=256)
def copy_ranks(seed: str, hand: int, shuffles: int) -> dict[tuple[Card, int], int]:
    """Each copy of each card (its code and which copy: 0, 1…) -> its place in the seeded
    permutation that orders the `shuffles`-th reshuffle of hand `hand` (Ruleset.reshuffle).

    `reshuffle_places` with each place named by the copy in it (a shuffle moves what it
    shuffles by place alone, so shuffling the copies draws the same permutation)."""
    return {_SLOTS[at]: place for place, at in enumerate(reshuffle_places(seed, hand, shuffles))}


def _slots() -> tuple[tuple[Card, int], ...]:
    """Each of DECK's places -> the copy there (its code and which copy: 0, 1…)."""
    copies: dict[Card, int] = {}
    slots: list[tuple[Card, int]] = []
    for card in DECK:
        slots.append((card, copies.get(card, 0)))
        copies[card] = copies.get(card, 0) + 1
    return tuple(slots)


def _copy_slots() -> dict[Card, list[int]]:
    """Each card -> where its copies (the first, the second…) are in DECK: `copy_ranks`'s
    slots, by card."""
    slots: dict[Card, list[int]] = {}
    for at, card in enumerate(DECK):
        slots.setdefault(card, []).append(at)
    return slots


# The copies by their place in DECK, the same by card, and their number: the slots whose
# places reshuffle_places permutes.
_SLOTS: Final = _slots()
_COPY_SLOTS: Final = _copy_slots()
_SLOT_COUNT: Final = len(DECK)


def reshuffle_order(seed: str, hand: int, shuffles: int, pile: list[Card]) -> list[Card]:
    """The new draw pile (top first) made of `pile`, the discard pile less its top card.

    Duplicate deals (docs/ladders.md): the order depends on the seed, the hand, the reshuffles
    before it in the hand and which cards the pile holds, never on the order they were played
    in, so two games of one seed that reshuffle the same cards draw them in the same order.
    Each copy of a card (the first red-7 of the pile, the second) has a place in one seeded
    permutation of the deck's 108 copies, and the pile is drawn in that order: still a
    uniformly random order of the pile.
    """
    # copy_ranks' permutation without its tuples (reshuffle_places): each copy of the pile
    # put in its slot, then the slots read in the permutation's order.
    order = reshuffle_places(seed, hand, shuffles)
    held: list[Card | None] = [None] * _SLOT_COUNT
    copies: dict[Card, int] = {}
    for card in pile:
        copy = copies.get(card, 0)
        copies[card] = copy + 1
        try:
            at = _COPY_SLOTS[card][copy]
        except (KeyError, IndexError):
            raise KeyError((card, copy)) from None  # as copy_ranks' dict: no such copy
        held[at] = card
    drawn: list[Card] = []
    for at in order:
        slot = held[at]
        if slot is not None:
            drawn.append(slot)
    return drawn


def choice_rng(
    seed: str,
    hand: int,
    purpose: str,
    shuffles: int,
    draw: int,
    discard: int,
    emitted: int,
) -> random.Random:
    """A generator for one choice made inside a decision (Ruleset.rng): seeded by the seed and
    where the decision stands (the sizes of the piles, the events the decision emitted before
    it), so two choices made in one decision (two wild-draw4s flipped in a row) never repeat
    each other."""
    return random.Random(f"{seed}:{hand}:{purpose}:{shuffles}:{draw}:{discard}:{emitted}")
