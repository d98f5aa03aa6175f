from __future__ import annotations

from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        # Imported here, not at the top: a Django app's modules load after the app registry.
        # Importing registers the league-standings projection with the runner.
        from league import dispatch, projections  # noqa: F401

        dispatch.connect()
