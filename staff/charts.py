"""The staff dashboard's activity charts as SVG geometry: events per minute as one filled path,
matches per hour as bars. templates/staff/dashboard_activity.html draws them inline, so the page
needs no script and no chart library; the figures are staff/figures.py's `activity`. The round
axis steps and the ticks are web/charts.py's, as on the leaderboards' charts.

Each plot stretches to the width it is given (its box's x in viewBox units, its y in pixels:
the height is fixed), and its labels are drawn apart, at their own size, in pixels: the y axis's
in a column of their own, the x axis's under the plot at a percentage of its width. So a label
is 12 px on a phone as on a desktop, never the plot's scale (a 720-unit plot drawn 300 px wide
made them under 5 px)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from frontdoor.charts import Tick, nice_step
from staff.figures import Activity


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    title: str


@dataclass(frozen=True, slots=True)
class Mark:
    """A label along the x axis, at `pct` percent of the plot's width; a `minor` one is left
    out where the plot is narrow (a phone), so that labels never run into each other."""

    pct: float
    label: str
    minor: bool = False


@dataclass(frozen=True, slots=True)
class ActivityChart:
    """The geometry of the activity charts: events per minute as one filled path, matches per
    hour as bars."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    area: str  # an SVG path: the events per minute, closed along the x axis
    peak: int  # the y axis's top value
    y_ticks: list[Tick]  # at: pixels from the plot's top
    x_ticks: list[Tick]  # at: viewBox units, for the tick lines
    x_marks: list[Mark]  # the same ticks' labels
    bars: list[Bar]
    bar_marks: list[Mark]
    bars_height: int
    bars_bottom: int
    bar_peak: int


def _nice_ceiling(value: int) -> int:
    """The smallest of 1, 2, 5 × 10^n at or above `value` (at least 1): round axis labels. One
    step of web.charts' tick steps spanning `value` is that number."""
    return int(nice_step(max(value, 1), count=1))


def _matches(count: int) -> str:
    return f"{count} match" if count == 1 else f"{count} matches"


def _pct(at: float, width: int) -> float:
    return round(at / width * 100, 2)


def activity_chart(figures: Activity, *, width: int = 720, height: int = 148) -> ActivityChart:
    """The charts of `figures`: the events' plot `width` units wide (stretched to its box) and
    `height` pixels high, the bars' below it; their labels apart (the module's docstring)."""
    left, right, top, bottom = 0, width, 8, height
    minutes = len(figures.per_minute)
    peak = _nice_ceiling(max(figures.per_minute, default=0))
    step = (right - left) / max(minutes, 1)

    def y_of(value: float) -> float:
        return bottom - value / peak * (bottom - top)

    points = " ".join(
        f"L{left + (i + 0.5) * step:.1f},{y_of(v):.1f}" for i, v in enumerate(figures.per_minute)
    )
    area = f"M{left},{bottom} {points} L{right},{bottom} Z"
    # A middle line only where it falls on a whole number (not 2 on a scale of 5).
    marks = [0, peak // 2, peak] if peak % 2 == 0 else [0, peak]
    y_ticks = [Tick(round(y_of(v), 1), f"{v:,}") for v in marks]
    x_ticks = []
    # A tick at every clock hour divisible by six (and the window's ends are left unlabelled).
    first_hour = figures.start.replace(minute=0) + timedelta(hours=1)
    for hours in range(len(figures.per_minute) // 60 + 1):
        at = first_hour + timedelta(hours=hours)
        offset = (at - figures.start).total_seconds() / 60
        if at.hour % 6 == 0 and 0 <= offset < minutes:
            x_ticks.append(Tick(round(left + offset * step, 1), at.strftime("%H:%M")))
    bars_height = bars_bottom = 72
    bar_peak = _nice_ceiling(max(figures.matches_per_hour, default=0))
    slot = (right - left) / max(len(figures.matches_per_hour), 1)
    bars = []
    for index, (count, hour) in enumerate(
        zip(figures.matches_per_hour, figures.hour_starts, strict=True)
    ):
        tall = count / bar_peak * (bars_bottom - 6)
        bars.append(
            Bar(
                x=round(left + index * slot + 1, 1),
                y=round(bars_bottom - tall, 1),
                width=round(slot - 2, 1),
                height=round(tall, 1),
                title=f"{hour:%H:00}–{hour + timedelta(hours=1):%H:00} UTC: {_matches(count)}",
            )
        )
    # A label every three hours, every six on a phone (the minor ones are left out there).
    bar_marks = [
        Mark(_pct(bar.x, width), bar.title[:5], minor=index % 6 != 0)
        for index, bar in enumerate(bars)
        if index % 3 == 0
    ]
    return ActivityChart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        area=area,
        peak=peak,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        x_marks=[Mark(_pct(tick.at, width), tick.label) for tick in x_ticks],
        bars=bars,
        bar_marks=bar_marks,
        bars_height=bars_height,
        bars_bottom=bars_bottom,
        bar_peak=bar_peak,
    )
