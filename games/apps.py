from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Imported here, not at the top: a Django app's modules load after the app registry.
        from django.db.models.signals import post_migrate

        from games import dispatch, roles

        dispatch.connect()
        post_migrate.connect(roles.after_migrate, dispatch_uid="games.roles.after_migrate")
