"""The UNO rules engine: pure Python, no Django.

from engine import Variant, IllegalCommand
variant = Variant.from_spec({"rules": "official", "options": {"target": 500}})
events = variant.start(seats=4, seed=7)
state = variant.replay(events)
variant.legal_commands(state, seat)
new = variant.decide(state, {"type": "play", "seat": 1, "card": "red-7", "uno": False})
state = variant.replay(new, state)
variant.view(state, seat)
"""

from __future__ import annotations

from engine.cards import COLORS, DECK, POINTS
from engine.commands import IllegalCommand
from engine.events import evolve
from engine.state import HAND_OVER, MATCH_OVER, PLAYING, State
from engine.variant import RULES_VERSION, RulesVersionMismatch, Variant

__all__ = [
    "COLORS",
    "DECK",
    "HAND_OVER",
    "MATCH_OVER",
    "PLAYING",
    "POINTS",
    "RULES_VERSION",
    "IllegalCommand",
    "RulesVersionMismatch",
    "State",
    "Variant",
    "evolve",
]
