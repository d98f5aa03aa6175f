"""GameSettings: the typed Game.context, stored without its unset fields and read back whole."""

from __future__ import annotations

from games.game_settings import VALIDATION, GameSettings


def test_it_round_trips_through_the_stored_context_zeros_included():
    settings = GameSettings(kind=VALIDATION, bot=7, round=1, match=0, inline=True)
    stored = settings.as_context()
    assert stored == {"kind": "validation", "bot": 7, "round": 1, "match": 0, "inline": True}
    assert GameSettings.of(stored) == settings


def test_unset_limits_fall_back_to_the_sites_settings(settings):
    settings.GAMES_TURN_SECONDS, settings.BOTS_PULL_TIMEOUT = 99, 7.5
    empty = GameSettings.of({})
    assert (empty.turn_limit, empty.pull_limit, empty.vacation_budget) == (99, 7.5, 0)
    assert GameSettings.of({"turn_seconds": 60, "unknown": 1}).turn_limit == 60
