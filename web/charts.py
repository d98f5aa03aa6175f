"""Rating charts drawn on the server as inline SVG: a leaderboard line's trend (a sparkline) and
an entrant's rating history (ordinal over rating events, with the mu ± sigma band, axes
labelled). Only the geometry is computed here; templates/ladders/_sparkline.html and
templates/bots/_rating_chart.html draw it, so the pages need no script and no chart library."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from frontdoor.charts import Tick, nice_step
from league.ratings import Skill


class Change(Protocol):
    """One rating event as the chart reads it: a ladder's RatingChange
    (league/models/ladders.py) or a person's PersonRatingChange (ratings/models.py)."""

    @property
    def mu_before(self) -> float: ...
    @property
    def sigma_before(self) -> float: ...
    @property
    def mu(self) -> float: ...
    @property
    def sigma(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Sparkline:
    width: int
    height: int
    points: str  # "x,y x,y …" for a polyline
    last_x: float
    last_y: float
    first: float
    last: float

    @property
    def rising(self) -> bool:
        return self.last >= self.first


def _scale(value: float, low: float, high: float, start: float, end: float) -> float:
    """`value` in [low, high] mapped onto [start, end] (the middle when the range is empty)."""
    if high - low < 1e-9:
        return (start + end) / 2
    return start + (value - low) / (high - low) * (end - start)


def sparkline(values: Sequence[float], *, width: int = 96, height: int = 24) -> Sparkline | None:
    """The trend of a leaderboard line; None with fewer than two points (nothing to draw)."""
    if len(values) < 2:
        return None
    pad = 2.0
    low, high = min(values), max(values)
    step = (width - 2 * pad) / (len(values) - 1)
    xy = [(pad + i * step, _scale(v, low, high, height - pad, pad)) for i, v in enumerate(values)]
    return Sparkline(
        width=width,
        height=height,
        points=" ".join(f"{x:.1f},{y:.1f}" for x, y in xy),
        last_x=round(xy[-1][0], 1),
        last_y=round(xy[-1][1], 1),
        first=values[0],
        last=values[-1],
    )


@dataclass(frozen=True, slots=True)
class HistoryChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    middle: int  # the plot's vertical middle, where the y axis's label sits
    ordinal: str  # polyline points: the ordinal after each event (the start first)
    band: str  # polygon points: mu + sigma left to right, then mu - sigma back
    dots: list[tuple[float, float, str]]  # each event's point and its words (a <title>)
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    events: int
    first: float
    last: float
    # The same history drawn for a phone's column (NARROW units wide), whose words are not
    # scaled down to a third of their size as the wide chart's are there; None on itself.
    narrow: HistoryChart | None = None

    @property
    def dots_svg(self) -> SafeString:
        """The dots with their <title>s as SVG, joined here: up to 200 a chart
        (HISTORY_POINTS), a template loop over them took several times as long."""
        return mark_safe(
            "".join(
                f'<circle class="rating-chart__dot" cx="{x}" cy="{y}" r="3">'
                f"<title>{escape(words)}</title></circle>"
                for x, y, words in self.dots
            )
        )


NARROW = 320
NARROW_DOTS = 50


def history_chart(
    changes: Sequence[Change], *, width: int = 640, height: int = 240
) -> HistoryChart | None:
    """The entrant's ordinal over its rating events, from the rating it started with (event
    0), with the band mu ± sigma, and the same for a phone (`narrow`); None before the first
    event."""
    if not changes:
        return None
    wide = _history_chart(changes, width=width, height=height, dotted=True)
    # A dot an event only while they stand apart on a phone's width.
    narrow = _history_chart(changes, width=NARROW, height=200, dotted=len(changes) < NARROW_DOTS)
    return replace(wide, narrow=narrow)


def _history_chart(
    changes: Sequence[Change], *, width: int, height: int, dotted: bool
) -> HistoryChart:
    """The chart `width` x `height` units; with a dot at each event if `dotted`."""
    first = changes[0]
    skills = [Skill(first.mu_before, first.sigma_before)]
    skills += [Skill(change.mu, change.sigma) for change in changes]
    left, right, top, bottom = 52, width - 12, 12, height - 40
    upper = [s.mu + s.sigma for s in skills]
    lower = [s.mu - s.sigma for s in skills]
    ordinals = [s.ordinal for s in skills]
    step = nice_step(max(upper) - min(ordinals + lower))
    low = math.floor(min(ordinals + lower) / step) * step
    high = math.ceil(max(upper) / step) * step
    if high <= low:
        high = low + step

    def x(index: int) -> float:
        return _scale(index, 0, len(skills) - 1, left, right)

    def y(value: float) -> float:
        return _scale(value, low, high, bottom, top)

    def points(values: Sequence[float], indexes: Sequence[int]) -> str:
        return " ".join(f"{x(i):.1f},{y(v):.1f}" for v, i in zip(values, indexes, strict=True))

    indexes = list(range(len(skills)))
    ticks = [low + i * step for i in range(int(round((high - low) / step)) + 1)]
    x_step = max(1, math.ceil((len(skills) - 1) / (8 if width > NARROW else 5)))
    dots = [
        (
            round(x(i), 1),
            round(y(s.ordinal), 1),
            f"{'start' if i == 0 else f'event {i}'}: rating {s.ordinal:.2f} "
            f"(mu {s.mu:.2f}, sigma {s.sigma:.2f})",
        )
        for i, s in enumerate(skills)
        if dotted
    ]
    return HistoryChart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        middle=(top + bottom) // 2,
        ordinal=points(ordinals, indexes),
        band=points(upper + lower[::-1], indexes + indexes[::-1]),
        dots=dots,
        y_ticks=[Tick(round(y(t), 1), f"{t:g}") for t in ticks],
        x_ticks=[Tick(round(x(i), 1), str(i)) for i in range(0, len(skills), x_step)],
        events=len(changes),
        first=ordinals[0],
        last=ordinals[-1],
    )
