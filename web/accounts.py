"""A person's account pages: sign-up, and the profile (settings, API tokens, vacations).

Signing in and out, password changes and resets are Django's own views (config/urls.py mounts
django.contrib.auth.urls at /accounts/); their templates are in templates/registration/.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_variables
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import services as accounts
from accounts.models import SCOPES, PersonalToken
from accounts.usernames import LookAlikeUsername
from clocks import deadlines
from frontdoor.errors import status_for
from frontdoor.throttles import SignUpThrottle
from games import lobby, seat_facts
from games.errors import GameError
from games.game_settings import GameSettings
from games.models import Game, NotificationPreference
from league.models import Membership
from web import shown_once
from web.account_forms import SettingsForm, SignUpForm, VacationForm
from web.lockout import too_many, wants_json
from web.once import once

# The backend that checks passwords (settings.AUTHENTICATION_BACKENDS; axes's only counts).
PASSWORD_BACKEND = "accounts.backends.AnyCaseModelBackend"
# Ticked for a new token: the owners' API, as the bots guide says (docs/bots-api.md, "Registering
# a bot": tick `bots`, and `play` only if scripts should also play your own seats).
NEW_TOKEN_SCOPES = ["bots"]


class SignedInRequest(HttpRequest):
    """The request of a login_required view: its user is a person (django-stubs' way to say so)."""

    user: User


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Make an account and sign its person in."""
    if request.user.is_authenticated:
        return redirect("web:lobby")
    # Where the person was going when the site asked them to sign in (an invitation's link,
    # a game): kept through the form, followed after, and only ever a path of this site.
    going = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        going, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        going = ""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # Counted only when an account would be made: a form sent back for a typo costs nothing.
        throttle = SignUpThrottle()
        if not throttle.allow_request(request, None):
            return too_many(
                request,
                code="throttled",
                heading="Too many sign-ups",
                message="Too many accounts were made from your address lately.",
                wait=datetime.timedelta(seconds=throttle.wait() or 1),
            )
        data = form.cleaned_data
        try:
            user = accounts.sign_up(
                username=data["username"],
                email=data["email"],
                password=data["password1"],
                birth_date=data["birth_date"],
            )
        except LookAlikeUsername as error:
            # A look-alike signed up between the form's check and this insert.
            form.add_error("username", error)
            return _refused(request, form, going)
        # Named: with axes's backend beside it, login() cannot guess which one vouched for them.
        login(request, user, backend=PASSWORD_BACKEND)
        return _welcome(request, user, going)
    if request.method == "POST":
        if (made := _made_by_this_form(request, form)) is not None:
            login(request, made, backend=PASSWORD_BACKEND)
            return _welcome(request, made, going)
        return _refused(request, form, going)
    return render(request, "accounts/signup.html", {"form": form, "next": going})


# How recent an account a sign-up sent again may find as its own (_made_by_this_form).
SENT_AGAIN_SECONDS = 600


def _welcome(request: HttpRequest, user: User, going: str) -> HttpResponse:
    if going:
        messages.success(request, f"Welcome, {user.username}.")
        return redirect(going)
    messages.success(request, f"Welcome, {user.username}. Start a game below.")
    return redirect("web:lobby")


@sensitive_variables("password")
def _made_by_this_form(request: HttpRequest, form: SignUpForm) -> User | None:
    """The account this same sign-up made a moment ago, when the form came back refused only
    because its name is taken by it: a double tap on a phone, or Back and the button again,
    sends the form twice, and the browser keeps the second answer, whose session the first
    made is not in. The name and password that made it sign its person in, as the sign-in
    page would (and count as a sign-in's attempt), where "A user with that username already
    exists" told them the name they had just taken was gone. Only an account made within
    SENT_AGAIN_SECONDS: a sign-up is not a second sign-in page."""
    errors = form.errors.as_data()
    taken = [error.code for error in errors.get("username", [])] == ["unique"]
    if not taken or set(errors) != {"username"}:
        return None
    username, password = form.data.get("username", ""), form.data.get("password1", "")
    recent = timezone.now() - datetime.timedelta(seconds=SENT_AGAIN_SECONDS)
    if not User.objects.filter(username__iexact=username, date_joined__gte=recent).exists():
        return None
    found = authenticate(request, username=username, password=password)
    return found if isinstance(found, User) else None


def _refused(request: HttpRequest, form: SignUpForm, going: str) -> HttpResponse:
    """A sign-up the form refused: the form again with its errors for a browser (200), and for
    a caller that asks for JSON (a script with curl, as the bot guide's) 400 `invalid` in the
    API's error shape with the field errors, so that `curl --fail-with-body` stops there."""
    if wants_json(request):
        errors = {
            field: [str(message) for message in found] for field, found in form.errors.items()
        }
        return JsonResponse(
            {"code": "invalid", "message": "The sign-up is not valid.", "errors": errors},
            status=400,
        )
    return render(request, "accounts/signup.html", {"form": form, "next": going})


@dataclass(frozen=True, slots=True)
class VacationRow:
    """One playing game of the person's, with the vacation days its seat may still take."""

    game: Game
    seat: int
    budget: int
    used: int
    on_vacation_until: datetime.datetime | None

    @property
    def left(self) -> int:
        return self.budget - self.used


def vacation_rows(user: User) -> list[VacationRow]:
    """The person's playing games and their vacation budgets (the seat deadlines.seat_vacation
    pauses: their first in each game)."""
    rows = []
    now = timezone.now()
    for row in lobby.games_of(person=user, status="playing"):
        seat = min(row.my_seats)
        budget = GameSettings.of(row.game.context).vacation_budget
        # Games without a budget (most games made by hand) need no read of their log.
        used = seat_facts.facts_of(row.game.pk).vacation_days[seat] if budget else 0
        until = next(s.vacation_until for s in row.game.seats.all() if s.number == seat)
        rows.append(
            VacationRow(row.game, seat, budget, used, until if until and until > now else None)
        )
    return rows


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: SignedInRequest) -> HttpResponse:
    """Show the person's settings, API tokens (and the form for a new one), vacations and clubs;
    save the settings."""
    user = request.user
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            accounts.birth_date_change(user=user, birth_date=form.cleaned_data["birth_date"])
            accounts.export_name_change(user=user, shown=form.cleaned_data["export_name"])
            NotificationPreference.objects.update_or_create(
                user=user, defaults={"turn_emails": form.cleaned_data["turn_emails"]}
            )
            messages.success(request, "Your settings are saved.")
            return redirect("web:profile")
    else:
        preference = NotificationPreference.objects.filter(user=user).first()
        own = accounts.profile_of(user)
        form = SettingsForm(
            initial={
                "birth_date": own.birth_date,
                "export_name": own.export_name,
                "turn_emails": (preference or NotificationPreference()).turn_emails,
            }
        )
    context = {
        "form": form,
        "tokens": accounts.tokens_of(user),
        "chosen": NEW_TOKEN_SCOPES,
        "name_length": accounts.NAME_LENGTH,
        "vacations": vacation_rows(user),
        # Your clubs, each with the way to leave it (web/clubs.py asks first).
        "memberships": Membership.objects.filter(user=user)
        .select_related("club")
        .order_by("club__name"),
    }
    return render(request, "accounts/profile.html", context)


def scopes_posted(request: SignedInRequest) -> list[str]:
    """The scopes ticked in a token's form, known ones only, in SCOPES's order."""
    return [scope for scope in SCOPES if scope in request.POST.getlist("scopes")]


# A crash report (Django's, to the staff's email) shows no variable of these views or of what they
# call (render's context): never the new key, which is in this response alone.
@sensitive_variables()
@never_cache
@login_required
@require_http_methods(["GET", "POST"])
@once
def token_create(request: SignedInRequest) -> HttpResponse:
    """Make the person a named API token, beside their others, and show its key this once (the
    profile's form posts here; a refused one comes back on this page, with what was typed)."""
    user = request.user
    name = request.POST.get("name", "")
    scopes = scopes_posted(request) if request.method == "POST" else NEW_TOKEN_SCOPES
    context: dict[str, Any] = {"name": name, "chosen": scopes, "name_length": accounts.NAME_LENGTH}
    if request.method == "GET":
        return render(request, "accounts/token_create.html", context)
    if not scopes:
        context["error"] = "Choose at least one scope."
        return render(request, "accounts/token_create.html", context, status=400)
    try:
        token, key = accounts.token_create(user=user, name=name, scopes=scopes)
    except (accounts.InvalidTokenName, accounts.TokenRefused) as error:
        context["error"] = token_error(error)
        return render(request, "accounts/token_create.html", context, status=status_for(error))
    # The key exists only on the page this redirects to: the database keeps its hash and prefix.
    shown_once.keep(request, "token", token.pk, key=key, replaced="")
    return redirect("web:token-shown", token_id=token.pk)


def token_error(error: GameError) -> str:
    """A token's refusal (its service's message), as a sentence of the page."""
    return f"{error.message[:1].upper()}{error.message[1:]}."


@login_required
@require_http_methods(["GET", "POST"])
def token_revoke_one(request: SignedInRequest, token_id: int) -> HttpResponse:
    """Ask, then delete one of the person's API tokens (another's, or none: 404)."""
    user = request.user
    if request.method == "GET":
        token = PersonalToken.objects.filter(user=user, pk=token_id).first()
        if token is None:
            raise Http404("no such token of yours")
        context = {"token": token, "revoke": True, "named": True}
        return render(request, "accounts/token_confirm.html", context)
    revoked = accounts.token_revoke_one(user=user, token_id=token_id)
    if revoked is None:
        raise Http404("no such token of yours")
    messages.success(request, f"The token “{revoked.name}” is revoked: it no longer works.")
    return redirect("web:profile")


@sensitive_variables()
@never_cache
@login_required
@require_http_methods(["GET", "POST"])
@once
def token_issue(request: SignedInRequest) -> HttpResponse:
    """The token named "default" (what a person had when they could have only one; /api/me/token
    manages the same): ask, with the scopes to choose (`bots` ticked at first, or the old
    token's), then make it anew (replacing the old default) and show it this once."""
    user = request.user
    token = accounts.default_token_of(user)
    context: dict[str, Any] = {
        "token": token,
        "revoke": False,
        "chosen": token.scope_list if token else NEW_TOKEN_SCOPES,
    }
    if request.method == "GET":
        return render(request, "accounts/token_confirm.html", context)
    scopes = scopes_posted(request)
    if not scopes:
        context |= {"chosen": [], "error": "Choose at least one scope."}
        return render(request, "accounts/token_confirm.html", context, status=400)
    try:
        new, key = accounts.default_token_issue(user=user, scopes=scopes)
    except accounts.TokenRefused as error:
        context["error"] = token_error(error)
        return render(request, "accounts/token_confirm.html", context, status=status_for(error))
    replaced = token.prefix if token else ""
    shown_once.keep(request, "token", new.pk, key=key, replaced=replaced)
    return redirect("web:token-shown", token_id=new.pk)


@sensitive_variables()
@never_cache
@login_required
@require_GET
def token_shown(request: SignedInRequest, token_id: int) -> HttpResponse:
    """The page after a token is made: its key, this once (web/shown_once.py). Drawn again
    (a reload, Back), nothing is left to show: the profile, with a line that says so."""
    token = PersonalToken.objects.filter(user=request.user, pk=token_id).first()
    if token is None:
        raise Http404("no such token of yours")
    kept = shown_once.take(request, "token", token.pk)
    if kept is None:
        messages.info(
            request,
            f"The key of the token “{token.name}” is shown only once, on the page after it is "
            "made, and only its hash is kept: if you did not copy it, revoke that token below "
            "and make another.",
        )
        return redirect("web:profile")
    context = {"key": kept["key"], "token": token, "replaced": kept["replaced"]}
    return render(request, "accounts/token_new.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def token_revoke(request: SignedInRequest) -> HttpResponse:
    """Ask, then delete the person's token named "default"."""
    user = request.user
    token = accounts.default_token_of(user)
    if request.method == "GET":
        if token is None:
            messages.info(request, "You have no API token to revoke.")
            return redirect("web:profile")
        return render(request, "accounts/token_confirm.html", {"token": token, "revoke": True})
    if accounts.token_revoke(user=user):
        messages.success(request, "Your API token is revoked: it no longer works.")
    else:
        messages.info(request, "You had no API token.")
    return redirect("web:profile")


@login_required
@require_POST
def vacation(request: SignedInRequest, game_id: int) -> HttpResponse:
    """Pause the person's clock in one game for some days."""
    user = request.user
    form = VacationForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Game {game_id}: give a whole number of days, at least 1.")
        return redirect("web:profile")
    try:
        taken = deadlines.seat_vacation(game_id=game_id, actor=user, days=form.cleaned_data["days"])
    except GameError as error:
        messages.error(request, f"Game {game_id}: {error.message}.")
        return redirect("web:profile")
    messages.success(
        request,
        f"Game {game_id}: your clock is paused until {taken.vacation_until:%Y-%m-%d %H:%M %Z}; "
        f"{taken.days_left} vacation day(s) left.",
    )
    return redirect("web:profile")
