"""docs/rules.md, the players' account of the rules, names everything the engine has: every
command and its fields, every option with its default, every view field, pending decision,
event, reason code and card. Each list is read from the engine (or its source), so a new one
fails here until the page describes it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine import Variant
from engine.cards import CARD_CODES, POINTS
from engine.commands import FIELDS
from engine.events import EVOLVE
from engine.rules import RULESETS
from engine.rules.precognitive import LANE_RULES, SIGHTS
from engine.scoring import SCORINGS

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rules.md").read_text()
ENGINE = ROOT / "engine"
# Files outside the repository, which its readers cannot open: the rules are docs/rules.md.
OUTSIDE = re.compile(r"shared/|RULES\.md|DESIGN\.md")

# Every view a client can get: each family, two precognitive ones, from a seat and as a spectator.
SPECS: list[dict[str, Any]] = [
    {"rules": "official"},
    {"rules": "basic-plus"},
    {"rules": "newno"},
    {"rules": "censorship"},
    {"rules": "official", "precognitive": {"lane": 2, "sight": "blind"}},
    {"rules": "basic-plus", "precognitive": {"lane": "half-hand", "sight": "telepathic"}},
]


def quoted(text: str) -> set[str]:
    """Everything the text writes in backticks."""
    return set(re.findall(r"`([^`\n]+)`", text))


def section(title: str) -> str:
    """The text under the heading `title`, up to the next heading of the same or a higher level."""
    match = re.search(rf"^(#+) {re.escape(title)}\n", DOC, re.MULTILINE)
    assert match, f"docs/rules.md has no heading {title!r}"
    level = len(match.group(1))
    rest = DOC[match.end() :]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.MULTILINE)
    return rest[: end.start()] if end else rest


def rows(text: str) -> dict[str, list[str]]:
    """A table's rows by their first cell's backticked name: `| `name` | a | b |` -> [a, b]."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"\| `([^`]+)` \|(.*)\|\s*$", line)
        if match:
            found[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    return found


def source_matches(pattern: str, files: list[Path]) -> set[str]:
    return {m for path in files for m in re.findall(pattern, path.read_text())}


def test_every_card_code_is_listed_with_its_points():
    table = section("Cards").splitlines()
    for card in sorted(CARD_CODES):
        lines = [line for line in table if line.startswith("|") and f"`{card}`" in line]
        assert lines, f"{card} is not in the cards table"
        points = lines[0].rstrip(" |").rsplit("|", 1)[1].strip()
        assert points == str(POINTS[card]), f"{card}: the table says {points}"


def test_every_command_type_is_a_row_and_every_field_is_named():
    table = rows(section("Commands"))
    for kind, (_, allowed) in FIELDS.items():
        assert kind in table, f"command {kind} is not in the commands table"
        for field in allowed:
            assert field in quoted(DOC), f"{kind}'s field {field} is not in docs/rules.md"


def test_every_option_of_every_family_is_a_row_with_its_default():
    table = section("Options of each family")
    header = next(line for line in table.splitlines() if line.startswith("| option |"))
    columns = [cell.strip() for cell in header.strip(" |").split("|")][1:]
    options = rows(table)
    for name, ruleset in RULESETS.items():
        for option in ruleset.option_checks:
            assert option in options, f"{name}'s option {option} is not in the options table"
            default = ruleset.defaults[option]
            if isinstance(default, bool):
                shown = "`true`" if default else "`false`"
            else:
                shown = f"`{default}`" if isinstance(default, str) else str(default)
            cell = options[option][columns.index(f"`{name}`")]
            assert cell == shown, f"{name}.{option}: the table says {cell}, not {shown}"
    assert set(SCORINGS) <= quoted(table)


def test_the_precognitive_options_and_their_values_are_described():
    table = section("Precognitive options")
    assert {"lane", "sight"} <= rows(table).keys()
    assert set(LANE_RULES) | set(SIGHTS) <= quoted(table)


def test_every_field_of_every_view_is_a_row():
    keys: set[str] = set()
    for spec in SPECS:
        variant = Variant.from_spec(spec)
        state = variant.replay(variant.start(4, seed=1))
        keys |= variant.view(state, 0).keys() | variant.view(state, None).keys()
    # What games/visibility.py view_of adds to the engine's view (version, legal, hands, ...).
    added = source_matches(r'view\["(\w+)"\] =', [ROOT / "games" / "visibility.py"])
    assert {"version", "legal"} <= added
    missing = (keys | added) - rows(section("View fields")).keys()
    assert not missing, f"view fields missing from docs/rules.md: {sorted(missing)}"


def test_every_pending_decision_is_a_row():
    # Every prompt the rules write ({"type": "play", ...}, type="stack", window["type"] = ...);
    # `next-hand` is the one the fold of hand-ended sets (events.py).
    written = r'(?:"type": |type=|\["type"\] = )"([a-z-]+)"'
    kinds = source_matches(written, sorted((ENGINE / "rules").glob("*.py"))) | {"next-hand"}
    assert {"play", "ruling", "second-play", "stack"} <= kinds
    missing = kinds - rows(section("Pending decisions")).keys()
    assert not missing, f"pending decisions missing from docs/rules.md: {sorted(missing)}"


def test_every_event_type_is_a_row():
    missing = EVOLVE.keys() - rows(section("Event feeds")).keys()
    assert not missing, f"event types missing from docs/rules.md: {sorted(missing)}"


def test_every_reason_code_the_engine_raises_is_a_row():
    codes = source_matches(r'IllegalCommand\(\s*"([a-z-]+)"', sorted(ENGINE.rglob("*.py")))
    assert {"malformed-command", "cannot-jump-in", "illegal-submission"} <= codes
    missing = codes - rows(section("Refused commands: reason codes")).keys()
    assert not missing, f"reason codes missing from docs/rules.md: {sorted(missing)}"


@pytest.mark.parametrize(
    "path", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name
)
def test_no_doc_points_outside_the_repository(path):
    outside = [line for line in path.read_text().splitlines() if OUTSIDE.search(line)]
    assert not outside, f"{path.name} points outside the repository: {outside}"


def test_every_link_within_the_page_finds_its_heading():
    # GitHub's anchors: the heading in lower case, punctuation dropped, spaces as hyphens.
    headings = re.findall(r"^#+ (.+)$", DOC, re.MULTILINE)
    anchors = {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}
    links = set(re.findall(r"\]\(#([^)]+)\)", DOC))
    assert links and not links - anchors, f"links to no heading: {sorted(links - anchors)}"
