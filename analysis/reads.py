"""What the API and the pages read of analyses: one game's (status, progress, and once done
every figure of analysis/report.py), refused exactly as the game's whole log is
(analysis/services.py `check_visible`), and a person's cost per decision per family over time
(the player page)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from analysis import report, services
from analysis.errors import AnalysisHidden, NoAnalysis
from analysis.models import GameAnalysis
from games.models import Game, Seat
from ratings.pools import pool_of

Status = GameAnalysis.Status
# The player page reads at most this many of a person's latest analysed games.
HISTORY_GAMES = 200


def row_of(game: Game) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game=game).first()


def visible_row(game_id: int) -> tuple[Game, GameAnalysis]:
    """The game and its analysis, for a viewer allowed to see the game's whole log: GameNotFound,
    AnalysisHidden (`game-in-play`, `deal-in-play`, `not-revealed`, checked before anything is
    said of an analysis), NoAnalysis."""
    game = services.game_of(game_id)
    services.check_visible(game)
    row = row_of(game)
    if row is None:
        raise NoAnalysis(game_id)
    return game, row


def analysis_of(row: GameAnalysis) -> report.MatchAnalysis | None:
    """The finished analysis in the current report's shape, else None."""
    if row.status != Status.DONE or row.result is None:
        return None
    if row.report_version != report.REPORT_VERSION:
        return None
    return report.from_json(row.result)


def body(row: GameAnalysis) -> dict[str, Any]:
    """GET /api/games/<id>/analysis's answer."""
    out: dict[str, Any] = {
        "game": row.game_id,
        "status": row.status,
        "progress": {"done": row.done, "total": row.total},
        "seed": row.seed,
        "playouts": row.playouts,
        "report_version": row.report_version,
        "requested_at": row.requested_at.isoformat(),
        "started_at": row.started_at.isoformat() if row.started_at else None,
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "cpu_seconds": round(row.cpu_seconds, 3),
        "reason": row.reason or None,
        "analysis": None,
    }
    found = analysis_of(row)
    if found is not None:
        out["analysis"] = report.to_json(found)
    return out


@dataclass(frozen=True, slots=True)
class CostPoint:
    """One analysed game of a person: when it was played, its pool, and the person's decisions and
    their summed cost in it."""

    game: int
    finished: datetime
    pool: str
    decisions: int
    cost: float

    @property
    def mean(self) -> float:
        return self.cost / self.decisions if self.decisions else 0.0


def cost_history(user_id: int) -> list[CostPoint]:
    """The person's analysed games (their latest HISTORY_GAMES, oldest first) whose log is
    public: their decisions' cost in each, over every seat they held."""
    seats: dict[int, set[int]] = {}
    for game, number in Seat.objects.filter(user_id=user_id).values_list("game_id", "number"):
        seats.setdefault(game, set()).add(number)
    rows = (
        GameAnalysis.objects.filter(game_id__in=list(seats), status=Status.DONE)
        .select_related("game")
        .order_by("-finished_at")[:HISTORY_GAMES]
    )
    points = []
    for row in rows:
        found = analysis_of(row)
        if found is None or row.finished_at is None:
            continue
        try:
            services.check_visible(row.game)
        except AnalysisHidden:
            continue
        mine = [s for s in found.summaries if s.seat in seats[row.game_id]]
        decisions = sum(s.decisions for s in mine)
        if not decisions:
            continue
        points.append(
            CostPoint(
                game=row.game_id,
                finished=row.game.created_at,
                pool=pool_of(row.game.variant),
                decisions=decisions,
                cost=sum(s.decision_cost for s in mine),
            )
        )
    return sorted(points, key=lambda p: (p.finished, p.game))
