"""Following a person from their player page (/players/<username>/): the Follow and Unfollow
button, and what the page adds for it (the counts, their games still being played).
social/follows.py does the work."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.actors import is_person
from league.errors import PlayerNotFound
from social import follows
from web.names import names_at


def player_context(request: HttpRequest, person: Any) -> dict[str, Any]:
    """The player page's follow button and counts, and the person's running games (each with
    the names at its seats as its play page gives them, no card)."""
    running = follows.running_games([person])[person.pk]
    return {
        "follow": follows.state(request.user, person),
        "can_follow": is_person(request.user) and request.user.pk != person.pk,
        "running": [(game, names_at(game)) for game in running],
    }


@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    """Follow (`follow=1`) or unfollow (`follow=0`) the person; back to their page."""
    page = reverse("web:player", args=[username])
    if not is_person(request.user):
        return HttpResponseRedirect(f"{reverse('login')}?next={page}")
    try:
        person = follows.person_named(username)
    except PlayerNotFound:
        messages.error(request, f"Nobody is called {username}.")
        return HttpResponseRedirect(reverse("web:notifications"))
    if request.POST.get("follow") == "0":
        follows.unfollow(request.user, person)
        messages.success(request, f"You no longer follow {person.username}")
    elif person.pk == request.user.pk:
        messages.error(request, "You cannot follow yourself.", extra_tags="follow-self")
    else:
        follows.follow(request.user, person)
        messages.success(request, f"You follow {person.username}")
    return HttpResponseRedirect(page)
