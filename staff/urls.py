"""The staff console under /staff/ (namespace `staff`): the dashboard, a game's inspector and
the actions. Every view is staff_only (staff/access.py): anyone else gets a 404."""

from __future__ import annotations

from typing import Any

from django.urls import path  # noqa: F401 (the views add their paths below)

from . import views

app_name = "staff"

urlpatterns: list[Any] = [
    # The dashboard, the inspector and the actions add their paths here.
    path("", views.dashboard, name="dashboard"),
    path("live/", views.dashboard_live, name="dashboard-live"),
    path("activity/", views.dashboard_activity, name="dashboard-activity"),
    path("games/", views.game_search, name="games"),
    path("games/<int:game_id>/", views.game_inspector, name="game"),
]
