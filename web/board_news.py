"""What the play page says of the story's newest lines (web/story.py tells them): the live
region's announcement after a move, and the phone dock's "just happened" line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # web.story draws on web.board, which this stands beside
    from web.story import Line

# What the live region reads after a move: the newest lines of the story, at most these.
ANNOUNCED_LINES = 8
# The phone's "just happened" line: at most these sentences (it shows two lines of them).
NEWS_LINES = 3


# The dock's list of the cards others played (and their UNO calls and catches) since the
# viewer's last move: at most these, the newest, after "N more" (the story, one tap away, has
# them all).
PLAYS_LISTED = 4
# The dock shows its newest two sentences (the newest in two lines, the one before in one).
SHOWN = 2


# The story's section on the play page, by its heading (templates/games/_story.html).
STORY_TITLE = "What happened"


def sentence(text: str) -> str:
    """A story line as a sentence of its own: ended with a full stop."""
    return text if text.endswith(".") else f"{text}."


def announcement(story: Sequence[Line], since: str | None, my_turn: bool) -> str:
    """What a screen reader hears when the board changes: the story's lines (newest first, as
    story.tell gives them) newer than version `since`, the board the page showed, told oldest
    first, then "Your turn." when it is."""
    try:
        shown = int(since or "")
    except ValueError:
        shown = None
    news = [] if shown is None else [line.text for line in story if line.version > shown]
    # The oldest first: the viewer's own move, then what the others did after it.
    sentences = [sentence(text) for text in reversed(news)]
    if len(sentences) > ANNOUNCED_LINES:
        more = len(sentences) - ANNOUNCED_LINES
        sentences = sentences[:ANNOUNCED_LINES] + [f'And {more} more: see "{STORY_TITLE}".']
    if my_turn:
        sentences.append("Your turn.")
    return " ".join(sentences)


def just_happened(story: Sequence[Line], viewer: int | None) -> str:
    """The phone's "just happened" news, in the story's own words (the lines the live region
    reads too, web/story.py): what happened since the viewer's last move, at most NEWS_LINES
    sentences. What changed the viewer's hand or standing (a catch and its penalty, a new deal,
    a swap of hands) is kept first, the newest of it, then the others' newest moves (the card
    just played on the pile, which a scrolled page no longer shows) fill the room left; the
    sentences kept are told in the order they happened, the newest last. "" when nothing
    happened since, or for a spectator (who has no dock)."""
    return " ".join(_kept(_since(story, viewer)[1]))


def news_sentences(story: Sequence[Line], viewer: int | None) -> list[str]:
    """The dock's "just happened" line, a sentence an item, oldest first: the story's line before
    the viewer's last move, that move, then the news since it (`just_happened`), so the line never
    stands empty while the match plays ("Greta played red 5. You played red 3." until the others
    move). The dock shows the newest whole, an older one in the line left, ended with "…" where
    it is longer, and leaves out the rest (static/dock.css). A hand's end since that move is
    not among them: `hand_over` says it after them. [] for a spectator."""
    mine, since = _since(story, viewer)
    over = _hand_over(since)
    rest = [line for line in since if line is not over]
    told = mine + _kept(rest)
    # Newest first, in this hand (the hand's end, said after these, tells the one before).
    dealt = since[: since.index(over)] if over is not None else since
    plays = [line for line in dealt if line.play and not line.yours]
    if all(sentence(line.text) in told[-SHOWN:] for line in plays):
        return told
    # Cards others played (or their UNO calls and catches) would be left out of the two lines
    # shown (a skip that skipped the viewer, the draw two they drew for, the call after a card):
    # the newest of what reached the hand, then every card played, call and catch since, in few
    # words.
    hand = [sentence(line.text) for line in rest if line.news and not line.play][:1]
    return mine + hand + [plays_since(plays)]


def plays_since(plays: Sequence[Line]) -> str:
    """The cards others played since the viewer's last move, and their UNO calls and catches
    (`plays`, newest first), oldest first: "Since your move: Ana yellow skip, Ben yellow 6, Ben
    called UNO." At most PLAYS_LISTED, the newest, after how many more there were."""
    listed = [line.play for line in reversed(plays[:PLAYS_LISTED])]
    more = len(plays) - len(listed)
    lead = f"{more} more, then " if more else ""
    return f"Since your move: {lead}{', '.join(listed)}."


def hand_over(story: Sequence[Line], viewer: int | None) -> str:
    """The story's line of a hand's end (who went out, the points, the scores) when the hand
    ended since the viewer's last move, else "". The dock says it last, whole, until the viewer
    moves again: the next deal's lines come at once after it, and as the newest of the news
    they had pushed it out of the dock's two lines on a phone."""
    over = _hand_over(_since(story, viewer)[1])
    return "" if over is None else sentence(over.text)


def _hand_over(since: Sequence[Line]) -> Line | None:
    """The newest hand's end among `since` (newest first)."""
    return next((line for line in since if line.kind == "result"), None)


def _since(story: Sequence[Line], viewer: int | None) -> tuple[list[str], list[Line]]:
    """The viewer's last move after the story's line before it (none, or only the move, at the
    story's start), as sentences, and the story's lines since it, newest first."""
    if viewer is None:
        return [], []
    since: list[Line] = []
    mine: list[str] = []
    for at, line in enumerate(story):  # newest first
        if line.yours:
            mine = [sentence(earlier.text) for earlier in reversed(story[at : at + 2])]
            break
        since.append(line)
    return mine, since


def _kept(since: Sequence[Line]) -> list[str]:
    """Of the lines `since` (newest first), at most NEWS_LINES as sentences, oldest first: what
    reached the viewer's hand first, the newest of it, then the others' newest moves."""
    kept = [line for line in since if line.news][:NEWS_LINES]
    kept += [line for line in since if not line.news][: NEWS_LINES - len(kept)]
    ids = {id(line) for line in kept}
    return [sentence(line.text) for line in reversed(since) if id(line) in ids]
