"""The staff console's pages: the dashboard (with the two parts htmx re-fetches in place) and a
game's inspector and search. Staff only (staff/access.py): anyone else gets a 404. The figures
are staff/figures.py's, the game's reads staff/inspector.py's; the views only render them."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from engine import MATCH_OVER
from frontdoor import boundary
from games.models import Game
from league import ladder_reads
from staff import actions, charts, figures, inspections, inspector
from staff.access import staff_only

# staff_only wraps require_GET, not the other way round: a POST from anyone else is a 404 too,
# not a 405 that would tell them the address exists.

# Seconds between two refreshes of the dashboard's live figures and of its activity charts
# (a 24-hour chart moves little in a few seconds, and reads more of the log).
LIVE_EVERY = 5
ACTIVITY_EVERY = 60


@staff_only
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """The whole dashboard, complete without JavaScript; htmx then refreshes its parts."""
    context = {
        **_live_context(),
        **_activity_context(),
        "live_every": LIVE_EVERY,
        "activity_every": ACTIVITY_EVERY,
    }
    return render(request, "staff/dashboard.html", context)


@staff_only
@require_GET
def dashboard_live(request: HttpRequest) -> HttpResponse:
    """The live figures alone: what the dashboard's htmx poll swaps in every LIVE_EVERY s."""
    context = {**_live_context(), "live_every": LIVE_EVERY}
    return render(request, "staff/dashboard_live.html", context)


@staff_only
@require_GET
def dashboard_activity(request: HttpRequest) -> HttpResponse:
    """The activity charts alone, swapped in every ACTIVITY_EVERY s."""
    context = {**_activity_context(), "activity_every": ACTIVITY_EVERY}
    return render(request, "staff/dashboard_activity.html", context)


def _live_context() -> dict[str, object]:
    # The ladders, for their matchmaking switch (staff/action_views.py pauses and resumes).
    return {"figures": figures.dashboard(), "ladders": list(ladder_reads.ladder_counts())}


def _activity_context() -> dict[str, object]:
    activity = figures.activity()
    return {"activity": activity, "chart": charts.activity_chart(activity)}


@staff_only
@require_GET
def game_search(request: HttpRequest) -> HttpResponse:
    """Games by id, player, bot, or a competition's or tournament's address or name (`?q=`),
    each linking to its inspector."""
    try:
        # Longer than any name: `too-long` (frontdoor/boundary.py), not a scan of every seat.
        query = boundary.text(request.GET, "q", inspector.QUERY_LENGTH)
    except boundary.BadInput as error:
        # A person typed it: the page again, 400, with the reason by the search box.
        typed = str(request.GET.get("q", ""))
        said = {
            "code": error.code,
            "message": f"A search has at most {inspector.QUERY_LENGTH} characters; this one "
            f"has {len(typed.strip())}. No name or address is longer: shorten it.",
        }
        context = {"query": typed, "search_error": said, **_search_limits()}
        return render(request, "staff/search.html", context, status=400)
    # A page at a time, the next older than the last game shown (`before`, a game id: games
    # before it need not match, so any id is a place in the list; not a number is 400).
    before = boundary.integer(request.GET, "before")
    results, older = inspector.search(query, before=before)
    context = {
        "query": query,
        "results": results,
        **_search_limits(),
        # The next page's `before` (the id of the last game shown), or None on the last page.
        "older": older,
        "before": before,
    }
    return render(request, "staff/search.html", context)


def _search_limits() -> dict[str, int]:
    return {"limit": inspector.SEARCH_LIMIT, "query_length": inspector.QUERY_LENGTH}


@staff_only
@require_GET
def game_inspector(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game's log, a window of it at a time, its seats and settings, and the engine's state
    after event `?at=` (by default after the last event). The log shows LOG_WINDOW events from
    `?log=` (by default the window around the state's event). A staff member playing in the
    game sees the log and the state as their seat does while its cards are hidden; anyone
    else's look at hidden cards is an audit entry (staff/inspections.py)."""
    game = get_object_or_404(Game, pk=game_id)
    # Not a number: 400 `invalid-number` (frontdoor/boundary.py); a number past the log: 404.
    at = _event_number(request, game, "at")
    version = game.version if at is None else at
    first = _event_number(request, game, "log")
    seat = inspections.own_seat(game, request.user)
    if seat is None and inspections.hidden(game):
        inspections.record(game, request.user, version)
    # Playing in a game still played (a seat of theirs or of their bot's, hidden cards or not):
    # no ruling on it is offered, and the page says who plays (their bot's name, or None: they).
    held = actions.held_seats(game.pk, request.user) if game.status != MATCH_OVER else []
    context = {
        "game": game,
        "own_seat": seat,
        "plays_in": bool(held),
        "playing_bot": inspections.seat_bot(game, held[0], request.user) if held else None,
        # When the seat is their bot's: its name, for "Your bot … plays in this game".
        "own_bot": None if seat is None else inspections.seat_bot(game, seat, request.user),
        "log": inspector.log_window(game, first or inspector.window_around(game, version), seat)
        if game.version
        else None,
        "state": inspector.state_at(game, version, seat) if version else None,
        "seats": inspector.seat_rows(game),
        "facts": inspector.game_facts(game),
        "audit": inspections.entries(game),
    }
    return render(request, "staff/game.html", context)


def _event_number(request: HttpRequest, game: Game, name: str) -> int | None:
    """The event number `?<name>=` (None without one): 400 `invalid-number` if it is not a
    number, 404 past the log."""
    number = boundary.integer(request.GET, name)
    if number is None:
        return None
    if not 1 <= number <= game.version:
        raise Http404(f"game {game.pk} has events 1 to {game.version}, not {number}")
    return number
