"""The analysis' match-end hook: when a match with a person seated is over, queue its analysis
(analysis/services.py `queue_after_match`) and hand it to the `analysis` workers. Registered
with the games' dispatcher as the tournaments' and leagues' are (games/dispatch.py
`on_match_over`, called after the commit)."""

from __future__ import annotations

from analysis import services, tasks
from games import dispatch
from games.game_settings import GameSettings


def after_match_over(game_id: int, settings: GameSettings) -> None:
    row = services.queue_after_match(game_id)
    if row is not None:
        tasks.send(row.pk)


def connect() -> None:
    """Register with the games' dispatcher (AnalysisConfig.ready, once per process)."""
    dispatch.on_match_over(after_match_over)
