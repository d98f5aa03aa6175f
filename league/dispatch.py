"""The league's dispatcher: when a ladder game's match is over, ask at once for the next
rotation of its set (league.ladders.ladder_continue) instead of waiting for beat's
matchmaking. A hint: beat's run finds the same work."""

from __future__ import annotations

from games import dispatch
from games.game_settings import GameSettings
from league import tasks


def after_match_over(game_id: int, settings: GameSettings) -> None:
    if settings.ladder_set is not None and settings.competition is not None:
        tasks.ladder_continue.delay(settings.competition)


def connect() -> None:
    """Register with the games' dispatcher (LeagueConfig.ready, once per process)."""
    dispatch.on_match_over(after_match_over)
