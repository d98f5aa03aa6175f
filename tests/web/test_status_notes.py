"""The status box's words follow what the viewer can do (web/board.py): newno's stack prompt
from the seat's legal commands, the censor's note when approving is not among them, and the
note of a precognitive lane flushed at the start of the viewer's turn (the owner's alone); the
room the box keeps on a desktop for the lines that may come."""

from __future__ import annotations

from typing import Any

import pytest

from engine.variant import Variant
from tests.engine.decks import stacked
from web import board, status_words
from web.names import Names

NAMES = ["ana", "bot", "cy"]
KINDS = ["person", "bot", "bot"]


def board_of(variant: Variant, state: Any, seat: int | None, bots: bool = True) -> board.Table:
    view = variant.view(state, seat)
    count = view["seats"]
    return board.table(
        view,
        NAMES[:count],
        KINDS[:count],
        you=seat,
        spec=variant.spec,
        legal=variant.legal_commands(state, seat) if seat is not None else None,
        bots=bots,
    )


def run(variant: Variant, state: Any, *commands: dict[str, Any]) -> Any:
    for command in commands:
        state = variant.replay(variant.decide(state, command), state)
    return state


def newno_stack(seat_zero: list[str]) -> tuple[Variant, Any]:
    """newno, two seats: the bot opens with its wild draw four; seat 0 answers the stack."""
    variant = Variant.from_spec({"rules": "newno"})
    hands = [
        seat_zero,
        ["wild-draw4", "green-3", "blue-9", "yellow-8", "blue-5", "green-6", "yellow-6"],
    ]
    state = variant.replay(variant.start(2, deck=stacked(hands, "red-4"), dealer=1))
    play = {"type": "play", "seat": 1, "card": "wild-draw4", "color": "red", "uno": False}
    return variant, run(variant, state, play)


def test_a_stack_with_nothing_to_add_says_only_the_cards_can_be_taken():
    variant, state = newno_stack(
        ["blue-3", "green-5", "yellow-7", "green-1", "blue-6", "yellow-9", "blue-1"]
    )

    assert board_of(variant, state, 0).waiting == (
        "Stack of 4: you have no wild draw four to add, so take the cards"
    )
    # The others (and a spectator) read what the seat may do, as before.
    assert board_of(variant, state, None).waiting == (
        "Stack of 4: ana may stack a wild draw four or take the cards"
    )


def test_a_stack_the_seat_can_add_to_offers_both():
    variant, state = newno_stack(
        ["blue-3", "green-5", "yellow-7", "green-1", "blue-6", "yellow-9", "wild-draw4"]
    )

    assert board_of(variant, state, 0).waiting == (
        "Stack of 4: you may stack a wild draw four or take the cards"
    )


# Seat 1's hand for each card it submits: with a wild draw four it also holds blue, so the four
# is not legal (a wild goes on any card, but only while its holder has nothing in the colour).
SUBMITTERS = {
    "yellow-3": ["yellow-3", "yellow-4", "red-1", "red-2", "yellow-5", "red-6", "red-7"],
    "wild-draw4": ["wild-draw4", "blue-4", "red-1", "red-2", "yellow-5", "red-6", "red-7"],
}


def censor_ruling(censor: list[str], card: str = "yellow-3") -> tuple[Variant, Any]:
    """Censorship, three seats, seat 0 the censor; seat 1 submits `card` on blue 8 (a black
    card calling red)."""
    variant = Variant.from_spec({"rules": "censorship"})
    hands = [
        censor,
        SUBMITTERS[card],
        ["green-9", "blue-9", "yellow-9", "green-0", "blue-0", "yellow-0", "green-8"],
    ]
    state = variant.replay(variant.start(3, deck=stacked(hands, "blue-8", first=1), dealer=0))
    submit = {"type": "submit", "seat": 1, "card": card}
    if card.startswith("wild"):
        submit["color"] = "red"
    return variant, run(variant, state, submit)


@pytest.mark.parametrize(
    ("card", "why"),
    [
        ("yellow-3", "bot's yellow 3 cannot be played on blue 8"),
        # The true reason, not the blue 8 it would go on.
        ("wild-draw4", "bot's wild draw four cannot be played while bot holds a blue card"),
    ],
)
def test_a_censor_who_cannot_approve_is_told_the_submission_can_only_be_replaced(card, why):
    variant, state = censor_ruling(
        ["blue-2", "green-1", "green-3", "red-9", "green-5", "green-7", "red-0"], card
    )

    assert board_of(variant, state, 0).note == (
        f"{why}, so you cannot approve it: it can only be replaced by one of your outlined cards."
    )
    # The submitter and the third seat see no card and no note.
    assert board_of(variant, state, 1).note == ""
    assert board_of(variant, state, 2).note == ""


@pytest.mark.parametrize(
    ("card", "theirs"),
    [
        ("yellow-3", "bot's yellow 3"),
        ("wild-draw4", "bot's wild draw four (bot holds a blue card)"),
    ],
)
def test_a_censor_with_no_legal_card_at_all_is_told_to_give_a_card_back(card, theirs):
    variant, state = censor_ruling(
        ["red-2", "green-1", "green-3", "red-9", "green-5", "green-7", "red-0"], card
    )

    assert board_of(variant, state, 0).note == (
        f"No card can be played on blue 8: neither {theirs} nor any of yours. You take the "
        "submitted card and give bot back a card of your choice (the submitted card itself is "
        "allowed); bot then draws a card."
    )


def test_a_censor_who_may_approve_has_no_note():
    variant = Variant.from_spec({"rules": "censorship"})
    hands = [
        ["blue-2", "green-1", "green-3", "red-9", "green-5", "green-7", "red-0"],
        ["blue-3", "yellow-4", "red-1", "red-2", "yellow-5", "red-6", "red-7"],
        ["green-9", "blue-9", "yellow-9", "green-0", "blue-0", "yellow-0", "green-8"],
    ]
    state = variant.replay(variant.start(3, deck=stacked(hands, "blue-8", first=1), dealer=0))
    state = run(variant, state, {"type": "submit", "seat": 1, "card": "blue-3"})

    assert board_of(variant, state, 0).note == ""


def flushed(sight: str) -> tuple[Variant, Any, list[dict[str, Any]]]:
    """Precognitive over official, two seats: seat 0 plays red 5 and lanes yellow 2, yellow 6;
    the bot draws; seat 0's lane cannot play on red 5 and is flushed, green skip drawn."""
    variant = Variant.from_spec({"precognitive": {"lane": 2, "sight": sight}})
    hands = [
        ["red-5", "yellow-2", "yellow-6", "green-1", "green-3", "blue-7", "blue-8"],
        ["green-9", "blue-9", "yellow-9", "green-0", "blue-0", "yellow-0", "green-7"],
    ]
    events = variant.start(2, deck=stacked(hands, "red-4", ["blue-1", "green-skip"]), dealer=1)
    state = variant.replay(events)
    for command in (
        {"type": "play", "seat": 0, "card": "red-5", "uno": False},
        {"type": "precommit", "seat": 0, "cards": ["yellow-2", "yellow-6"], "uno": False},
        {"type": "draw", "seat": 1},
        {"type": "precommit", "seat": 1, "cards": ["green-9", "blue-9"], "uno": False},
    ):
        new = variant.decide(state, command)
        state = variant.replay(new, state)
        events = [*events, *new]
    return variant, state, [{"version": n, "event": e} for n, e in enumerate(events, start=1)]


def note_for(variant: Variant, state: Any, events: list[dict[str, Any]], seat: int) -> str:
    seen = [{**item, "event": variant.view_event(item["event"], seat)} for item in events]
    return status_words.lane_flushed(seen, variant.view(state, seat), Names(NAMES[:2], seat))


def test_a_flushed_lane_is_told_to_its_owner_with_its_cards():
    for sight in ("sighted", "blind"):
        variant, state, events = flushed(sight)

        assert note_for(variant, state, events, 0) == (
            "Your lane could not play: its front card, yellow 2, cannot go on red 5. So your "
            "lane's 2 cards (yellow 2 and yellow 6) went back into your hand and you drew "
            "green skip: that was your turn."
        )
        # Not the other seat's to read: its precommit is not pending, and the cards are not its.
        assert note_for(variant, state, events, 1) == ""


def test_no_flush_note_once_the_lane_is_filled_again():
    variant, state, events = flushed("sighted")
    refill = {"type": "precommit", "seat": 0, "cards": ["green-1", "green-3"], "uno": False}
    new = variant.decide(state, refill)
    state = variant.replay(new, state)
    events += [{"version": len(events) + n, "event": e} for n, e in enumerate(new, start=1)]

    assert note_for(variant, state, events, 0) == ""


def test_the_status_box_keeps_room_for_the_lines_its_situation_can_bring():
    """The lines kept on a desktop (the room's data-lines, templates/games/_game.html)."""
    variant, state = newno_stack(
        ["blue-3", "green-5", "yellow-7", "green-1", "blue-6", "yellow-9", "blue-1"]
    )
    # newno: a jump-in line (two) for everyone; the grace line (two) for a seat, where bots play.
    assert board_of(variant, state, 0).room == 4
    assert board_of(variant, state, 0, bots=False).room == 2
    assert board_of(variant, state, None).room == 2

    # This hand's censor: the note's four lines, which the grace line shares; the others, the
    # grace line's.
    variant, state = censor_ruling(
        ["blue-2", "green-1", "green-3", "red-9", "green-5", "green-7", "red-0"]
    )
    assert board_of(variant, state, 0).room == 4
    assert board_of(variant, state, 1).room == 2
    assert board_of(variant, state, 1, bots=False).room == 0

    # A lane's owner asked to fill it: the flushed note's room (four lines for a lane of two,
    # with the longest card names); the other seat, not asked, the grace line's.
    variant, state, _ = flushed("sighted")
    assert board_of(variant, state, 0).room == 4
    assert board_of(variant, state, 1).room == 2
    assert board._flush_lines({"precognitive": {"lane": 5}}) == 5
    assert board._flush_lines({"precognitive": {"lane": "initial-hand"}}) == 6
