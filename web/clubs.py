"""The club pages: the list of clubs, a new club, a club's page (members, seasons, the all-time
table; the invitation link for members; requests, roles and removing members for admins),
joining by the link, asking to join, leaving, and a new season's form.

Every change is a POST through league/clubs.py or league/seasons.py, then a redirect; a role
change, a removal and leaving are asked first on a confirmation page (its POST carries
`confirm=1`; without it the question is shown again). A service refusal comes back as a
message (or, on a form, above it) with nothing changed. An admin's
action asked by anyone else is refused with 403 before any service runs. docs/web.md, "Clubs
and seasons".
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, Q
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from frontdoor import boundary
from games.errors import GameError
from games.variant_text import variant_title
from league import clubs, seasons, selectors, standings
from league.errors import ClubError, ClubNotFound, InvalidCompetition, SeasonNotFound
from league.models import Club, Membership, Season
from tournaments import services as tournament_services
from web import chat
from web.accounts import SignedInRequest
from web.league_forms import ClubForm, SeasonForm, defaults_taken
from web.once import once
from web.sentences import sentence

# The order a club's seasons are listed in.
SEASON_GROUPS = [
    (Season.Status.RUNNING, "Running"),
    (Season.Status.DRAFT, "Being set up"),
    (Season.Status.CLOSED, "Closed"),
]


def club_or_404(slug: str) -> Club:
    try:
        return clubs.club_get(slug)
    except ClubNotFound as error:
        raise Http404(error.message) from error


def refused(
    request: HttpRequest, message: str, *, status: int, club: Club | None, code: str = ""
) -> HttpResponse:
    """A page that says why the action was refused (and its error's code, when a service's
    refusal), with the way back to the club."""
    context = {"message": message, "status": status, "club": club, "code": code}
    return render(request, "leagues/refused.html", context, status=status)


def said(error: GameError) -> str:
    """A service's refusal as a sentence for a message (web/sentences.py)."""
    return sentence(error.message)


# The competition's fields as the season form calls them: InvalidCompetition's message names
# the field of each problem ("seats_per_game: censorship needs 3 to 10 seats").
FIELD_LABELS = {
    "seats_per_game": "Players at a table",
    "turn_seconds": "Time for a turn",
    "vacation_days": "Vacation days",
    "variant": "Rules",
    "name": "Season name",
    "slug": "Address",
}


def address_error(form: Form, error: GameError, slug: str) -> None:
    """A season's refusal on its form: a taken address by the address field, the rest above."""
    if isinstance(error, InvalidCompetition) and error.code == "slug-taken":
        form.add_error("slug", f"The address {slug!r} is taken: choose another.")
        return
    message = said(error)
    if isinstance(error, InvalidCompetition):
        for field, label in FIELD_LABELS.items():
            message = message.replace(f"{field}: ", f"{label}: ")
    form.add_error(None, capfirst(message))


def taken_said(form: SeasonForm) -> str:
    """The defaults the season form's blank fields took, to say after it is saved: " (left
    blank, so the defaults: placement points 4 / 2 / 1 / 0; …)" ("" when none was blank)."""
    taken = defaults_taken(form)
    if not taken:
        return ""
    listed = "; ".join(taken)
    return f" (left blank, so the defaults: {listed})"


def not_admin(request: HttpRequest, club: Club) -> HttpResponse:
    return refused(request, f"Only an admin of {club.name} may do this.", status=403, club=club)


def admins_only(
    load: Callable[[str], Club | Season],
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view of the club or season `load` finds by its slug (passed to the view instead of the
    slug), for the club's admins; 403 for everyone else."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def checked(request: SignedInRequest, slug: str, **kwargs: Any) -> HttpResponse:
            found = load(slug)
            club = found if isinstance(found, Club) else found.club
            if not clubs.is_admin(club, request.user):
                return not_admin(request, club)
            return view(request, found, **kwargs)

        return checked

    return decorator


club_admins = admins_only(club_or_404)


def report(
    request: HttpRequest,
    action: Callable[[], object],
    done: str | Callable[[], str],
    *,
    tags: str = "",
) -> None:
    """Run a service call; then say `done` (or what it returns), or the service's refusal (it
    changed nothing then); `tags`: the messages' extra tags (where a page shows them)."""
    try:
        action()
    except GameError as error:
        messages.error(request, said(error), extra_tags=tags)
    else:
        messages.success(request, done if isinstance(done, str) else done(), extra_tags=tags)


@dataclass(frozen=True, slots=True)
class ClubRow:
    club: Club
    members: int
    seasons: int
    mine: str  # "admin", "member", "asked" or ""


@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    """Every club, with its size and the viewer's place in it."""
    mine = {}
    if request.user.is_authenticated:
        mine = {
            m.club_id: m.role if m.status == Membership.Status.ACTIVE else "asked"
            for m in Membership.objects.filter(user=request.user)
        }
    found = Club.objects.annotate(
        member_count=Count(
            "memberships",
            filter=Q(memberships__status=Membership.Status.ACTIVE),
            distinct=True,
        ),
        season_count=Count("seasons", distinct=True),
    )
    rows = [
        ClubRow(club, club.member_count, club.season_count, mine.get(club.pk, "")) for club in found
    ]
    return render(request, "leagues/clubs.html", {"clubs": rows})


@login_required
@require_http_methods(["GET", "POST"])
@once
def club_new(request: SignedInRequest) -> HttpResponse:
    """A new club, with the person who makes it as its first admin."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = clubs.club_create(
                name=data["name"],
                slug=data["slug"],
                description=data["description"],
                creator=request.user,
            )
        except ClubError as error:
            form.add_error("slug" if error.code == "slug-taken" else None, error.message)
        else:
            messages.success(request, f"{club.name} is open. Invite people with its link below.")
            return redirect("web:club", slug=club.slug)
    return render(request, "leagues/club_new.html", {"form": form})


@dataclass(frozen=True, slots=True)
class SeasonRow:
    season: Season
    family: str


@require_GET
def club(request: HttpRequest, slug: str) -> HttpResponse:
    """The club: members, seasons, the all-time table; the invitation link for members; asking
    to join for other signed-in people; requests and roles for admins."""
    club = club_or_404(slug)
    user = request.user
    membership = clubs.membership_of(club, user)
    member = clubs.is_member(club, user)
    admin = clubs.is_admin(club, user)
    memberships = club.memberships.select_related("user")
    # A page of seasons, newest first; the next after the last shown (`before`).
    try:
        club_seasons, older = selectors.club_seasons(
            club, before=boundary.integer(request.GET, "before")
        )
    except SeasonNotFound as error:
        raise Http404(error.message) from error
    context = {
        "club": club,
        "membership": membership,
        "is_member": member,
        "is_admin": admin,
        "members": memberships.filter(status=Membership.Status.ACTIVE).order_by(
            "role", "user__username"
        ),
        # One admin cannot step down (league/clubs.py member_role, `last-admin`): the page
        # says so instead of offering the button.
        "sole_admin": admin
        and memberships.filter(status=Membership.Status.ACTIVE, role=Membership.Role.ADMIN).count()
        == 1,
        "requests": memberships.filter(status=Membership.Status.PENDING) if admin else [],
        "season_groups": [
            (
                label,
                [
                    SeasonRow(s, variant_title(s.competition.variant))
                    for s in club_seasons
                    if s.status == status
                ],
            )
            for status, label in SEASON_GROUPS
        ],
        "has_seasons": bool(club_seasons),
        # The id of the last season listed when older ones follow (the next page's `before`).
        "older": older,
        "all_time": standings.club_all_time(club),
        "invite_url": (
            request.build_absolute_uri(reverse("web:club-join", args=[club.slug, club.invite_code]))
            if member
            else ""
        ),
        # The club's board, for its members (web/chat.py).
        **chat.board_context(request, club),
        # The club's tournaments taking entries or running (web/tournaments.py).
        "tournaments": tournament_services.upcoming(club=club),
        # …and the last it finished, each with its winner (tournaments/services.py).
        "finished_tournaments": tournament_services.recent_finished(club),
    }
    return render(request, "leagues/club.html", context)


@require_http_methods(["GET", "POST"])
def club_join(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """The invitation link: a confirmation, then the person is a member. A link that is not the
    club's (mistyped, or rotated since) is refused. Signed out, the invitation names the club
    and its way in: sign up (most who follow a friend's link have no account) or sign in, each
    coming back here."""
    if not request.user.is_authenticated:
        if request.method != "GET":
            return redirect_to_login(request.get_full_path())
        club = club_or_404(slug)
        if not clubs.invitation_valid(club=club, code=code):
            return refused(request, INVITATION_REFUSED, status=404, club=club)
        return render(
            request, "leagues/club_join.html", {"club": club, "code": code, "next": request.path}
        )
    club = club_or_404(slug)
    if request.method == "GET":
        if clubs.is_member(club, request.user):
            messages.info(request, f"You are a member of {club.name} already.")
            return redirect("web:club", slug=club.slug)
        if not clubs.invitation_valid(club=club, code=code):
            return refused(request, INVITATION_REFUSED, status=404, club=club)
        return render(request, "leagues/club_join.html", {"club": club, "code": code})
    try:
        clubs.club_join(club=club, user=request.user, code=code)
    except ClubError as error:
        if error.code == "bad-invitation":
            return refused(request, INVITATION_REFUSED, status=404, club=club)
        messages.error(request, said(error))
    else:
        messages.success(request, f"Welcome to {club.name}.")
    return redirect("web:club", slug=club.slug)


INVITATION_REFUSED = (
    "This invitation link is not (or no longer) the club's: ask a member for the current one, "
    "or ask to join on the club's page."
)


@login_required
@require_POST
def club_ask(request: SignedInRequest, slug: str) -> HttpResponse:
    """Ask to join without the link; an admin approves or declines."""
    club = club_or_404(slug)
    report(
        request,
        lambda: clubs.club_request(club=club, user=request.user),
        f"You asked to join {club.name}; an admin will answer.",
    )
    return redirect("web:club", slug=club.slug)


def _person(user_id: int) -> User:
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        raise Http404(f"there is no person {user_id}")
    return user


@login_required
@require_POST
@club_admins
def club_approve(request: SignedInRequest, club: Club, user_id: int) -> HttpResponse:
    person = _person(user_id)
    report(
        request,
        lambda: clubs.membership_approve(club=club, admin=request.user, user=person),
        f"{person.username} is a member now.",
    )
    return redirect("web:club", slug=club.slug)


@login_required
@require_POST
@club_admins
def club_decline(request: SignedInRequest, club: Club, user_id: int) -> HttpResponse:
    person = _person(user_id)
    report(
        request,
        lambda: clubs.membership_decline(club=club, admin=request.user, user=person),
        f"You declined {person.username}'s request.",
    )
    return redirect("web:club", slug=club.slug)


ROLES_MADE: dict[str, str] = {
    Membership.Role.ADMIN.value: "an admin",
    Membership.Role.MEMBER.value: "a member (not an admin)",
}


def _confirmed(request: HttpRequest) -> bool:
    """A POST from a confirmation page (its `confirm`); anything else only asks."""
    return request.method == "POST" and request.POST.get("confirm") == "1"


@login_required
@require_http_methods(["GET", "POST"])
@club_admins
def club_role(request: SignedInRequest, club: Club, user_id: int) -> HttpResponse:
    """Make a member an admin, or an admin a member again (`role`): a confirmation page first
    (GET, or a POST without its `confirm`, which changes nothing), then the POST."""
    person = _person(user_id)
    role = request.POST.get("role", "") if request.method == "POST" else request.GET.get("role", "")
    if role not in ROLES_MADE:
        return refused(
            request, f"There is no role {role!r}: choose admin or member.", status=400, club=club
        )
    if not _confirmed(request):
        membership = clubs.membership_of(club, person)
        if membership is None or membership.status != Membership.Status.ACTIVE:
            messages.error(request, f"{person.username} is not a member of {club.name}.")
            return redirect("web:club", slug=club.slug)
        context = {"club": club, "person": person, "role": role, "made": ROLES_MADE[role]}
        return render(request, "leagues/club_role.html", context)
    report(
        request,
        lambda: clubs.member_role(club=club, admin=request.user, user=person, role=role),
        f"{person.username} is {ROLES_MADE[role]} now.",
    )
    return redirect("web:club", slug=club.slug)


@login_required
@require_http_methods(["GET", "POST"])
@club_admins
def club_remove(request: SignedInRequest, club: Club, user_id: int) -> HttpResponse:
    """Remove a member: a confirmation page saying what happens to their entries (GET, or a
    POST without its `confirm`), then the POST. Yourself: the page to leave."""
    person = _person(user_id)
    if person.pk == request.user.pk:
        return redirect("web:club-leave", slug=club.slug)
    if not _confirmed(request):
        if not clubs.is_member(club, person):
            messages.error(request, f"{person.username} is not a member of {club.name}.")
            return redirect("web:club", slug=club.slug)
        return render(request, "leagues/club_remove.html", _leaving(club, person, you=False))
    try:
        clubs.member_remove(club=club, admin=request.user, user=person)
    except ClubError as error:
        if error.code == "last-admin":
            return refused(request, said(error), status=409, club=club, code=error.code)
        messages.error(request, said(error))
    else:
        messages.success(
            request, f"{person.username} is no longer a member of {club.name}; they are told."
        )
    return redirect("web:club", slug=club.slug)


@login_required
@require_http_methods(["GET", "POST"])
def club_leave(request: SignedInRequest, slug: str) -> HttpResponse:
    """Leave the club: a confirmation page (GET, or a POST without its `confirm`), then the
    POST. The club's only admin is refused (`last-admin`), on the page and by the service."""
    club = club_or_404(slug)
    if not _confirmed(request):
        if not clubs.is_member(club, request.user):
            messages.error(request, f"You are not a member of {club.name}.")
            return redirect("web:club", slug=club.slug)
        return render(request, "leagues/club_remove.html", _leaving(club, request.user, you=True))
    try:
        clubs.club_leave(club=club, user=request.user)
    except ClubError as error:
        if error.code == "last-admin":
            return refused(request, LAST_ADMIN, status=409, club=club, code=error.code)
        messages.error(request, said(error))
        return redirect("web:club", slug=club.slug)
    messages.success(request, f"You left {club.name}.")
    return redirect("web:club", slug=club.slug)


LAST_ADMIN = (
    "You are the club's only admin: a club keeps at least one. Make another member an admin "
    "first, then leave."
)


def _leaving(club: Club, person: User, *, you: bool) -> dict[str, Any]:
    """The confirmation page's words for `person` leaving (`you`) or removed."""
    season_names, tournament_names = clubs.entries_kept(club, person)
    membership = clubs.membership_of(club, person)
    admins = club.memberships.filter(
        status=Membership.Status.ACTIVE, role=Membership.Role.ADMIN
    ).count()
    return {
        "club": club,
        "person": person,
        "you": you,
        "seasons": season_names,
        "tournaments": tournament_names,
        "last_admin": membership is not None
        and membership.role == Membership.Role.ADMIN
        and admins == 1,
    }


@login_required
@require_POST
@club_admins
def club_rotate(request: SignedInRequest, club: Club) -> HttpResponse:
    """A new invitation link; the old one stops working."""
    report(
        request,
        lambda: clubs.invitation_rotate(club=club, admin=request.user),
        "The invitation link is new; the old one no longer works.",
    )
    return redirect("web:club", slug=club.slug)


@login_required
@require_http_methods(["GET", "POST"])
@club_admins
@once
def season_new(request: SignedInRequest, club: Club) -> HttpResponse:
    """A new draft season of the club (club admins)."""
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = seasons.season_create(club=club, admin=request.user, **form.season_fields())
        except GameError as error:
            address_error(form, error, form.cleaned_data["slug"])
        else:
            messages.success(
                request,
                f"{season.name} is set up{taken_said(form)}: add its entrants, then start it.",
            )
            return redirect("web:season", slug=season.slug)
    return render(request, "leagues/season_new.html", {"form": form, "club": club})
