"""Turn emails on the site: recording that a person is at a game (clocks/presence.py), muting
one game's emails from its play page, and the one-click unsubscribe link of every turn email."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from clocks import presence
from games.actors import is_person


def seen(request: HttpRequest, game_id: int) -> None:
    """The requester is at the game (its page, its poll, a command): recorded at most every
    GAMES_PRESENCE_WRITE_SECONDS per session and game (clocks/presence.py), so a poll that finds
    nothing new still costs only its one read (the session is not even loaded)."""
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if session:
        presence.seen_now_and_then(
            f"session:{session}",
            game_id,
            lambda: request.user.pk if is_person(request.user) else None,
        )


def seen_now(request: HttpRequest, game_id: int) -> None:
    """The requester sees the game as it stands now (its page loaded, a move sent, the board
    drawn again after it moved): recorded now, not at most every GAMES_PRESENCE_WRITE_SECONDS
    as `seen` does, so the turn in front of them does not go on showing unread under the bell
    the same answer draws (a short game's last turns come within one such window, and its end
    stops the poll's writes)."""
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if session and is_person(request.user):
        presence.seen_at_once(f"session:{session}", game_id, request.user.pk)
    else:
        seen(request, game_id)


@require_POST
def mute(request: HttpRequest, game_id: int) -> HttpResponse:
    """Mute (muted=1) or unmute (muted=0) the turn emails of one game, from its play page."""
    play_page = reverse("web:play", args=[game_id])
    if not is_person(request.user):
        return HttpResponseRedirect(f"{reverse('login')}?next={play_page}")
    muted = request.POST.get("muted") == "1"
    if not presence.mute(request.user.pk, game_id, muted):
        messages.error(request, "You hold no seat in this game.", extra_tags="not-seated")
    elif muted:
        messages.success(request, "This game's turn emails are muted")
    else:
        messages.success(request, "This game's turn emails are on again")
    return HttpResponseRedirect(play_page)


# RFC 8058: a mail provider's one-click unsubscribe is a POST to the link, with no cookie and
# no CSRF token; the signed token in the address is what guards it.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: ask (a link opened by a mail scanner changes nothing); POST: no more turn emails."""
    user_id = presence.user_of(token)
    if user_id is None:
        return render(request, "notices/unsubscribe_refused.html", status=400)
    if request.method == "POST":
        presence.unsubscribe(user_id)
        return render(request, "notices/unsubscribed.html")
    return render(request, "notices/unsubscribe.html")
