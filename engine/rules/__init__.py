"""One module per rule family, and the registry that finds a family by name."""

from __future__ import annotations

from engine.rules.base import Ruleset
from engine.rules.basic_plus import BasicPlus
from engine.rules.censorship import Censorship
from engine.rules.newno import Newno
from engine.rules.official import Official
from engine.rules.precognitive import Precognitive

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
