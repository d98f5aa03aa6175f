"""API URLs, mounted under /api/."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api import bots, views

app_name = "api"

urlpatterns = [
    path("health", views.health, name="health"),
    path("bot/decisions", bots.decisions, name="bot-decisions"),
    path("bot/games/<int:game_id>/commands", bots.command, name="bot-command"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
