"""Chart axes shared by the site's charts (web/charts.py) and the staff console's
(staff/charts.py): round tick steps and ticks."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Tick:
    at: float  # the pixel position along its axis
    label: str


def nice_step(span: float, count: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about `count` ticks."""
    raw = max(span, 1e-9) / count
    # An int for a step of 1 or more, a float below (int ** a negative int).
    power: float = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
