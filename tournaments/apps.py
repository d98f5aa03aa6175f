from __future__ import annotations

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        # Imported here, not at the top: a Django app's modules load after the app registry.
        # Importing registers the tournament-results projection with the runner.
        from tournaments import dispatch, projections  # noqa: F401

        dispatch.connect()
