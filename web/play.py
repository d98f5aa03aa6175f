"""The play page: a game's board for a seat (or a spectator), every legal command as a control,
the story so far, and the board's live refresh.

Plain forms post a command and come back to the page (post/redirect/get), so the page works
without JavaScript; with htmx the same forms and a one-second poll swap the board in place.
Every view of the game comes from games.lobby.game_detail and games/visibility.py, which hide
what the viewer may not see. After a command the board is drawn from what the command built
(the game as it left it, the acting seat's view and events): the request reads the game and
its seats once. The story reads only the tail of the log it tells (`STORY_LINES`).
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from bots import turns
from chat import table as chat_table
from clocks.presence import is_muted
from engine.events import HAND_ENDED
from frontdoor import boundary
from frontdoor.throttles import PersonCommandThrottle
from games import lobby, seat_facts, tasks
from games.actors import is_person, seats_held
from games.commands import CommandResult, game_command
from games.errors import Conflict, Forbidden, GameError, GameNotFound, IllegalMove
from games.models import Game, Seat
from games.repository import Loaded, repository
from games.visibility import events_since
from league.models import Fixture
from tournaments.models import TournamentGame
from web import board, board_news, chat, controls, forfeits, notices, rematch, status_words, story
from web.fixture_marks import fixture_mark
from web.lockout import too_many
from web.names import Names, names_at, seat_names
from web.refusals import NAMES_A_SEAT, refusal
from web.sentences import sentence


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (django-htmx's own typing advice)."""

    htmx: HtmxDetails


# The story on the play page: the newest lines (the replay tells the whole match), told from
# the newest STORY_EVENTS events of the log (more when those tell fewer lines).
STORY_LINES = 40
STORY_EVENTS = 160
# A command id is the client's own, namespaced per person by the service (command_key).
COMMAND_ID_LENGTH = 64


def refused(
    request: HttpRequest,
    error: GameError,
    status: int,
    game_id: int | None = None,
    *,
    message: str | None = None,
) -> HttpResponse:
    """A page that says why the game (or this view of it) is not shown, or why a move was
    refused (`message`: the sentence for the person, web/refusals.py)."""
    message = (error.message if message is None else message).rstrip(".")
    context = {"code": error.code, "message": message, "status": status, "game": game_id}
    return render(request, "games/refused.html", context, status=status)


@require_GET
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game from `?seat=N` (a seat the person holds), their first seat, or as a spectator."""
    notices.seen_now(request, game_id)
    try:
        context = board_context(request, game_id, _seat_param(request))
    except GameNotFound as error:
        raise Http404(error.message) from error
    except Forbidden as error:
        return refused(request, error, 403, game_id)
    context["emails_muted"] = is_person(request.user) and is_muted(request.user.pk, game_id)
    if context["tournament_game"]:
        # A tournament's table links back to its tournament (its standings, the next table).
        context["tournament_table"] = (
            TournamentGame.objects.select_related("round__tournament")
            .filter(game_id=game_id)
            .first()
        )
    fixture = (
        Fixture.objects.select_related("division__season__competition")
        .filter(game_id=game_id)
        .first()
        if context["fixture_game"]
        else None
    )
    if fixture is not None:
        # A league fixture's game names its season and round, and the fixture's own deadline
        # (moved by a ruling or the round's): the turn's clock does not stop there.
        context["fixture_mark"] = fixture_mark(fixture)
    # The chat panel under the board: the viewer's place in it from the board just drawn.
    where = chat_table.Place(game_id, bool(context["my_seats"]), not context["live"])
    context.update(chat.chat_context(request, game_id, where))
    _keep_lane(context, request.session.pop(_KEPT_LANE.format(game_id), None))
    return render(request, "games/play.html", context)


# The board poll's header: the game's newest message (static/games.js marks a closed chat).
CHAT_NEWEST = "X-Chat-Newest"


@require_GET
def live_board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board partial for htmx's poll: 204 while the game is at `?version=`, which costs
    one read of Game.version; the fresh board once it has moved. Either way the header
    `X-Chat-Newest` says the `seq` of the game's newest message (0: none), read in the same
    statement: a closed chat marks its toggle from it (static/games.js), with no poll of its
    own. A fresh board brings the header's bell with it (templates/_bell.html), its own turn
    read first, so the figure follows what the person has seen without a page load."""
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(said=chat_table.newest_said())
        .values_list("version", "grace_until", "grace_version", "said")
    )
    if not row:
        raise Http404(f"there is no game {game_id}")
    current, grace_until, grace_version, said = row[0]
    graced = grace_until is not None and grace_version == current
    if grace_until is not None and graced and grace_until <= timezone.now():
        # A grace for someone's out-of-turn chance is over: the bots move now (without a
        # broker, here: bots/turns.py).
        tasks.end_grace(game_id, current)
        current = Game.objects.values_list("version", flat=True).get(pk=game_id)
        graced = False
    if request.GET.get("version") == str(current) and request.GET.get("grace", "0") == str(
        int(graced)
    ):
        notices.seen(request, game_id)
        response = HttpResponse(status=204)
    else:
        try:
            context = board_context(request, game_id, _seat_param(request))
        except Forbidden as error:
            return refused(request, error, 403)
        _announce(context, request.GET.get("version"))
        # The board sends the bell's figure with it: a seat's turn read first (a spectator's
        # notices of the game, at most every GAMES_PRESENCE_WRITE_SECONDS, as the 204's).
        if context["my_seats"]:
            notices.seen_now(request, game_id)
        else:
            notices.seen(request, game_id)
        response = render(request, "games/_game.html", context)
    response[CHAT_NEWEST] = str(said or 0)
    return response


@require_POST
def command(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Run one command from the form (its JSON, the version it was chosen at, a command id),
    then show the board: the page again (a redirect) or, for htmx, the board partial. A refused
    command is shown with its reason's code and changes nothing."""
    seat = _seat_param(request, request.POST)
    # The same count as the API's commands (frontdoor/throttles.py), checked before anything runs.
    throttle = PersonCommandThrottle()
    if is_person(request.user) and not throttle.allow_request(request, None):
        return too_many(
            request,
            code="throttled",
            heading="Too many moves",
            message="Your account sent more moves in a short time than a game needs.",
            wait=datetime.timedelta(seconds=throttle.wait() or 1),
        )
    notices.seen_now(request, game_id)
    result = None
    try:
        result = _run(request, game_id)
    except GameNotFound as error:
        raise Http404(error.message) from error
    except (Forbidden, IllegalMove, Conflict) as error:
        # htmx swaps only a 2xx answer: the refusal comes inside the board.
        if request.htmx:
            return _partial(request, game_id, seat, error)
        if isinstance(error, Forbidden):
            said = refusal(error, _names(game_id, error))
            return refused(request, error, 403, game_id, message=said)
        messages.error(request, refusal(error, _names(game_id, error)), extra_tags=error.code)
        if "card" in request.POST:
            # A refused lane: the page shows the person's choices again, to correct one.
            request.session[_KEPT_LANE.format(game_id)] = request.POST.getlist("card")
    if request.htmx:
        return _partial(request, game_id, seat, None, result)
    url = reverse("web:play", args=[game_id])
    return HttpResponseRedirect(f"{url}?seat={seat}" if seat is not None else url)


def _run(request: HttpRequest, game_id: int) -> CommandResult:
    if not is_person(request.user):
        raise Forbidden("sign in to play", code="not-signed-in")
    form = request.POST
    try:
        # The API's limits (frontdoor/boundary.py): too deep, or a NUL or a lone surrogate in a
        # string, is a 400; only text that is no JSON at all is the engine's malformed-command.
        command = boundary.loads(form.get("command", ""), where="the form's command")
        expected = int(form.get("expected_version", ""))
    except ValueError:
        raise IllegalMove(
            "the form's command is not JSON, or its version is not a number",
            code="malformed-command",
        ) from None
    if isinstance(command, dict) and command.get("type") == "precommit" and "card" in form:
        # The lane form: the cards come from its ordered slots.
        command["cards"] = [card for card in form.getlist("card") if card]
        command["uno"] = form.get("uno") == "1"
    command_id = form.get("command_id", "")[:COMMAND_ID_LENGTH] or None
    return game_command(
        game_id=game_id,
        actor=request.user,
        command=command,
        expected_version=expected,
        command_id=command_id,
        # With the seats' people: the board after the command names them from the same read.
        game=repository.game(game_id, names=True),
    )


def _partial(
    request: HttpRequest,
    game_id: int,
    seat: int | None,
    error: GameError | None,
    result: CommandResult | None = None,
) -> HttpResponse:
    try:
        context = board_context(request, game_id, seat, result)
    except Forbidden:
        # A form naming a seat the person does not hold: show their own board instead.
        context = board_context(request, game_id, None)
    if error is not None:
        context["error"] = {"code": error.code, "message": refusal(error, context["names"])}
        if "card" in request.POST:
            _keep_lane(context, request.POST.getlist("card"))
    _announce(context, request.POST.get("expected_version"))
    return render(request, "games/_game.html", context)


def _names(game_id: int, error: GameError) -> list[str]:
    """The table's seat names for a refusal that names a seat other than the person's (one read
    of the game); none for the others, or when there is no such game."""
    if error.code not in NAMES_A_SEAT:
        return []
    try:
        return names_at(repository.game(game_id, names=True))
    except GameNotFound:
        return []


def _announce(context: dict[str, Any], since: str | None) -> None:
    """The live region's words for a board that replaces the one at version `since`."""
    context["announce"] = board_news.announcement(context["story"], since, context["table"].my_turn)


# The session key of a refused lane's cards, kept for the page the refusal redirects to.
_KEPT_LANE = "kept-lane-{}"


def _keep_lane(context: dict[str, Any], cards: Any) -> None:
    """Show a refused lane's cards in its slots again (a card the hand no longer offers is not)."""
    lane = context["controls"].precommit
    if lane is not None and isinstance(cards, list):
        lane.chosen = [str(card) for card in cards]


def _seat_param(request: HttpRequest, data: Any = None) -> int | None:
    """`seat` of the query string (or of `data`, a form): None when absent or blank, 400
    `invalid-number` when it is not a number (frontdoor/boundary.py)."""
    return boundary.integer(data if data is not None else request.GET, "seat")


@require_http_methods(["GET", "POST"])
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask, then resign every seat the person holds: the default bot plays them from now on and
    they are placed last (games/seat_facts.py, a seat-forfeited event each); when at most one
    seat is left playing, the match ends and that seat wins (the page says which first)."""
    play_page = reverse("web:play", args=[game_id])
    if not is_person(request.user):
        return HttpResponseRedirect(f"{reverse('login')}?next={play_page}")
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if game is None:
        raise Http404(f"there is no game {game_id}")
    seats = seats_held(request.user, game.seats.all())
    if not seats:
        return refused(request, Forbidden("you hold no seat in this game", code="not-seated"), 403)
    if request.method == "GET":
        ends, winner = forfeits.resign_ends(game, seats)
        done = not _resignable(game, seats)
        return render(
            request,
            "games/resign.html",
            {"game": game_id, "seats": seats, "ends": ends, "winner": winner, "done": done},
        )
    try:
        seat_facts.game_resign(game_id=game_id, actor=request.user)
    except GameError as error:
        messages.error(request, sentence(error.message), extra_tags=error.code)
    else:
        # From the forfeits as they are now, the person's among them.
        ends, winner = forfeits.resign_ends(game, seats)
        if not ends:
            told = f"the default bot plays your seat{'s' if len(seats) > 1 else ''} from now on"
        else:
            told = f"{winner} wins the match" if winner else "the match is over"
        messages.success(request, f"You resigned: {told}")
    return HttpResponseRedirect(play_page)


def _resignable(game: Game, seats: Sequence[int]) -> bool:
    """Whether a seat of `seats` is not forfeited yet (a read only when one of them is the
    default bot's: a forfeit makes it so for good)."""
    bots = {seat.number for seat in game.seats.all() if seat.controller == Seat.Controller.FALLBACK}
    if not bots.intersection(seats):
        return True
    forfeited = seat_facts.facts_of(game.pk).forfeited
    return any(seat not in forfeited for seat in seats)


def board_context(
    request: HttpRequest, game_id: int, seat: int | None, result: CommandResult | None = None
) -> dict[str, Any]:
    """Everything the board partial shows to this viewer, from `seat`'s view; right after the
    viewer's command `result`, from the game as it left it (nothing is loaded again)."""
    loaded = result.loaded if result is not None else None
    if loaded is None or loaded.game.pk != game_id:
        loaded = repository.get(game_id, names=True)
    decided = result.next if result is not None else ()
    detail = lobby.game_detail(
        game_id=game_id, viewer=request.user, seat=seat, loaded=loaded, decided=decided
    )
    view = lobby.as_recorded(detail["view"], detail["result"])
    viewer = view["seat"]
    names = seat_names(detail["seats"])
    kinds = [seat_info.kind for seat_info in detail["seats"]]
    # The command's own events, as this seat sees them, are the story's newest.
    newest = result.events if result is not None and result.seat == viewer else []
    lines, shown = _story(loaded, viewer, names, newest)
    table = board.table(
        view,
        names,
        kinds,
        you=viewer,
        spec=detail["variant"],
        legal=detail["legal"],
        # The bots' grace may hold them for the viewer (bots/turns.py): only where they move.
        bots=bool(turns.in_process(loaded.game.seats.all())),
    )
    if not table.note:
        # A lane flushed at the start of the viewer's turn: said by the hand, not only in the story.
        table.note = status_words.lane_flushed(shown, view, Names(names, viewer))
    penalty = int((detail["variant"].get("options") or {}).get("uno_penalty", 0))
    ctrl = controls.controls(detail["legal"], view, Names(names, viewer), uno_penalty=penalty)
    forfeited = (detail["result"] or {}).get("forfeited", [])
    for panel in table.seats:
        panel.catch = ctrl.catches.get(panel.number)
        panel.forfeited = panel.number in forfeited
    table.result = board.forfeit_result(table, (detail["result"] or {}).get("winner"))
    my_seats = detail["my_seats"]
    # A seat resigned (or forfeited) is for good: no Resign is offered for it again.
    extra: dict[str, Any] = {"resignable": bool(my_seats) and _resignable(loaded.game, my_seats)}
    extra.update(_grace(loaded, viewer))
    if extra["grace_until"] is not None and not table.my_turn:
        extra["announce"] = "You may move out of turn: the bots wait for you."
    if view["status"] == Game.Status.MATCH_OVER:
        # Under the final board: offer the same table again (web/rematch.py).
        extra.update(rematch.panel_context(request, game_id))
    return {
        "game": game_id,
        "version": detail["version"],
        "table": table,
        "controls": ctrl,
        "hand": ctrl.hand,
        "viewer": viewer,
        "my_seats": my_seats,
        # The seat to name in links and forms: only needed when the person holds several.
        "seat_param": viewer if len(my_seats) > 1 else None,
        "story": lines,
        # On a phone, in the pinned dock: what happened since the viewer's last move, what
        # reached their hand first (else that move), sentence by sentence.
        "news": board_news.news_sentences(lines, viewer),
        # And after it, until the viewer moves again: the hand that ended since, its result.
        "hand_over": board_news.hand_over(lines, viewer),
        # The seats' names at the table ("greedy (seat 1)" where names repeat).
        "names": names,
        "last_hand": board.hand_result(shown, names, viewer),
        "deadline": detail["deadline"],
        # A practice deal (a seed its creator chose): every seat is told, it counts for no record.
        "seed_chosen_by": detail["seed_chosen_by"],
        # A practice match: a bot's owner watches a game of bots alone, for no record.
        "watched_by": detail["watched_by"],
        # Their registered bots in it ("their bot" or "their bots"): every one is theirs.
        "watched_bots": sum(1 for s in loaded.game.seats.all() if s.registered_bot_id is not None),
        "live": view["status"] != Game.Status.MATCH_OVER,
        "tournament_game": (loaded.game.context or {}).get("kind") == "tournament",
        # A league fixture's game (its settings name the fixture): the page reads the fixture.
        "fixture_game": bool((loaded.game.context or {}).get("fixture")),
        "command_id": secrets.token_urlsafe(12),
        "announce": "Your turn." if table.my_turn else "",
        **extra,
    }


def _grace(loaded: Loaded, viewer: int | None) -> dict[str, Any]:
    """Whether the game holds a grace for an out-of-turn chance (the poll asks again when that
    changes), and its end if the chance is the viewer's (the countdown): from the game as the
    board read it."""
    game = loaded.game
    if game.grace_until is None or game.grace_version != game.version:
        return {"graced": False, "grace_until": None}
    until = turns.waiting_for(game, viewer, loaded=loaded)
    if until is not None:
        # Whole seconds (a <time datetime> takes no six-digit fraction), rounded down: the page
        # never promises a moment the bots do not wait.
        until = until.replace(microsecond=0)
    return {"graced": True, "grace_until": until}


def _story(
    loaded: Loaded, seat: int | None, names: list[str], newest: list[dict[str, Any]]
) -> tuple[list[story.Line], list[dict[str, Any]]]:
    """The story's newest STORY_LINES lines, told from the tail of the log as `seat` sees it
    (one query; another, four times as long, when it tells too few), and the events read, the
    last hand's result among them (the board's score panel)."""
    until = newest[0]["version"] - 1 if newest else loaded.version
    facts = seat_facts.stand_in_facts(loaded.game)
    ruling = forfeits.ruled_by(loaded.game.context)
    window = STORY_EVENTS
    while True:
        after = max(0, until - window)
        shown = events_since(
            loaded.game, loaded.variant, seat, after=after, until=until, marks={HAND_ENDED}
        )
        shown += newest
        lines = story.tail(
            shown, names, seat, start=after + 1, count=STORY_LINES, facts=facts, ruled_by=ruling
        )
        if lines is not None:
            return lines, shown
        window *= 4
