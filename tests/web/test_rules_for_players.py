"""The rules' page (/guides/rules/, docs/rules.md) opens for a player, not a programmer: a short
"How to play" in plain words first (the goal, a turn, the action cards, UNO and catching,
scoring, the families, where each family's full rules are), no file path or card code before
it ends; the programmers' reference follows, reachable from it and from the contents."""

from __future__ import annotations

import re

import pytest

from web.guides import BY_SLUG

pytestmark = pytest.mark.django_db

FAMILIES = ["official", "basic-plus", "newno", "censorship", "the-precognitive-modifier"]


def article(client) -> str:
    html = client.get("/guides/rules/").content.decode()
    return html.split('<article class="guide">', 1)[1].split("</article>", 1)[0]


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_rules_page_opens_with_how_to_play(client):
    page = article(client)
    first_h2 = re.search(r'<h2 id="([^"]+)"', page)
    assert first_h2 and first_h2[1] == "how-to-play"
    before, rest = page.split('<h2 id="how-to-play"', 1)
    how_to_play = rest.split("<h2 ", 1)[0]
    # Before and in "How to play": no file path, no code, none of the engine's vocabulary.
    for part in (before, how_to_play):
        assert "<code>" not in part
        assert not re.search(r"\b(engine|docs)/|\.md\b|Programmers", words(part))
    # Each part in bold at its paragraph's start (as the doc's other sections do), so the
    # contents list keeps its length.
    parts = re.findall(r"<strong>([^<]+)</strong>(?=[ :]|</p>)", how_to_play)
    assert parts[:3] == ["The goal.", "A turn.", "The action cards:"]
    for part in ("UNO and catching.", "Scoring.", "The families.", "Where to find more."):
        assert part in parts
    # Short: a few minutes' reading, not the 7,800 words of the whole page.
    assert len(words(how_to_play).split()) < 900
    shown = re.sub(r"<[^>]+>", "", how_to_play)
    for family in ("Official", "Basic-plus", "Newno", "Censorship", "Precognitive"):
        assert f"{family}:" in shown
    for anchor in FAMILIES:
        assert f'href="#{anchor}"' in how_to_play
        assert f'id="{anchor}"' in page


def test_the_programmers_reference_follows_and_is_in_the_contents(client):
    html = client.get("/guides/rules/").content.decode()
    page = article(client)
    assert page.index('id="how-to-play"') < page.index('id="for-programmers-the-reference"')
    assert page.index('id="for-programmers-the-reference"') < page.index('id="commands"')
    contents = html.split('aria-label="Contents"')[1].split("</nav>")[0]
    assert contents.index("#how-to-play") < contents.index("#for-programmers-the-reference")
    assert BY_SLUG["rules"].slug == "rules"  # the rules' home is still docs/rules.md
