"""The replay of a finished match, event by event: `?at=N` is the board after event N, `?as=`
whose eyes it is seen with (a seat, `spectator`, or `all` for every card).

Only a finished match is replayed. Once it is over and its game reveals the log after the
match (`reveal == "after-match"`), the whole log is public: any seat's view and `all` may be
chosen. A game that never reveals its log is replayed from the viewer's own seats (or as a
spectator, for people who held none). The state after event N is the engine's replay of the
log up to N (repository.state, from the newest snapshot), shown through the engine's view for
the chosen seat; the story beside it reads only the events before N it tells (as the play page
does), so a step costs the same at any length of match.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from chat import table as chat_table
from engine import Variant
from engine.events import HAND_ENDED, PROMPTED
from frontdoor.boundary import BadInput
from games import lobby, reveal, seat_facts
from games.actors import seats_held
from games.errors import Forbidden, GameError
from games.models import Game, GameEvent
from games.repository import repository
from games.visibility import events_since
from web import analysis, board, controls, forfeits, story
from web.names import Names, seat_names
from web.play import STORY_EVENTS, refused

ALL = "all"
SPECTATOR = "spectator"
STORY_LINES = 40


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board after event `?at=` (default: the first hand's deal) as `?as=` sees it."""
    game = Game.objects.prefetch_related("seats__user", "seats__registered_bot").filter(pk=game_id)
    found = game.first()
    if found is None:
        raise Http404(f"there is no game {game_id}")
    try:
        context = _replay_context(request, found)
    except GameError as error:
        return refused(request, error, 403, game_id)
    return render(request, "games/replay.html", context)


def _replay_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    if game.status != Game.Status.MATCH_OVER:
        raise Forbidden(
            "the replay opens when the match is over; until then, watch the game itself",
            code="match-not-over",
        )
    # A ladder rotation's cards stay hidden until its whole set is over (revealed).
    revealed = reveal.revealed(game)
    held = seats_held(request.user, game.seats.all())
    if not held and reveal.deal_kept(game):
        raise Forbidden(
            "the other tables of this game's round are still playing its cards: its replay "
            "opens when they end",
            code="deal-in-play",
        )
    choices = _perspectives(game.seat_count, held, revealed)
    chosen = request.GET.get("as") or (str(held[0]) if held else SPECTATOR)
    if chosen not in choices:
        if chosen not in _perspectives(game.seat_count, [], revealed=True):
            # No view of this game at all: the query string's fault (400), not a refusal.
            raise BadInput(
                f"there is no view {chosen!r}: choose a seat (0 to {game.seat_count - 1}), "
                "spectator or all",
                code="unknown-view",
            )
        raise Forbidden(
            "this game never reveals its cards: its replay shows "
            + ("your own seats" if held else "what a spectator saw"),
            code="not-revealed",
        )
    seat = int(chosen) if chosen.isdigit() else None
    # The log's length is the game's version: the events are read only around `at`, so a step
    # costs the same at any length of match.
    last = game.version
    at = _clamp(request.GET.get("at"), last, default=_first_turn(game))
    variant, state, _ = repository.state(game, until=at)
    # The final board's places as the service records them (the forfeited seats last).
    view = variant.view(state, seat)
    result = lobby.match_result(game.pk, view)
    view = lobby.as_recorded(view, result)
    if chosen == ALL:
        view["hands"] = [list(hand) for hand in state.hands]
        view["lane"] = [list(lane) for lane in state.lanes]
        # Censorship: the card submitted to the censor, face up with the rest.
        submitted = state.extra.get("submission")
        if submitted is not None:
            view["submission"] = {key: submitted[key] for key in ("seat", "card", "color")}
    listing = lobby.seat_listing(game)
    names = seat_names(listing)
    # "You" is the person's own seat; another seat's eyes are named by its name.
    you = seat if seat in held else None
    lines, shown = _story(game, variant, at, seat, chosen, revealed, names, you)
    table = board.table(view, names, [info.kind for info in listing], you=you, spec=game.variant)
    for panel in table.seats:
        panel.forfeited = result is not None and panel.number in result["forfeited"]
    table.result = board.forfeit_result(table, result["winner"] if result is not None else None)
    return {
        "game": game.pk,
        "at": at,
        "last": last,
        "as": chosen,
        "choices": [(choice, _choice_label(choice, names)) for choice in choices],
        "steps": _steps(game.pk, chosen, at, last),
        "table": table,
        "hand": controls.controls([], view, Names(names, you)).hand,
        "hand_owner": Names(names, you).whose(seat) if seat is not None else "",
        "story": lines,
        "last_hand": board.hand_result(shown, names, you),
        # What was said at the table up to this event (both channels: the match is over).
        "said": chat_table.said_until(game_id=game.pk, viewer=request.user, version=at),
        # The analysis of the hand at `at`, when the whole log is public (web/analysis.py).
        "analysis": analysis.section(request, game, at, chosen, you),
    }


def _perspectives(seats: int, held: list[int], revealed: bool) -> list[str]:
    if revealed:
        return [ALL, SPECTATOR, *(str(seat) for seat in range(seats))]
    return [str(seat) for seat in held] or [SPECTATOR]


def _clamp(value: str | None, last: int, *, default: int) -> int:
    try:
        at = int(value) if value else default
    except ValueError:
        at = default
    return min(max(at, 1), last)


def _first_turn(game: Game) -> int:
    """The version where the first hand waits for its first move (the deal and the flip done):
    the game's first prompted event, found by walking its versions up from the start."""
    first = (
        GameEvent.objects.filter(game=game, type=PROMPTED)
        .order_by("version")
        .values_list("version", flat=True)
        .first()
    )
    return first or 1


def _story(
    game: Game,
    variant: Variant,
    at: int,
    seat: int | None,
    chosen: str,
    revealed: bool,
    names: list[str],
    you: int | None,
) -> tuple[list[story.Line], list[dict[str, Any]]]:
    """The story's newest STORY_LINES lines up to event `at`, as the chosen eyes see them, and
    the events read (the last hand's result among them, for the score panel): the events up to
    `at` only, the newest STORY_EVENTS of them (four times as many when those tell too few),
    as the play page reads its story (web/play.py). The whole log, once revealed; else
    redacted for the viewer's own seat (or as a spectator)."""
    facts = seat_facts.stand_in_facts(game)
    ruling = forfeits.ruled_by(game.context)
    window = STORY_EVENTS
    while True:
        after = max(0, at - window)
        found = events_since(
            game, variant, None if revealed else seat, after=after, until=at, marks={HAND_ENDED}
        )
        shown = _as_seen(found, variant, seat, chosen, revealed)
        lines = story.tail(
            shown, names, you, start=after + 1, count=STORY_LINES, facts=facts, ruled_by=ruling
        )
        if lines is not None:
            return lines, shown
        window *= 4


def _as_seen(
    events: list[dict[str, Any]], variant: Variant, seat: int | None, chosen: str, revealed: bool
) -> list[dict[str, Any]]:
    """A revealed log seen with the chosen eyes: a seat or a spectator sees it as they did."""
    if not revealed or chosen == ALL:
        return events
    return [
        {"version": item["version"], "event": variant.view_event(item["event"], seat)}
        for item in events
    ]


def _choice_label(choice: str, names: list[str]) -> str:
    if choice == ALL:
        return "Every card"
    if choice == SPECTATOR:
        return "A spectator"
    return names[int(choice)]


def _steps(game_id: int, chosen: str, at: int, last: int) -> dict[str, str | None]:
    url = reverse("web:replay", args=[game_id])

    def link(n: int) -> str:
        return f"{url}?at={n}&as={chosen}"

    return {
        "first": link(1) if at > 1 else None,
        "prev": link(at - 1) if at > 1 else None,
        "next": link(at + 1) if at < last else None,
        "last": link(last) if at < last else None,
        "url": url,
    }
