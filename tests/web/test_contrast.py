"""WCAG 2.2 AA contrast of what axe cannot see, computed from the stylesheets themselves
(static/cards.css, static/site.css): every card's mark and corner letters (text, 4.5:1), in the
four colours and on a wild, playable or faded; the focus ring and the "playable" ring (non-text,
3:1) on every background they sit on, and the two rings told apart by 3:1 as well.

Contrast is WCAG's: (L1 + 0.05) / (L2 + 0.05) of the relative luminances
(https://www.w3.org/TR/WCAG22/#dfn-relative-luminance). A card that cannot play now keeps its
figure as it is and greys only its body, a `color-mix(in srgb, ...)` of its colour and a grey,
mixed as browsers mix it (the sRGB values); tests/web/browser/test_unplayable_cards.py reads what
the browser computes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"
TEXT = 4.5
NON_TEXT = 3.0
SUITS = ("red", "yellow", "green", "blue")

RGB = tuple[float, float, float]


def rules(css: str) -> dict[str, dict[str, str]]:
    """{selector: {property: value}} of a stylesheet; a selector list counts for each of its
    selectors; rules inside @media count as well (none of those checked here sits in one)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found: dict[str, dict[str, str]] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        declarations = {}
        for declaration in body.split(";"):
            name, colon, value = declaration.partition(":")
            if colon:
                declarations[name.strip()] = " ".join(value.split())
        for selector in re.split(r",(?![^()]*\))", selectors):
            found.setdefault(" ".join(selector.split()), {}).update(declarations)
    return found


CARDS = rules((STATIC / "cards.css").read_text())
SITE = rules((STATIC / "site.css").read_text())
VARIABLES = {name: value for sheet in (SITE, CARDS) for name, value in sheet[":root"].items()}


def value(sheet: dict[str, dict[str, str]], selector: str, prop: str) -> str:
    return sheet[selector][prop]


def resolve(text: str, local: dict[str, str] | None = None) -> str:
    """`var(--x)` replaced by its value (a card's own `--c` first), repeatedly."""
    scope = {**VARIABLES, **(local or {})}
    while "var(" in text:
        text = re.sub(r"var\((--[\w-]+)\)", lambda m: scope[m.group(1)], text)
    return text


def colour(text: str) -> RGB:
    """The first colour of a value: #rgb, #rrggbb or a named white/black."""
    text = text.strip()
    if text.startswith(("#fff", "white")) and not re.match(r"#fff[0-9a-f]", text):
        return (1.0, 1.0, 1.0)
    match = re.search(r"#([0-9a-fA-F]{6})\b", text)
    assert match, f"no colour in {text!r}"
    digits = match.group(1)
    return (int(digits[0:2], 16) / 255, int(digits[2:4], 16) / 255, int(digits[4:6], 16) / 255)


def luminance(rgb: RGB) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: RGB, b: RGB) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


FADED = ".hand__card:not(.hand__card--live) .card"


def faded_body(suit: str) -> RGB:
    """The body of a card that cannot play now: its colour mixed with a grey in sRGB
    (cards.css's `color-mix(in srgb, var(--c) P%, #grey)`); no filter and no opacity touch its
    figure, which stands on its own white oval as on a card that plays."""
    rule = CARDS[FADED]
    assert "filter" not in rule and "opacity" not in rule, "the test computes neither"
    mix = re.fullmatch(
        r"color-mix\(in srgb, var\(--c\) ([\d.]+)%, (#[0-9a-fA-F]{6})\)", rule["background-color"]
    )
    assert mix, rule["background-color"]
    share, grey = float(mix.group(1)) / 100, colour(mix.group(2))
    own = colour(resolve(card_colour(suit)))
    r, g, b = (share * c + (1 - share) * m for c, m in zip(own, grey, strict=True))
    return (r, g, b)


def card_colour(suit: str) -> str:
    return CARDS[f".card--{suit}"]["--c"]


def declared(selectors: list[str], prop: str) -> str:
    """The value of `prop` from the first (most specific) of `selectors` that sets it."""
    for selector in selectors:
        if prop in CARDS.get(selector, {}):
            return CARDS[selector][prop]
    raise AssertionError(f"none of {selectors} sets {prop}")


def mark_pair(suit: str) -> tuple[RGB, RGB]:
    """(text, background) of a card's mark, the sign on its oval."""
    local = {"--c": resolve(card_colour(suit))}
    own = [f".card--{suit} .card__mark", ".card__mark"]
    text = colour(resolve(declared(own, "color"), local))
    background = declared(own, "background")
    # A wild's oval: the centre of its radial gradient is what the sign sits on.
    centre = re.match(r"radial-gradient\(closest-side, (.+?) \d+%", resolve(background, local))
    return text, colour(centre.group(1) if centre else resolve(background, local))


def corner_pair(suit: str) -> tuple[RGB, RGB]:
    """(text, background) of a card's corner letter, on the card itself."""
    local = {"--c": resolve(card_colour(suit))}
    text = declared([f".card--{suit} .card__corner", ".card__corner", ".card"], "color")
    return colour(resolve(text, local)), colour(local["--c"])


@pytest.mark.parametrize("suit", [*SUITS, "black"])
@pytest.mark.parametrize("state", ["plays", "faded"])
def test_every_cards_mark_and_letters_reach_4_5_to_1(suit, state):
    for what, (text, background) in (("mark", mark_pair(suit)), ("letter", corner_pair(suit))):
        if state == "faded" and what == "letter":
            background = faded_body(suit)
        assert ratio(text, background) >= TEXT, (suit, state, what, ratio(text, background))


def test_a_card_backs_word_reaches_4_5_to_1():
    rule = CARDS[".card--back .card__mark"]
    assert ratio(colour(resolve(rule["color"])), colour(resolve(rule["background"]))) >= TEXT


# Every background a focusable control or a card of the hand sits on (the pile has none).
BACKGROUNDS = {
    "white": (1.0, 1.0, 1.0),
    "paper": colour(resolve("var(--paper)")),
    "my turn": colour(resolve("var(--mine)")),
    "my seat": colour(value(CARDS, ".seat--me", "background")),
    "hovered button": colour(value(CARDS, ".action:hover", "background")),
    "error": colour(value(CARDS, ".banner--error", "background")),
    "success": colour(value(CARDS, ".banner--success", "background")),
}
PLAY_FOCUS = colour(resolve("var(--focus)"))
SITE_FOCUS = colour(resolve(value(SITE, ":focus-visible", "outline")))
PLAYABLE = colour(resolve(value(CARDS, ".hand__card--live .card", "box-shadow").split(" ", 4)[4]))


def test_the_focus_ring_reaches_3_to_1_on_every_background():
    focus_rule = CARDS[
        ":is(.card-button, .card-choice > summary, .action, a, select, input, .status)"
        ":focus-visible"
    ]
    assert focus_rule["outline"].startswith("3px solid var(--focus)")
    for where, background in BACKGROUNDS.items():
        assert ratio(PLAY_FOCUS, background) >= NON_TEXT, ("play page", where)
        assert ratio(SITE_FOCUS, background) >= NON_TEXT, ("site", where)


def test_the_playable_ring_reaches_3_to_1_and_is_told_from_the_focus_ring():
    assert CARDS[".hand__card--live .card"]["box-shadow"].startswith("0 0 0 3px")
    for where, background in BACKGROUNDS.items():
        assert ratio(PLAYABLE, background) >= NON_TEXT, where
    # A focused card that plays shows both rings side by side: 3:1 between them too.
    assert ratio(PLAY_FOCUS, PLAYABLE) >= NON_TEXT


def test_the_figures_the_issue_measured_are_what_this_test_computes():
    """The formula checked against known values: yellow #f2c200 on white 1.68:1, the old
    focus ring #ff9800 2.16:1, the old playable ring #ffd54f 1.41:1."""
    white = (1.0, 1.0, 1.0)
    assert round(ratio(colour("#f2c200"), white), 2) == 1.68
    assert round(ratio(colour("#ff9800"), white), 2) == 2.16
    assert round(ratio(colour("#ffd54f"), white), 2) == 1.41
