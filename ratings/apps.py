"""People's ratings: an openskill rating per pool (a rules family, or one under the
precognitive modifier), moved by rated games, a projection of the log that a rebuild gives
again figure for figure (league/ratings.py is the model)."""

from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: a Django app's modules load after the app registry.
        # Importing registers the person-ratings projection with the runner (games/tasks.py
        # run_projections, `manage.py projections`, the staff console's rebuild).
        from ratings import projections  # noqa: F401
