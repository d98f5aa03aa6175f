"""The engine's refusals a person can reach on the play page, said to that person
(web/refusals.py): the messages as the engine raises them, the acting seat never by number."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine import IllegalCommand
from games.errors import Conflict, Forbidden, GameOver, IllegalMove
from web.refusals import refusal

# The table's names as web/names.py gives them: the log's seats 1 and 2 counted from 1.
NAMES = ["ana", "greedy (seat 2)", "greedy (seat 3)"]


def said(code: str, message: str) -> str:
    return refusal(IllegalMove.from_engine(IllegalCommand(code, message)), NAMES)


@pytest.mark.parametrize(
    ("code", "message", "sentence"),
    [
        ("card-not-in-hand", "seat 0 holds no red-1", "You hold no red 1."),
        ("card-not-in-hand", "seat 2 holds no wild-draw4", "You hold no wild draw four."),
        ("card-not-in-hand", "the dealer holds no blue-skip", "You hold no blue skip."),
        ("not-your-turn", "the game is not waiting for seat 0", "It is not your turn."),
        (
            "unexpected-command",
            "seat 0 is asked for a colour, not this command",
            "The game asks you for a colour, not this move.",
        ),
        (
            "unexpected-command",
            "seat 0 is asked for a precommit, not this command",
            "The game asks you for the cards for your lane, not this move.",
        ),
        (
            "unexpected-command",
            "seat 0 is asked for ruling, not this command",
            "The game asks you for another kind of move now.",
        ),
        ("uno-not-owed", "seat 0 owes no uno call", "You owe no UNO call."),
        (
            "not-catchable",
            "seat 2 owes no uno call",
            "greedy (seat 3) owes no UNO call: nothing to catch.",
        ),
        (
            "must-play-drawn-card",
            "after drawing only green-7 may be played",
            "You drew green 7: only that card may be played now.",
        ),
        (
            "cannot-draw",
            "only a seat that cannot play may draw",
            "You may draw only when no card of yours can be played.",
        ),
        # The rest as the engine says them, the cards in words.
        (
            "card-does-not-match",
            "red-5 does not match blue-3 (blue)",
            "That move was refused: red 5 does not match blue 3 (blue).",
        ),
        ("game-over", "the match is over", "That move was refused: the match is over."),
    ],
)
def test_a_refusal_speaks_to_the_person(code, message, sentence):
    assert said(code, message) == sentence


def test_the_engine_raises_the_messages_read_here():
    """Each message read above is one the engine raises (its source, word for word)."""
    source = "".join(path.read_text() for path in Path(engine.__file__).parent.rglob("*.py"))
    for raised in (
        "seat {seat} holds no {card}",
        "the dealer holds no {card}",
        "the game is not waiting for seat {seat}",
        "seat {seat} is asked for {describe(state.pending)}, not this command",
        "seat {seat} owes no uno call",
        "seat {target} owes no uno call",
        "after drawing only {pending['card']} may be played",
        "only a seat that cannot play may draw",
    ):
        assert raised in source, raised


def test_a_forged_seat_and_a_conflict():
    assert (
        refusal(Forbidden("seat 1 is not yours", code="not-your-seat"), NAMES)
        == "You cannot move for greedy (seat 2): that seat is not yours."
    )
    # A seat past the table's names is still said as a person counts it.
    assert (
        refusal(Forbidden("seat 5 is not yours", code="not-your-seat"), NAMES)
        == "You cannot move for seat 6: that seat is not yours."
    )
    assert refusal(Forbidden("sign in to play", code="not-signed-in"), NAMES) == (
        "You cannot do that: sign in to play."
    )
    # A seat the default bot took over (a stale page's click): the person's own seat, said as
    # they count it (games/commands.py names the log's 0-based index).
    assert refusal(
        Forbidden("seat 0 is played by the default bot now", code="seat-handed-over"), NAMES
    ) == ("You cannot do that: seat 1 is played by the default bot now.")
    assert refusal(Conflict(expected_version=3, current_version=4), NAMES).startswith(
        "The game moved on"
    )
    # A stale page's move on a game that ended meanwhile: over, not moved on.
    over = GameOver(game_id=7, expected_version=3, current_version=9)
    assert refusal(over, NAMES) == "That move was refused: the match is over."
