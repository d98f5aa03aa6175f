"""Play pages as data: what cards a page shows, and where, for soak/leaks.py to check.

A page is HTML (web/play.py and templates/games/); a card appears on it as a face (`data-card`),
inside a command button's JSON (`<input name="command">`), or in words ("red 7", "wild draw
four") in text and in `aria-label`/`title`. Every one of them is read here, sorted by the part of
the page it is in: the viewer's hand, the story (each line with its event's version), the last
hand's result, and the rest of the board. A page is parsed as soon as it comes, so that the soak
keeps cards, not pages.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from engine import DECK
from web.cards import card_name

CARDS = set(DECK)
# Every card's name in words, the longest first so that "wild draw four" is not read as "wild".
NAMED = {card_name(code): code for code in CARDS}
NAME = re.compile(
    r"\b(" + "|".join(re.escape(name) for name in sorted(NAMED, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
# Elements with no end tag: they open no part of the page.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


@dataclass
class Page:
    """The cards of one play page served to `seat` (None: a spectator) of `game`, at the
    board's `version` (section#game's data-version; None when the page had no board)."""

    source: str
    game: int
    seat: int | None
    version: int | None = None
    # The faces in the hand area: the viewer's hand, one face per card.
    hand: list[str] = field(default_factory=list)
    # Every card named on the board outside the hand, the story and the scores.
    board: list[str] = field(default_factory=list)
    # (event version, cards named) for each line of the story.
    story: list[tuple[int, list[str]]] = field(default_factory=list)
    # Cards named by the dock's "just happened" line: the story's newest lines again (web/board.py
    # just_happened), so they are checked as the story's, not against the board's version.
    news: list[str] = field(default_factory=list)
    # (hand number, its faces) of the last hand's result, when shown.
    last_hand: tuple[int, list[str]] | None = None
    at: float = field(default_factory=time.time)


def cards_in_words(text: str) -> list[str]:
    return [NAMED[match.lower()] for match in NAME.findall(text)]


def cards_in_json(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value in CARDS else []
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in_json(item)]
    if isinstance(value, list):
        return [card for item in value for card in cards_in_json(item)]
    return []


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        # Open elements, each with the part of the page it starts (or None).
        self.open: list[tuple[str, tuple[str, int] | None]] = []
        self.hand_title = False

    def part(self) -> tuple[str, int]:
        for _, part in reversed(self.open):
            if part is not None:
                return part
        return ("board", 0)

    def add(self, cards: list[str], face: bool = False) -> None:
        """Faces in the hand and the last hand's result belong to them; every other card named
        belongs to its story line, or else to the board."""
        kind, _ = self.part()
        if face and kind == "hand":
            self.page.hand.extend(cards)
        elif face and kind == "last-hand" and self.page.last_hand is not None:
            self.page.last_hand[1].extend(cards)
        elif kind == "story":
            self.page.story[-1][1].extend(cards)
        elif kind == "news":
            self.page.news.extend(cards)
        else:
            self.page.board.extend(cards)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        classes = values.get("class", "").split()
        part: tuple[str, int] | None = None
        if tag == "section" and values.get("id") == "game" and values.get("data-version"):
            self.page.version = int(values["data-version"])
        if "story__line" in classes:
            part = ("story", int(values.get("data-version") or 0))
            self.page.story.append((part[1], []))
        elif "last-hand" in classes:
            part = ("last-hand", 0)
            self.page.last_hand = (0, [])
        elif "hand-area" in classes:
            part = ("hand", 0)
        elif "dock__news" in classes:
            part = ("news", 0)
        if tag not in VOID:
            self.open.append((tag, part))
        if values.get("data-card"):
            # Its aria-label is its name: the face is counted once.
            self.add([values["data-card"]], face=True)
        else:
            for name in ("aria-label", "title"):
                if values.get(name):
                    self.add(cards_in_words(values[name]))
        if tag == "input" and values.get("name") == "command" and values.get("value"):
            try:
                self.add(cards_in_json(json.loads(values["value"])))
            except ValueError:
                self.add(["unreadable-command"])

    def handle_endtag(self, tag: str) -> None:
        # Close up to the matching element (the templates close what they open).
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index][0] == tag:
                del self.open[index:]
                return

    def handle_data(self, data: str) -> None:
        kind, _ = self.part()
        if kind == "last-hand" and self.page.last_hand is not None and not self.page.last_hand[0]:
            found = re.search(r"Hand (\d+):", data)
            if found:
                self.page.last_hand = (int(found.group(1)), self.page.last_hand[1])
        self.add(cards_in_words(data))


def read_page(source: str, game: int, seat: int | None, html: str) -> Page:
    """The cards of a play page's HTML."""
    page = Page(source, game, seat)
    reader = _Reader(page)
    reader.feed(html)
    reader.close()
    return page
