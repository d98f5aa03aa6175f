"""The season page (/seasons/<slug>/): its header (club, rules in words, status, settings), its
tables and fixtures (web/season_tables.py, templates/leagues/_season_tables.html) and, for the
club's admins, the organiser's panel: add and remove entrants while it is a draft, start it,
close it, set up the next one. A member may enter or withdraw themselves while it is a draft.

Every action is a POST through league/seasons.py, then a redirect back; a refusal comes back as
a message with nothing changed. An action of the organiser's panel comes back to the panel, a
ruling on a fixture to the fixture, and its message is shown there (`placed_messages`), on the
screen without a scroll. docs/web.md, "Clubs and seasons".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bots.registry import bot_register
from games.errors import GameError
from games.models import Bot, Game
from games.variant_text import duration, variant_details, variant_title
from league import clubs, seasons
from league.models import Division, Entry, Fixture, Membership, Season
from league.standings import entrant_name
from tables.services import person_named
from web.accounts import SignedInRequest
from web.clubs import address_error, admins_only, not_admin, report, said
from web.league_forms import (
    BotEntryForm,
    MemberEntryForm,
    NextSeasonForm,
    bot_suggestions,
    next_start,
)
from web.once import once
from web.season_tables import season_tables_context
from web.season_you import your_season


def season_or_404(slug: str) -> Season:
    season = (
        Season.objects.select_related("competition", "club").filter(competition__slug=slug).first()
    )
    if season is None:
        raise Http404(f"there is no season {slug!r}")
    return season


@dataclass(frozen=True, slots=True)
class Entrant:
    entry: Entry
    name: str
    bot: bool


@dataclass(frozen=True, slots=True)
class DivisionEntrants:
    division: Division
    entrants: list[Entrant]


def division_entrants(season: Season) -> list[DivisionEntrants]:
    """Each division (tier 1 first) with its active entrants in entry order."""
    return [
        DivisionEntrants(
            division,
            [
                Entrant(entry, entrant_name(entry), entry.bot_id is not None)
                for entry in seasons.division_entries(division)
            ],
        )
        for division in season.divisions.order_by("tier")
    ]


def settings_in_words(season: Season) -> list[tuple[str, str]]:
    competition = season.competition
    return [
        ("Rules", variant_details(competition.variant) or "the family's defaults"),
        ("Players at a table", str(competition.seats_per_game)),
        ("Placement points", " / ".join(map(str, season.placement_points))),
        (
            "First round opened"
            if season.status != Season.Status.DRAFT and season.start_date <= timezone.localdate()
            else "First round opens",
            f"{season.start_date:%a %-d %b %Y}",
        ),
        ("Each round", duration(season.round_days * 86400)),
        ("Rounds", str(season.rounds) if season.rounds else "enough for every pair to meet"),
        ("Time for a turn", duration(competition.turn_seconds)),
        ("Vacation days", str(competition.vacation_days)),
    ]


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a running or closed season has come: fixtures drawn, games opened, finished."""

    fixtures: int
    opened: int
    finished: int


def progress(season: Season) -> Progress:
    fixtures = Fixture.objects.filter(division__season=season)
    return Progress(
        fixtures=fixtures.count(),
        opened=fixtures.filter(game__isnull=False).count(),
        finished=fixtures.filter(game__status=Game.Status.MATCH_OVER).count(),
    )


# The tags that say where the season page shows a message: the id of the element the action's
# redirect brings the page to (a fixture a ruling was on, web/season_tables.py; the
# organiser's panel).
PLACES = re.compile(r"fixture-\d+|organiser")
ORGANISER = "organiser"


def placed_messages(request: HttpRequest) -> dict[str, list[Any]]:
    """The request's messages by where the season page shows them: the place one of a message's
    tags names (`PLACES`), else "" (the top of the page)."""
    placed: dict[str, list[Any]] = {}
    for message in messages.get_messages(request):
        tags = message.extra_tags.split()
        where = next((tag for tag in tags if PLACES.fullmatch(tag)), "")
        placed.setdefault(where, []).append(message)
    return placed


@require_GET
def season(request: HttpRequest, slug: str) -> HttpResponse:
    """The season: its header and divisions; the organiser's panel for the club's admins."""
    season = season_or_404(slug)
    user = request.user
    admin = clubs.is_admin(season.club, user)
    said = placed_messages(request)
    divisions = division_entrants(season)
    entered = [e for d in divisions for e in d.entrants]
    mine = next(
        (e.entry for e in entered if user.is_authenticated and e.entry.user_id == user.pk), None
    )
    context: dict[str, Any] = {
        "season": season,
        "club": season.club,
        "title": variant_title(season.competition.variant),
        "settings": settings_in_words(season),
        "divisions": divisions,
        "progress": progress(season) if season.status != Season.Status.DRAFT else None,
        "is_admin": admin,
        "is_member": clubs.is_member(season.club, user),
        "my_entry": mine,
        "next_season": Season.objects.filter(previous=season).select_related("competition").first(),
        "said_organiser": said.get(ORGANISER, []) if admin else [],
    }
    if context["is_member"] and mine is None and season.status == Season.Status.DRAFT:
        # Where "Enter me" puts one (an admin chooses another division by adding themselves
        # by name in the organiser's panel).
        tier = seasons.rules_tier(season, user)
        context["my_division"] = next(d.division for d in divisions if d.division.tier == tier)
    if mine is not None and len(divisions) > 1:
        context["my_entry_division"] = next(
            d.division.name for d in divisions if any(e.entry.pk == mine.pk for e in d.entrants)
        )
    # The tables and fixtures (templates/leagues/_season_tables.html).
    context |= season_tables_context(season, user, said)
    # First on the page: the viewer's place and their fixture now or next (web/season_you.py).
    if season.status != Season.Status.DRAFT:
        context["you"] = your_season(season, context)
    # At the top: the rest, and a message placed where this page has no such place (a panel
    # for an admin no longer one, a fixture of another season).
    shown = {ORGANISER} if admin else set()
    for division in context["season_tables"]["divisions"]:
        shown |= {f.anchor for r in division.rounds for f in r.fixtures}
    context["said_here"] = [
        m for where, said_there in said.items() if where not in shown for m in said_there
    ]
    if admin and season.status == Season.Status.DRAFT:
        context["member_form"] = MemberEntryForm(season=season, auto_id="member_%s")
        context["bot_form"] = BotEntryForm(season=season, owner=user, auto_id="bot_%s")
        context["entered"] = entered
        members = season.club.memberships.filter(status=Membership.Status.ACTIVE)
        taken = {e.entry.user_id for e in entered}
        context["members_to_enter"] = [
            m.user.username for m in members.select_related("user") if m.user_id not in taken
        ]
        context["bot_names"] = bot_suggestions(user)
    return render(request, "leagues/season.html", context)


season_admins = admins_only(season_or_404)


def _back(season: Season, place: str = "") -> HttpResponse:
    """The season's page; at `place` (an element's id), where its messages tagged so are shown."""
    url = reverse("web:season", args=[season.slug])
    return redirect(f"{url}#{place}" if place else url)


def _form_errors(request: HttpRequest, form: Any, tags: str = "") -> None:
    for field in form:
        for error in field.errors:
            messages.error(request, f"{field.label}: {error}", extra_tags=tags)
    for error in form.non_field_errors():
        messages.error(request, error, extra_tags=tags)


@login_required
@require_POST
def enter_member(request: SignedInRequest, slug: str) -> HttpResponse:
    """Enter a member of the club (admins), or oneself (a member)."""
    season = season_or_404(slug)
    form = MemberEntryForm(request.POST, season=season)
    # The person named, in any case (usernames are unique whatever their case): "Fred", as a
    # phone's keyboard writes it, is fred.
    typed = str(request.POST.get("username", "")).strip()
    person = person_named(typed) if typed else None
    own = person is not None and person.pk == request.user.pk
    admin = clubs.is_admin(season.club, request.user)
    if not (admin or own):
        return not_admin(request, season.club)
    # An admin adding someone comes back to the organiser's panel, where the form was; "Enter
    # me" to the top of the page, where the button was.
    place = ORGANISER if admin and not own else ""
    if not form.is_valid():
        _form_errors(request, form, place)
        return _back(season, place)
    if person is None:
        messages.error(request, f"Nobody is called {typed!r}.", extra_tags=place)
        return _back(season, place)
    report(
        request,
        lambda: seasons.season_enter(
            season=season, actor=request.user, user=person, tier=form.cleaned_data["tier"]
        ),
        "You are entered." if own else f"{person.username} is entered.",
        tags=place,
    )
    return _back(season, place)


@login_required
@require_POST
@season_admins
def enter_bot(request: SignedInRequest, season: Season) -> HttpResponse:
    """Enter one of the admin's bots, or a new built-in bot registered to them for it."""
    form = BotEntryForm(request.POST, season=season, owner=request.user)
    if not form.is_valid():
        _form_errors(request, form, ORGANISER)
        return _back(season, ORGANISER)
    data = form.cleaned_data
    try:
        # One transaction: a bot registered for an entry that is refused is not kept.
        with transaction.atomic():
            bot: Bot = data["bot"] or register_builtin(
                request.user, data["bot_name"], data["register"]
            )
            seasons.season_enter(season=season, actor=request.user, bot=bot, tier=data["tier"])
    except GameError as error:
        messages.error(request, said(error), extra_tags=ORGANISER)
    else:
        made = f" (registered as your bot, playing {data['register']})" if data["register"] else ""
        messages.success(request, f"Bot {bot.name} is entered{made}.", extra_tags=ORGANISER)
    return _back(season, ORGANISER)


def register_builtin(owner: User, name: str, strategy: str) -> Bot:
    bot, _ = bot_register(owner=owner, name=name.strip(), kind=Bot.Kind.BUILTIN, strategy=strategy)
    return bot


@login_required
@require_POST
def withdraw(request: SignedInRequest, slug: str, entry_id: int) -> HttpResponse:
    """Take an entrant out of a draft season (admins), or oneself."""
    season = season_or_404(slug)
    entry = (
        Entry.objects.filter(pk=entry_id, competition=season.competition)
        .select_related("user", "bot")
        .first()
    )
    if entry is None:
        raise Http404(f"{season.name} has no entry {entry_id}")
    own = entry.user_id == request.user.pk
    admin = clubs.is_admin(season.club, request.user)
    if not (admin or own):
        return not_admin(request, season.club)
    place = ORGANISER if admin and not own else ""
    report(
        request,
        lambda: seasons.season_withdraw(
            season=season, actor=request.user, user=entry.user, bot=entry.bot
        ),
        "You are withdrawn." if own else f"{entrant_name(entry)} is withdrawn.",
        tags=place,
    )
    return _back(season, place)


@login_required
@require_POST
@season_admins
def start(request: SignedInRequest, season: Season) -> HttpResponse:
    """Draw the fixtures and open the rounds due."""

    def started() -> str:
        opened = progress(season).opened
        return f"{season.name} has started: {opened} game{'s' if opened != 1 else ''} open."

    report(request, lambda: seasons.season_start(season=season, admin=request.user), started)
    return _back(season)


@login_required
@require_http_methods(["GET", "POST"])
@season_admins
def close(request: SignedInRequest, season: Season) -> HttpResponse:
    """Ask first (a page, so it works without JavaScript), then close a season whose fixtures
    have all finished: the final tables are archived. A POST without the confirmation's
    `confirm` comes back to the question and changes nothing."""
    if request.method == "GET" or request.POST.get("confirm") != "1":
        if request.method == "POST":
            return redirect("web:season-close", slug=season.slug)
        done = progress(season)
        context = {"season": season, "progress": done, "left": done.fixtures - done.finished}
        return render(request, "leagues/season_close.html", context)
    report(
        request,
        lambda: seasons.season_close(season=season, admin=request.user),
        f"{season.name} is closed; its final tables are kept.",
    )
    return _back(season)


@login_required
@require_http_methods(["GET", "POST"])
@season_admins
@once
def next_season(request: SignedInRequest, season: Season) -> HttpResponse:
    """The season after a closed one: same rules and divisions, entrants placed by the tables."""
    form = NextSeasonForm(request.POST or None, initial={"start_date": next_start(season)})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            following = seasons.season_next(
                season=season,
                admin=request.user,
                name=data["name"],
                slug=data["slug"],
                start_date=data["start_date"],
            )
        except GameError as error:
            address_error(form, error, data["slug"])
        else:
            messages.success(
                request, f"{following.name} is set up from {season.name}'s final tables."
            )
            return _back(following)
    return render(request, "leagues/season_next.html", {"form": form, "season": season})
