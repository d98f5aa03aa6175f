"""On a phone the play page says, in the pinned dock, what just reached the person's hand: a bot
caught them not calling UNO, a new hand was dealt, a newno 7 swapped their hand. The line is the
story's own words (web/story.py, web/board.py `news_sentences`): the person's last move and what
happened since; it keeps its two lines' room, never empty, so the dock, the hand and the cards on
screen stay where they were as it changes, and shows whole sentences only. On a desktop the story
stands beside the board and the line is not shown. Each situation is dealt from a stacked deck
at 360x740."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from clocks import presence
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.browser.clicks import POLL_MS, SETTLED, version, wait_for_board_after
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The dock's and the hand's tops, the top card, and the hand's cards wholly on screen (inside the
# window and inside the hand's strip).
PLACES = """() => {
  const box = el => el.getBoundingClientRect();
  const strip = box(document.querySelector('.hand'));
  const cards = [...document.querySelectorAll('.hand .card')].map(box);
  const news = document.querySelector('[data-news]');
  return {
    dock: box(document.querySelector('.dock')).top, hand: strip.top,
    top: box(document.querySelector('.pile .card')).bottom,
    cards: cards.length,
    shown: cards.filter(c => c.top >= 0 && c.bottom <= innerHeight
      && c.left >= strip.left - 0.5 && c.right <= strip.right + 0.5).length,
    news: news ? box(news).height : 0, scrollY: window.scrollY,
  };
}"""


def news(page: Any) -> str:
    """The dock's line, its sentences (a span each) joined as one text."""
    return " ".join(str(page.locator("[data-news]").text_content()).split())


def wait_for_news(page: Any, words: str) -> None:
    page.wait_for_function(
        "words => (document.querySelector('[data-news]') || {}).textContent?.includes(words)",
        arg=words,
        timeout=15_000,
        polling=POLL_MS,
    )
    page.evaluate(SETTLED)


def places(page: Any, name: str) -> dict[str, float]:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"just-happened-{name}-360.png"))
    return dict(page.evaluate(PLACES))


def assert_still(before: dict[str, float], after: dict[str, float]) -> None:
    """The line kept its height and the hand its place, every card of the hand is on screen,
    and the top card shows above the dock. (The dock's top follows the moves offered, a row of
    buttons or none, as before: the line's room is the same.)"""
    assert after["news"] == before["news"] > 0, (before, after)
    assert after["hand"] == before["hand"], (before, after)
    assert after["shown"] == after["cards"], after
    assert after["top"] <= after["dock"], after
    assert after["scrollY"] == before["scrollY"] == 0, (before, after)


def play(page: Any, name: str) -> None:
    """Play the card named `name` ("red 3") from the hand, without calling UNO."""
    old = version(page)
    card = page.locator(".hand__card--live").filter(has=page.locator(f"[title='{name}']"))
    choice = card.locator("details.card-choice > summary")
    if choice.count():
        choice.click()
        card.get_by_role("button", name=f"Play {name}", exact=True).click()
    else:
        page.get_by_role("button", name=f"Play {name}", exact=True).click()
    wait_for_board_after(page, old)


def ana_and_greedy(
    open_page: Any, hands: list[list[str]], flip: str, draw: list[str], target: int | None = None
) -> tuple[Any, Any]:
    """Official (to `target` points, if given), two cards each, ana (first to play) and greedy,
    from a stacked deck, no grace; ana's page at 360x740 once it is her turn. The seed fixes the
    hands after the first: a random one made hand 2 vary, and one where greedy opened it with
    three draw twos left the deal out of the dock's three newest lines (as it should) and the
    test waiting for it."""
    ana = make_user("ana")
    options = {"hand_size": 2} | ({"target": target} if target else {})
    game = game_create(
        variant_spec={"rules": "official", "options": options},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        seed="dock-1",
        deck=stacked(hands, flip, draw, first=0),
        dealer=1,
        settings=GameSettings(grace_seconds=0),
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    return ana, page


def test_a_catch_of_the_person_is_said_in_the_dock(open_page):
    # Official, ana and greedy, two cards each: ana plays red 3 and forgets UNO; greedy catches
    # her and she draws the penalty (green 1 and green 2), then greedy draws and ana's turn is
    # back. She went from 1 card to 3: the dock says why.
    ana, page = ana_and_greedy(
        open_page,
        [["red-3", "blue-9"], ["yellow-1", "yellow-2"]],
        "red-7",
        ["green-1", "green-2", "yellow-8"],
    )
    before = places(page, "catch-before")
    # The match's start, the deal and the card turned up, in that order.
    assert news(page).startswith("The match began: 2 seats, Official. Hand 1 was dealt, 2 cards")

    play(page, "red 3")
    wait_for_news(page, "caught you")
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    # What came before her move, her move, then in the order it happened what followed (what
    # reached her hand is kept first: greedy's draw after it is left to the story).
    assert news(page) == (
        "Red 7 was turned up. You played red 3. You owe an UNO call: one card left. "
        "greedy caught you not calling UNO. You drew green 1 and green 2 as the UNO penalty."
    )
    after = places(page, "catch-after")
    assert after["cards"] == 3
    assert_still(before, after)
    assert after["dock"] == before["dock"], (before, after)
    # The whole of it, and the way to the story's whole sentences.
    link = page.locator("[data-news] a")
    assert link.get_attribute("title") == news(page)
    assert link.get_attribute("href") == "#story-title"

    # The next move of hers starts it again: nothing has reached her hand since, and the line
    # says her move, never standing empty.
    old = version(page)
    page.get_by_role("button", name="Draw a card").click()
    wait_for_board_after(page, old)
    assert news(page) == "greedy drew a card. You drew red 0.", news(page)
    assert places(page, "catch-moved")["dock"] == before["dock"]

    # On a desktop the story stands beside the board: no line in the hand's bar.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(SETTLED)
    assert page.locator("[data-news]").is_hidden()
    page.screenshot(path=str(ARTIFACTS / "just-happened-catch-1280.png"))


# Ana has nothing to play on red 5 or red 8 and draws twice (green 1, green 2): greedy goes
# out with its two reds and scores 14 points (`greedy_goes_out`).
GREEDY_GOES_OUT = ([["blue-9", "blue-2"], ["red-8", "red-6"]], "red-5", ["green-1", "green-2"])


def greedy_goes_out(page: Any) -> None:
    """Ana draws twice, on her turns: greedy goes out (GREEDY_GOES_OUT)."""
    for _ in range(2):
        page.wait_for_selector(".status--mine")
        page.evaluate(SETTLED)
        old = version(page)
        page.get_by_role("button", name="Draw a card").click()
        wait_for_board_after(page, old)


def test_a_new_hand_is_said_in_the_dock(open_page):
    # Official, ana and greedy, two cards each: greedy goes out with its two reds, and hand 2
    # is dealt. Her cards were all replaced: the dock says a new hand was dealt.
    ana, page = ana_and_greedy(open_page, *GREEDY_GOES_OUT)
    before = places(page, "hand-before")
    greedy_goes_out(page)
    wait_for_news(page, "Hand 2 was dealt")
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    said = news(page)
    assert "Hand 2 was dealt, 2 cards each" in said, said
    after = places(page, "hand-after")
    assert_still(before, after)
    # The hand's end is read whole, last (the deal's lines, newer, had pushed it out of the two
    # lines: a phone showed the deal and "Play now goes counter-clockwise." alone), until ana
    # moves again: who went out, the points, the scores.
    over = "Hand 1 is over: greedy went out and scored 14 points. Scores: You 0, greedy 14."
    assert said.endswith(over), said
    shown, lines = shown_sentences(page)
    assert lines == 2 and " ".join(shown[-2:]) == over, shown
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(SETTLED)
    page.screenshot(path=str(ARTIFACTS / "just-happened-hand-after-1280.png"))
    page.set_viewport_size({"width": 360, "height": 740})
    page.evaluate(SETTLED)
    old = version(page)
    page.get_by_role("button", name="Draw a card").click()
    wait_for_board_after(page, old)
    assert "Hand 1 is over" not in news(page), news(page)
    assert places(page, "hand-moved")["hand"] == before["hand"]


def test_a_newno_swap_is_said_in_the_dock(open_page):
    # newno, ana and greedy (ages 20 and 30): ana opens with red 6 on red 5 (the bots wait for
    # her at the open start); greedy's only play is red 7, which swaps its two yellows for her
    # blue 2 and green 3.
    ana = make_user("ana")
    with transaction.atomic():
        game = game_create(
            variant_spec={"rules": "newno", "options": {"hand_size": 3, "target": 50}},
            seats=[SeatSpec(user=ana, age=20), SeatSpec(bot="greedy", age=30)],
            deck=stacked(
                [["red-6", "blue-2", "green-3"], ["red-7", "yellow-4", "yellow-5"]],
                "red-5",
                first=1,
            ),
            dealer=0,
            settings=GameSettings(grace_seconds=120),
        )
        presence.seen(ana.pk, game.pk)
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    page.wait_for_selector("[data-grace-line]")
    page.evaluate(SETTLED)
    before = places(page, "swap-before")

    play(page, "red 6")
    wait_for_news(page, "swapped hands with you")
    page.evaluate(SETTLED)
    assert news(page) == (
        "Red 5 was turned up. You played red 6. greedy played red 7 and swapped hands with you."
    )
    after = places(page, "swap-after")
    assert after["cards"] == 2
    assert_still(before, after)


# What the dock's line shows of its words: every character drawn inside the line's box and every
# box that clips it (a sentence clamped to its lines), by its place in the line's text and its
# line; and the sentences clamped, which end in "…".
SHOWN = """() => {
  const box = document.querySelector('[data-news]');
  const clips = el => { const out = [];
    for (let e = el; e && e !== box.parentElement; e = e.parentElement)
      if (getComputedStyle(e).overflow !== 'visible') out.push(e.getBoundingClientRect());
    return out; };
  const shown = []; let offset = 0;
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const rects = clips(node.parentElement);
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      if (r.width > 0 && rects.every(c => r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5
          && r.left >= c.left - 0.5 && r.right <= c.right + 0.5))
        shown.push([offset + i, Math.round(r.top)]);
    }
    offset += node.length;
  }
  const clamped = [...box.querySelectorAll('.dock__said')]
    .filter(s => s.scrollHeight > s.clientHeight + 1).map(s => s.textContent.trim());
  return {text: box.textContent, shown, clamped};
}"""


def shown_sentences(page: Any) -> tuple[list[str], int]:
    """The runs of the dock's line a person reads, each checked to be whole sentences (a run
    may end early only where its sentence is clamped and so ends in "…"), and how many lines
    of the box they fill."""
    seen = page.evaluate(SHOWN)
    text, at = seen["text"], [index for index, _ in seen["shown"]]
    runs: list[tuple[int, int]] = []
    for index in at:
        if runs and not text[runs[-1][1] + 1 : index].strip():
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    said = []
    for start, end in runs:
        words = text[start : end + 1]
        before = text[:start].strip()
        assert not before or before.endswith("."), f"a sentence cut at its start: {words!r}"
        clamped = any(words.strip().rstrip("…") and sentence.startswith(words.strip())
                      for sentence in seen["clamped"])  # fmt: skip
        assert words.endswith(".") or clamped, f"a sentence cut at its end, unmarked: {words!r}"
        said += re.split(r"(?<=[.…])\s+", words.strip())
    return said, len({line for _, line in seen["shown"]})


def test_a_long_line_shows_whole_sentences_the_newest_in_view(open_page):
    # Official, seven cards each, ana deals: greedy plays blue 5 on blue 1, and it is ana's
    # turn. The line tells the deal (with her seven cards), the card turned up and greedy's
    # play, in that order: more than its two lines. It shows the newest sentences whole (a
    # phone showed "green 6 and yellow 7. Blue 1 was turned up. ...", the deal cut at its
    # start, as if the words were whole), an older one that does not fit ended with "…".
    ana = make_user("ana")
    hands = [
        ["green-1", "green-2", "green-3", "green-4", "yellow-5", "green-6", "yellow-7"],
        ["blue-5", "yellow-4", "red-6", "red-0", "yellow-6", "green-5", "green-7"],
    ]
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        deck=stacked(hands, "blue-1", first=1),
        dealer=0,
        settings=GameSettings(grace_seconds=0),
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), width=360, height=740)
    wait_for_news(page, "greedy played blue 5")
    page.wait_for_selector(".status--mine")
    page.evaluate(SETTLED)
    said = news(page)
    assert said.startswith("Hand 1 was dealt, 7 cards each; you dealt; your cards:"), said
    assert said.endswith("Blue 1 was turned up. greedy played blue 5."), said
    places(page, "long")
    shown, lines = shown_sentences(page)
    # Both lines read, the newest last, every sentence whole.
    assert lines == 2, shown
    assert shown[-1] == "greedy played blue 5.", shown
    assert shown[-2] == "Blue 1 was turned up.", shown
