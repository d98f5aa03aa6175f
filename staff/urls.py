"""The staff console under /staff/ (namespace `staff`): the dashboard, a game's inspector and
the actions. Every view is staff_only (staff/access.py): anyone else gets a 404."""

from __future__ import annotations

from django.urls import path

from frontdoor import converters  # noqa: F401  (registers <id:…>, the ids' converter)
from staff import action_views, report_views, views

app_name = "staff"

urlpatterns = [
    # The dashboard, the inspector and the search: pages to read.
    path("", views.dashboard, name="dashboard"),
    path("live/", views.dashboard_live, name="dashboard-live"),
    path("activity/", views.dashboard_activity, name="dashboard-activity"),
    path("games/", views.game_search, name="games"),
    path("games/<id:game_id>/", views.game_inspector, name="game"),
    # The actions (staff/action_views.py): a confirmation page (GET) that posts to itself (POST).
    path("games/<id:game_id>/redrive/", action_views.game_redrive, name="game-redrive"),
    path("games/<id:game_id>/abort/", action_views.game_abort, name="game-abort"),
    path("games/<id:game_id>/forfeit/", action_views.game_forfeit, name="game-forfeit"),
    path("games/<id:game_id>/extend-deadline/", action_views.game_extend, name="game-extend"),
    path("bots/<id:bot_id>/suspend/", action_views.bot_suspend, name="bot-suspend"),
    path("bots/<id:bot_id>/reinstate/", action_views.bot_reinstate, name="bot-reinstate"),
    path("ladders/<slug:slug>/pause/", action_views.ladder_pause, name="ladder-pause"),
    path("ladders/<slug:slug>/resume/", action_views.ladder_resume, name="ladder-resume"),
    path("projections/", action_views.projection_list, name="projections"),
    path(
        "projections/<slug:name>/rebuild/",
        action_views.projection_rebuild,
        name="projection-rebuild",
    ),
    path("projections/rebuilds/<id:entry_id>/", action_views.rebuild_progress, name="rebuild"),
    # Chat reports (staff/report_views.py): the queue and its answers.
    path("reports/", report_views.queue, name="reports"),
    path(
        "reports/<id:report_id>/<str:action>",
        report_views.answer,
        name="report-answer",
    ),
]
