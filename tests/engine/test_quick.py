"""The quick steps (engine/rules/quick.py) and the shortcuts of the general way answer exactly
as the long way does.

`Variant` decides a plain family's plain plays and draws through `quick_decide`; the general
way is the ruleset's own `decision`. On every state of seeded matches of each family, for each
listed command, bent ones and junk, the quick decide either declines (the general way decides)
or gives the general way's events and a state equal to the one they fold into, never accepting
what the general way refuses, and never changing the state it was given. The general way's own
shortcuts (a plain play in one step, a hand's listing in one pass, the next turn without the
turn hooks) are held to the long way: a family whose hooks are the same methods overridden, so
that no shortcut applies, lists and decides the same.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalCommand, State, Variant
from engine.cards import COLORS, DECK
from engine.rules.official import Official
from engine.rules.quick import quick_decide
from engine.shared import ReadOnlyDict
from tests.engine.decks import stacked
from tests.engine.junk import bad_commands

SPECS: dict[str, tuple[dict[str, Any], int]] = {
    "official-2": ({"rules": "official", "options": {"scoring": "single-hand"}}, 2),
    "official-3": ({"rules": "official", "options": {"target": 100, "hand_size": 3}}, 3),
    "official-5": ({"rules": "official", "options": {"target": 100, "uno_penalty": 0}}, 5),
    "basic-plus-2": ({"rules": "basic-plus", "options": {"hand_size": 4}}, 2),
    "basic-plus-4": ({"rules": "basic-plus"}, 4),
    "newno-4": ({"rules": "newno", "options": {"hand_size": 4}}, 4),
    "censorship-4": ({"rules": "censorship"}, 4),
    "precognitive-official-3": ({"rules": "official", "precognitive": {"lane": 2}}, 3),
}
CARDS = sorted(set(DECK))
DRAW_PASS = ("draw", "pass")


def general(variant: Variant, state: State, command: Any) -> tuple[Any, ...]:
    try:
        decision = variant.ruleset.decision(state, command)
    except IllegalCommand as error:
        return ("refused", error.code)
    return ("decided", decision.events, decision.state)


class Declined(Exception):
    """The quick decide handed the command to the general way."""


def declined(state: State, command: Any) -> Any:
    raise Declined


def quick_only(variant: Variant) -> tuple[Any, list[Any]]:
    """The quick decide of `variant`'s family alone: the general way, which it falls back
    to, raises Declined. Returns it and its memo."""
    ruleset = type(variant.ruleset)(variant.ruleset.options)
    ruleset.decision = declined  # type: ignore[method-assign]
    memo: list[Any] = [None]
    quick = quick_decide(ruleset, memo)
    assert quick is not None
    return quick, memo


def check_command(variant: Variant, state: State, command: Any) -> bool:
    """The quick decide agrees with the general way on `command`; True if it answered."""
    decide, memo = quick_only(variant)
    before = state.copy()
    try:
        events = decide(state, command)
    except Declined:
        return False
    finally:
        assert state == before  # never changed in place
    expected = general(variant, state, command)
    assert expected[0] == "decided", (command, expected)
    decided, memo_events, count, new = memo[0]
    assert decided is state and memo_events is events and count == len(events)
    assert events == expected[1]
    assert new == expected[2]
    # and the variant hands this very state to the replay that follows
    assert variant.replay(variant.decide(state, command), state) == expected[2]
    return True


def bend(rng: random.Random, command: dict[str, Any], seats: int) -> dict[str, Any]:
    bent = dict(command)
    field = rng.choice(["seat", "card", "uno", "color", "target", "type", "drop", "extra"])
    if field == "drop":
        bent.pop(rng.choice(sorted(bent)))
    elif field == "extra":
        bent["extra"] = 1
    else:
        bent[field] = rng.choice(
            [
                *range(-1, seats + 1),
                *rng.sample(CARDS, 3),
                "red",
                "pink",
                True,
                False,
                None,
                1.0,
                "play",
                "draw",
                "pass",
            ]
        )
    return bent


def states(spec: dict[str, Any], seats: int, seed: int, steps: int = 250) -> list[State]:
    """The states of one seeded match, played by a random policy that likes plays."""
    variant = Variant.from_spec(spec)
    rng = random.Random(f"quick:{seed}")
    ages = list(range(seats)) if variant.spec["rules"] == "newno" else None
    state = variant.replay(variant.start(seats, seed=seed, ages=ages))
    seen = [state]
    for _ in range(steps):
        if state.status == "match-over":
            break
        if state.status == "hand-over":
            (command,) = variant.legal_commands(state, None)
        else:
            legal = [c for s in range(seats) for c in variant.legal_commands(state, s)]
            if not legal:
                legal = [{"type": "close-window"}]
            eager = [c for c in legal if c["type"] not in ("draw", "pass", "catch", "call-uno")]
            command = rng.choice(eager if eager and rng.random() < 0.7 else legal)
        state = variant.replay(variant.decide(state, command), state)
        seen.append(state)
    return seen


@functools.cache
def some_states(name: str, seed: int) -> list[State]:
    spec, seats = SPECS[name]
    return states(spec, seats, seed, 80)


def test_the_plain_families_have_quick_steps_and_the_others_none() -> None:
    has = {
        name: quick_decide(Variant.from_spec(spec).ruleset, [None]) is not None
        for name, (spec, _) in SPECS.items()
    }
    assert has == {
        "official-2": True,
        "official-3": True,
        "official-5": True,
        "basic-plus-2": True,
        "basic-plus-4": True,
        "newno-4": False,
        "censorship-4": False,
        "precognitive-official-3": False,
    }


@pytest.mark.parametrize("name", [n for n in SPECS if n.startswith(("official", "basic"))])
def test_quick_steps_answer_as_the_general_way(name: str) -> None:
    spec, seats = SPECS[name]
    variant = Variant.from_spec(spec)
    rng = random.Random(name)
    answered = tried = 0
    for seed in range(3):
        for state in states(spec, seats, seed):
            for seat in [None, *range(seats)]:
                listed = variant.legal_commands(state, seat)
                for command in listed:
                    quick = check_command(variant, state, command)
                    if command["type"] in ("play", "draw", "pass"):
                        tried += 1
                        answered += quick
                    check_command(variant, state, bend(rng, command, seats))
            for _ in range(3):
                junk = {
                    "type": rng.choice(["play", "draw", "pass"]),
                    "seat": rng.randrange(seats),
                    "card": rng.choice(CARDS),
                    "uno": rng.random() < 0.1,
                }
                if junk["type"] != "play":
                    del junk["card"], junk["uno"]
                check_command(variant, state, junk)
    # most listed plays, draws and passes take the quick way (not: uno owed, last cards...)
    assert answered > tried // 2


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_quick_decide_never_accepts_what_the_general_way_refuses(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["official-2", "official-3", "basic-plus-4"]))
    spec, seats = SPECS[name]
    variant = Variant.from_spec(spec)
    state = data.draw(st.sampled_from(some_states(name, data.draw(st.integers(0, 2)))))
    legal = [c for s in range(seats) for c in variant.legal_commands(state, s)]
    check_command(variant, state, data.draw(bad_commands(legal, json_only=False)))


def test_an_option_the_quick_steps_do_not_know_sends_every_command_the_general_way() -> None:
    from engine.rules.options import choice_option
    from engine.rules.quick import KNOWN_OPTIONS

    class WithANewOption(Official):
        option_checks = {**Official.option_checks, "house_rule": choice_option("off", "on")}

    assert set(Official.option_checks) <= KNOWN_OPTIONS
    assert quick_decide(Official({}), [None]) is not None
    assert quick_decide(WithANewOption({"house_rule": "on"}), [None]) is None


class LongWay(Official):
    """Official with no shortcut: every method a shortcut stands for is overridden (by itself),
    so a play is checked, played and resolved step by step, a hand is listed card by card and
    a turn passes through end_turn, begin_turn and prompt."""

    def playable(self, state: State, seat: int, card: str) -> bool:
        return super().playable(state, seat, card)

    def playable_cards(self, state: State, seat: int) -> list[str]:
        return super().playable_cards(state, seat)

    def play_options(self, state: State, seat: int, card: str) -> list[dict[str, Any]]:
        return super().play_options(state, seat, card)

    def end_turn(self, d: Any, seat: int, nxt: int, then: Any = None) -> None:
        super().end_turn(d, seat, nxt, then)


def test_the_long_way_has_no_shortcut() -> None:
    for flag in ("plain_play", "plain_playable", "plain_listing", "plain_turn"):
        assert getattr(Official, flag) and not getattr(LongWay, flag), flag


@pytest.mark.parametrize("name", ["official-2", "official-5", "basic-plus-4"])
def test_the_general_ways_shortcuts_answer_as_the_long_way(name: str) -> None:
    spec, seats = SPECS[name]
    variant = Variant.from_spec(spec)
    long_way = type(variant.ruleset)  # basic-plus: its flags over the long way's methods
    ruleset = type("LongWay", (LongWay, long_way), {})(variant.ruleset.options)
    assert not ruleset.plain_play and not ruleset.plain_listing and not ruleset.plain_turn
    for seed in range(2):
        for state in states(spec, seats, seed, 150):
            for seat in [None, *range(seats)]:
                listed = variant.ruleset.legal_commands(state, seat)
                assert listed == ruleset.legal_commands(state, seat)
                for command in listed:
                    fast = variant.ruleset.decision(state, command)
                    slow = ruleset.decision(state, command)
                    assert fast.events == slow.events
                    assert fast.state == slow.state


@pytest.mark.parametrize("name", ["official-2", "official-3", "official-5"])
def test_the_quick_listing_lists_as_the_general_way(name: str) -> None:
    spec, seats = SPECS[name]
    variant = Variant.from_spec(spec)
    assert variant.quick_listing is not None and variant.legal_commands is variant.quick_listing
    kinds = set()
    for seed in range(3):
        for state in states(spec, seats, seed):
            for seat in [None, *range(seats), seats, -1, True, "0"]:
                listed = variant.legal_commands(state, seat)
                expected = variant.ruleset.legal_commands(state, seat)
                # the same commands, their keys in the same order; each shared and read-only
                # (the same object both ways) or a dict of its own
                assert [list(c.items()) for c in listed] == [list(c.items()) for c in expected]
                for quick, general in zip(listed, expected, strict=True):
                    if type(quick) is ReadOnlyDict:
                        assert quick is general
                    else:
                        assert type(quick) is dict and quick is not general
                if state.pending is not None:
                    kinds.add((state.pending["type"], bool(state.uncalled)))
    assert {("play", False), ("play", True), ("drawn", False), ("challenge", False)} <= kinds


@pytest.mark.parametrize("last", ["red-7", "red-draw2", "wild", "wild-draw4"])
@pytest.mark.parametrize("name", ["official-2", "official-3"])
def test_a_play_that_goes_out_answers_as_the_general_way(name: str, last: str) -> None:
    spec, seats = SPECS[name]
    variant = Variant.from_spec({**spec, "options": {**spec["options"], "hand_size": 2}})
    hands = [["blue-3", "green-4"]] * seats
    hands[1] = ["red-1", last]
    state = variant.replay(variant.start(seats, deck=stacked(hands, "red-5", first=1), dealer=0))
    play = {"type": "play", "seat": 1, "card": "red-1", "uno": False}
    state = variant.replay(variant.decide(state, play), state)  # one card left, uno owed
    while state.to_act != (1,):  # the others draw (and pass)
        seat = state.to_act[0]
        (command,) = [c for c in variant.legal_commands(state, seat) if c["type"] in DRAW_PASS]
        state = variant.replay(variant.decide(state, command), state)
    assert state.hands[1] == [last] and state.status == "playing"
    for uno in (False, True):
        command = {"type": "play", "seat": 1, "card": last, "uno": uno}
        assert check_command(variant, state, command)  # answered quickly, as the general way
        assert variant.decide(state, command)[-1]["type"] == "match-ended" or seats == 3
        for color in COLORS:  # a colour named: the general way (refused for a coloured card)
            assert not check_command(variant, state, {**command, "color": color})
