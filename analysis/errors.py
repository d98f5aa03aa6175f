"""The analysis' typed errors (games.errors.GameError kinds: the API answers their status and
code; docs/api.md "Analysis")."""

from __future__ import annotations

from games.errors import Forbidden, GameError, GameNotFound

__all__ = ["AnalysisRefused", "NoAnalysis", "AnalysisHidden"]


class NoAnalysis(GameNotFound):
    """The game has no analysis (none queued, none asked for): 404 `no-analysis`."""

    code = "no-analysis"

    def __init__(self, game_id: object) -> None:
        GameError.__init__(self, f"game {game_id} has no analysis: ask for one (POST)")
        self.game_id = game_id


class AnalysisHidden(Forbidden):
    """The viewer may not see the game's whole log, so not its analysis: 403 with
    `game-in-play`, `deal-in-play` or `not-revealed`."""


class AnalysisRefused(GameError):
    """An analysis that cannot be queued now: 409 `analysis-exists` (frontdoor/errors.py)."""

    code = "analysis-exists"
