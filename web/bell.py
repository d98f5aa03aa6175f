"""The notification centre on the site: the bell in every page's header (the context processor
`bell`, one count of the unread notices, only on pages that show it), the list at
/notifications/ (newest first, unread marked, with the people you follow and their running
games), opening a notice (marked read, then sent on to its place: a path on this site only),
and "Mark all read". social/notifications.py and social/follows.py do the work."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from frontdoor import boundary
from games.actors import is_person
from games.models import Game
from social import follows, notifications
from web.names import names_at


class Bell:
    """The bell's figure, counted only if the page shows it (a partial that extends no base
    template costs no query)."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request

    @cached_property
    def unread(self) -> int:
        return notifications.unread_count(self.request.user)

    @property
    def label(self) -> str:
        """The bell link's accessible name: "Notifications, 3 unread", with the figure as
        shown ("Notifications, 99+ unread"): a name holds the words a person sees on it."""
        return f"Notifications, {self.shown} unread" if self.unread else "Notifications"

    @property
    def shown(self) -> str:
        """The figure on the bell: "99+" past 99."""
        return "99+" if self.unread > 99 else str(self.unread)


def bell(request: HttpRequest) -> dict[str, Any]:
    """Context processor (config/settings.py): `bell` for a signed-in person."""
    if not is_person(getattr(request, "user", None)):
        return {}
    return {"bell": Bell(request)}


@dataclass(frozen=True, slots=True)
class Watched:
    """A followed person and their games still being played, to watch."""

    person: Any
    # Each game with the names at its seats, and whether the viewer plays in it too (then it
    # is theirs to open, not to watch).
    games: list[tuple[Game, list[str], bool]]


def following(user: Any) -> list[Watched]:
    people = follows.followed_by(user)
    running = follows.running_games(people)
    return [
        Watched(
            person,
            [
                (game, names_at(game), any(s.user_id == user.pk for s in game.seats.all()))
                for game in running[person.pk]
            ],
        )
        for person in people
    ]


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    """The person's notices, newest first, a page at a time (the next after the last shown,
    `?before=`), and the people they follow."""
    try:
        found = notifications.inbox(request.user, before=boundary.integer(request.GET, "before"))
    except notifications.NoticeNotFound as error:
        raise Http404(error.message) from error
    context = {
        "inbox": found,
        "following": following(request.user),
        # The next (older) page's `before`, or None on the last page.
        "older": found.before,
    }
    return render(request, "notices/inbox.html", context)


@login_required
@require_GET
def open_notice(request: HttpRequest, notice_id: int) -> HttpResponse:
    """Mark the notice read and go to its place: a path on this site; a notice that links
    elsewhere (or nowhere) goes back to the list instead."""
    url = notifications.open_notice(request.user, notice_id)
    if url is None:
        raise Http404("you have no such notice")
    if not url:
        messages.error(request, "That notice links to no page of this site.")
        return HttpResponseRedirect(reverse("web:notifications"))
    return HttpResponseRedirect(url)


@login_required
@require_POST
def read_all(request: HttpRequest) -> HttpResponse:
    """Mark every notice read."""
    marked = notifications.mark_read(request.user)
    messages.success(request, f"{marked} notice{'' if marked == 1 else 's'} marked read")
    return HttpResponseRedirect(reverse("web:notifications"))
