"""The pages people use, under the `web` namespace (included at / by config/urls.py): sign-up
and profile (under /accounts/, beside Django's own sign-in and password views), the lobby and
the new-game form (/play/), a game's play page (with its live board, commands and resigning)
and its replay, a season's fixture rulings and the player page."""

from __future__ import annotations

from django.urls import path

from . import accounts, lobby, new_game, play, players, replay, season_tables

app_name = "web"

urlpatterns = [
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/profile/token/", accounts.token_issue, name="token-issue"),
    path("accounts/profile/token/revoke/", accounts.token_revoke, name="token-revoke"),
    path("accounts/profile/vacation/<int:game_id>/", accounts.vacation, name="vacation"),
    path("play/", lobby.lobby, name="lobby"),
    path("play/new/", new_game.new_game, name="new-game"),
    path("games/<int:game_id>/", play.play, name="play"),
    path("games/<int:game_id>/board", play.live_board, name="board"),
    path("games/<int:game_id>/command", play.command, name="command"),
    path("games/<int:game_id>/replay/", replay.replay, name="replay"),
    path("games/<int:game_id>/resign", play.resign, name="resign"),
    path(
        "seasons/<slug:slug>/fixtures/<int:fixture_id>/forfeit",
        season_tables.forfeit,
        name="fixture-forfeit",
    ),
    path(
        "seasons/<slug:slug>/fixtures/<int:fixture_id>/retime",
        season_tables.retime,
        name="fixture-retime",
    ),
    path("players/<str:username>/", players.player, name="player"),
]
