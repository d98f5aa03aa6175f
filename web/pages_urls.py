"""The people's pages: sign-up and profile (under /accounts/, beside Django's own sign-in and
password views), the lobby and the new-game form (/play/). Included at "" by config/urls.py."""

from __future__ import annotations

from django.urls import path

from web import accounts, lobby, new_game

app_name = "pages"

urlpatterns = [
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/profile/token/", accounts.token_issue, name="token-issue"),
    path("accounts/profile/token/revoke/", accounts.token_revoke, name="token-revoke"),
    path("accounts/profile/vacation/<int:game_id>/", accounts.vacation, name="vacation"),
    path("play/", lobby.lobby, name="lobby"),
    path("play/new/", new_game.new_game, name="new-game"),
]
