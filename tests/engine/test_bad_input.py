"""Bad input: specs, commands and starts the engine must refuse, changing nothing.

docs/rules.md "Table, turns and common rules": a command that breaks the rules is rejected with
a clear reason and changes nothing. `Table.reject` checks the code, a message, and that neither
the state, nor any seat's view, nor the state passed to `decide` changed.
"""

from __future__ import annotations

import pytest

from engine import DECK, Variant
from engine.commands import IllegalCommand, parse
from tests.engine.table import Table, official

# Seat 1 (left of dealer 0) is to play on red-5.
HANDS = [
    ["red-1", "red-2", "red-3"],
    ["red-6", "wild", "wild-draw4"],
    ["green-3", "red-9", "blue-4"],
]


@pytest.fixture
def table() -> Table:
    return official(HANDS, "red-5", ["blue-8", "blue-9"])


# ------------------------------------------------------------------------------- specs


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {"rules": "uno-extreme"},
            r"unknown ruleset 'uno-extreme'; known: basic-plus, censorship, newno, official",
        ),
        ({}, r"a variant needs 'rules'"),
        ({"rules": ["official"]}, r"unknown ruleset"),
        ("official", r"a variant spec is an object"),
        ({"rules": "official", "colour": "red"}, r"unknown variant field\(s\): colour"),
        (
            {"rules": "official", "options": {"handsize": 7}},
            r"unknown option\(s\) for official: handsize",
        ),
        (
            {"rules": "basic-plus", "options": {"dealer_draws": True}},
            r"unknown option\(s\) for basic-plus",
        ),
        ({"rules": "official", "options": ["hand_size", 7]}, r"options must be an object"),
        (
            {"rules": "official", "options": {"hand_size": 0}},
            r"'hand_size' must be a whole number from 1 to 15, not 0",
        ),
        ({"rules": "official", "options": {"hand_size": 16}}, r"'hand_size' .* not 16"),
        ({"rules": "official", "options": {"hand_size": "7"}}, r"'hand_size' .* not '7'"),
        ({"rules": "basic-plus", "options": {"hand_size": 7.0}}, r"'hand_size' .* not 7.0"),
        (
            {"rules": "official", "options": {"scoring": "highest"}},
            r"'scoring' must be one of winner-takes, running-total, single-hand",
        ),
        (
            {"rules": "official", "options": {"target": 0}},
            r"'target' must be a whole number of at least 1",
        ),
        ({"rules": "official", "options": {"target": True}}, r"'target' .* not True"),
        ({"rules": "official", "options": {"uno_penalty": -1}}, r"'uno_penalty' .* not -1"),
        (
            {"rules": "official", "precognitive": {"lane": 0}},
            r"precognitive lane must be a whole number of at least 1",
        ),
        (
            {"rules": "official", "precognitive": {"lane": "full-hand"}},
            r"precognitive lane .* not 'full-hand'",
        ),
        (
            {"rules": "official", "precognitive": {"sight": "x-ray"}},
            r"precognitive sight must be one of sighted, blind, telepathic",
        ),
        (
            {"rules": "official", "precognitive": {"speed": 2}},
            r"unknown precognitive option\(s\): speed",
        ),
        ({"rules": "official", "precognitive": "blind"}, r"precognitive must be an object"),
        ({"rules": "newno", "precognitive": {}}, r"newno"),
        ({"rules": "censorship", "precognitive": {}}, r"censorship"),
    ],
)
def test_a_bad_spec_is_refused_with_a_clear_message(spec, message):
    """Options: an unknown ruleset, option, option value or precognitive option is refused with a
    clear message at `from_spec`.
    """
    with pytest.raises(ValueError, match=message):
        Variant.from_spec(spec)


# ---------------------------------------------------------------------- malformed commands


@pytest.mark.parametrize(
    ("command", "code"),
    [
        # Not a command object.
        (None, "malformed-command"),
        ("play", "malformed-command"),
        (["play", 1, "red-6"], "malformed-command"),
        # Unknown or missing type, or a type official does not have.
        ({"seat": 1}, "unknown-command"),
        ({"type": "shout", "seat": 1}, "unknown-command"),
        ({"type": "PLAY", "seat": 1, "card": "red-6"}, "unknown-command"),
        ({"type": "swap", "seat": 1, "target": 2}, "unknown-command"),
        ({"type": "submit", "seat": 1, "card": "red-6"}, "unknown-command"),
        ({"type": "precommit", "seat": 1, "cards": ["red-6"]}, "unknown-command"),
        ({"type": "close-window"}, "unknown-command"),
        # Missing and extra fields.
        ({"type": "play", "card": "red-6"}, "malformed-command"),
        ({"type": "play", "seat": 1}, "malformed-command"),
        ({"type": "catch", "seat": 0}, "malformed-command"),
        ({"type": "choose-color", "seat": 1}, "malformed-command"),
        ({"type": "draw", "seat": 1, "card": "red-6"}, "malformed-command"),
        ({"type": "play", "seat": 1, "card": "wild", "colour": "red"}, "malformed-command"),
        ({"type": "call-uno", "seat": 1, "target": 1}, "malformed-command"),
        # Card codes.
        ({"type": "play", "seat": 1, "card": "red-10"}, "unknown-card"),
        ({"type": "play", "seat": 1, "card": "RED-6"}, "unknown-card"),
        ({"type": "play", "seat": 1, "card": "wild-draw2"}, "unknown-card"),
        ({"type": "play", "seat": 1, "card": 6}, "unknown-card"),
        ({"type": "play", "seat": 1, "card": None}, "unknown-card"),
        # Colours.
        ({"type": "play", "seat": 1, "card": "wild", "color": "purple"}, "bad-color"),
        ({"type": "play", "seat": 1, "card": "wild", "color": "Red"}, "bad-color"),
        ({"type": "choose-color", "seat": 1, "color": "black"}, "bad-color"),
        # Seats.
        ({"type": "draw", "seat": 3}, "bad-seat"),
        ({"type": "draw", "seat": -1}, "bad-seat"),
        ({"type": "draw", "seat": "1"}, "bad-seat"),
        ({"type": "draw", "seat": 1.0}, "bad-seat"),
        ({"type": "draw", "seat": True}, "bad-seat"),
        ({"type": "draw", "seat": None}, "bad-seat"),
        ({"type": "catch", "seat": 0, "target": 3}, "bad-seat"),
        ({"type": "catch", "seat": 0, "target": "1"}, "bad-seat"),
        # The uno flag.
        ({"type": "play", "seat": 1, "card": "red-6", "uno": 1}, "malformed-command"),
        ({"type": "play", "seat": 1, "card": "red-6", "uno": "false"}, "malformed-command"),
        ({"type": "play", "seat": 1, "card": "red-6", "uno": None}, "malformed-command"),
        # A system command has no seat.
        ({"type": "next-hand", "seat": 0}, "malformed-command"),
    ],
)
def test_a_malformed_command_is_rejected_and_changes_nothing(table, command, code):
    """A command that breaks the rules is rejected with a clear reason and changes nothing."""
    table.reject_raw(code, command)


@pytest.mark.parametrize("kind", [["play"], {"play": 1}])
def test_a_command_type_that_is_not_a_string_is_rejected(table, kind):
    """A command that breaks the rules is rejected with a clear reason and changes nothing."""
    table.reject_raw("unknown-command", {"type": kind, "seat": 1})


def test_an_unknown_type_lists_a_seats_commands_apart_from_the_systems():
    """A misspelt type is told the commands a seat may send, and apart from them the two only
    the system sends (a seat that sent one would be refused for its seat)."""
    with pytest.raises(IllegalCommand) as refused:
        parse({"type": "plya", "seat": 0}, 2)
    assert refused.value.code == "unknown-command"
    seats, system = (
        str(refused.value).split("; commands a seat sends: ")[1].split("; only the server sends: ")
    )
    assert seats.startswith("play, draw, pass, call-uno") and "next-hand" not in seats
    assert system == "next-hand, close-window"


def test_choose_color_without_a_colour_is_rejected(table):
    """`choose-color` names the colour; the current colour is the colour named for a black card."""
    table.do("play", 1, card="wild", uno=False)
    table.reject("bad-color", "choose-color", 1, color=None)


# --------------------------------------------------------------- commands out of place


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"type": "play", "seat": 2, "card": "red-9", "uno": False}, "not-your-turn"),
        ({"type": "draw", "seat": 0}, "not-your-turn"),
        ({"type": "pass", "seat": 2}, "not-your-turn"),
        ({"type": "choose-color", "seat": 0, "color": "red"}, "not-your-turn"),
        ({"type": "accept", "seat": 2}, "not-your-turn"),
        ({"type": "pass", "seat": 1}, "unexpected-command"),
        ({"type": "accept", "seat": 1}, "unexpected-command"),
        ({"type": "challenge", "seat": 1}, "unexpected-command"),
        ({"type": "choose-color", "seat": 1, "color": "red"}, "unexpected-command"),
        ({"type": "play", "seat": 1, "card": "red-7", "uno": False}, "card-not-in-hand"),
        ({"type": "play", "seat": 1, "card": "red-6", "color": "blue"}, "color-not-needed"),
        ({"type": "next-hand"}, "hand-not-over"),
    ],
)
def test_a_command_out_of_turn_or_against_the_rules_is_rejected(table, command, code):
    """A command that breaks the rules is rejected with a clear reason and changes nothing."""
    table.reject_raw(code, command)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"type": "accept", "seat": 0}, "not-your-turn"),
        ({"type": "challenge", "seat": 1}, "not-your-turn"),
        ({"type": "play", "seat": 2, "card": "red-9", "uno": False}, "unexpected-command"),
        ({"type": "draw", "seat": 2}, "unexpected-command"),
        ({"type": "choose-color", "seat": 2, "color": "red"}, "unexpected-command"),
    ],
)
def test_only_the_next_seat_decides_on_a_wild_draw4(table, command, code):
    """The next seat must either accept (draw 4, lose the turn) or `challenge`."""
    table.do("play", 1, card="wild-draw4", color="blue", uno=False)
    table.reject_raw(code, command)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"type": "play", "seat": 1, "card": "red-6", "uno": False}, "unexpected-command"),
        ({"type": "draw", "seat": 1}, "unexpected-command"),
        ({"type": "choose-color", "seat": 2, "color": "red"}, "not-your-turn"),
    ],
)
def test_a_pending_colour_must_be_named_by_its_player_first(table, command, code):
    """`wild` … name the colour (`choose-color`)."""
    table.do("play", 1, card="wild", uno=False)
    table.reject_raw(code, command)


def hand_over() -> Table:
    t = official([["red-1", "red-2"], ["red-6", "red-7"], ["green-3", "red-9"]], "red-5")
    t.do(
        "play", 1, card="red-6", uno=False
    )  # seat 1 owes uno: a catch would be legal while playing
    t.do("call-uno", 1)
    t.do("play", 2, card="red-9", uno=False)
    t.do("play", 0, card="red-1", uno=False)
    t.do("play", 1, card="red-7", uno=False)
    assert t.view()["status"] == "hand-over"
    return t


@pytest.mark.parametrize(
    "command",
    [
        {"type": "play", "seat": 2, "card": "green-3", "uno": False},
        {"type": "draw", "seat": 2},
        {"type": "call-uno", "seat": 0},
        {"type": "catch", "seat": 2, "target": 0},
        {"type": "choose-color", "seat": 2, "color": "red"},
    ],
)
def test_a_seat_command_during_hand_over_is_rejected(command):
    """Between hands only the system's `next-hand` is legal."""
    hand_over().reject_raw("hand-over", command)


@pytest.mark.parametrize(
    "deck",
    [
        "red-5",
        list(DECK[:107]),
        [*DECK, "red-0"],
        ["red-0", *DECK[:-1]],  # 108 cards, but two red-0s and three wild-draw4s
        [*DECK[:-1], "purple-3"],
    ],
)
def test_next_hand_with_a_bad_stacked_deck_is_rejected(deck):
    """A stacked deck is a full 108-card order, top card first."""
    hand_over().reject("bad-deck", "next-hand", deck=deck)


@pytest.mark.parametrize(
    "command",
    [
        {"type": "play", "seat": 2, "card": "green-3", "uno": False},
        {"type": "call-uno", "seat": 0},
        {"type": "catch", "seat": 2, "target": 0},
        {"type": "next-hand"},
        {"type": "next-hand", "deck": list(DECK)},
    ],
)
def test_every_command_after_the_match_is_over_is_rejected(command):
    """The match is over: nothing more is played."""
    t = official([["red-1"], ["red-7"], ["blue-1"]], "red-5", scoring="single-hand")
    t.do("play", 1, card="red-7", uno=False)
    assert t.view()["status"] == "match-over"
    t.reject_raw("game-over", command)


# ------------------------------------------------------------------------------- start


@pytest.mark.parametrize(
    ("rules", "seats", "kwargs", "message"),
    [
        ("official", 1, {}, r"official needs 2 to 10 seats, not 1"),
        ("official", 11, {}, r"needs 2 to 10 seats"),
        ("official", "3", {}, r"needs 2 to 10 seats"),
        ("basic-plus", 0, {}, r"basic-plus needs 2 to 10 seats"),
        ("official", 4, {"deck": list(DECK[:107])}, r"108 cards"),
        ("official", 4, {"deck": [*DECK, "red-0"]}, r"108 cards"),
        ("official", 4, {"deck": ["red-0", *DECK[:-1]]}, r"108 cards"),
        ("official", 4, {"dealer": 4}, r"dealer must be a seat from 0 to 3"),
        ("official", 4, {"dealer": -1}, r"dealer must be a seat"),
        ("official", 4, {"dealer": "0"}, r"dealer must be a seat"),
        ("official", 4, {"first": 1}, r"official has a dealer: give dealer=, not first="),
        ("official", 4, {"dealer": 0, "first": 1}, r"give dealer=, not first="),
        ("basic-plus", 4, {"dealer": 0}, r"basic-plus has no dealer: give first=, not dealer="),
        ("basic-plus", 4, {"first": 4}, r"first must be a seat from 0 to 3"),
        ("official", 4, {"ages": [1, 2, 3, 4]}, r"official has no seat ages"),
    ],
)
def test_a_bad_start_is_refused(rules, seats, kwargs, message):
    """A game can be started from a given deck order and a given dealer or first seat; anything else
    is refused.
    """
    v = Variant.from_spec({"rules": rules})
    with pytest.raises(ValueError, match=message):
        v.start(seats, **kwargs)


def test_a_stacked_deck_of_non_cards_is_refused():
    """A stacked deck is a full 108-card order, top card first."""
    v = Variant.from_spec({"rules": "official"})
    with pytest.raises(ValueError, match="108 cards"):
        v.start(4, deck=[None] * 108)


def test_hands_that_do_not_fit_the_deck_are_refused():
    """`hand_size` is an option of every ruleset: 1–15 (as long as the hands and the flip fit the
    108 cards).
    """
    v = Variant.from_spec({"rules": "official", "options": {"hand_size": 15}})
    with pytest.raises(ValueError, match="10 hands of 15 do not fit the deck"):
        v.start(10)
    assert v.start(7, seed=1)
