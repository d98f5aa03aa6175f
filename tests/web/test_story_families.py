"""The play page's words in the families' own situations, each dealt from a stacked deck and
played through the engine: the story (web/story.py) and the status line, the dock's "just
happened" line and the live region (web/board_news.py), as each seat reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.variant import Variant
from tests.engine.decks import stacked
from web import board, board_news
from web.story import Line, tail, tell


def played(
    variant: Variant, events: list[dict[str, Any]], *commands: dict[str, Any]
) -> tuple[Any, list[dict[str, Any]]]:
    """The state after `commands`, and the whole log as `[{"version", "event"}]`."""
    state = variant.replay(events)
    for command in commands:
        new = variant.decide(state, command)
        state = variant.replay(new, state)
        events = [*events, *new]
    return state, [{"version": n, "event": e} for n, e in enumerate(events, start=1)]


def seen_by(variant: Variant, log: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return [{**item, "event": variant.view_event(item["event"], seat)} for item in log]


def story(
    variant: Variant, log: list[dict[str, Any]], names: list[str], seat: int | None
) -> list[str]:
    return [line.text for line in tell(seen_by(variant, log, seat), names, seat)]


def status(variant: Variant, state: Any, names: list[str], seat: int | None) -> str:
    view = variant.view(state, seat)
    legal = variant.legal_commands(state, seat) if seat is not None else None
    table = board.table(view, names, ["bot"] * len(names), you=seat, spec=variant.spec, legal=legal)
    return table.waiting


# ----------------------------------------------------------------------------- newno


def test_newno_credits_the_direction_to_the_second_play_that_set_it():
    # Three seats: random opens with green 8 on green 5; of its two neighbours, greedy (on its
    # counter-clockwise side) answers with green 2, so play goes counter-clockwise from random
    # through greedy. The direction is greedy's doing, not random's.
    names = ["random", "stacker", "greedy"]
    variant = Variant.from_spec({"rules": "newno"})
    hands = [
        ["green-8", "red-1", "red-3", "blue-4", "yellow-6", "blue-7", "yellow-9"],
        ["red-4", "red-5", "blue-1", "blue-3", "yellow-1", "yellow-3", "blue-6"],
        ["green-2", "red-8", "red-9", "blue-8", "yellow-8", "blue-9", "yellow-4"],
    ]
    start = variant.start(3, deck=stacked(hands, "green-5", first=1), dealer=0)
    state, log = played(
        variant,
        start,
        {"type": "play", "seat": 0, "card": "green-8", "uno": False},
        {"type": "play", "seat": 2, "card": "green-2", "uno": False},
    )
    assert variant.view(state, None)["direction"] == "counter-clockwise"

    lines = story(variant, log, names, None)
    assert lines[:2] == [
        "greedy played green 2 and set play going counter-clockwise.",
        "random played green 8.",
    ]
    assert story(variant, log, names, 2)[0] == (
        "You played green 2 and set play going counter-clockwise."
    )
    # A window of the log that opens on the direction tells the line as the whole story does.
    second = next(i for i, item in enumerate(log) if item["event"]["type"] == "direction-changed")
    window = tail(seen_by(variant, log, None), names, None, start=second + 1, count=1)
    assert window is not None
    assert [line.text for line in window] == [lines[0]]


# ------------------------------------------------------------------------ censorship

# ana deals (the censor); the built-in bot "censor" sits at seat 1, greedy at seat 2.
CENSORSHIP = ["ana", "censor", "greedy"]


def censorship_round() -> tuple[Variant, Any, list[dict[str, Any]]]:
    """Blue 8 turned up: the bot "censor" submits blue 3 and ana approves it; greedy submits
    blue 9 and ana approves it; ana, holding nothing that fits blue 9, draws yellow 9, which
    fits: the censor must play it."""
    variant = Variant.from_spec({"rules": "censorship"})
    hands = [
        ["red-1", "red-2", "green-3", "green-4", "red-5", "green-6", "red-7"],
        ["blue-3", "yellow-4", "red-6", "red-0", "yellow-5", "green-1", "green-7"],
        ["blue-9", "green-0", "yellow-0", "green-2", "yellow-1", "yellow-2", "green-5"],
    ]
    deck = stacked(hands, "blue-8", ["yellow-9"], first=1)
    return variant, *played(
        variant,
        variant.start(3, deck=deck, dealer=0),
        {"type": "submit", "seat": 1, "card": "blue-3"},
        {"type": "approve", "seat": 0},
        {"type": "submit", "seat": 2, "card": "blue-9"},
        {"type": "approve", "seat": 0},
        {"type": "draw", "seat": 0},
    )


def test_the_censor_who_drew_a_fitting_card_is_told_to_play_it():
    variant, state, _ = censorship_round()

    assert [c["type"] for c in variant.legal_commands(state, 0)] == ["play"]
    assert status(variant, state, CENSORSHIP, 0) == (
        "You drew yellow 9: as the censor you must play it"
    )
    assert status(variant, state, CENSORSHIP, 1) == (
        "ana (the censor) drew a card that can be played and must play it"
    )


def test_the_censor_role_is_never_taken_for_the_bot_called_censor():
    variant, state, log = censorship_round()

    # ana, the censor herself: "You approved", and the bot's name stays a name.
    assert story(variant, log, CENSORSHIP, 0)[1:5] == [
        "You approved greedy's blue 9.",
        "greedy submitted blue 9 to you, the censor.",
        # The bot named "censor" is quoted: the seat is told from the role.
        "You approved “censor”'s blue 3.",
        "“censor” submitted blue 3 to you, the censor.",
    ]
    # greedy: the censor is ana, named with her role.
    assert story(variant, log, CENSORSHIP, 2)[1:5] == [
        "ana (the censor) approved your blue 9.",
        "You submitted blue 9 to ana (the censor).",
        "ana (the censor) approved “censor”'s blue 3.",
        "“censor” submitted a card face down to ana (the censor).",
    ]


def test_the_censors_banners_name_the_role_by_the_seat():
    variant = Variant.from_spec({"rules": "censorship"})
    hands = [
        ["red-1", "red-2", "green-3", "green-4", "red-5", "green-6", "red-7"],
        ["blue-3", "yellow-4", "red-6", "red-0", "yellow-5", "green-1", "green-7"],
        ["blue-9", "green-0", "yellow-0", "green-2", "yellow-1", "yellow-2", "green-5"],
    ]
    start = variant.start(3, deck=stacked(hands, "blue-8", first=1), dealer=0)
    state, _ = played(variant, start)
    # The bot called "censor" is quoted, as in the story: the seat told from the role.
    assert status(variant, state, CENSORSHIP, 0) == (
        "“censor” must submit a card to you, the censor"
    )
    assert status(variant, state, CENSORSHIP, 1) == "You must submit a card to ana (the censor)"

    state, _ = played(variant, start, {"type": "submit", "seat": 1, "card": "blue-3"})
    assert status(variant, state, CENSORSHIP, 0) == "You, the censor, rule on “censor”'s card"
    assert status(variant, state, CENSORSHIP, 2) == "ana (the censor) rules on “censor”'s card"


# ---------------------------------------------------------------- the live region and the dock


def test_the_live_region_sends_the_rest_to_the_story_by_its_heading():
    lines = [board_line(n) for n in range(12, 0, -1)]
    said = board_news.announcement(lines, "0", my_turn=False)

    assert said.endswith('And 4 more: see "What happened".')
    heading = (Path(__file__).parents[2] / "templates/games/_story.html").read_text()
    assert '<h2 id="story-title">What happened</h2>' in heading


def board_line(version: int) -> Line:
    return Line(version, f"Line {version}.")


OFFICIAL = ["ana", "random", "stacker", "greedy"]


def official_round() -> tuple[Variant, Any, list[dict[str, Any]]]:
    """Official, four seats, ana deals: random plays blue 5 on blue 1, stacker draws red 9 (it
    has nothing to play) and greedy plays blue 2; ana's turn."""
    variant = Variant.from_spec({"rules": "official"})
    hands = [
        ["green-1", "green-2", "green-3", "green-4", "yellow-5", "green-6", "yellow-7"],
        ["blue-5", "yellow-4", "red-6", "red-0", "yellow-6", "green-5", "green-7"],
        ["red-3", "green-0", "yellow-0", "green-8", "yellow-1", "yellow-2", "green-9"],
        ["blue-2", "red-4", "red-7", "yellow-3", "red-8", "yellow-8", "red-1"],
    ]
    deck = stacked(hands, "blue-1", ["red-9"], first=1)
    return variant, *played(
        variant,
        variant.start(4, deck=deck, dealer=0),
        {"type": "play", "seat": 1, "card": "blue-5", "uno": False},
        {"type": "draw", "seat": 2},
        {"type": "play", "seat": 3, "card": "blue-2", "uno": False},
    )


def test_the_dock_tells_what_happened_in_the_order_it_happened():
    variant, state, log = official_round()
    lines = tell(seen_by(variant, log, 0), OFFICIAL, 0)

    # The deal (news to ana) is kept; of the others' moves the newest fill the room; all told
    # in the order they happened, the newest last (the dock clips the start, never the end).
    assert board_news.just_happened(lines, 0) == (
        "Hand 1 was dealt, 7 cards each; you dealt; your cards: green 1, green 2, green 3, "
        "green 4, yellow 5, green 6 and yellow 7. stacker drew a card. greedy played blue 2."
    )
    # The live region reads the same order.
    assert board_news.announcement(lines, "0", my_turn=True).endswith(
        "stacker drew a card. greedy played blue 2. Your turn."
    )

    # After ana's move, the three others' moves since, oldest first.
    state, log = played(
        variant,
        [item["event"] for item in log],
        {"type": "play", "seat": 0, "card": "green-2", "uno": False},
        {"type": "play", "seat": 1, "card": "green-5", "uno": False},
        {"type": "play", "seat": 2, "card": "green-8", "uno": False},
        {"type": "play", "seat": 3, "card": "yellow-8", "uno": False},
    )
    lines = tell(seen_by(variant, log, 0), OFFICIAL, 0)
    assert board_news.just_happened(lines, 0) == (
        "random played green 5. stacker played green 8. greedy played yellow 8."
    )
