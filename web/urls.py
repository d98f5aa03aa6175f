"""The pages people use, under the `web` namespace (included at / by config/urls.py): sign-up
and profile (under /accounts/, beside Django's own sign-in and password views), the lobby and
the new-game form (/play/), open tables and challenges (/tables/), a game's play page (with its
live board, commands, resigning and muting its emails) and its replay, the unsubscribe link of
turn emails, the notification centre (/notifications/), the clubs (/clubs/), a season's page
with its organiser's panel and fixture rulings (/seasons/), the people's directory (/players/)
and the player page (with its follow button), the people's ratings (/ratings/), the ladders
(/ladders/), the tournaments (/tournaments/), the bot pages (/bots/<id>/, and the owner's
/me/bots/), the guides rendered from docs/ (/guides/), the arena in one file for bot authors
(/downloads/uno-arena.pyz) and the open database's files (/data/)."""

from __future__ import annotations

from django.urls import path

from frontdoor import converters  # noqa: F401  (registers <id:…>, the ids' converter)
from web import (
    accounts,
    analysis,
    bell,
    bots,
    chat,
    clubs,
    database,
    downloads,
    follows,
    guides,
    ladders,
    lobby,
    new_game,
    notices,
    people,
    play,
    players,
    ratings,
    rematch,
    replay,
    season_edit,
    season_page,
    season_tables,
    tables,
    tournaments,
)

app_name = "web"

urlpatterns = [
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/profile/token/", accounts.token_issue, name="token-issue"),
    path("accounts/profile/token/revoke/", accounts.token_revoke, name="token-revoke"),
    path("accounts/profile/tokens/", accounts.token_create, name="token-create"),
    path("accounts/profile/tokens/<id:token_id>/shown", accounts.token_shown, name="token-shown"),
    path(
        "accounts/profile/tokens/<id:token_id>/revoke/",
        accounts.token_revoke_one,
        name="token-revoke-one",
    ),
    path("accounts/profile/vacation/<id:game_id>/", accounts.vacation, name="vacation"),
    path("play/", lobby.lobby, name="lobby"),
    path("data/", database.database, name="data"),
    path("data/<str:month>/<str:name>", database.download, name="data-file"),
    path("play/new/", new_game.new_game, name="new-game"),
    path("tables/new/", tables.table_new, name="table-new"),
    path("tables/<id:table_id>/", tables.table_page, name="table"),
    path("tables/<id:table_id>/status", tables.table_status, name="table-status"),
    path("tables/<id:table_id>/join", tables.join, name="table-join"),
    path("tables/<id:table_id>/leave", tables.leave, name="table-leave"),
    path("tables/<id:table_id>/cancel", tables.cancel, name="table-cancel"),
    path("tables/<id:table_id>/decline", tables.decline, name="table-decline"),
    path("games/<id:game_id>/", play.play, name="play"),
    path("games/<id:game_id>/board", play.live_board, name="board"),
    path("games/<id:game_id>/command", play.command, name="command"),
    path("games/<id:game_id>/replay/", replay.replay, name="replay"),
    path("games/<id:game_id>/analysis", analysis.ask, name="analysis-ask"),
    path("games/<id:game_id>/analysis/panel", analysis.panel, name="analysis-panel"),
    path("games/<id:game_id>/resign", play.resign, name="resign"),
    path("games/<id:game_id>/rematch", rematch.answer, name="rematch"),
    path("games/<id:game_id>/rematch/panel", rematch.panel, name="rematch-panel"),
    path("games/<id:game_id>/emails", notices.mute, name="mute"),
    path("games/<id:game_id>/chat", chat.chat_list, name="chat"),
    path("games/<id:game_id>/chat/say", chat.chat_say, name="chat-say"),
    path("chat/<str:kind>/<id:item_id>/report", chat.report, name="chat-report"),
    path("people/<str:username>/mute", chat.mute, name="person-mute"),
    path("clubs/<slug:slug>/board", chat.board_post, name="board-post"),
    path("clubs/<slug:slug>/board/<id:post_id>/hide", chat.board_hide, name="board-hide"),
    path("notifications/unsubscribe/<str:token>/", notices.unsubscribe, name="unsubscribe"),
    path("notifications/", bell.inbox, name="notifications"),
    path("notifications/read", bell.read_all, name="notifications-read"),
    path("notifications/<id:notice_id>/open", bell.open_notice, name="notification-open"),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/new/", clubs.club_new, name="club-new"),
    path("clubs/<slug:slug>/", clubs.club, name="club"),
    path("clubs/<slug:slug>/join/<str:code>/", clubs.club_join, name="club-join"),
    path("clubs/<slug:slug>/ask", clubs.club_ask, name="club-ask"),
    path(
        "clubs/<slug:slug>/requests/<id:user_id>/approve", clubs.club_approve, name="club-approve"
    ),
    path(
        "clubs/<slug:slug>/requests/<id:user_id>/decline", clubs.club_decline, name="club-decline"
    ),
    path("clubs/<slug:slug>/members/<id:user_id>/role", clubs.club_role, name="club-role"),
    path("clubs/<slug:slug>/members/<id:user_id>/remove", clubs.club_remove, name="club-remove"),
    path("clubs/<slug:slug>/leave", clubs.club_leave, name="club-leave"),
    path("clubs/<slug:slug>/invitation", clubs.club_rotate, name="club-rotate"),
    path("clubs/<slug:slug>/seasons/new/", clubs.season_new, name="season-new"),
    path("seasons/<slug:slug>/", season_page.season, name="season"),
    path(
        "seasons/<slug:slug>/entrants/member", season_page.enter_member, name="season-enter-member"
    ),
    path("seasons/<slug:slug>/entrants/bot", season_page.enter_bot, name="season-enter-bot"),
    path(
        "seasons/<slug:slug>/entrants/<id:entry_id>/withdraw",
        season_page.withdraw,
        name="season-withdraw",
    ),
    path("seasons/<slug:slug>/edit/", season_edit.edit, name="season-edit"),
    path("seasons/<slug:slug>/delete", season_edit.delete, name="season-delete"),
    path("seasons/<slug:slug>/start", season_page.start, name="season-start"),
    path("seasons/<slug:slug>/close", season_page.close, name="season-close"),
    path("seasons/<slug:slug>/next/", season_page.next_season, name="season-next"),
    path(
        "seasons/<slug:slug>/fixtures/<id:fixture_id>/forfeit",
        season_tables.forfeit,
        name="fixture-forfeit",
    ),
    path(
        "seasons/<slug:slug>/fixtures/<id:fixture_id>/retime",
        season_tables.retime,
        name="fixture-retime",
    ),
    path("players/", people.people, name="people"),
    path("players/<str:username>/", players.player, name="player"),
    path("ratings/", ratings.pools, name="ratings"),
    path("ratings/<str:family>/", ratings.board, name="ratings-board"),
    path("players/<str:username>/follow", follows.follow, name="player-follow"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/new/", tournaments.tournament_new, name="tournament-new"),
    path("tournaments/<slug:slug>/", tournaments.tournament_page, name="tournament"),
    path("tournaments/<slug:slug>/enter", tournaments.enter, name="tournament-enter"),
    path("tournaments/<slug:slug>/withdraw", tournaments.withdraw, name="tournament-withdraw"),
    path("tournaments/<slug:slug>/start", tournaments.start, name="tournament-start"),
    path("tournaments/<slug:slug>/pause", tournaments.pause, name="tournament-pause"),
    path("ladders/", ladders.ladder_list, name="ladders"),
    path("ladders/<slug:slug>/", ladders.ladder, name="ladder"),
    path("ladders/<slug:slug>/enter", ladders.enter, name="ladder-enter"),
    path("ladders/<slug:slug>/leave", ladders.leave, name="ladder-leave"),
    path("guides/", guides.guides, name="guides"),
    path("guides/<slug:slug>/", guides.guide, name="guide"),
    path("guides/examples/<str:name>", guides.example, name="guide-example"),
    path("guides/starters/<slug:kit>/<str:name>", guides.starter, name="guide-starter"),
    path("docs/<slug:slug>.md", guides.doc_redirect, name="guide-doc"),
    # A starter kit's README, served at /guides/starters/<kit>/README.md, links the docs as the
    # repository lays them out (`../../docs/bots-api.md`): from there, these addresses.
    path("guides/docs/<slug:slug>.md", guides.doc_redirect, name="guide-doc-relative"),
    path("guides/docs/examples/<str:name>", guides.example_redirect, name="guide-example-relative"),
    path("downloads/uno-arena.pyz", downloads.arena, name="arena-download"),
    path("bots/<id:bot_id>/", bots.bot, name="bot"),
    path("me/bots/", bots.my_bots, name="my-bots"),
    path("me/bots/<id:bot_id>/", bots.my_bot, name="my-bot"),
    path("me/bots/<id:bot_id>/validate", bots.my_bot_validate, name="my-bot-validate"),
    path("me/bots/<id:bot_id>/token", bots.my_bot_token, name="my-bot-token"),
    path("me/bots/<id:bot_id>/shown", bots.my_bot_shown, name="my-bot-shown"),
    path("me/bots/<id:bot_id>/name", bots.my_bot_rename, name="my-bot-rename"),
    path("me/bots/<id:bot_id>/retire", bots.my_bot_retire, name="my-bot-retire"),
]
