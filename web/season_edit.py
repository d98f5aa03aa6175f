"""A draft season's settings edited (/seasons/<slug>/edit/: the new-season form, prefilled) and
a draft season deleted (/seasons/<slug>/delete: a confirmation page, then its POST), for the
club's admins and staff (whoever may create a season), through league/season_drafts.py. Once
the season has started both are refused (`not-draft`, the page's data-code): a page that says
so in words, or the form's message when it started meanwhile. docs/web.md, "Clubs and seasons".
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from frontdoor.variant_form import OPTION_NAMES, turn_choices
from games.errors import GameError
from games.variant_text import duration
from league import season_drafts
from league.errors import SeasonNotFound
from league.models import Entry, Season
from web.accounts import SignedInRequest
from web.clubs import address_error, admins_only, refused, said, taken_said
from web.league_forms import SeasonForm
from web.season_page import season_or_404

season_admins = admins_only(season_or_404)


def season_initial(season: Season) -> dict[str, Any]:
    """The season form's fields as the draft has them (its rules' options as stored: each
    family default written out, so the form shows what the games will be made with)."""
    competition = season.competition
    variant = competition.variant
    initial: dict[str, Any] = {
        "name": competition.name,
        "slug": competition.slug,
        "rules": variant["rules"],
        "seats_per_game": competition.seats_per_game,
        "placement_points": ", ".join(map(str, season.placement_points)),
        "start_date": season.start_date,
        "round_days": season.round_days,
        "rounds": season.rounds,
        "turn_seconds": competition.turn_seconds,
        "vacation_days": competition.vacation_days,
    }
    options = variant.get("options") or {}
    for name in OPTION_NAMES:
        if name in options:
            value = options[name]
            initial[name] = ("yes" if value else "no") if isinstance(value, bool) else value
    if (modifier := variant.get("precognitive")) is not None:
        initial["precognitive"] = True
        initial["lane"] = str(modifier.get("lane", "1"))
        initial["sight"] = modifier.get("sight", "sighted")
    for division in season.divisions.order_by("tier"):
        initial[f"division{division.tier}_name"] = division.name
        initial[f"division{division.tier}_promote"] = division.promote or None
        initial[f"division{division.tier}_relegate"] = division.relegate or None
    return initial


def edit_form(season: Season, data: Any = None) -> SeasonForm:
    form = SeasonForm(data, initial=season_initial(season), rows=season.divisions.count())
    # A time for a turn the list does not offer (set through the API) stays offered, so the
    # form never changes it silently.
    seconds = season.competition.turn_seconds
    field: Any = form.fields["turn_seconds"]
    choices = turn_choices()
    if str(seconds) not in {value for value, _ in choices}:
        field.choices = [*choices, (str(seconds), duration(seconds))]
    return form


def started(request: SignedInRequest, season: Season, doing: str) -> HttpResponse:
    """The page for an edit or a deletion asked of a season that has started: the refusal in
    words; its code (`not-draft`) is in the page's data-code, not shown."""
    message = f"{season.name} has started: {doing} only while a season is a draft."
    return refused(request, message, status=409, club=season.club, code="not-draft")


@login_required
@require_http_methods(["GET", "POST"])
@season_admins
def edit(request: SignedInRequest, season: Season) -> HttpResponse:
    """The draft's settings on the new-season form, prefilled; saved by season_edit."""
    if season.status != Season.Status.DRAFT:
        return started(request, season, "its settings change")
    form = edit_form(season, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            edited = season_drafts.season_edit(
                season=season, admin=request.user, **form.season_fields()
            )
        except GameError as error:
            address_error(form, error, form.cleaned_data["slug"])
        else:
            messages.success(request, f"{edited.name}'s settings are saved{taken_said(form)}.")
            return redirect("web:season", slug=edited.slug)
    context = {"form": form, "club": season.club, "season": season}
    return render(request, "leagues/season_new.html", context)


@login_required
@require_http_methods(["GET", "POST"])
@season_admins
def delete(request: SignedInRequest, season: Season) -> HttpResponse:
    """Ask first (a page, so it works without JavaScript), then delete the draft. A POST
    without the confirmation's `confirm` comes back to the question and deletes nothing."""
    if request.method == "GET" or request.POST.get("confirm") != "1":
        if request.method == "POST":
            return redirect("web:season-delete", slug=season.slug)
        if season.status != Season.Status.DRAFT:
            return started(request, season, "it can be deleted")
        entries = Entry.objects.filter(competition=season.competition, active=True)
        context = {
            "season": season,
            "entrants": entries.count(),
            "people": entries.filter(user__isnull=False).exclude(user=request.user).count(),
        }
        return render(request, "leagues/season_delete.html", context)
    season_url = reverse("web:season", args=[season.slug])
    try:
        name = season_drafts.season_delete(season=season, admin=request.user)
    except GameError as error:
        messages.error(request, said(error))
        gone = isinstance(error, SeasonNotFound)  # deleted meanwhile: its page is a 404 now
        return redirect("web:club", slug=season.club.slug) if gone else redirect(season_url)
    messages.success(request, f"{name} is deleted.")
    return redirect("web:club", slug=season.club.slug)
