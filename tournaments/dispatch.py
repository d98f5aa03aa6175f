"""The tournaments' dispatcher: when a tournament game's match is over, ask at once whether its
round has ended (tournaments.tasks.advance). A hint: beat's sweep finds the same work."""

from __future__ import annotations

from games import dispatch
from games.game_settings import GameSettings
from tournaments import tasks


def after_match_over(game_id: int, settings: GameSettings) -> None:
    if settings.tournament is not None:
        tasks.advance.delay(settings.tournament)


def connect() -> None:
    """Register with the games' dispatcher (TournamentsConfig.ready, once per process)."""
    dispatch.on_match_over(after_match_over)
