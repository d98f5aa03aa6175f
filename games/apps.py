from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Imported here, not at the top: a Django app's modules load after the app registry.
        from games import dispatch

        dispatch.connect()
