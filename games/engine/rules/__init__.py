"""One module per rule family, and the registry that finds a family by name."""

from __future__ import annotations

from .base import Ruleset
from .basic_plus import BasicPlus
from .censorship import Censorship
from .newno import Newno
from .official import Official
from .precognitive import Precognitive

RULESETS: dict[str, type[Ruleset]] = {
    Official.name: Official,
    BasicPlus.name: BasicPlus,
    Newno.name: Newno,
    Censorship.name: Censorship,
}


def find_ruleset(name: object) -> type[Ruleset]:
    if name is None:
        raise ValueError(f"a variant needs 'rules', one of: {', '.join(sorted(RULESETS))}")
    try:
        return RULESETS[name]  # type: ignore[index]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise ValueError(f"unknown ruleset {name!r}; known: {known}") from None


__all__ = [
    "RULESETS",
    "BasicPlus",
    "Censorship",
    "Newno",
    "Official",
    "Precognitive",
    "Ruleset",
    "find_ruleset",
]
