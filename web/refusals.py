"""A refused move, said to the person who made it, on the play page.

The engine's messages (engine/rules/, through games/errors.py IllegalMove) are written for
programs and logs: they name the acting seat by its 0-based number ("seat 3 holds no red-1")
and cards by code. The API keeps them as they are; the play page says the ones a person can
meet by clicking (or from a page the game has moved past) to that person: "You hold no red 1."
The stable code is shown after the sentence, as for every refusal (templates/games/_game.html).
A seat the page names is named as the table names it, counted from 1 (web/names.py).

The seat the engine names in these is the acting seat, which is the person's: games/commands.py
refuses a command for a seat they do not hold before the engine sees it (`not-your-seat`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from games.errors import Conflict, Forbidden, GameError, GameOver
from web.cards import card_name
from web.names import Names, seats_counted
from web.sentences import sentence

_CARD_CODE = re.compile(
    r"\b(?:red|yellow|green|blue)-(?:[0-9]|skip|reverse|draw2)\b|\bwild(?:-draw4)?\b"
)

Say = Callable[[re.Match[str], Sequence[str]], str]


def _seat(names: Sequence[str], number: str) -> str:
    """Seat `number` (the engine's, 0-based) by its name at the table ("greedy (seat 2)" where
    names repeat, counted from 1: web/names.py)."""
    return Names(names, None).who(int(number))


# What the engine says a seat is asked for (engine/rules/base.py `describe`), in the page's
# words; any other (a family's own decision, named by its type) is "another kind of move".
_ASKED: dict[str, str] = {
    "a play or a draw": "a play or a draw",
    "a play of the drawn card or a pass": "a play of the card you drew, or a pass",
    "a colour": "a colour",
    "a challenge or an accept": "a challenge, or to take the cards",
    "a precommit": "the cards for your lane",
}

# (code, the engine's message, what the page says instead), for the refusals a person can reach:
# a card clicked on a page the game has moved past (not in the hand any more, no longer
# matching, not their turn, a choice already made), a drawn card's rule, a catch of a seat that
# called in time.
_TO_YOU: list[tuple[str, re.Pattern[str], Say]] = [
    (
        "card-not-in-hand",
        re.compile(r"(?:seat \d+|the dealer) holds no (?P<card>\S+)"),
        lambda m, _: f"You hold no {_cards(m['card'])}",
    ),
    (
        "not-your-turn",
        re.compile(r"the game is not waiting for seat \d+"),
        lambda m, _: "It is not your turn",
    ),
    (
        "unexpected-command",
        re.compile(r"seat \d+ is asked for (?P<what>.+), not this command"),
        lambda m, _: (
            f"The game asks you for {_ASKED[m['what']]}, not this move"
            if m["what"] in _ASKED
            else "The game asks you for another kind of move now"
        ),
    ),
    (
        "uno-not-owed",
        re.compile(r"seat \d+ owes no uno call"),
        lambda m, _: "You owe no UNO call",
    ),
    (
        "not-catchable",
        re.compile(r"seat (?P<seat>\d+) owes no uno call"),
        lambda m, names: f"{_seat(names, m['seat'])} owes no UNO call: nothing to catch",
    ),
    (
        "must-play-drawn-card",
        re.compile(r"after drawing only (?P<card>\S+) may be played"),
        lambda m, _: f"You drew {_cards(m['card'])}: only that card may be played now",
    ),
    (
        "cannot-draw",
        re.compile(r"only a seat that cannot play may draw"),
        lambda m, _: "You may draw only when no card of yours can be played",
    ),
]


# The refusals that name a seat other than the person's: said with the table's names.
NAMES_A_SEAT = frozenset({"not-catchable", "not-your-seat"})


def refusal(error: GameError, names: Sequence[str] = ()) -> str:
    """The sentence the play page shows for `error` (its code is shown after it), with `names`
    the table's seat names (web/names.py seat_names) for the seats a message names."""
    if isinstance(error, GameOver):
        return "That move was refused: the match is over."
    if isinstance(error, Conflict):
        return "The game moved on before your move arrived: here is the board as it is now."
    if isinstance(error, Forbidden):
        if error.code == "not-your-seat":
            found = re.fullmatch(r"seat (\d+) is not yours", error.message)
            if found:
                return f"You cannot move for {_seat(names, found[1])}: that seat is not yours."
        return f"You cannot do that: {seats_counted(error.message).rstrip('.')}."
    message = error.message
    for code, pattern, say in _TO_YOU:
        found = pattern.fullmatch(message) if error.code == code else None
        if found:
            return sentence(say(found, names))
    return f"That move was refused: {seats_counted(_cards(message)).rstrip('.')}."


def _cards(text: str) -> str:
    """The cards in the words the page uses for them: "red 7", not "red-7"."""
    return _CARD_CODE.sub(lambda code: card_name(code[0]), text)
