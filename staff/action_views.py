"""The staff actions' pages: for each action a confirmation page (GET: what the target is now
and what the action will do, with a form whose reason is required) that posts to itself (POST:
the action, staff/actions.py). Staff only, anyone else gets a 404 (staff_only); CSRF as every
form of the site. A done action redirects to where its result shows (the game's inspector, the
bot's or ladder's page again, the rebuild's progress) with a message; a refused one renders the
page again with the error's message and code, at the status the API would answer
(api.errors.status_for), and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from api.errors import status_for
from games import projections, seat_facts
from games.engine import MATCH_OVER
from games.errors import GameError
from games.models import Bot, Game, Seat
from league.models import Competition

from . import actions, rebuilds
from .access import staff_only
from .action_forms import ExtendForm, ReasonForm, SeatForm
from .models import AuditEntry

CONFIRM = "staff/confirm.html"
# Audit entries shown with a target (a bot's, a ladder's, the rebuilds).
HISTORY = 10
# Seconds between two refreshes of a rebuild's page while it runs.
REFRESH_EVERY = 2


def _act(
    request: HttpRequest,
    form: forms.Form,
    context: dict[str, Any],
    perform: Callable[[dict[str, Any]], tuple[str, str]],
) -> HttpResponse:
    """The confirmation page, or on a valid POST the action: `perform(cleaned_data)` returns
    (the message, where to go) or raises a GameError, shown on the page again."""
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                message, url = perform(form.cleaned_data)
            except GameError as error:
                messages.error(request, f"{error.message} ({error.code})")
                status = status_for(error)
            else:
                messages.success(request, message)
                return redirect(url)
        else:
            status = 400
    return render(request, CONFIRM, {**context, "form": form}, status=status)


def _data(request: HttpRequest) -> Any:
    return request.POST if request.method == "POST" else None


def _seat_label(seat: Seat) -> str:
    if seat.user is not None:
        who = seat.user.username
    elif seat.registered_bot is not None:
        who = f"bot {seat.registered_bot.name} (#{seat.registered_bot_id})"
    else:
        who = f"bot {seat.bot}"
    return f"seat {seat.number}: {who}"


def _game_context(game: Game, action: str, title: str, effects: list[str]) -> dict[str, Any]:
    over = game.status == MATCH_OVER
    return {
        "title": title,
        "action": action,
        "target": f"game #{game.pk}",
        "back": reverse("staff:game", args=[game.pk]),
        "facts": [
            ("Status", game.status),
            (
                "Rules",
                f"{game.variant.get('rules')}, {game.seat_count} seats, hand {game.hand_number}",
            ),
            ("Version", f"{game.version} events"),
            ("To act", ", ".join(f"seat {n}" for n in game.to_act or []) or "nobody"),
        ],  # fmt: skip
        "effects": effects,
        "unavailable": f"Game #{game.pk} is over: there is nothing to do." if over else "",
        "danger": action in ("abort", "forfeit"),
    }


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user", "registered_bot").order_by("number"))


@staff_only
@require_http_methods(["GET", "POST"])
def game_redrive(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    context = _game_context(
        game, "re-drive", f"Re-drive game #{game.pk}?",
        ["The workers are asked to move the game now (the advance_game task), as the "
         "reconciler would: bots whose turn it is play, a lost task is made good.",
         "Nothing is appended by this action itself; the audit trail keeps it."],
    )  # fmt: skip

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        actions.game_redrive(game_id=game.pk, user=request.user, reason=data["reason"])
        return f"Game #{game.pk} was sent to the workers.", context["back"]

    return _act(request, ReasonForm(_data(request)), context, perform)


@staff_only
@require_http_methods(["GET", "POST"])
def game_abort(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    context = _game_context(
        game, "abort", f"Abort game #{game.pk}?",
        ["A game-aborted event (your reason, you as its actor) ends the match where it "
         "stands: no winner, no places. Nobody moves it again.",
         "It has no result: no standing, rating or match result counts it. A ladder game's "
         "set is closed, unrated, and its entrants are free for matchmaking.",
         "This cannot be undone."],
    )  # fmt: skip

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        actions.game_abort(game_id=game.pk, user=request.user, reason=data["reason"])
        return f"Game #{game.pk} was aborted.", context["back"]

    return _act(request, ReasonForm(_data(request)), context, perform)


@staff_only
@require_http_methods(["GET", "POST"])
def game_forfeit(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    forfeited = seat_facts.facts_of(game.pk).forfeited
    choices = [(s.number, _seat_label(s)) for s in _seats(game) if s.number not in forfeited]
    context = _game_context(
        game, "forfeit", f"Forfeit a seat of game #{game.pk}?",
        ["A seat-forfeited event (reason awarded, your reason as its note, you as its actor), "
         "as a resignation writes: the default bot plays the seat from now on and the match "
         "result places it last.",
         "This cannot be undone."],
    )  # fmt: skip
    if not choices and not context["unavailable"]:
        context["unavailable"] = "Every seat of this game is forfeited already."

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        seat = data["seat"]
        actions.game_forfeit(game_id=game.pk, seat=seat, user=request.user, reason=data["reason"])
        return f"Seat {seat} of game #{game.pk} was forfeited.", context["back"]

    return _act(request, SeatForm(_data(request), seats=choices), context, perform)


@staff_only
@require_http_methods(["GET", "POST"])
def game_extend(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    running = [s for s in _seats(game) if s.controller == Seat.Controller.PERSON and s.deadline_at]
    choices = [
        (s.number, f"{_seat_label(s)}, due {s.deadline_at:%Y-%m-%d %H:%M} UTC") for s in running
    ]
    context = _game_context(
        game, "extend-deadline", f"Extend a turn's deadline in game #{game.pk}?",
        ["A deadline-extended event (the seat, its new deadline, your reason as its note, "
         "shown to that seat alone) and the seat's clock moved as many hours later.",
         "The turn keeps its clock: the overdue-turn sweep waits for the new deadline."],
    )  # fmt: skip
    if not choices and not context["unavailable"]:
        context["unavailable"] = "No person's turn clock is running in this game."

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        entry = actions.game_extend_deadline(
            game_id=game.pk, seat=data["seat"], hours=data["hours"], user=request.user,
            reason=data["reason"],
        )  # fmt: skip
        return (
            f"Seat {data['seat']}'s deadline in game #{game.pk} is now "
            f"{entry.details['deadline']}.",
            context["back"],
        )

    return _act(request, ExtendForm(_data(request), seats=choices), context, perform)


def _history(target: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(target=target).select_related("actor")[:HISTORY])


def _bot_context(bot: Bot, action: str, title: str, effects: list[str]) -> dict[str, Any]:
    return {
        "title": title,
        "action": action,
        "target": f"bot {bot.name} (#{bot.pk})",
        "back": reverse("staff:dashboard"),
        "facts": [
            ("Owner", bot.owner.username),
            ("Kind", bot.kind),
            ("Status", bot.status),
            ("Why", bot.status_reason or "—"),
            ("Strikes in a row", bot.strikes),
        ],
        "effects": effects,
        "history": _history(f"bot:{bot.pk}"),
        "danger": action == "suspend-bot",
    }


@staff_only
@require_http_methods(["GET", "POST"])
def bot_suspend(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner"), pk=bot_id)
    context = _bot_context(
        bot, "suspend-bot", f"Suspend bot {bot.name}?",
        ["The bot is suspended, as its strikes would: the default bot plays its seats from now "
         "on, without asking it, and matchmaking seats it no more.",
         "Its games where it is to act are sent to the workers at once.",
         "Its owner sees your reason as the status's reason."],
    )  # fmt: skip
    if bot.status != Bot.Status.ACTIVE:
        context["unavailable"] = f"The bot is {bot.status}: only an active bot is suspended."
        if bot.status == Bot.Status.SUSPENDED:
            context["other"] = ("Reinstate it", reverse("staff:bot-reinstate", args=[bot.pk]))
    here = request.path

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        actions.bot_suspend(bot_id=bot.pk, user=request.user, reason=data["reason"])
        return f"Bot {bot.name} is suspended.", here

    return _act(request, ReasonForm(_data(request)), context, perform)


@staff_only
@require_http_methods(["GET", "POST"])
def bot_reinstate(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner"), pk=bot_id)
    context = _bot_context(
        bot, "reinstate-bot", f"Reinstate bot {bot.name}?",
        ["A new validation round opens, as its owner's re-validation would: the bot is "
         "validating until the round passes (active again) or fails.",
         "A built-in or webhook bot's round is played by the workers at once; a pull bot's "
         "starts at its next poll for decisions."],
    )  # fmt: skip
    if bot.status != Bot.Status.SUSPENDED:
        context["unavailable"] = f"The bot is {bot.status}: only a suspended bot is reinstated."
        if bot.status == Bot.Status.ACTIVE:
            context["other"] = ("Suspend it", reverse("staff:bot-suspend", args=[bot.pk]))
    here = request.path

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        actions.bot_reinstate(bot_id=bot.pk, user=request.user, reason=data["reason"])
        return f"Bot {bot.name} is validating again.", here

    return _act(request, ReasonForm(_data(request)), context, perform)


def _ladder(slug: str) -> Competition:
    return get_object_or_404(Competition, slug=slug, kind=Competition.Kind.LADDER)


def _ladder_context(ladder: Competition, action: str, title: str, effects: list[str]) -> dict:
    return {
        "title": title,
        "action": action,
        "target": f"ladder {ladder.name} ({ladder.slug})",
        "back": reverse("staff:dashboard"),
        "facts": [
            ("Matchmaking", "running" if ladder.matchmaking else "paused"),
            ("Entrants", ladder.entries.filter(active=True).count()),
            (
                "Games playing",
                Game.objects.filter(
                    context__competition=ladder.pk, status=Game.Status.PLAYING
                ).count(),
            ),
        ],  # fmt: skip
        "effects": effects,
        "history": _history(f"competition:{ladder.pk}"),
    }


@staff_only
@require_http_methods(["GET", "POST"])
def ladder_pause(request: HttpRequest, slug: str) -> HttpResponse:
    ladder = _ladder(slug)
    context = _ladder_context(
        ladder, "pause-matchmaking", f"Pause {ladder.name}'s matchmaking?",
        ["Matchmaking stops: no new table is seated and no set's next rotation is made.",
         "Games under way play on to their end."],
    )  # fmt: skip
    if not ladder.matchmaking:
        context["unavailable"] = "Its matchmaking is paused already."
        context["other"] = ("Resume it", reverse("staff:ladder-resume", args=[ladder.slug]))
    here = request.path

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        actions.ladder_pause(slug=ladder.slug, user=request.user, reason=data["reason"])
        return f"{ladder.name}'s matchmaking is paused.", here

    return _act(request, ReasonForm(_data(request)), context, perform)


@staff_only
@require_http_methods(["GET", "POST"])
def ladder_resume(request: HttpRequest, slug: str) -> HttpResponse:
    ladder = _ladder(slug)
    context = _ladder_context(
        ladder, "resume-matchmaking", f"Resume {ladder.name}'s matchmaking?",
        ["Matchmaking runs again: the next run makes the waiting rotations and seats the idle "
         "entrants at new tables."],
    )  # fmt: skip
    if ladder.matchmaking:
        context["unavailable"] = "Its matchmaking is running."
        context["other"] = ("Pause it", reverse("staff:ladder-pause", args=[ladder.slug]))
    here = request.path

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        actions.ladder_resume(slug=ladder.slug, user=request.user, reason=data["reason"])
        return f"{ladder.name}'s matchmaking is running.", here

    return _act(request, ReasonForm(_data(request)), context, perform)


def _rebuilds() -> list[tuple[AuditEntry, rebuilds.Progress]]:
    entries = AuditEntry.objects.filter(action=AuditEntry.Action.REBUILD_PROJECTION)
    return [
        (entry, rebuilds.progress_of(entry)) for entry in entries.select_related("actor")[:HISTORY]
    ]


@staff_only
@require_GET
def projection_list(request: HttpRequest) -> HttpResponse:
    """Every projection's checkpoint against the log's head, and the latest rebuilds."""
    context = {"projections": projections.status(), "rebuilds": _rebuilds()}
    return render(request, "staff/projections.html", context)


@staff_only
@require_http_methods(["GET", "POST"])
def projection_rebuild(request: HttpRequest, name: str) -> HttpResponse:
    try:
        [found] = projections.status([name])
    except projections.UnknownProjection:
        raise Http404(f"no projection {name!r}") from None
    context = {
        "title": f"Rebuild the {name} projection?",
        "action": "rebuild-projection",
        "target": f"projection {name}",
        "back": reverse("staff:projections"),
        "facts": [
            ("Applied up to", f"position {found.position}"),
            ("Log head", f"position {found.head}"),
            ("Behind by", f"{found.lag} events"),
        ],
        "effects": [
            "A worker empties its tables and folds the whole log again, in one transaction: "
            "readers see the old read model until the new one is complete.",
            "The page it takes you to shows its progress and refreshes itself until it is done.",
        ],
        "history": list(
            AuditEntry.objects.filter(target=f"projection:{name}").select_related("actor")[:HISTORY]
        ),
    }

    def perform(data: dict[str, Any]) -> tuple[str, str]:
        entry = actions.projection_rebuild(name=name, user=request.user, reason=data["reason"])
        return f"The rebuild of {name} was sent to the workers.", reverse(
            "staff:rebuild", args=[entry.pk]
        )

    return _act(request, ReasonForm(_data(request)), context, perform)


@staff_only
@require_GET
def rebuild_progress(request: HttpRequest, entry_id: int) -> HttpResponse:
    """One rebuild's progress; the page refreshes itself every REFRESH_EVERY s until done."""
    entry = get_object_or_404(
        AuditEntry.objects.select_related("actor"),
        pk=entry_id,
        action=AuditEntry.Action.REBUILD_PROJECTION,
    )
    progress = rebuilds.progress_of(entry)
    context = {"entry": entry, "progress": progress, "refresh_every": REFRESH_EVERY}
    return render(request, "staff/projections_rebuild.html", context)
