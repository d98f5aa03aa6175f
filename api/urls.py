"""API URLs, mounted under /api/."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView

from api import (
    analysis,
    bots,
    chat,
    data,
    games,
    ladders,
    leagues,
    lean,
    owners,
    people,
    published_schemas,
    ratings,
    rematch,
    social,
    tables,
    tournaments,
    views,
)
from frontdoor import converters  # noqa: F401  (registers <id:…>, the ids' converter)

app_name = "api"

urlpatterns = [
    path("health", views.health, name="health"),
    # The four requests a game is played with, served by api/lean.py.
    path("bot/decisions", lean.lean(bots.decisions), name="bot-decisions"),
    path("bot/games/<id:game_id>/commands", lean.lean(bots.command), name="bot-command"),
    path("games", games.Games.as_view(), name="games"),
    path("games/<id:game_id>", lean.lean(games.game), name="game"),
    path("games/<id:game_id>/events", games.events, name="game-events"),
    path("games/<id:game_id>/commands", lean.lean(games.command), name="game-command"),
    path("games/<id:game_id>/replay", games.replay, name="game-replay"),
    path("games/<id:game_id>/analysis", analysis.GameAnalysis.as_view(), name="game-analysis"),
    path("games/<id:game_id>/resign", people.resign, name="game-resign"),
    path("games/<id:game_id>/rematch", rematch.Rematch.as_view(), name="game-rematch"),
    path("games/<id:game_id>/chat", chat.GameChat.as_view(), name="game-chat"),
    path("chat/<id:message_id>/report", chat.ReportMessage.as_view(), name="chat-report"),
    path("people/<str:username>/mute", chat.MutePerson.as_view(), name="person-mute"),
    path("games/<id:game_id>/vacation", people.vacation, name="game-vacation"),
    path("tables", tables.Tables.as_view(), name="tables"),
    path("tables/<id:table_id>", tables.table, name="table"),
    path("tables/<id:table_id>/join", tables.join, name="table-join"),
    path("tables/<id:table_id>/leave", tables.leave, name="table-leave"),
    path("tables/<id:table_id>/cancel", tables.cancel, name="table-cancel"),
    path("tables/<id:table_id>/decline", tables.decline, name="table-decline"),
    path("me/notifications", people.Notifications.as_view(), name="my-notifications"),
    path(
        "me/notifications/games/<id:game_id>",
        people.GameNotifications.as_view(),
        name="my-game-notifications",
    ),
    path("me/token", people.Token.as_view(), name="my-token"),
    path("me/tokens", people.Tokens.as_view(), name="my-tokens"),
    path("me/tokens/<id:token_id>", people.TokenDetail.as_view(), name="my-token-detail"),
    path("me/bots", owners.MyBots.as_view(), name="my-bots"),
    path("me/bots/<id:bot_id>", owners.MyBot.as_view(), name="my-bot"),
    path("me/bots/<id:bot_id>/validate", owners.validate, name="my-bot-validate"),
    path("me/bots/<id:bot_id>/token", owners.token, name="my-bot-token"),
    path("me/bots/<id:bot_id>/calls", owners.calls, name="my-bot-calls"),
    path("clubs", leagues.clubs, name="clubs"),
    path("clubs/<slug:slug>", leagues.club, name="club"),
    path("clubs/<slug:slug>/members/<str:username>", leagues.club_member, name="club-member"),
    path("seasons/<slug:slug>", leagues.season, name="season"),
    path("seasons/<slug:slug>/standings", leagues.season_standings, name="season-standings"),
    path("seasons/<slug:slug>/fixtures", leagues.season_fixtures, name="season-fixtures"),
    path("players/<str:username>", leagues.player, name="player"),
    path("players/<str:username>/follow", social.follow, name="player-follow"),
    path("notifications", social.inbox, name="notifications"),
    path("notifications/read", social.read, name="notifications-read"),
    path("ladders", ladders.ladder_list, name="ladders"),
    path("ladders/<slug:slug>", ladders.ladder, name="ladder"),
    path("ladders/<slug:slug>/enter", ladders.enter, name="ladder-enter"),
    path("ladders/<slug:slug>/leave", ladders.leave, name="ladder-leave"),
    path("bots/<id:bot_id>", ladders.bot, name="bot"),
    path("tournaments", tournaments.Tournaments.as_view(), name="tournaments"),
    path("tournaments/<slug:slug>", tournaments.tournament, name="tournament"),
    path(
        "tournaments/<slug:slug>/entry",
        tournaments.TournamentEntry.as_view(),
        name="tournament-entry",
    ),
    path(
        "tournaments/<slug:slug>/pause",
        tournaments.TournamentPause.as_view(),
        name="tournament-pause",
    ),
    path(
        "tournaments/<slug:slug>/standings",
        tournaments.tournament_standings,
        name="tournament-standings",
    ),
    path("data", data.months, name="data"),
    path("ratings", ratings.pools, name="ratings"),
    path("ratings/<str:family>", ratings.board, name="ratings-board"),
    path("schemas/<slug:name>.json", published_schemas.schema_document, name="bot-schema"),
    path("schema/", published_schemas.OpenApiDocumentView.as_view(), name="schema"),
    # Swagger UI with its init script served apart (`?script`) and no inline style, so that the
    # Content-Security-Policy needs no 'unsafe-inline' (config/settings.py).
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api:schema", template_name="api/swagger_ui.html"
        ),
        name="docs",
    ),
]
