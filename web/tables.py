"""Open tables and challenges on the site: the lobby's section (open tables with filters, your
own with Cancel, challenges waiting for your answer), the form that opens a table or a
challenge (/tables/new/, ?challenge=<username> from a player page), a table's page
(/tables/<id>/, polled by htmx while it waits so its people land in the game) and the
buttons' POSTs. tables/services.py does the work; nothing here needs JavaScript."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from frontdoor.forms import NAME_BOX, PlainLabels
from frontdoor.throttles import TableThrottle
from frontdoor.variant_form import VariantForm, family_choices
from games.errors import GameError
from games.variant_text import (
    duration,
    family_name,
    time_left,
    variant_details,
    variant_title,
)
from tables import listings, services
from tables.errors import NotYours, TableNotFound
from tables.listings import TableInfo
from tables.models import Table
from web.accounts import SignedInRequest
from web.lockout import too_many
from web.once import once

ANY = ""
FILL_MINUTES = (1, 2, 5, 10, 15, 20, 30, 60)
# The form's default for an open table: bots take the empty seats after this many minutes, so
# a table on a quiet site becomes a game instead of closing unplayed (docs/web.md, "Tables").
DEFAULT_FILL_MINUTES = 5


def turn_choices() -> list[tuple[str, str]]:
    return [(str(seconds), duration(seconds)) for seconds in services.TURN_CHOICES]


def fill_choices() -> list[tuple[str, str]]:
    longest = settings.TABLES_OPEN_MINUTES
    return [
        (ANY, "never: wait for people"),
        *((str(m), f"after {duration(m * 60)}") for m in FILL_MINUTES if m <= longest),
    ]


class OpenTableForm(VariantForm):
    """The rules (VariantForm), the seats, the clock, rated or casual, bots after a while and,
    for a challenge, whom."""

    seats = forms.IntegerField(
        min_value=2,
        max_value=10,
        initial=2,
        label="Seats",
        help_text="2 to 10 as the family allows (censorship needs 3), you included.",
    )
    turn_seconds = forms.TypedChoiceField(
        choices=turn_choices,
        coerce=int,
        initial=str(services.DEFAULT_TURN),
        label="Time for a turn",
        help_text="Past it, the default bot plays your turn.",
    )
    rated = forms.TypedChoiceField(
        choices=[
            ("casual", "Casual: no rating moves"),
            ("rated", "Rated: the result moves ratings"),
        ],
        coerce=lambda value: value == "rated",
        initial="casual",
        widget=forms.RadioSelect,
        label="Rated or casual",
    )
    fill_with_bots_after = forms.TypedChoiceField(
        choices=fill_choices,
        coerce=int,
        empty_value=None,
        required=False,
        initial=str(DEFAULT_FILL_MINUTES),
        label="Fill empty seats with bots",
        help_text="Built-in bots take the seats nobody took, and the game starts. A challenge "
        "leaves this aside: it waits for its answer.",
    )
    challenge = forms.CharField(
        required=False,
        max_length=150,
        label="Challenge a person (username)",
        widget=forms.TextInput(attrs=NAME_BOX),
        help_text="Leave blank for a table anyone may join. A challenge is private: it starts "
        "when they accept; other seats go to bots.",
    )

    def clean_challenge(self) -> str:
        """The person challenged must exist: said with the form's other errors, not after
        them (tables/services.py checks again)."""
        name = str(self.cleaned_data.get("challenge", "")).strip()
        if name and challenged_person(name) is None:
            raise forms.ValidationError(f"Nobody is called “{name}”.", code="unknown-user")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("challenge"):
            # A challenge starts when it is accepted (its other seats go to bots then): the
            # bots' delay, whatever the field says, is not a challenge's.
            data["fill_with_bots_after"] = None
        return data


def challenged_person(name: str) -> Any:
    """The active person called `name` (in any case: tables.services.person_named), or None."""
    return services.person_named(name)


class TableFilter(PlainLabels, forms.Form):
    """The lobby's filters of open tables (GET ?family=&turn=)."""

    family = forms.ChoiceField(
        choices=lambda: [(ANY, "any family"), *family_choices()], required=False, label="Family"
    )
    turn = forms.TypedChoiceField(
        choices=lambda: [(ANY, "any turn length"), *turn_choices()],
        coerce=int,
        empty_value=None,
        required=False,
        label="Time for a turn",
    )


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as the pages show it."""

    table: TableInfo
    title: str
    details: str
    turn: str
    mine: bool  # the viewer opened it
    seated: bool  # the viewer sits at it
    time_left: str  # until it expires: "29 min left"

    @property
    def url(self) -> str:
        return reverse("web:table", args=[self.table.id])

    @property
    def free_seats(self) -> int:
        return self.table.free_seats


def rows(tables: list[TableInfo], viewer: Any) -> list[TableRow]:
    now = timezone.now()
    name = viewer.get_username() if viewer.is_authenticated else None
    return [
        TableRow(
            table=table,
            title=variant_title(table.variant),
            details=variant_details(table.variant),
            turn=duration(table.turn_seconds),
            mine=table.opener == name,
            seated=name in table.seated,
            time_left=time_left(table.expires_at, now),
        )
        for table in tables
    ]


def lobby_context(request: SignedInRequest) -> dict[str, Any]:
    """The lobby's tables: the filters (a bad value is said, and the list left unfiltered),
    the open tables others opened, the person's own, and challenges waiting for them."""
    person = request.user
    given = {key: request.GET[key] for key in ("family", "turn") if key in request.GET}
    form = TableFilter(given or None)
    family = turn = None
    filter_error = ""
    if form.is_bound:
        if form.is_valid():
            family = form.cleaned_data["family"] or None
            turn = form.cleaned_data["turn"]
        else:
            filter_error = (
                "Those filters are not ones this page offers ("
                + "; ".join(str(error) for errors in form.errors.values() for error in errors)
                + "): every open table is shown."
            )
            form = TableFilter()
    mine = listings.tables_of(person)
    mine_ids = {table.id for table in mine}
    others = [
        table
        for table in listings.open_tables(family=family, turn_seconds=turn)
        if table.id not in mine_ids
    ]
    return {
        "table_filter": form,
        "table_filter_error": filter_error,
        "table_filtered": family is not None or turn is not None,
        "open_tables": rows(others, person),
        "my_tables": rows(mine, person),
        "challenges": rows(listings.challenges_for(person), person),
    }


@login_required
@require_http_methods(["GET", "POST"])
@once
def table_new(request: SignedInRequest) -> HttpResponse:
    """The form that opens a table (or a challenge); then the table's page."""
    if request.method == "POST":
        form = OpenTableForm(request.POST)
        if (refusal := _throttled(request)) is not None:
            return refusal
        if form.is_valid():
            data = form.cleaned_data
            try:
                table = services.open_table(
                    opener=request.user,
                    variant_spec=form.variant_spec(),
                    seats=data["seats"],
                    turn_seconds=data["turn_seconds"],
                    rated=data["rated"],
                    fill_with_bots_after=data["fill_with_bots_after"],
                    challenge=data["challenge"].strip() or None,
                )
            except GameError as error:
                form.add_error(None, _said(error))
            else:
                return HttpResponseRedirect(reverse("web:table", args=[table.pk]))
    else:
        challenge = request.GET.get("challenge", "")[:150]
        # A challenge is to someone known, mostly played over a day or more: its turns take the
        # site's default (the rules guide's three days), where an open table's take 5 minutes.
        challenge_turn = settings.GAMES_TURN_SECONDS
        if challenge_turn not in services.TURN_CHOICES:
            challenge_turn = max(services.TURN_CHOICES)
        form = OpenTableForm(
            initial={
                "challenge": challenge,
                "fill_with_bots_after": ANY,
                "turn_seconds": str(challenge_turn),
            }
            if challenge
            else None
        )
    # The heading names a person only when one is called so; the intro speaks of a challenge
    # once a name is in the field (private, answered within TABLES_CHALLENGE_MINUTES).
    named = str(form["challenge"].value() or "").strip()
    return render(
        request,
        "tables/new.html",
        {
            "form": form,
            "open_minutes": settings.TABLES_OPEN_MINUTES,
            "challenge_wait": duration(settings.TABLES_CHALLENGE_MINUTES * 60),
            "default_fill": DEFAULT_FILL_MINUTES,
            "challenging": bool(named),
            "challenged": challenged_person(named) if named else None,
        },
    )


def _table_or_404(request: HttpRequest, table_id: int) -> TableInfo:
    try:
        return listings.table_info(table_id=table_id, viewer=request.user)
    except (TableNotFound, NotYours) as error:
        raise Http404(error.message) from error


def _page_context(request: HttpRequest, table: TableInfo) -> dict[str, Any]:
    (row,) = rows([table], request.user)
    name = request.user.get_username() if request.user.is_authenticated else None
    return {
        "row": row,
        "table": table,
        "challenged_me": table.challenged is not None and table.challenged == name,
        "invited_me": table.is_invitation and name in table.invited,
        "family_name": family_name(table.family),
        "fill_at": table.fills_at,
    }


@login_required
@require_GET
def table_page(request: SignedInRequest, table_id: int) -> HttpResponse:
    """Who sits at the table and what it plays; once started, its people go to the game."""
    table = _table_or_404(request, table_id)
    if table.game is not None and request.user.get_username() in table.seated:
        return HttpResponseRedirect(reverse("web:play", args=[table.game]))
    return render(request, "tables/table.html", _page_context(request, table))


@login_required
@require_GET
def table_status(request: SignedInRequest, table_id: int) -> HttpResponse:
    """The table's panel for its htmx poll; a seated person is sent to the game once it
    started (HX-Redirect)."""
    table = _table_or_404(request, table_id)
    if table.game is not None and request.user.get_username() in table.seated:
        return HttpResponseClientRedirect(reverse("web:play", args=[table.game]))
    return render(request, "tables/_panel.html", _page_context(request, table))


def _throttled(request: SignedInRequest) -> HttpResponse | None:
    throttle = TableThrottle()
    if throttle.allow_request(request, None):
        return None
    return too_many(
        request,
        code="throttled",
        heading="Too many changes",
        message="Your account opened, joined or left tables more often than a person does.",
        wait=datetime.timedelta(seconds=throttle.wait() or 1),
    )


def _said(error: GameError) -> str:
    message = error.message
    return message[:1].upper() + message[1:].rstrip(".") + "."


def _act(
    request: SignedInRequest,
    table_id: int,
    action: Callable[..., Any],
    done: str,
) -> HttpResponse:
    """Run one change of a table; back to the table's page (on to the game once it started),
    or to the lobby when the table is no longer the person's to see."""
    if (refusal := _throttled(request)) is not None:
        return refusal
    try:
        action(table_id=table_id, person=request.user)
    except TableNotFound as error:
        raise Http404(error.message) from error
    except NotYours as error:
        messages.error(request, _said(error), extra_tags=error.code)
        return HttpResponseRedirect(reverse("web:lobby"))
    except GameError as error:
        messages.error(request, _said(error), extra_tags=error.code)
    else:
        if done:
            messages.success(request, done)
    return HttpResponseRedirect(reverse("web:table", args=[table_id]))


@login_required
@require_POST
def join(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _act(request, table_id, services.join, "")


@login_required
@require_POST
def leave(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _act(request, table_id, services.leave, "You left the table.")


@login_required
@require_POST
def cancel(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _act(request, table_id, services.cancel, "You cancelled the table.")


@login_required
@require_POST
def decline(request: SignedInRequest, table_id: int) -> HttpResponse:
    invitation = Table.objects.filter(pk=table_id, plan__isnull=False).exists()
    said = "You declined the invitation." if invitation else "You declined the challenge."
    return _act(request, table_id, services.decline, said)
