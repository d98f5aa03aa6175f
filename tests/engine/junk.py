"""Hypothesis strategies for bad commands: arbitrary JSON of any shape, command-like objects
with wrong types, unknown types, missing and unknown fields and huge numbers, and real legal
commands bent one field at a time (the near misses a buggy client sends). Shared by the engine's
fuzz (tests/engine/test_command_fuzz.py) and the API's (tests/api/test_command_fuzz.py).

The strategies that do not depend on the legal commands are made once and shared
(`functools.cache`): a strategy is an immutable description, and Hypothesis validates each new
one before its first draw, which cost more than the draws where a test builds `bad_commands`
for every example (tests/engine/test_quick.py).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from hypothesis import strategies as st

from engine import COLORS, DECK
from engine.commands import FIELDS

Command = dict[str, Any]

# A reason code: lower-case words joined by dashes (the engine's, e.g. `not-your-turn`) or
# underscores (DRF's, e.g. `parse_error`).
CODE = re.compile(r"^[a-z][a-z0-9]*([-_][a-z0-9]+)*$")

# Every field any command carries, so that command-like junk names real fields often.
FIELD_NAMES = sorted({name for _, allowed in FIELDS.values() for name in allowed} | {"deck"})
CARDS = sorted(set(DECK))
HUGE = 2**200


@functools.cache
def scalars(*, json_only: bool) -> st.SearchStrategy[Any]:
    """None, booleans, small, large and huge integers, floats (NaN and infinities only where
    the value never goes through JSON), text and near-card strings."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 12),
        st.integers(-HUGE, HUGE),
        st.floats(allow_nan=not json_only, allow_infinity=not json_only),
        st.text(max_size=12),
        st.sampled_from([*CARDS[:8], "RED-5", "red-10", "wild-draw2", "", " ", "wild "]),
    )


@functools.cache
def json_values(*, json_only: bool = True) -> st.SearchStrategy[Any]:
    """Any JSON value: scalars, and lists and objects nested a few levels."""
    return st.recursive(
        scalars(json_only=json_only),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=8), children, max_size=4)
        ),
        max_leaves=12,
    )


@functools.cache
def field_values(*, json_only: bool) -> st.SearchStrategy[Any]:
    """Values a command field might get: right-looking ones and anything."""
    return st.one_of(
        st.sampled_from(CARDS),
        st.sampled_from([*COLORS, "black", "Red", "purple"]),
        st.integers(-2, 11),
        st.lists(st.sampled_from(CARDS), max_size=4),
        json_values(json_only=json_only),
    )


@functools.cache
def command_like(*, json_only: bool = True) -> st.SearchStrategy[Command]:
    """Objects that look like commands: a known, unknown or mistyped `type`, some of the real
    fields with any values, and sometimes fields no command has."""
    kinds = st.sampled_from(sorted(FIELDS)) | json_values(json_only=json_only)
    return st.builds(
        lambda kind, fields, extra: {**extra, **fields, **({} if kind is None else {"type": kind})},
        st.none() | kinds,
        st.dictionaries(st.sampled_from(FIELD_NAMES), field_values(json_only=json_only)),
        st.dictionaries(st.text(max_size=6), json_values(json_only=json_only), max_size=2),
    )


def bent(legal: list[Command], *, json_only: bool = True) -> st.SearchStrategy[Command]:
    """A legal command with one field changed to anything, removed, or one added."""
    if not legal:
        return command_like(json_only=json_only)

    def bend(command: Command, how: str, which: int, name: str, value: Any) -> Command:
        changed = dict(command)
        if how == "add" or not changed:
            changed[name] = value
        elif how == "drop":
            changed.pop(sorted(changed)[which % len(changed)])
        else:
            changed[sorted(changed)[which % len(changed)]] = value
        return changed

    return st.builds(
        bend,
        st.sampled_from(legal),
        st.sampled_from(["drop", "set", "add"]),
        st.integers(0, 9),
        st.sampled_from(FIELD_NAMES) | st.text(max_size=6),
        field_values(json_only=json_only),
    )


def bad_commands(legal: list[Command], *, json_only: bool = True) -> st.SearchStrategy[Any]:
    """Arbitrary JSON, command-like objects and bent legal commands."""
    return st.one_of(
        json_values(json_only=json_only),
        command_like(json_only=json_only),
        bent(legal, json_only=json_only),
    )
