"""Rematch on the site: the panel under a finished game's board (offer the same table again,
accept or decline an offer, follow it to the new game) and its form. games/rematch.py does the
work; the lobby lists the offers waiting for the person (web/lobby.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import rematch
from games.actors import is_person
from games.errors import GameError, GameNotFound
from games.models import Seat
from web.sentences import sentence


def panel_context(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """What the rematch panel shows this viewer (nothing for a spectator)."""
    seated = (
        is_person(request.user) and Seat.objects.filter(game_id=game_id, user=request.user).exists()
    )
    if not seated:
        return {"rematch": None}
    offer = rematch.state(game_id)
    waiting = [name for name, said in offer.answers.items() if said == "waiting"]
    declined = [name for name, said in offer.answers.items() if said == "declined"]
    return {
        "rematch": offer,
        "rematch_mine": offer.waits_for(request.user.get_username()),
        "rematch_waiting": waiting,
        "rematch_declined": declined,
        # What the panel shows, in short: its poll swaps it only when this changed.
        "rematch_shown": f"{offer.status}-{len(waiting)}-{len(declined)}-{offer.possible:d}",
    }


@require_GET
def panel(request: HttpRequest, game_id: int) -> HttpResponse:
    """The panel alone, for its poll while a rematch may be offered or an offer is open (static
    htmx, every 2 s): nothing (204, no swap) while it still shows what the page's panel does
    (`shown`), so a button is not swapped under a person's finger for nothing."""
    try:
        context = panel_context(request, game_id)
    except GameNotFound as error:
        raise Http404(error.message) from error
    if context.get("rematch_shown") and request.GET.get("shown") == context["rematch_shown"]:
        return HttpResponse(status=204)
    return render(request, "games/_rematch.html", {"game": game_id, **context})


@require_POST
def answer(request: HttpRequest, game_id: int) -> HttpResponse:
    """Offer (`answer=offer`), accept or decline; back to the game's page, or on to the new
    game once it started."""
    play_page = reverse("web:play", args=[game_id])
    if not is_person(request.user):
        return HttpResponseRedirect(f"{reverse('login')}?next={play_page}")
    choice = request.POST.get("answer", "")
    try:
        if choice == "offer":
            offer = rematch.offer(game_id=game_id, person=request.user)
        elif choice in ("accept", "decline"):
            offer = rematch.answer(game_id=game_id, person=request.user, accept=choice == "accept")
        else:
            messages.error(request, "Choose offer, accept or decline.", extra_tags="bad-answer")
            return HttpResponseRedirect(play_page)
    except GameNotFound as error:
        raise Http404(error.message) from error
    except GameError as error:
        messages.error(request, sentence(error.message), extra_tags=error.code)
        return HttpResponseRedirect(play_page)
    if offer.new_game is not None:
        return HttpResponseRedirect(reverse("web:play", args=[offer.new_game]))
    if choice == "decline":
        messages.success(request, "You declined the rematch.")
    # An offer has no banner: the panel says whom it waits for and, as it polls, when the new
    # game started (a banner saying it waits would stay on the page after that).
    return HttpResponseRedirect(play_page)
