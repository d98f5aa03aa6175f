"""The staff actions' pages: for each action a confirmation page (GET: what the target is now
and what the action will do, with a form whose reason is required) that posts to itself (POST:
the action, staff/actions.py). Staff only, anyone else gets a 404 (staff_only); CSRF as every
form of the site. A done action redirects to where its result shows (the game's inspector, the
bot's or ladder's page again, the rebuild's progress) with a message; a refused one renders the
page again with the error's message and code, at the status the API would answer
(frontdoor/errors.py status_for), and changes nothing.

Each action is a Spec below (its words, its form, its service, its message), done to a Target (a
game, a bot, a ladder, a projection: how the address finds it and what the page says of it);
action_view makes the one view that serves them all."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.views.decorators.http import require_GET, require_http_methods

from engine import MATCH_OVER
from frontdoor.errors import status_for
from games import projections, seat_facts
from games.errors import GameError
from games.models import Bot, Game, Seat
from games.variant_text import moment
from league.models import Competition
from staff import actions, rebuilds
from staff.access import staff_only
from staff.action_forms import ExtendForm, ReasonForm, SeatForm, SuspendForm
from staff.models import AuditEntry

CONFIRM = "staff/confirm.html"
# Audit entries shown with a target (a bot's, a ladder's, the rebuilds).
HISTORY = 10
# Seconds between two refreshes of a rebuild's page while it runs.
REFRESH_EVERY = 2

T = TypeVar("T")

# Why an action does not apply to its target now, and the action that does (label, address).
Refusal = tuple[str, tuple[str, str] | None]


@dataclass(frozen=True, slots=True)
class Target(Generic[T]):
    """What a kind of action is done to (a game, a bot, a ladder, a projection)."""

    # The target from the address's arguments, or a 404.
    load: Callable[..., T]
    # What the confirmation page says of it: target, back, facts, and history where kept.
    describe: Callable[[T], dict[str, Any]]
    # The keyword arguments that name it to the staff/actions.py service.
    key: Callable[[T], dict[str, Any]]
    # Where a done action goes, from the target and its audit entry; None: its page again.
    after: Callable[[T, AuditEntry], str | None]


@dataclass(frozen=True, slots=True)
class Spec(Generic[T]):
    """One staff action: its confirmation page, its form and its service. `title` is formatted
    with the target as `t`; `done`, the message once done, with `t`, the form's data as `d`
    and the service's audit entry as `e`."""

    action: str
    target: Target[T]
    title: str
    effects: tuple[str, ...]
    # staff/actions.py's service: called with the target's key, the user and the form's data.
    service: Callable[..., AuditEntry]
    # The success message: a format string (t, the target; d, the form's data; e, the entry),
    # or a function of the three.
    done: str | Callable[[T, dict[str, Any], AuditEntry], str]
    refusal: Callable[[T], Refusal | None]
    form: Callable[..., ReasonForm] = ReasonForm
    # An action on one seat: the seats it may take ((number, label) pairs); none, `no_seats`.
    seats: Callable[[T], list[tuple[int, str]]] | None = None
    no_seats: str = ""
    danger: bool = False
    # A ruling on a game (abort, forfeit, extend): refused up front to a staff member who plays
    # in it, as the service refuses it (staff/actions.py `plays-in-game`).
    ruling: bool = False


def action_view(spec: Spec[Any]) -> Callable[..., HttpResponse]:
    """The view of `spec`: its confirmation page, or on a valid POST the action, which
    redirects with a message; a refused one renders the page again with the error's message
    and code at the status the API would answer, and changes nothing."""

    @staff_only
    @require_http_methods(["GET", "POST"])
    def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        target = spec.target.load(**kwargs)
        context = {
            "title": spec.title.format(t=target),
            "action": spec.action,
            **spec.target.describe(target),
            "effects": spec.effects,
            "danger": spec.danger,
        }
        refusal = spec.refusal(target)
        if refusal is None and spec.ruling and actions.held_seats(target.pk, request.user):
            refusal = (f"{capfirst(actions.plays_in_words(target.pk))} (plays-in-game).", None)
        seats = spec.seats(target) if spec.seats is not None else None
        if refusal is None and seats == []:
            refusal = (spec.no_seats, None)
        if refusal is not None:
            context["unavailable"], context["other"] = refusal
        data = request.POST if request.method == "POST" else None
        form = spec.form(data) if seats is None else spec.form(data, seats=seats)
        status = 200
        if request.method == "POST":
            if form.is_valid():
                try:
                    entry = spec.service(
                        **spec.target.key(target), user=request.user, **form.cleaned_data
                    )
                except GameError as error:
                    messages.error(request, f"{error.message} ({error.code})")
                    status = status_for(error)
                else:
                    done = (
                        spec.done.format(t=target, d=form.cleaned_data, e=entry)
                        if isinstance(spec.done, str)
                        else spec.done(target, form.cleaned_data, entry)
                    )
                    messages.success(request, done)
                    return redirect(spec.target.after(target, entry) or request.path)
            else:
                status = 400
        return render(request, CONFIRM, {**context, "form": form}, status=status)

    return view


def _history(target: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(target=target).select_related("actor")[:HISTORY])


# Games ---------------------------------------------------------------------------------------


def _game(game_id: int) -> Game:
    return get_object_or_404(Game, pk=game_id)


def _game_page(game: Game) -> dict[str, Any]:
    return {
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
    }


def _game_over(game: Game) -> Refusal | None:
    if game.status == MATCH_OVER:
        return (f"Game #{game.pk} is over: there is nothing to do.", None)
    return None


GAME = Target(
    load=_game,
    describe=_game_page,
    key=lambda game: {"game_id": game.pk},
    after=lambda game, entry: reverse("staff:game", args=[game.pk]),
)


def _seat_label(seat: Seat) -> str:
    if seat.user is not None:
        who = seat.user.username
    elif seat.registered_bot is not None:
        who = f"bot {seat.registered_bot.name} (#{seat.registered_bot_id})"
    else:
        who = f"bot {seat.bot}"
    return f"seat {seat.number}: {who}"


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user", "registered_bot").order_by("number"))


def _unforfeited(game: Game) -> list[tuple[int, str]]:
    forfeited = seat_facts.facts_of(game.pk).forfeited
    return [(s.number, _seat_label(s)) for s in _seats(game) if s.number not in forfeited]


def _clocks_running(game: Game) -> list[tuple[int, str]]:
    running = [s for s in _seats(game) if s.controller == Seat.Controller.PERSON and s.deadline_at]
    return [
        (s.number, f"{_seat_label(s)}, due {s.deadline_at:%Y-%m-%d %H:%M} UTC") for s in running
    ]


REDRIVE = Spec(
    action="re-drive", target=GAME, title="Re-drive game #{t.pk}?",
    effects=(
        "The workers are asked to move the game now (the advance_game task), as the "
        "reconciler would: bots whose turn it is play, a lost task is made good.",
        "Nothing is appended by this action itself; the audit trail keeps it.",
    ),
    service=actions.game_redrive, done="Game #{t.pk} was sent to the workers.",
    refusal=_game_over,
)  # fmt: skip
ABORT = Spec(
    action="abort", target=GAME, title="Abort game #{t.pk}?",
    effects=(
        "A game-aborted event (you as its actor) ends the match where it stands: no winner, "
        "no places. Nobody moves it again. Your note stays in the audit log: the players "
        "read only that the staff aborted the match.",
        "It has no result: no standing, rating or match result counts it. A ladder game's "
        "set is closed, unrated, and its entrants are free for matchmaking.",
        "This cannot be undone.",
    ),
    service=actions.game_abort, done="Game #{t.pk} was aborted.",
    refusal=_game_over, danger=True, ruling=True,
)  # fmt: skip
FORFEIT = Spec(
    action="forfeit", target=GAME, title="Forfeit a seat of game #{t.pk}?",
    effects=(
        "A seat-forfeited event (reason awarded, you as its actor), as a resignation writes: "
        "the default bot plays the seat from now on and the match result places it last.",
        "Your note stays in the audit log: the players read only that the seat was forfeited "
        "by a ruling.",
        "This cannot be undone.",
    ),
    service=actions.game_forfeit, done="Seat {d[seat]} of game #{t.pk} was forfeited.",
    refusal=_game_over, danger=True, ruling=True,
    form=SeatForm, seats=_unforfeited, no_seats="Every seat of this game is forfeited already.",
)  # fmt: skip
EXTEND = Spec(
    action="extend-deadline", target=GAME, title="Extend a turn's deadline in game #{t.pk}?",
    effects=(
        "A deadline-extended event (the seat, its new deadline and your message to the "
        "player, if you write one, shown to that seat alone) and the seat's clock moved as "
        "many hours later.",
        "Your note for the staff stays in the audit log: no player reads it.",
        "The turn keeps its clock: the overdue-turn sweep waits for the new deadline.",
    ),
    service=actions.game_extend_deadline,
    done=lambda game, data, entry: (
        f"Seat {data['seat']}'s deadline in game #{game.pk} is now "
        f"{moment(datetime.fromisoformat(entry.details['deadline']))}."
    ),
    refusal=_game_over, ruling=True,
    form=ExtendForm, seats=_clocks_running,
    no_seats="No person's turn clock is running in this game.",
)  # fmt: skip


# Bots ----------------------------------------------------------------------------------------


def _bot(bot_id: int) -> Bot:
    return get_object_or_404(Bot.objects.select_related("owner"), pk=bot_id)


def _bot_page(bot: Bot) -> dict[str, Any]:
    return {
        "target": f"bot {bot.name} (#{bot.pk})",
        "back": reverse("staff:dashboard"),
        "facts": [
            ("Owner", bot.owner.username),
            ("Kind", bot.kind),
            ("Status", bot.status),
            ("Why", bot.status_reason or "—"),
            ("Strikes in a row", bot.strikes),
        ],
        "history": _history(f"bot:{bot.pk}"),
    }


def _bot_not_staff_suspended(bot: Bot) -> Refusal | None:
    # Any other bot may be suspended: one suspended by its strikes, failed or validating too, so
    # that its owner cannot validate it back (staff/actions.py bot_suspend); not a retired one.
    if bot.status == Bot.Status.RETIRED:
        return ("Its owner retired this bot: it plays nothing, and nothing brings it back.", None)
    if not bot.suspended_by_staff:
        return None
    other = ("Reinstate it", reverse("staff:bot-reinstate", args=[bot.pk]))
    return ("The staff have already suspended this bot.", other)


def _bot_not_suspended(bot: Bot) -> Refusal | None:
    if bot.status == Bot.Status.SUSPENDED:
        return None
    active = bot.status == Bot.Status.ACTIVE
    other = ("Suspend it", reverse("staff:bot-suspend", args=[bot.pk])) if active else None
    return (f"The bot is {bot.status}: only a suspended bot is reinstated.", other)


BOT = Target(
    load=_bot,
    describe=_bot_page,
    key=lambda bot: {"bot_id": bot.pk},
    after=lambda bot, entry: None,
)
SUSPEND = Spec(
    action="suspend-bot", target=BOT, title="Suspend bot {t.name}?",
    effects=(
        "The bot is suspended, as its strikes would: the default bot plays its seats from now "
        "on, without asking it, and matchmaking seats it no more.",
        "Its games where it is to act are sent to the workers at once.",
        "Its owner reads that the staff suspended it, with your message to them if you "
        "write one; your note for the staff stays in the audit log.",
    ),
    service=actions.bot_suspend, done="Bot {t.name} is suspended.",
    refusal=_bot_not_staff_suspended, danger=True, form=SuspendForm,
)  # fmt: skip
REINSTATE = Spec(
    action="reinstate-bot", target=BOT, title="Reinstate bot {t.name}?",
    effects=(
        "A new validation round opens, as its owner's re-validation would: the bot is "
        "validating until the round passes (active again) or fails.",
        "A built-in or webhook bot's round is played by the workers at once; a pull bot's "
        "starts at its next poll for decisions.",
    ),
    service=actions.bot_reinstate, done="Bot {t.name} is validating again.",
    refusal=_bot_not_suspended,
)  # fmt: skip


# Ladders -------------------------------------------------------------------------------------


def _ladder(slug: str) -> Competition:
    return get_object_or_404(Competition, slug=slug, kind=Competition.Kind.LADDER)


def _ladder_page(ladder: Competition) -> dict[str, Any]:
    return {
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
        "history": _history(f"competition:{ladder.pk}"),
    }


def _paused(ladder: Competition) -> Refusal | None:
    if ladder.matchmaking:
        return None
    resume = reverse("staff:ladder-resume", args=[ladder.slug])
    return ("Its matchmaking is paused already.", ("Resume it", resume))


def _running(ladder: Competition) -> Refusal | None:
    if not ladder.matchmaking:
        return None
    return (
        "Its matchmaking is running.",
        ("Pause it", reverse("staff:ladder-pause", args=[ladder.slug])),
    )


LADDER = Target(
    load=_ladder,
    describe=_ladder_page,
    key=lambda ladder: {"slug": ladder.slug},
    after=lambda ladder, entry: None,
)
PAUSE = Spec(
    action="pause-matchmaking", target=LADDER, title="Pause {t.name}'s matchmaking?",
    effects=(
        "Matchmaking stops: no new table is seated and no set's next rotation is made.",
        "Games under way play on to their end.",
    ),
    service=actions.ladder_pause, done="{t.name}'s matchmaking is paused.", refusal=_paused,
)  # fmt: skip
RESUME = Spec(
    action="resume-matchmaking", target=LADDER, title="Resume {t.name}'s matchmaking?",
    effects=(
        "Matchmaking runs again: the next run makes the waiting rotations and seats the idle "
        "entrants at new tables.",
    ),
    service=actions.ladder_resume, done="{t.name}'s matchmaking is running.", refusal=_running,
)  # fmt: skip


# Projections ---------------------------------------------------------------------------------


def _projection(name: str) -> projections.ProjectionStatus:
    try:
        [found] = projections.status([name])
    except projections.UnknownProjection:
        raise Http404(f"no projection {name!r}") from None
    return found


def _projection_page(found: projections.ProjectionStatus) -> dict[str, Any]:
    return {
        "target": f"projection {found.name}",
        "back": reverse("staff:projections"),
        "facts": [
            ("Applied up to", f"position {found.position}"),
            ("Log head", f"position {found.head}"),
            ("Behind by", f"{found.lag} events"),
        ],
        "history": _history(f"projection:{found.name}"),
    }


PROJECTION = Target(
    load=_projection,
    describe=_projection_page,
    key=lambda found: {"name": found.name},
    after=lambda found, entry: reverse("staff:rebuild", args=[entry.pk]),
)
REBUILD = Spec(
    action="rebuild-projection", target=PROJECTION, title="Rebuild the {t.name} projection?",
    effects=(
        "A worker empties its tables and the workers fold the log again, game ranges in "
        "parallel where the projection allows it: readers see the read model fill up until "
        "the rebuild is done; the catch-up then applies what was appended meanwhile.",
        "The page it takes you to shows its progress and refreshes itself until it is done.",
    ),
    service=actions.projection_rebuild, done="The rebuild of {t.name} was sent to the workers.",
    refusal=lambda found: None,
)  # fmt: skip

# The pages staff/urls.py names.
game_redrive = action_view(REDRIVE)
game_abort = action_view(ABORT)
game_forfeit = action_view(FORFEIT)
game_extend = action_view(EXTEND)
bot_suspend = action_view(SUSPEND)
bot_reinstate = action_view(REINSTATE)
ladder_pause = action_view(PAUSE)
ladder_resume = action_view(RESUME)
projection_rebuild = action_view(REBUILD)


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
