"""The engine's fast paths give exactly what the plain code they stand for gives.

Speed comes from doing the same thing in fewer steps (docs/performance.md, "Engine"); each
shortcut here is held to its plain counterpart, so that a deal, a commitment or a refusal never
depends on which path produced it.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import json
import random

import pytest

import engine.events as event_kinds
import engine.view as views
from engine.cards import CARD_CODES, COLORS, DECK, matches, playable_on
from engine.commands import _OPTIONAL_FIELDS, FIELDS, IllegalCommand, _check, parse
from engine.dealing import (
    COMMITMENT_PREFIX,
    COMMITMENT_TAG,
    below,
    copy_ranks,
    deal_commitment,
    drawn_anchor,
    reshuffle_order,
    seeded_bits,
    seeded_deck,
    seeded_shuffle,
    shuffle,
)
from engine.rules import Official


def plain_commitment(seed: object, hand: object, deck: object) -> str:
    canonical = json.dumps([COMMITMENT_TAG, seed, hand, deck], separators=(",", ":"))
    return COMMITMENT_PREFIX + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def test_the_inlined_shuffle_draws_as_random_shuffle_does() -> None:
    for seed in range(500):
        for size in (0, 1, 2, 3, 54, 108, 300):
            expected, got = list(range(size)), list(range(size))
            random.Random(f"{seed}:deal:{size}").shuffle(expected)
            rng = random.Random(f"{seed}:deal:{size}")
            shuffle(rng, got)
            assert got == expected
            # and it leaves the generator where Random.shuffle leaves it
            after = random.Random(f"{seed}:deal:{size}")
            after.shuffle(list(range(size)))
            assert rng.random() == after.random()


def test_a_seeded_shuffle_draws_as_random_shuffle_does() -> None:
    for seed in [*range(300), "", "é:deal:1", "x" * 300]:
        for size in (0, 1, 2, 3, 54, 108, 200, 216, 300, 1000):
            expected, got = list(range(size)), list(range(size))
            random.Random(f"{seed}:deal:{size}").shuffle(expected)
            seeded_shuffle(f"{seed}:deal:{size}", got)
            assert got == expected
    deck = list(DECK)
    random.Random("7:deal:2").shuffle(deck)
    assert seeded_deck("7", 2) == deck


def test_seeded_bits_are_random_seeded_from_the_text() -> None:
    for seed in [*range(200), "", "é", "x" * 300]:
        bits, rng = seeded_bits(f"{seed}:dealer"), random.Random(f"{seed}:dealer")
        assert [bits(k) for k in (1, 5, 32, 7, 64, 100)] == [
            rng.getrandbits(k) for k in (1, 5, 32, 7, 64, 100)
        ]
        for seats in range(1, 12):
            expected = random.Random(f"{seed}:first").randrange(seats)
            assert drawn_anchor(str(seed), "first", seats) == expected
            assert below(seeded_bits(f"{seed}:first"), seats) == expected


def test_a_reshuffle_orders_the_pile_by_copy_ranks() -> None:
    # reshuffle_order shuffles the copies' places, not the copies: the same permutation.
    for seed in range(200):
        rng = random.Random(seed)
        pile = rng.sample(DECK, rng.randrange(len(DECK) + 1))
        ranks = copy_ranks(str(seed), seed % 5, seed % 3)
        copies: dict[str, int] = {}
        slots = []
        for card in pile:
            copy = copies.get(card, 0)
            copies[card] = copy + 1
            slots.append((ranks[card, copy], card))
        expected = [card for _, card in sorted(slots)]
        assert reshuffle_order(str(seed), seed % 5, seed % 3, pile) == expected
        assert sorted(expected) == sorted(pile)


@pytest.mark.parametrize(
    "seed, hand, deck",
    [
        ("7", 1, list(DECK)),
        ('a "quoted" \\ seed é', 3, list(reversed(DECK))),
        ("7", 1, []),
        ("7", True, list(DECK)),
        ("7", 2, ["red-7", 'bad"card']),
        ("7", 2, ["red-7", None, 3]),
        ("7", 2, [["red-7"]]),
        (7, 2, list(DECK)),
    ],
)
def test_the_commitment_is_the_json_of_the_plain_form(
    seed: object, hand: object, deck: object
) -> None:
    assert deal_commitment(seed, hand, deck) == plain_commitment(seed, hand, deck)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["7", 'a "quoted" \\ seed é', "\u2028\x00😀", ""])
def test_a_deals_commitment_of_its_own_deck_is_the_json_of_the_plain_form(seed: str) -> None:
    for hand, deck in [(1, list(DECK)), (3, list(reversed(DECK)))]:
        assert deal_commitment(seed, hand, deck, codes=True) == plain_commitment(seed, hand, deck)


def test_the_playable_table_answers_as_matches_does() -> None:
    for top in CARD_CODES:
        for color in (*COLORS, None, "pink"):
            assert playable_on(top, color) == {c for c in CARD_CODES if matches(c, top, color)}


def outcome(check: object, command: object, seats: int) -> tuple[object, ...]:
    try:
        return ("accepted", check(command, seats) is command)  # type: ignore[operator]
    except IllegalCommand as error:
        return (error.code, error.message)


def test_parse_accepts_and_refuses_as_the_step_by_step_check() -> None:
    rng = random.Random(1)
    junk = [None, True, 0, 1, 2, 5, -1, "red", "pink", "red-7", "wild", [], ["red-7"], {}, 1.0]
    good = {
        "card": ["red-7", "wild", "blue-skip"],
        "color": ["red", None],
        "uno": [True, False],
        "target": [0, 1, 2],
        "other": [0, 1],
        "cards": [["red-7"], [], ["wild", "red-1"]],
        "deck": [None, list(DECK), list(DECK)[:5]],
    }
    accepted = 0
    for _ in range(30_000):
        kind = rng.choice([*FIELDS, "bogus", None, 3])
        command: dict[str, object] = {} if rng.random() < 0.02 else {"type": kind}
        required, optional = _OPTIONAL_FIELDS.get(kind, (frozenset(), frozenset()))  # type: ignore[arg-type]
        if rng.random() < 0.9:
            command["seat"] = rng.randrange(3) if rng.random() < 0.8 else rng.choice(junk)
        for name in (*sorted(required), *sorted(optional)):
            if name in required or rng.random() < 0.5:
                command[name] = rng.choice(good[name]) if rng.random() < 0.9 else rng.choice(junk)
        if rng.random() < 0.05:
            command[rng.choice(["bogus", "card", "target", "cards"])] = rng.choice(junk)
        seats = rng.randrange(2, 5)
        got = outcome(parse, command, seats)
        assert got == outcome(_check, command, seats), command
        accepted += got[0] == "accepted"
    assert accepted > 5_000  # the fast path was taken, not only refusals
    for command in (None, [], "play", 3, {"type": []}):
        assert outcome(parse, command, 3) == outcome(_check, command, 3)


def test_event_views_first_lookup_names_every_kind_the_view_may_change() -> None:
    """event_view shows any kind outside _SEEN_OTHERWISE as it is, before its branches: every
    kind a branch of it tests must be in the set, or that branch would never run."""
    source = inspect.getsource(views.event_view)
    tested = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and getattr(node.left, "id", None) == "kind":
            for right in node.comparators:
                names = right.elts if isinstance(right, ast.Tuple) else [right]
                tested |= {
                    getattr(event_kinds, n.id)
                    for n in names
                    if isinstance(n, ast.Name) and n.id != "_SEEN_OTHERWISE"
                }
    # game-aborted too: an older one's reason was the staff's own note (views.staff_words).
    assert len(tested) == 16
    assert tested == views._SEEN_OTHERWISE
    played = {"type": "card-played", "seat": 0, "card": "red-5"}
    assert views.event_view(Official({}), played, 1) is played


def test_a_new_state_is_the_dataclass_made_from_its_seats_and_seed() -> None:
    from dataclasses import fields

    from engine.state import State, new_state

    for seats, seed in [(2, "x"), (10, ""), (3, "seed:1")]:
        made, expected = new_state(seats, seed), State(seats=seats, seed=seed)
        assert made == expected and repr(made) == repr(expected)
        other = new_state(seats, seed)
        for f in fields(State):  # every list and dict its own, as the dataclass's factories
            value = getattr(made, f.name)
            if isinstance(value, (list, dict)):
                assert value is not getattr(other, f.name), f.name
