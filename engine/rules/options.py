"""A family's options, checked: each checker takes the option's name and value and returns the
value, or raises ValueError with a message a player can act on (Ruleset.OPTIONS)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def int_option(lo: int, hi: int | None) -> Callable[[str, Any], int]:
    def check(name: str, value: Any) -> int:
        if type(value) is not int or value < lo or (hi is not None and value > hi):
            bound = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
            raise ValueError(f"option {name!r} must be a whole number {bound}, not {value!r}")
        return value

    return check


def bool_option(name: str, value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError(f"option {name!r} must be true or false, not {value!r}")
    return value


def choice_option(*choices: str) -> Callable[[str, Any], str]:
    def check(name: str, value: Any) -> str:
        if value not in choices:
            raise ValueError(f"option {name!r} must be one of {', '.join(choices)}, not {value!r}")
        return str(value)

    return check
