from __future__ import annotations

from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
