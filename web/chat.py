"""Words on the site: a game's chat panel on the play page (its list, refreshed by htmx every few
seconds, and its form), a message's or a board post's report page, muting a person, and a
club's board (posting, and its admins hiding a post). chat/table.py, chat/board.py and
chat/moderation.py do the work; every refusal comes back as a message with its code and
changes nothing. docs/web.md, "Chat"."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chat import board, moderation, rules, table
from chat.errors import ChatRateLimited, ChatRestricted
from frontdoor import boundary
from games.actors import is_person
from games.errors import GameError, GameNotFound
from league import clubs
from league.errors import ClubNotFound
from league.models import Club
from web.once import once

# Seconds between two refreshes of the chat list on the play page.
CHAT_EVERY = 3
# Messages the play page's panel shows (the newest).
PANEL_MESSAGES = 50


def said(error: GameError) -> str:
    """A refusal in words for the page."""
    if isinstance(error, ChatRestricted):
        return f"The moderators keep you from chat until {error.until:%Y-%m-%d %H:%M} UTC."
    if isinstance(error, ChatRateLimited):
        return f"That is a lot of messages at once: wait {error.wait} s and say it again."
    return error.message[:1].upper() + error.message[1:].rstrip(".") + "."


def chat_context(
    request: HttpRequest, game_id: int, where: table.Place | None = None
) -> dict[str, Any]:
    """What the chat panel shows this viewer: the newest messages of the channels they read,
    the channel they write to, whom they mute. `where`: the viewer's place, when the caller
    knows it (the play page, from the board it drew)."""
    mutes = moderation.muted_people(request.user)
    where, found = table.latest(
        game_id=game_id, viewer=request.user, count=PANEL_MESSAGES, where=where, muted=set(mutes)
    )
    signed_in = is_person(request.user)
    until = rules.restricted_until(request.user) if signed_in and where.writes else None
    return {
        "game": game_id,
        "chat_messages": found,
        "chat_channels": where.channels,
        "chat_writes": where.writes if signed_in else None,
        "chat_seated": where.seated,
        "chat_over": where.over,
        "chat_every": CHAT_EVERY,
        "chat_muted": sorted(mutes.values()),
        "chat_restricted": until,
        "chat_length": rules.MESSAGE_LENGTH,
        "chat_open": request.GET.get("chat") == "1",
        # The list polls once the chat is open (the play page's closed one waits to be opened).
        "chat_poll": request.GET.get("chat") == "1"
        or request.method == "POST"
        or bool(request.headers.get("HX-Request")),
        "chat_seen": _seen(found),
    }


def _seen(found: list[dict[str, Any]]) -> str:
    """What the list shows, in a few characters: the poll asks whether it changed."""
    last = found[-1]["seq"] if found else 0
    hidden = sum(1 for message in found if message["hidden"])
    return f"{last}.{len(found)}.{hidden}"


def _play_page(game_id: int) -> str:
    return f"{reverse('web:play', args=[game_id])}?chat=1#chat"


@require_GET
def chat_list(request: HttpRequest, game_id: int) -> HttpResponse:
    """The list alone, for the panel's poll. The line of who the viewer mutes, under the list,
    comes back out of band (`chat_list_only`): the swap replaces the list alone, and the line
    goes in its old place rather than a second time after the list."""
    try:
        context = chat_context(request, game_id)
    except GameNotFound as error:
        raise Http404(error.message) from error
    if request.GET.get("seen") == context["chat_seen"]:
        # Nothing new: htmx keeps the list (and the focus in it) as it is.
        return HttpResponse(status=204)
    return render(request, "games/_chat_messages.html", {**context, "chat_list_only": True})


@require_POST
def chat_say(request: HttpRequest, game_id: int) -> HttpResponse:
    """Say something at the table: the panel again (htmx) or the play page (a redirect)."""
    if not is_person(request.user):
        return HttpResponseRedirect(f"{reverse('login')}?next={_play_page(game_id)}")
    error = None
    kept = ""
    try:
        table.post(game_id=game_id, author=request.user, text=request.POST.get("text", ""))
    except GameNotFound as refused:
        raise Http404(refused.message) from refused
    except GameError as refused:
        error = {"code": refused.code, "message": said(refused)}
        kept = request.POST.get("text", "")[: rules.MESSAGE_LENGTH * 2]
    if request.headers.get("HX-Request"):
        context = {**chat_context(request, game_id), "chat_error": error, "chat_kept": kept}
        return render(request, "games/_chat_body.html", context)
    if error is not None:
        messages.error(request, error["message"], extra_tags=error["code"])
    return HttpResponseRedirect(_play_page(game_id))


def _next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or default
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@require_http_methods(["GET", "POST"])
@once
def report(request: HttpRequest, kind: str, item_id: int) -> HttpResponse:
    """Ask why (GET), then report the message (`kind` "message") or board post ("post") to the
    moderators (POST) and go back to where it was said."""
    if kind not in ("message", "post"):
        raise Http404(f"nothing to report of kind {kind!r}")
    if not is_person(request.user):
        return HttpResponseRedirect(f"{reverse('login')}?next={request.path}")
    try:
        if kind == "message":
            message = moderation.message_get(item_id)
            if not moderation.may_read_message(message, request.user):
                raise Http404("no such message")
            item: Any = message
            back = _play_page(message.game_id)
        else:
            post = moderation.post_get(item_id)
            if not moderation.may_read_board(post.club, request.user):
                raise Http404("no such post")
            item = post
            back = reverse("web:club", args=[post.club.slug]) + "#board"
    except GameNotFound as error:
        raise Http404(error.message) from error
    if request.method == "POST":
        try:
            moderation.report(
                reporter=request.user,
                message_id=item_id if kind == "message" else None,
                post_id=item_id if kind == "post" else None,
                reason=request.POST.get("reason", ""),
            )
        except GameError as error:
            messages.error(request, said(error), extra_tags=error.code)
        else:
            messages.success(request, "Thank you: the moderators will look at it.")
        return HttpResponseRedirect(back)
    context = {
        "item": item,
        "text": rules.shown_text(item, request.user),
        "back": back,
        "kind": kind,
    }
    return render(request, "chat/report.html", context)


@require_POST
def mute(request: HttpRequest, username: str) -> HttpResponse:
    """Mute (`muted=1`) or read again (`muted=0`) a person everywhere; back to `next`."""
    back = _next(request, reverse("web:lobby"))
    if not is_person(request.user):
        return HttpResponseRedirect(f"{reverse('login')}?next={back}")
    try:
        if request.POST.get("muted") == "1":
            moderation.mute(muter=request.user, username=username)
            messages.success(request, f"You no longer read {username}, at any table or board.")
        else:
            moderation.unmute(muter=request.user, username=username)
            messages.success(request, f"You read {username} again.")
    except GameNotFound as error:
        raise Http404(error.message) from error
    except GameError as error:
        messages.error(request, said(error), extra_tags=error.code)
    return HttpResponseRedirect(back)


# A club's board ------------------------------------------------------------------------------


def _club(slug: str) -> Club:
    try:
        return clubs.club_get(slug)
    except ClubNotFound as error:
        raise Http404(error.message) from error


def board_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    """The board for the club page: its threads for a member (None for anyone else)."""
    if not moderation.may_read_board(club, request.user):
        return {"board": None}
    threads = board.read(club, request.user)
    # A refused post's text, back in its box with the refusal under it (board_post); a reply to
    # a thread no longer shown goes back to the box of a new post.
    kept = request.session.pop(_board_kept(club), None)
    if kept and kept.get("reply_to") not in {thread.post.pk for thread in threads}:
        kept["reply_to"] = None
    return {
        "board": threads,
        "board_moderator": moderation.is_club_admin(club, request.user),
        "board_muted": sorted(moderation.muted_people(request.user).values()),
        "board_length": rules.MESSAGE_LENGTH,
        "board_kept": kept,
    }


def _board_kept(club: Club) -> str:
    """The session's key of a refused post's text on the club's board, kept for its page."""
    return f"board-kept:{club.pk}"


@require_POST
@once
def board_post(request: HttpRequest, slug: str) -> HttpResponse:
    """A post, a reply (`reply_to`) or, from an admin, an announcement (`announcement=1`)."""
    club = _club(slug)
    back = reverse("web:club", args=[club.slug]) + "#board"
    if not is_person(request.user):
        return HttpResponseRedirect(f"{reverse('login')}?next={back}")
    # Not a number: the 400 page `invalid-number` (frontdoor/boundary.py).
    reply_to = boundary.integer(request.POST, "reply_to")
    try:
        board.post(
            club=club,
            author=request.user,
            text=request.POST.get("text", ""),
            announcement=request.POST.get("announcement") == "1",
            reply_to=reply_to,
        )
    except GameError as error:
        # Said under the box it came from, its text back in it to be cut by the writer (as the
        # chat keeps it), never cut here: at most twice the limit is kept.
        request.session[_board_kept(club)] = {
            "text": request.POST.get("text", "")[: rules.MESSAGE_LENGTH * 2],
            "reply_to": reply_to,
            "announcement": request.POST.get("announcement") == "1",
            "message": said(error),
            "code": error.code,
        }
        anchor = f"#reply-{reply_to}" if reply_to is not None else "#board-text"
        return HttpResponseRedirect(reverse("web:club", args=[club.slug]) + anchor)
    messages.success(request, "Posted on the board.")
    return HttpResponseRedirect(back)


@require_POST
def board_hide(request: HttpRequest, slug: str, post_id: int) -> HttpResponse:
    """An admin of the club hides a post of its board, with a reason."""
    club = _club(slug)
    back = reverse("web:club", args=[club.slug]) + "#board"
    if not moderation.is_club_admin(club, request.user):
        return render(
            request,
            "leagues/refused.html",
            {"message": f"Only an admin of {club.name} may do this.", "status": 403, "club": club},
            status=403,
        )
    try:
        board.hide(club=club, by=request.user, post_id=post_id, reason=request.POST.get("reason"))
    except GameNotFound as error:
        raise Http404(error.message) from error
    except GameError as error:
        messages.error(request, said(error), extra_tags=error.code)
    else:
        messages.success(request, "The post is hidden; its text stays for the moderators.")
    return HttpResponseRedirect(back)
