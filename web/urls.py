"""The pages people use: a game's play page (with its live board and commands) and its replay."""

from __future__ import annotations

from django.urls import path

from . import play, replay

app_name = "web"

urlpatterns = [
    path("games/<int:game_id>/", play.play, name="play"),
    path("games/<int:game_id>/board", play.live_board, name="board"),
    path("games/<int:game_id>/command", play.command, name="command"),
    path("games/<int:game_id>/replay/", replay.replay, name="replay"),
    path("games/<int:game_id>/resign", play.resign, name="resign"),
]
