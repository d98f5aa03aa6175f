from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games import store, tasks

        # Every append that leaves a bot to act hands the game to a worker, after the commit.
        store.subscribe(tasks.dispatch_after_append)
