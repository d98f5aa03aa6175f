from __future__ import annotations

from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"

    def ready(self) -> None:
        # Imported here, not at the top: a Django app's modules load after the app registry.
        from analysis import dispatch

        dispatch.connect()
