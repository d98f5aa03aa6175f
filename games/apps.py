from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks


@checks.register
def times_in_utc(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """The event store records its times as aware datetimes in UTC (games/appends.py takes
    `datetime.now(UTC)`, Django's `timezone.now()` with USE_TZ): USE_TZ must stay on."""
    if settings.USE_TZ:
        return []
    return [
        checks.Error(
            "USE_TZ must be True: the event store records its times in UTC.",
            id="games.E001",
        )
    ]


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Imported here, not at the top: a Django app's modules load after the app registry.
        from django.db.models.signals import post_migrate

        # Importing game_projections registers the games' own projections with the runner
        # first (games/projections.py), before the other apps' (this app is listed before them).
        from games import dispatch, game_projections, roles  # noqa: F401

        dispatch.connect()
        post_migrate.connect(roles.after_migrate, dispatch_uid="games.roles.after_migrate")
