"""The tournament pages: every tournament (/tournaments/: taking entries, running, finished), a
tournament (/tournaments/<slug>/: entry, rounds, tables with their games, standings with each
entrant's person or bot flag, results), a new one (/tournaments/new/) and the actions (enter,
withdraw, start, an arena's pause and resume: POSTs through tournaments/services.py, then back
to the page; a refusal comes back as a message with nothing changed). docs/tournaments.md, "Pages".
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from frontdoor.variant_form import TURN_LENGTHS, VariantForm
from games.errors import GameError
from games.models import Bot, Game
from games.variant_text import duration, variant_details, variant_title
from league import clubs
from league.models import Club
from league.scheduling import default_points
from tournaments import services
from tournaments.errors import TournamentNotFound
from tournaments.models import Entry, Result, Round, Tournament, TournamentGame
from tournaments.scheduling import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from tournaments.scoring import bye_points
from tournaments.standings import StandingLine, standings
from web.accounts import SignedInRequest
from web.clubs import said
from web.league_forms import address_field, slug_for
from web.once import once

# /tournaments/new/ is the form, so no tournament may be called that.
RESERVED_SLUGS = {"new"}
# The new-tournament form's defaults, which fit together: a match to 100 at four is about 100
# moves (greedy bots, 40 deals: 101 on average, 204 at the 90th percentile), so even if every
# turn took its whole 5 minutes a table ends well inside a day's round.
ROUND_HOURS = 24
TURN_SECONDS = 300
TARGET = 100
GROUPS = (
    (Tournament.Status.OPEN, "Taking entries"),
    (Tournament.Status.RUNNING, "Running"),
    (Tournament.Status.FINISHED, "Finished"),
)


def tournament_or_404(slug: str) -> Tournament:
    try:
        return services.tournament_get(slug)
    except TournamentNotFound as error:
        raise Http404(error.message) from error


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    every = services.listing()
    groups = [(label, [t for t in every if t.status == status]) for status, label in GROUPS]
    return render(request, "tournaments/list.html", {"groups": groups, "any": bool(every)})


@dataclass(frozen=True, slots=True)
class Sitter:
    name: str
    is_bot: bool
    place: int | None
    points: float | None


@dataclass(frozen=True, slots=True)
class ShownTable:
    number: int
    # A duplicate round drawn before one game per table also played rotations 2..k.
    rotation: int
    duplicate: bool
    game: int
    over: bool
    sitters: list[Sitter]


@dataclass(frozen=True, slots=True)
class ShownRound:
    round: Round
    tables: list[ShownTable]
    byes: list[Entry]


def shown_rounds(tournament: Tournament, lines: list[StandingLine]) -> list[ShownRound]:
    entries = {
        e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("user", "bot")
    }
    played = {
        (row.game_id, row.entry_id): row for row in Result.objects.filter(tournament=tournament)
    }
    tables = (
        TournamentGame.objects.filter(round__tournament=tournament)
        .select_related("game")
        .order_by("round__number", "table", "rotation")
    )
    by_round: dict[int, list[ShownTable]] = {}
    for table in tables:
        over = table.game.status == Game.Status.MATCH_OVER
        sitters = []
        for entry in table.entries:
            result = played.get((table.game_id, entry))
            sitters.append(
                Sitter(
                    entries[entry].name,
                    entries[entry].is_bot,
                    result.place if result else None,
                    result.points if result else None,
                )
            )
        by_round.setdefault(table.round_id, []).append(
            ShownTable(
                table.table,
                table.rotation + 1,
                tournament.format == Tournament.Format.DUPLICATE,
                table.game_id,
                over,
                sitters,
            )
        )
    return [
        ShownRound(r, by_round.get(r.pk, []), [entries[e] for e in r.byes])
        for r in Round.objects.filter(tournament=tournament).order_by("-number")
    ]


@dataclass(frozen=True, slots=True)
class EntryOption:
    label: str
    bot: Bot | None
    entered: bool
    paused: bool = False


def entry_options(tournament: Tournament, user: Any) -> list[EntryOption]:
    """The signed-in person and each of their bots (if bots may enter), entered or not."""
    if not user.is_authenticated:
        return []
    entered: dict[tuple[int | None, int | None], bool] = {
        (user_id, bot_id): paused
        for user_id, bot_id, paused in Entry.objects.filter(
            tournament=tournament, withdrawn=False
        ).values_list("user_id", "bot_id", "paused")
    }
    me = (user.pk, None)
    options = [EntryOption("You", None, me in entered, entered.get(me, False))]
    if tournament.bots_allowed:
        for bot in (
            Bot.objects.filter(owner=user)
            .exclude(status__in=[Bot.Status.FAILED, Bot.Status.RETIRED])
            .order_by("name")
        ):
            key = (None, bot.pk)
            options.append(
                EntryOption(f"Bot {bot.name}", bot, key in entered, entered.get(key, False))
            )
    return options


def late_note(tournament: Tournament, options: list[EntryOption]) -> str:
    """What entering late means, said of who may still enter late: the reader ("you") when
    they are not entered, else their bots not entered; nothing when all of them are in (an
    entrant read "Entering late, you are drawn from the next round" under "Withdraw
    yourself"). The page shows it while late entry is open."""
    late = [option for option in options if not option.entered]
    if not late:
        return ""
    arena = tournament.format == Tournament.Format.ARENA
    if any(option.bot is None for option in late):
        if arena:
            return "Entering late, you are seated as soon as a table fills."
        return (
            "Entering late, you are drawn from the next round, with no points for the rounds "
            "you missed."
        )
    if arena:
        return "A bot entered late is seated as soon as a table fills."
    return (
        "A bot entered late is drawn from the next round, with no points for the rounds it missed."
    )


# The standings' columns after the entrant, each with its short name on a phone (the key under
# the table says them).
COLUMNS = (("Points", "Pts"), ("Played", "Pl"), ("Wins", "W"), ("Byes", "B"), ("Forfeits", "F"))
# Each format's section of docs/playing-tournaments.md, "How points are given".
POINTS_ANCHORS: dict[str, str] = {
    Tournament.Format.SWISS: "swiss-rounds",
    Tournament.Format.KNOCKOUT: "knockout-cups",
    Tournament.Format.ARENA: "arenas",
    Tournament.Format.DUPLICATE: "duplicate-deals",
}


def _listed(points: list[int]) -> str:
    return "/".join(str(p) for p in points)


def points_rule(tournament: Tournament) -> str:
    """How the tournament gives points, in one sentence (tournaments/scoring.py; the guide's
    "How points are given" has the whole of it)."""
    size = tournament.table_size
    places = _listed(default_points(size))
    if tournament.format == Tournament.Format.KNOCKOUT:
        through = (
            "the winner of each table goes"
            if tournament.advance == 1
            else f"the best {tournament.advance} of each table go"
        )
        return (
            f"Placed by the round reached, then the place at that table; {through} through "
            "(points are for information)."
        )
    if tournament.format == Tournament.Format.ARENA:
        return (
            f"Each game scores its place's points ({places} at a table of {size}); after two "
            "wins in a row each win scores double, until a game is not won."
        )
    if tournament.format == Tournament.Format.DUPLICATE:
        return (
            f"Each game's place points ({places} at a table of {size}) are compared with the "
            "mean of the same cards at the round's other tables: above 0 is better than the "
            "field."
        )
    return (
        f"Points by place at each table: {places} at a table of {size}; a table a seat short "
        "spreads them over its places, a bye scores the average "
        f"({round(bye_points(size), 2):g}), a forfeit places last."
    )


def shared_ranks(lines: list[StandingLine]) -> set[int]:
    """The ranks more than one line holds, each shown with "=" as a season's table shows them."""
    held = Counter(line.rank for line in lines)
    return {rank for rank, count in held.items() if count > 1}


@require_GET
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    lines = standings(tournament)
    now = timezone.now()
    options = entry_options(tournament, request.user)
    context = {
        "tournament": tournament,
        "rules": variant_title(tournament.variant),
        "details": variant_details(tournament.variant),
        "round_length": duration(tournament.round_seconds),
        "turn_length": duration(tournament.turn_seconds),
        "lines": lines,
        # No place before the start ("–", as a season's entrants); a shared one says so: "5=".
        "ranked": tournament.status != Tournament.Status.OPEN,
        "shared_ranks": shared_ranks(lines),
        "columns": COLUMNS,
        "points_rule": points_rule(tournament),
        "points_anchor": POINTS_ANCHORS.get(tournament.format, "how-points-are-given"),
        # When entry closed: the start (an early one too), else the window's end.
        "started": tournament.started_at or tournament.entry_closes,
        "rounds": shown_rounds(tournament, lines),
        "entrants": Entry.objects.filter(tournament=tournament, withdrawn=False).count(),
        "entry_open": services.entry_open(tournament, now),
        "options": options,
        "late_note": late_note(tournament, options),
        "can_run": services.can_run(tournament, request.user),
        # An arena's entrants pause (tournaments/services.py `tournament_pause`).
        "pausable": tournament.format == Tournament.Format.ARENA
        and tournament.status != Tournament.Status.FINISHED,
        "paused": set(
            Entry.objects.filter(tournament=tournament, paused=True, withdrawn=False).values_list(
                "pk", flat=True
            )
        ),
    }
    return render(request, "tournaments/page.html", context)


def _entrant(request: SignedInRequest) -> tuple[Any, Bot | None]:
    bot_id = request.POST.get("bot", "")
    if bot_id:
        number = int(bot_id) if bot_id.isascii() and bot_id.isdigit() and len(bot_id) < 12 else 0
        bot = Bot.objects.filter(pk=number, owner=request.user).first()
        if bot is None:
            raise Http404("no such bot of yours")
        return None, bot
    return request.user, None


def _entrant_acts(request: SignedInRequest, slug: str, act: Any, done: Any) -> HttpResponse:
    """One of the entrant's actions on a tournament (`act`, a service taking the tournament, the
    actor and the entrant), then back to its page, with `done(who, tournament)` said: `who` is
    "You" or "Bot <name>"."""
    tournament = tournament_or_404(slug)
    user, bot = _entrant(request)
    try:
        act(tournament, actor=request.user, user=user, bot=bot)
    except GameError as error:
        messages.error(request, said(error))
    else:
        messages.success(request, done(f"Bot {bot.name}" if bot else "You", tournament))
    return redirect("web:tournament", slug=tournament.slug)


@login_required
@require_POST
def enter(request: SignedInRequest, slug: str) -> HttpResponse:
    return _entrant_acts(
        request,
        slug,
        services.tournament_enter,
        lambda who, t: f"{who} {'are' if who == 'You' else 'is'} entered in {t.name}.",
    )


@login_required
@require_POST
def withdraw(request: SignedInRequest, slug: str) -> HttpResponse:
    return _entrant_acts(
        request,
        slug,
        services.tournament_withdraw,
        lambda who, t: f"{who} {'have' if who == 'You' else 'has'} withdrawn from {t.name}.",
    )


@login_required
@require_POST
def pause(request: SignedInRequest, slug: str) -> HttpResponse:
    """An arena entrant pauses (not seated again until it resumes) or, `resume`, resumes."""
    if request.POST.get("resume") == "1":
        return _entrant_acts(
            request,
            slug,
            services.tournament_resume,
            lambda who, t: (
                f"{who} {'are' if who == 'You' else 'is'} back in {t.name}: "
                "seated when a table fills."
            ),
        )
    return _entrant_acts(
        request,
        slug,
        services.tournament_pause,
        lambda who, t: (
            f"{who} {'are' if who == 'You' else 'is'} paused in {t.name}: "
            "not seated again until resumed."
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
def start(request: SignedInRequest, slug: str) -> HttpResponse:
    """Ask first (a page, as closing a season does), then start: entry closes and round 1 is
    drawn at once. A POST without the confirmation's `confirm` comes back to the question."""
    tournament = tournament_or_404(slug)
    if request.method == "GET" or request.POST.get("confirm") != "1":
        if request.method == "POST":
            return redirect("web:tournament-start", slug=tournament.slug)
        if not services.can_run(tournament, request.user):
            raise Http404("not a tournament you run")
        context = {
            "tournament": tournament,
            "entrants": Entry.objects.filter(tournament=tournament, withdrawn=False).count(),
            "open": tournament.status == Tournament.Status.OPEN,
        }
        return render(request, "tournaments/start.html", context)
    try:
        services.tournament_start(tournament, actor=request.user)
    except GameError as error:
        messages.error(request, said(error))
    else:
        messages.success(request, f"{tournament.name} has started: round 1 is drawn.")
    return redirect("web:tournament", slug=tournament.slug)


def _aware(moment: datetime.datetime) -> datetime.datetime:
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


class DateTimePicker(forms.DateTimeInput):
    """The browser's date-and-time picker (local time of the site, UTC)."""

    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M")


class TournamentForm(VariantForm):
    """A new tournament: its rules (VariantForm, the target score among the options) and its
    settings."""

    name = forms.CharField(max_length=100, label="Tournament name")
    slug = address_field("the tournament's page is at /tournaments/…/ with it")
    format = forms.ChoiceField(
        choices=[
            (Tournament.Format.SWISS, "Swiss rounds"),
            (Tournament.Format.KNOCKOUT, "Knockout cup"),
            (Tournament.Format.ARENA, "Arena"),
            (Tournament.Format.DUPLICATE, "Duplicate deals"),
        ],
        initial=Tournament.Format.SWISS,
        label="Format",
    )
    table_size = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(MIN_TABLE_SIZE, MAX_TABLE_SIZE + 1)],
        coerce=int,
        initial=4,
        label="Players at a table",
    )
    rounds = forms.IntegerField(
        initial=3,
        min_value=1,
        max_value=50,
        label="Rounds",
        help_text="Swiss; a knockout plays until its final.",
    )
    advance = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=5,
        label="Through from each table",
        help_text="Knockout; blank: the better half (at least one).",
    )
    seed_by = forms.ChoiceField(
        choices=[
            (Tournament.SeedBy.RATING, "By rating"),
            (Tournament.SeedBy.DRAW, "Drawn"),
        ],
        initial=Tournament.SeedBy.RATING,
        required=False,
        label="Knockout seeding",
        help_text="By rating: people's in the family's pool, bots' on its ladders.",
    )
    round_hours = forms.IntegerField(
        initial=ROUND_HOURS,
        min_value=1,
        max_value=1440,
        label="Hours for each round",
        help_text="The round deadline: people still playing then forfeit, and no turn's clock "
        "runs past it. An arena: its length.",
    )
    # No blank (the site's default of days): a turn is at most a round (`clean`).
    turn_seconds = forms.TypedChoiceField(
        choices=[(str(s), duration(s)) for s in TURN_LENGTHS],
        coerce=int,
        initial=TURN_SECONDS,
        label="Time for a turn",
        help_text="Past it, the default bot plays the turn. At most a round.",
    )
    entry_closes = forms.DateTimeField(
        widget=DateTimePicker(), label="Entry closes (UTC)", help_text="It starts then."
    )
    max_entrants = forms.IntegerField(
        initial=64, min_value=2, max_value=1000, label="Most entrants"
    )
    bots_allowed = forms.BooleanField(
        required=False, initial=True, label="Bots may enter (off: people only)"
    )
    rated = forms.BooleanField(required=False, label="Rated")
    club = forms.ChoiceField(required=False, label="For the club")
    site_wide = forms.BooleanField(required=False, label="Site-wide (staff)")

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        admin_of = [c for c in Club.objects.order_by("name") if clubs.is_admin(c, user)]
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ChoiceField)
        club_field.choices = [("", "None: an open tournament")] + [
            (c.slug, c.name) for c in admin_of
        ]
        self.fields["entry_closes"].initial = lambda: (
            timezone.now() + datetime.timedelta(days=1)
        ).replace(second=0, microsecond=0)
        if not user.is_staff:
            del self.fields["site_wide"]
        # Short matches by default, which a round's day holds (TARGET).
        self.fields["target"].initial = TARGET
        self.fields[
            "target"
        ].help_text = f"{TARGET} by default here: a match a round's day holds. Blank: the family's."

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["slug"] = slug_for(data, self)
        if data["slug"] in RESERVED_SLUGS:
            self.add_error("slug", f"The address {data['slug']!r} is reserved; choose another.")
        turn, hours = data.get("turn_seconds"), data.get("round_hours")
        if turn and hours and data.get("format") != Tournament.Format.ARENA and turn > hours * 3600:
            self.add_error(
                "turn_seconds",
                f"{duration(turn)} is longer than a round ({duration(hours * 3600)}): a turn's "
                "clock never runs past the round's deadline. Choose a shorter turn or more hours "
                "for each round.",
            )
        closes = data.get("entry_closes")
        if closes is not None and _aware(closes) <= timezone.now():
            self.add_error(
                "entry_closes",
                f"{closes.day} {closes:%b %Y %H:%M} UTC has passed: entry must close, and the "
                "tournament "
                "start, at a later time.",
            )
        return data

    def tournament_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        closes = data["entry_closes"]
        return {
            "name": data["name"],
            "slug": data["slug"],
            "variant": self.variant_spec(),
            "format": data["format"],
            "table_size": data["table_size"],
            "rounds": data["rounds"],
            "advance": data["advance"],
            "seed_by": data["seed_by"] or Tournament.SeedBy.RATING,
            "round_seconds": data["round_hours"] * 3600,
            "turn_seconds": data["turn_seconds"],
            "entry_closes": _aware(closes),
            "max_entrants": data["max_entrants"],
            "bots_allowed": data["bots_allowed"],
            "rated": data["rated"],
            "club": Club.objects.filter(slug=data["club"]).first() if data["club"] else None,
            "site_wide": bool(data.get("site_wide")),
        }


@login_required
@require_http_methods(["GET", "POST"])
@once
def tournament_new(request: SignedInRequest) -> HttpResponse:
    initial = {"club": request.GET.get("club", "")}
    form = TournamentForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(
                organiser=request.user, **form.tournament_fields()
            )
        except GameError as error:
            if error.code == "slug-taken":
                form.add_error("slug", f"The address {form.cleaned_data['slug']!r} is taken.")
            else:
                form.add_error(None, said(error))
        else:
            messages.success(request, f"{tournament.name} takes entries until it starts.")
            return redirect("web:tournament", slug=tournament.slug)
    return render(request, "tournaments/new.html", {"form": form})
