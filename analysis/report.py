"""What an analysis of a match says, as plain data: pure Python, no Django.

`analysis/evaluate.py` produces a `MatchAnalysis` from a finished match's log; the `analysis` app
stores it as JSON (`to_json`/`from_json`) and the replay page, the player page and
`GET /api/games/<id>/analysis` read it. docs/analysis.md explains every figure.

Values are in a hand's points for the seat that decides (what that seat expects to score in the
hand: the winner of a hand scores the points of the others' cards, everyone else scores 0), and
chances are the probability that the seat wins the hand, 0..1. Each is an estimate from
playouts of sampled deals consistent with what the seat knew, so it carries its samples' count.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

Command = dict[str, Any]

# The version of this shape; a stored analysis of another version is analysed again.
REPORT_VERSION = 1


@dataclass(frozen=True)
class OptionValue:
    """One legal option at a decision: its estimated value and chance to win the hand."""

    command: Command
    value: float
    win_chance: float


@dataclass(frozen=True)
class Decision:
    """One decision of one seat: where it was made, what was chosen, what was best.

    `version` is the game's version (the number of events in its log) just before the events the
    decision produced, so the replay can place it at its step. `cost` is what the chosen option
    gives up against the best, never negative and never above best.value - chosen.value (a
    chosen option estimated above the best is the best); it is estimated on held-out playouts
    (docs/analysis.md, "How a decision is valued"), so it may be below that difference."""

    version: int
    hand: int
    seat: int
    chosen: OptionValue
    best: OptionValue
    cost: float
    options: list[OptionValue] = field(default_factory=list)
    samples: int = 0


@dataclass(frozen=True)
class SeatHand:
    """One seat's account of one hand: what it scored, how much the cards gave or took
    (`deal_luck`: its dealt hand's value against the average seat's; `draw_luck`: the sum over
    its draws of the value after the draw minus the expected value before it) and what its
    decisions cost (`decision_cost`: the sum of its decisions' costs, 0 or more)."""

    seat: int
    points: int
    deal_luck: float
    draw_luck: float
    decision_cost: float
    decisions: int


@dataclass(frozen=True)
class HandReport:
    """One hand: each seat's account, and each seat's chance to win the hand move by move
    (`chances`: [version, [chance of seat 0, seat 1, ...]], from the first decision to the end)."""

    hand: int
    seats: list[SeatHand]
    chances: list[tuple[int, list[float]]] = field(default_factory=list)


@dataclass(frozen=True)
class SeatSummary:
    """One seat over the whole match."""

    seat: int
    score: int
    decisions: int
    decision_cost: float
    mean_cost: float
    luck: float


@dataclass(frozen=True)
class MatchAnalysis:
    """A whole match's analysis, reproducible from its log and `seed`."""

    family: str
    seats: int
    seed: int
    playouts: int
    hands: list[HandReport]
    decisions: list[Decision]
    summaries: list[SeatSummary]
    cpu_seconds: float = 0.0
    version: int = REPORT_VERSION


def to_json(analysis: MatchAnalysis) -> dict[str, Any]:
    """The analysis as JSON-able data (tuples become lists)."""
    return asdict(analysis)


def _option(data: dict[str, Any]) -> OptionValue:
    return OptionValue(command=data["command"], value=data["value"], win_chance=data["win_chance"])


def from_json(data: dict[str, Any]) -> MatchAnalysis:
    """The analysis `to_json` wrote."""
    return MatchAnalysis(
        family=data["family"],
        seats=data["seats"],
        seed=data["seed"],
        playouts=data["playouts"],
        hands=[
            HandReport(
                hand=hand["hand"],
                seats=[SeatHand(**seat) for seat in hand["seats"]],
                chances=[(version, list(chances)) for version, chances in hand["chances"]],
            )
            for hand in data["hands"]
        ],
        decisions=[
            Decision(
                version=d["version"],
                hand=d["hand"],
                seat=d["seat"],
                chosen=_option(d["chosen"]),
                best=_option(d["best"]),
                cost=d["cost"],
                options=[_option(o) for o in d["options"]],
                samples=d["samples"],
            )
            for d in data["decisions"]
        ],
        summaries=[SeatSummary(**s) for s in data["summaries"]],
        cpu_seconds=data.get("cpu_seconds", 0.0),
        version=data.get("version", REPORT_VERSION),
    )
