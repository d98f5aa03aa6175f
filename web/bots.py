"""The bot pages: a bot's public page (/bots/<id>/: owner, kind, status, its ladders with rank,
rating history chart and head-to-head, its recent games), and its owner's pages (/me/bots/:
their bots, the retired ones apart, and the registration forms; /me/bots/<id>/: renaming and
changing it, a new token, a new validation, its stats and recent calls, its games and its
ladders; /me/bots/<id>/shown: what a registration or a new token made, shown once;
/me/bots/<id>/retire: asked, then done).

Every change goes through bots.registry, as the owners' API does, and shares the API's
budget of bot changes per person (frontdoor.throttles.BotChangesThrottle): each starts
validation games on our workers. A bot that is not the signed-in person's is a 404 on the owner's
pages, as if it did not exist. A pull bot's token (and a webhook's secret we made) is shown once,
post/redirect/get: the POST that makes it keeps it in the person's session (never in a URL or a
log) and redirects to /me/bots/<id>/shown, which takes it out of the session as it draws it,
sent `Cache-Control: no-store`; drawn again (a reload), that page has nothing left to show and
sends the owner to the bot's page, which says how to make a new one. docs/web.md, "Ladders and
bots".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_variables
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from botcalls import reads as call_reads
from bots import registry as bot_registry
from bots.remote import validation
from frontdoor import boundary
from frontdoor.throttles import BotChangesThrottle
from games.errors import GameError, GameNotFound
from games.models import Bot
from league import ladder_reads
from league.errors import BotNotFound
from league.ladder_reads import HeadToHead, LadderRecord, RecentGame
from league.models import Entry
from web import shown_once
from web.accounts import SignedInRequest
from web.bot_forms import REFUSAL_FIELDS, REGISTER_FORMS, BotNameForm, change_form, rename_form
from web.charts import HistoryChart, history_chart
from web.ladders import EntryOption, entrant_url, last_played_words, told_apart
from web.once import once
from web.sentences import ordinal, sentence

RECENT_CALLS = 20
STATUS_WORDS: dict[str, str] = {
    # Each follows the status itself ("active"), so none repeats it.
    Bot.Status.VALIDATING: "playing its validation games",
    Bot.Status.ACTIVE: "validated, may enter ladders",
    Bot.Status.SUSPENDED: "too many strikes in a row",
    Bot.Status.FAILED: "did not pass its validation",
    Bot.Status.RETIRED: "by its owner: it plays no more",
}
STAFF_SUSPENDED = "by the staff: only the staff can lift it"
AWAITING_POLL = "waiting for its first poll for decisions"
KIND_WORDS: dict[str, str] = {
    Bot.Kind.BUILTIN: "built-in strategy",
    Bot.Kind.WEBHOOK: "webhook (we call it)",
    Bot.Kind.PULL: "pull (it polls the API)",
}


@dataclass(frozen=True, slots=True)
class GameRow:
    """One of the bot's recent games, linked to its replay once over (else to its play page,
    where anyone who is not seated watches as a spectator: no hand is shown)."""

    game: RecentGame

    @property
    def url(self) -> str:
        name = "web:replay" if self.game.finished else "web:play"
        return reverse(name, args=[self.game.game.pk])

    @property
    def link_text(self) -> str:
        verb = "Replay" if self.game.finished else "Watch"
        return f"{verb} game {self.game.game.pk}"

    @property
    def place(self) -> str:
        if self.game.aborted:
            return "aborted"
        if self.game.place is None:
            return "playing" if not self.game.finished else "being counted"
        return f"{ordinal(self.game.place)} of {self.game.seats}"


@dataclass(frozen=True, slots=True)
class MeetingRow:
    meeting: HeadToHead
    name: str  # web.ladders.told_apart: "Gus (ana)" where another Gus is in view
    url: str


@dataclass(frozen=True, slots=True)
class LadderPanel:
    """One ladder on a bot's page: its line, the chart of its history and the head-to-head."""

    record: LadderRecord
    url: str
    chart: HistoryChart | None
    meetings: list[MeetingRow]
    last_played: str

    @property
    def win_rate(self) -> str:
        rate = self.record.line.win_rate
        return "" if rate is None else f"{rate:.0%}"


def ladder_panels(entries: QuerySet[Entry]) -> list[LadderPanel]:
    now = timezone.now()
    panels = []
    for record in ladder_reads.records(entries, now=now):
        # The page's own bot is in view too: its namesake among the opponents is told apart.
        names = Counter([record.line.name.casefold()])
        names.update(m.name.casefold() for m in record.head_to_head)
        shared = {name for name, count in names.items() if count > 1}
        meetings = [
            MeetingRow(
                m,
                told_apart(m.name, m.owner, m.kind, shared),
                entrant_url(m.kind, m.bot_id, m.name),
            )
            for m in record.head_to_head
        ]
        panels.append(
            LadderPanel(
                record=record,
                url=reverse("web:ladder", args=[record.ladder.slug]),
                chart=history_chart(record.history),
                meetings=meetings,
                last_played=last_played_words(record.line.last_played, now),
            )
        )
    return panels


def bot_or_404(bot_id: int) -> Bot:
    try:
        return ladder_reads.bot_of(bot_id)
    except BotNotFound as error:
        raise Http404(error.message) from error


def my_bot_or_404(request: SignedInRequest, bot_id: int) -> Bot:
    """The signed-in person's bot; anyone else's is not found, as in the owners' API."""
    bot = Bot.objects.filter(pk=bot_id, owner=request.user).first()
    if bot is None:
        raise Http404(f"you have no bot {bot_id}")
    return bot


def bot_context(bot: Bot, request: HttpRequest) -> dict[str, object]:
    """What the public page and the owner's page both show: its ladders, and a page of its
    games (the next after the last shown: `?before=`, a game's id; 404 for a game that is not
    the bot's, 400 for one that is no number)."""
    try:
        games, older = ladder_reads.recent_games(
            bot, before=boundary.integer(request.GET, "before")
        )
    except GameNotFound as error:
        raise Http404(error.message) from error
    # A staff suspension is not the strikes': its reason (status_reason) is the staff's alone.
    staff = bot.suspended_by_staff and bot.status != Bot.Status.RETIRED
    words = STAFF_SUSPENDED if staff else STATUS_WORDS.get(bot.status, bot.status)
    # A pull bot's validation games are made at its first poll: until then it plays nothing.
    awaiting_poll = (
        bot.status == Bot.Status.VALIDATING and bot.status_reason == validation.WAITING_FOR_POLL
    )
    return {
        "bot": bot,
        "status_words": AWAITING_POLL if awaiting_poll else words,
        "awaiting_poll": awaiting_poll,
        "kind_words": KIND_WORDS.get(bot.kind, bot.kind),
        "panels": ladder_panels(Entry.objects.filter(bot=bot)),
        "games": [GameRow(game) for game in games],
        # The id of the last game shown when older ones follow (the next page's `before`).
        "older_games": older,
    }


@require_GET
def bot(request: HttpRequest, bot_id: int) -> HttpResponse:
    """A bot's public page."""
    found = bot_or_404(bot_id)
    context = {**bot_context(found, request), "mine": request.user.pk == found.owner_id}
    return render(request, "bots/bot.html", context)


def changes_allowed(request: HttpRequest) -> bool:
    """Within the person's budget of bot changes (the API's), else a message says when."""
    throttle = BotChangesThrottle()
    # A DRF throttle reads only the request's user and address, which Django's request has.
    if throttle.allow_request(request, None):
        return True
    wait = throttle.wait() or 60
    messages.error(
        request,
        "You have registered or changed bots often lately (each change plays validation "
        f"games): try again in {max(1, round(wait / 60))} minute(s).",
    )
    return False


def retired_refusal(request: HttpRequest, bot: Bot) -> HttpResponse | None:
    """A change asked of a retired bot (from a page drawn before it retired): refused above its
    page, which has no form any more; None for a bot in service."""
    if bot.status != Bot.Status.RETIRED:
        return None
    messages.error(request, f"{bot.name} is retired: nothing about it changes any more.")
    return redirect("web:my-bot", bot_id=bot.pk)


def refuse_on_form(form: Form, error: GameError) -> None:
    """A registry refusal on the form, by the field it is about."""
    form.add_error(REFUSAL_FIELDS.get(error.code), sentence(error.message))


def registration_forms(posted: BotNameForm | None = None) -> dict[str, BotNameForm]:
    """One form per kind (the posted one with its data and errors)."""
    forms = {kind: form_class(prefix=kind) for kind, form_class in REGISTER_FORMS.items()}
    if posted is not None:
        forms[posted.kind] = posted
    return forms


# A crash report shows none of this view's variables: a token or a secret may be among them.
@sensitive_variables()
@never_cache
@login_required
@require_http_methods(["GET", "POST"])
@once
def my_bots(request: SignedInRequest) -> HttpResponse:
    """The person's bots, and a form to register each kind. A registration redirects to the
    page that shows, once, a pull bot's token or a webhook bot's secret when we made it."""
    posted: BotNameForm | None = None
    if request.method == "POST":
        form_class = REGISTER_FORMS.get(request.POST.get("kind", ""))
        if form_class is None:
            messages.error(request, "Choose a kind of bot: built-in, webhook or pull.")
            return redirect("web:my-bots")
        posted = form_class(request.POST, prefix=form_class.kind)
        if posted.is_valid() and changes_allowed(request):
            try:
                made, token = bot_registry.bot_register(
                    owner=request.user, kind=form_class.kind, **posted.cleaned_data
                )
            except GameError as error:
                refuse_on_form(posted, error)
            else:
                secret_made = made.kind == Bot.Kind.WEBHOOK and not posted.cleaned_data["secret"]
                secret = made.secret if secret_made else ""
                shown_once.keep(
                    request, "bots", made.pk, token=token or "", secret=secret, rotated=False
                )
                return redirect("web:my-bot-shown", bot_id=made.pk)
    bots = Bot.objects.filter(owner=request.user).order_by("created_at", "pk")
    # Each with its kind in words, as its public page says it; the retired ones apart.
    rows = [(bot, KIND_WORDS.get(bot.kind, bot.kind)) for bot in bots]
    context: dict[str, object] = {
        "bots": [row for row in rows if row[0].status != Bot.Status.RETIRED],
        "retired": [row for row in rows if row[0].status == Bot.Status.RETIRED],
        "forms": registration_forms(posted),
        "status_words": STATUS_WORDS,
        "posted_kind": posted.kind if posted is not None else "",
    }
    return render(request, "bots/mine.html", context)


def ladder_options(bot: Bot) -> list[tuple[object, EntryOption]]:
    """Every ladder, with the bot entered in it or not (the enter/leave forms)."""
    entered = set(
        Entry.objects.filter(bot=bot, active=True).values_list("competition_id", flat=True)
    )
    return [
        (ladder, EntryOption(f"Bot {bot.name}", bot, ladder.pk in entered))
        for ladder in ladder_reads.ladders()
    ]


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def my_bot(request: SignedInRequest, bot_id: int) -> HttpResponse:
    """The owner's page of one bot; POST changes how it plays (URL and secret, or strategy)."""
    found = my_bot_or_404(request, bot_id)
    form = change_form(found, request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if (refused := retired_refusal(request, found)) is not None:
            return refused
        if form is None:
            messages.error(request, "A pull bot plays from your machine: only its token changes.")
            return redirect("web:my-bot", bot_id=found.pk)
        if form.is_valid() and changes_allowed(request):
            try:
                changed = bot_registry.bot_update(bot=found, owner=request.user, **form.changes())
            except GameError as error:
                refuse_on_form(form, error)
            else:
                if changed.suspended_by_staff:
                    messages.success(
                        request,
                        f"{changed.name} is changed; it stays suspended until the staff lift "
                        "the suspension, and is validated then.",
                    )
                elif changed.status == Bot.Status.VALIDATING and found.status != changed.status:
                    messages.success(
                        request,
                        f"{changed.name} is changed; it plays its "
                        "validation games again before it plays on a ladder.",
                    )
                else:
                    messages.success(request, f"{changed.name} is changed.")
                return redirect("web:my-bot", bot_id=found.pk)
    return my_bot_page(request, found, form=form)


def my_bot_page(
    request: SignedInRequest,
    found: Bot,
    *,
    form: Form | None = None,
    rename: BotNameForm | None = None,
) -> HttpResponse:
    """The owner's page of one bot, with the forms as posted (and refused) or fresh; a retired
    bot's with none: nothing about it changes any more."""
    retired = found.status == Bot.Status.RETIRED
    context = {
        **bot_context(found, request),
        "form": None if retired else form,
        "rename": None if retired else rename or rename_form(found),
        "calls": call_reads.calls_of(found.pk, limit=RECENT_CALLS),
        "ladders": [] if retired else ladder_options(found),
        "here": request.path,
        "owner_page": True,
    }
    return render(request, "bots/my_bot.html", context)


@never_cache
@login_required
@require_POST
def my_bot_rename(request: SignedInRequest, bot_id: int) -> HttpResponse:
    """A new name, checked as at registration (bots.registry); refused, on its form."""
    found = my_bot_or_404(request, bot_id)
    if (refused := retired_refusal(request, found)) is not None:
        return refused
    rename = rename_form(found, request.POST)
    if rename.is_valid() and changes_allowed(request):
        old = found.name
        try:
            renamed = bot_registry.bot_update(
                bot=found, owner=request.user, name=rename.cleaned_data["name"]
            )
        except GameError as error:
            refuse_on_form(rename, error)
        else:
            if renamed.name == old:
                messages.info(request, f"{old} keeps its name.")
            else:
                messages.success(
                    request,
                    f"{old} is renamed {renamed.name}: its pages, ladders and games say so now.",
                )
            return redirect("web:my-bot", bot_id=found.pk)
    return my_bot_page(request, found, form=change_form(found), rename=rename)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def my_bot_retire(request: SignedInRequest, bot_id: int) -> HttpResponse:
    """Ask, then retire the bot for good (bots.registry.bot_retire): asking says what it will
    do, or what holds the bot now, with no button then."""
    found = my_bot_or_404(request, bot_id)
    if found.status == Bot.Status.RETIRED:
        messages.info(request, f"{found.name} is retired already.")
        return redirect("web:my-bot", bot_id=found.pk)
    if request.method == "GET":
        held = bot_registry.retirement_holds(found)
        return render(request, "bots/retire_confirm.html", {"bot": found, "held": held})
    if not changes_allowed(request):
        return redirect("web:my-bot", bot_id=found.pk)
    try:
        bot_registry.bot_retire(bot=found, owner=request.user)
    except GameError as error:
        messages.error(request, sentence(error.message))
        return redirect("web:my-bot-retire", bot_id=found.pk)
    messages.success(
        request,
        f"{found.name} is retired: it plays nothing new; its games and ratings stay.",
    )
    return redirect("web:my-bots")


@login_required
@require_POST
@once
def my_bot_validate(request: SignedInRequest, bot_id: int) -> HttpResponse:
    """A new validation round (after a failure, a fix, a suspension)."""
    found = my_bot_or_404(request, bot_id)
    if found.status == Bot.Status.VALIDATING:
        messages.info(request, f"{found.name} is playing its validation games already.")
        return redirect("web:my-bot", bot_id=found.pk)
    if changes_allowed(request):
        try:
            bot_registry.bot_revalidate(bot=found, owner=request.user)
        except GameError as error:
            messages.error(request, capfirst(error.message.rstrip(".")) + ".")
        else:
            messages.success(
                request,
                f"{found.name} plays its validation games again; this page shows how they went.",
            )
    return redirect("web:my-bot", bot_id=found.pk)


# A crash report shows none of this view's variables: a token or a secret may be among them.
@sensitive_variables()
@never_cache
@login_required
@require_http_methods(["GET", "POST"])
@once
def my_bot_token(request: SignedInRequest, bot_id: int) -> HttpResponse:
    """Ask, then give a pull bot a new token, shown once on the page it redirects to; the old
    one stops."""
    found = my_bot_or_404(request, bot_id)
    if found.kind != Bot.Kind.PULL:
        raise Http404(f"{found.name} is a {found.kind} bot: only pull bots have tokens")
    if (refused := retired_refusal(request, found)) is not None:
        return refused
    if request.method == "GET":
        return render(request, "bots/token_confirm.html", {"bot": found})
    try:
        token = bot_registry.bot_new_token(bot=found, owner=request.user)
    except GameError as error:
        messages.error(request, sentence(error.message))
        return redirect("web:my-bot", bot_id=found.pk)
    shown_once.keep(request, "bots", found.pk, token=token, secret="", rotated=True)
    return redirect("web:my-bot-shown", bot_id=found.pk)


# A crash report shows none of this view's variables: a token or a secret may be among them.
@sensitive_variables()
@never_cache
@login_required
@require_GET
def my_bot_shown(request: SignedInRequest, bot_id: int) -> HttpResponse:
    """The page after a registration or a new token: the bot's status, its id, and its token
    (or the secret we made), this once. Drawn again, nothing is left to show: the bot's page,
    with a line that says so and what to do."""
    found = my_bot_or_404(request, bot_id)
    kept = shown_once.take(request, "bots", found.pk)
    if kept is None:
        if found.kind == Bot.Kind.PULL and found.status != Bot.Status.RETIRED:
            messages.info(
                request,
                f"{found.name}'s token is shown only once, on the page after it is made, and "
                "only its hash is kept: if you did not copy it, make a new one under “Its "
                "token” below (the old one then stops working).",
            )
        elif found.kind == Bot.Kind.WEBHOOK and found.status != Bot.Status.RETIRED:
            messages.info(
                request,
                f"If we made {found.name}'s secret, it is shown only once, on the page after "
                "the registration: set one of your own under “How it plays” below.",
            )
        return redirect("web:my-bot", bot_id=found.pk)
    context = {
        "bot": found,
        "token": kept["token"],
        "secret": kept["secret"],
        "rotated": kept["rotated"],
    }
    return render(request, "bots/registered.html", context)
