"""Deals anyone can verify (docs/verifying-deals.md): every hand-started carries a public
commitment to its deck, views keep hiding the deck and the seed, and `verify_log` recomputes
every random choice of a log from its seed and finds any card changed in it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bots.simulation import play_match
from bots.strategies import find_strategy
from engine import DECK, Variant
from engine.dealing import deal_commitment, seeded_deck
from engine.events import CARD_REINSERTED, HAND_STARTED, MATCH_STARTED, PILE_RESHUFFLED
from engine.verify import verify_log

Event = dict[str, Any]

# Every family, and the precognitive modifier over both bases that allow it; short matches.
SPECS = [
    {"rules": "official", "options": {"target": 100}},
    {"rules": "basic-plus"},
    {"rules": "newno", "options": {"target": 100}},
    {"rules": "censorship", "options": {"target": 100}},
    {"rules": "official", "options": {"target": 100}, "precognitive": {"lane": 2}},
    {"rules": "basic-plus", "precognitive": {"lane": "half-hand", "sight": "blind"}},
]


def played(spec: dict[str, Any], seed: int, seats: int = 4) -> list[Event]:
    variant = Variant.from_spec(spec)
    bots = [find_strategy("greedy"), find_strategy("random")] * (seats // 2)
    return play_match(variant, bots, seed=seed).events


def of_type(events: list[Event], kind: str) -> list[tuple[int, Event]]:
    return [(i, e) for i, e in enumerate(events) if e["type"] == kind]


@pytest.fixture(scope="module")
def matches() -> dict[str, list[Event]]:
    return {
        f"{spec['rules']}{'+precog' * ('precognitive' in spec)}": played(spec, 987_654_321)
        for spec in SPECS
    }


def test_every_deal_of_every_family_records_the_commitment_of_its_deck(matches):
    for name, events in matches.items():
        seed = events[0]["seed"]
        deals = of_type(events, HAND_STARTED)
        assert len(deals) >= 1, name
        for _, deal in deals:
            assert deal["commitment"] == deal_commitment(seed, deal["hand"], deal["deck"]), name
            assert deal["commitment"].startswith("sha256:") and len(deal["commitment"]) == 71
        # One commitment per hand: each binds its own deck.
        assert len({deal["commitment"] for _, deal in deals}) == len(deals), name


def test_the_commitment_binds_the_deck_the_hand_and_the_seed():
    deck = seeded_deck("s", 1)
    swapped = [deck[1], deck[0], *deck[2:]]
    commitment = deal_commitment("s", 1, deck)
    assert deal_commitment("s", 1, swapped) != commitment
    assert deal_commitment("s", 2, deck) != commitment
    assert deal_commitment("t", 1, deck) != commitment
    assert deal_commitment("s", 1, list(deck)) == commitment


def test_views_show_the_commitment_but_never_the_deck_or_the_seed(matches):
    for name, events in matches.items():
        variant = Variant.from_stream(events[0])
        seed, seats = events[0]["seed"], events[0]["seats"]
        for viewer in [None, *range(seats)]:
            for event in events:
                seen = variant.view_event(event, viewer)
                assert "seed" not in seen, name
                assert "deck" not in seen, name
                if event["type"] == HAND_STARTED:
                    assert seen["commitment"] == event["commitment"], name
            state = variant.replay(events[:2])
            assert seed not in str(variant.view(state, viewer)), name


def test_verify_log_passes_on_games_of_every_family_played_by_bots(matches):
    for name, events in matches.items():
        result = verify_log(events)
        assert result.ok, (name, result.findings)
        assert result.hands == result.committed == len(of_type(events, HAND_STARTED))
        assert result.reshuffles == len(of_type(events, PILE_RESHUFFLED))
        assert result.uncommitted == []


def reinserting_seed(hand_size: int = 7, seats: int = 4) -> str:
    """A seed whose first hand flips a wild-draw4 (official puts it back at a random place)."""
    for n in range(5000):
        if seeded_deck(f"r{n}", 1)[hand_size * seats] == "wild-draw4":
            return f"r{n}"
    raise AssertionError("no seed flips a wild-draw4")


def test_a_reinsertion_is_recomputed_and_a_moved_one_is_found():
    events = Variant.from_spec({"rules": "official"}).start(4, seed=reinserting_seed())
    ((index, reinserted), *_) = of_type(events, CARD_REINSERTED)
    result = verify_log(events)
    assert result.ok and result.reinsertions >= 1, result.findings
    tampered = copy.deepcopy(events)
    moved = 1 if reinserted["position"] != 1 else 2
    tampered[index]["position"] = moved
    findings = verify_log(tampered).findings
    assert findings[0].check == "reinsert" and findings[0].version == index + 1


def test_a_swapped_card_in_a_deck_is_found_where_it_is(matches):
    events = copy.deepcopy(matches["official"])
    index, deal = of_type(events, HAND_STARTED)[-1]
    deck = deal["deck"]
    j = next(j for j in range(1, 108) if deck[j] != deck[0])
    deck[0], deck[j] = deck[j], deck[0]
    findings = verify_log(events).findings
    assert [(f.version, f.hand, f.check) for f in findings[:2]] == [
        (index + 1, deal["hand"], "deck"),
        (index + 1, deal["hand"], "commitment"),
    ]
    assert "position 1" in findings[0].message


def test_a_swapped_reshuffle_order_is_found(matches):
    events, index, reshuffle = next(
        (copy.deepcopy(events), i, copy.deepcopy(e))
        for events in matches.values()
        for i, e in of_type(events, PILE_RESHUFFLED)
        if len(set(e["order"])) > 1
    )
    events[index] = reshuffle
    order = reshuffle["order"]
    j = next(j for j in range(1, len(order)) if order[j] != order[0])
    order[0], order[j] = order[j], order[0]
    findings = verify_log(events).findings
    assert (findings[0].version, findings[0].check) == (index + 1, "reshuffle")


def test_a_wrong_seed_fails_every_deal(matches):
    events = copy.deepcopy(matches["newno"])
    events[0]["seed"] = events[0]["seed"] + "0"
    checks = {(f.version, f.check) for f in verify_log(events).findings}
    for index, _ in of_type(events, HAND_STARTED):
        assert {(index + 1, "deck"), (index + 1, "commitment")} <= checks


def test_a_card_drawn_from_elsewhere_is_found(matches):
    events = copy.deepcopy(matches["official+precog"])
    index, drawn = next(
        (i, e) for i, e in enumerate(events) if e["type"] == "cards-drawn" and e["cards"]
    )
    other = next(card for card in DECK if card != drawn["cards"][0])
    drawn["cards"][0] = other
    findings = verify_log(events).findings
    assert (findings[0].version, findings[0].check) == (index + 1, "cards")


def test_a_redacted_log_cannot_be_verified(matches):
    events = matches["censorship"]
    variant = Variant.from_stream(events[0])
    findings = verify_log([variant.view_event(e, 0) for e in events]).findings
    assert [(f.version, f.check) for f in findings] == [(1, "seed")]


def test_a_stacked_deck_is_committed_but_not_the_seed_s(matches):
    deck = list(DECK)
    events = Variant.from_spec({"rules": "official"}).start(2, seed=5, deck=deck, dealer=0)
    assert events[1]["commitment"] == deal_commitment("5", 1, deck)
    checks = [f.check for f in verify_log(events).findings]
    assert "deck" in checks and "commitment" not in checks


def test_an_old_log_without_commitments_replays_and_verifies_as_uncommitted(matches):
    events = matches["basic-plus+precog"]
    old = [{k: v for k, v in e.items() if k != "commitment"} for e in events]
    variant = Variant.from_stream(old[0])
    assert variant.replay(old).scores == variant.replay(events).scores
    result = verify_log(old)
    assert result.ok and result.committed == 0
    assert result.uncommitted == [e["hand"] for _, e in of_type(events, HAND_STARTED)]


def test_a_log_that_does_not_begin_with_match_started_is_refused():
    assert verify_log([]).findings[0].check == "log"
    events = Variant.from_spec({"rules": "official"}).start(2, seed=1)
    assert events[0]["type"] == MATCH_STARTED
    assert verify_log(events[1:]).findings[0].check == "log"
