"""Clubs and their members: create a club, join by its invitation link or ask to join, approve,
make admins, remove a member, leave. No HTTP here; the errors are league/errors.py's.
docs/leagues.md, "Clubs".

The club's admins hear of its people under the bell (social/notifications.py, kind
`club-members`): someone who joins (by the link, or an admin approving their request) is told
to every other admin once per join ("tobi joined Friday Night UNO"), and a request to join is
told as one to answer ("tobi asks to join Friday Night UNO"), read for every admin once one of
them answered it. Someone who leaves is told to every admin ("tobi left Friday Night UNO").

A person hears of their own place in a club under the bell too (the same kind): their request
approved ("ana approved your request: you are a member of Friday Night UNO"), their role changed
("ana made you an admin of …", one line per membership, unread and newest again at each
change), their removal ("ana removed you from …").

Removing or leaving deletes the membership row (as a declined request's): the person may ask or
be invited again, a new join. What they entered stays: their entries in a running season, a
draft season or a tournament are played, ruled and withdrawn as any other; only the next
season's carry-over (league/seasons.py `season_next`) leaves them out, being no member.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from games.actors import is_person
from league.errors import ClubError, ClubNotFound, NotClubAdmin
from league.models import Club, Entry, Membership, Season
from social import notifications
from social.models import Notification
from tournaments.models import Tournament


def _new_code() -> str:
    return secrets.token_urlsafe(12)


def club_create(*, name: str, creator: Any, slug: str = "", description: str = "") -> Club:
    """Create a club with `creator` as its first admin. Raises ClubError (`invalid-club`,
    `slug-taken`)."""
    name = name.strip()
    slug = slug or slugify(name)[:64]
    if not name or not slug or len(name) > 100:
        raise ClubError("a club needs a name of 1 to 100 characters", code="invalid-club")
    if not is_person(creator):
        raise ClubError("a club is created by a signed-in person", code="invalid-club")
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name, slug=slug, description=description, invite_code=_new_code()
            )
            Membership.objects.create(club=club, user=creator, role=Membership.Role.ADMIN)
    except IntegrityError as error:
        raise ClubError(f"the address {slug!r} is taken", code="slug-taken") from error
    return club


def club_get(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise ClubNotFound(f"club {slug!r}")
    return club


def membership_of(club: Club, user: Any) -> Membership | None:
    if not is_person(user):
        return None
    return Membership.objects.filter(club=club, user=user).first()


def is_member(club: Club, user: Any) -> bool:
    membership = membership_of(club, user)
    return membership is not None and membership.status == Membership.Status.ACTIVE


def is_admin(club: Club, user: Any) -> bool:
    """A club admin, or staff (who may act for any club)."""
    if is_person(user) and user.is_staff:
        return True
    membership = membership_of(club, user)
    return (
        membership is not None
        and membership.status == Membership.Status.ACTIVE
        and membership.role == Membership.Role.ADMIN
    )


def check_admin(club: Club, user: Any) -> None:
    if not is_admin(club, user):
        raise NotClubAdmin(f"only an admin of {club.name} may do this")


def club_join(*, club: Club, user: Any, code: str) -> Membership:
    """Join with the invitation link: a member at once (a pending request becomes active).
    Raises ClubError (`bad-invitation`, `already-member`)."""
    if not is_person(user):
        raise ClubError("sign in to join a club", code="not-a-member")
    if not invitation_valid(club=club, code=code):
        raise ClubError(
            "this invitation link is not (or no longer) the club's", code="bad-invitation"
        )
    return _activate(club, user)


def invitation_valid(*, club: Club, code: str) -> bool:
    """Whether `code` is the club's invitation code now (a rotated one is not)."""
    return secrets.compare_digest(code.encode(), club.invite_code.encode())


def club_request(*, club: Club, user: Any) -> Membership:
    """Ask to join without the link: a pending membership an admin approves. Raises ClubError
    (`already-member`)."""
    if not is_person(user):
        raise ClubError("sign in to join a club", code="not-a-member")
    try:
        with transaction.atomic():
            membership = Membership.objects.create(
                club=club, user=user, status=Membership.Status.PENDING
            )
    except IntegrityError as error:
        raise ClubError(
            f"{user.get_username()} is already a member or has asked", code="already-member"
        ) from error
    _tell_admins(
        club,
        f"{user.get_username()} asks to join {club.name}",
        key=_request_key(membership),
        url=f"/clubs/{club.slug}/#requests-title",
    )
    return membership


def membership_approve(*, club: Club, admin: Any, user: Any) -> Membership:
    """Approve a pending request; the person is told under the bell. Raises NotClubAdmin,
    ClubError (`no-request`)."""
    check_admin(club, admin)
    updated = Membership.objects.filter(
        club=club, user=user, status=Membership.Status.PENDING
    ).update(status=Membership.Status.ACTIVE)
    if not updated:
        raise ClubError(f"{user.get_username()} has not asked to join", code="no-request")
    membership = Membership.objects.get(club=club, user=user)
    _answered(membership)
    _tell_joined(club, membership, but=admin)
    _tell_member(
        club,
        user,
        f"{_name(admin)} approved your request: you are a member of {club.name}",
        key=f"club-approved:{membership.pk}",
    )
    return membership


def membership_decline(*, club: Club, admin: Any, user: Any) -> None:
    """Decline a pending request (the person may ask again). Raises NotClubAdmin, ClubError."""
    check_admin(club, admin)
    asked = Membership.objects.filter(club=club, user=user, status=Membership.Status.PENDING)
    pending = asked.first()  # its key, for its notices: read before the row goes
    deleted, _ = asked.delete()
    if pending is None or not deleted:
        raise ClubError(f"{user.get_username()} has not asked to join", code="no-request")
    _answered(pending)


def member_role(*, club: Club, admin: Any, user: Any, role: str) -> Membership:
    """Make a member an admin or a plain member again; they are told under the bell, unless
    they changed their own role or nothing changed. Raises NotClubAdmin, ClubError
    (`not-a-member`, `last-admin`, `invalid-club` for an unknown role)."""
    check_admin(club, admin)
    if role not in Membership.Role.values:
        raise ClubError(f"no role {role!r}", code="invalid-club")
    with transaction.atomic():
        memberships = Membership.objects.select_for_update().filter(club=club)
        membership = memberships.filter(user=user, status=Membership.Status.ACTIVE).first()
        if membership is None:
            raise ClubError(f"{user.get_username()} is not a member", code="not-a-member")
        admins = memberships.filter(role=Membership.Role.ADMIN, status=Membership.Status.ACTIVE)
        if role == Membership.Role.MEMBER and list(admins) == [membership]:
            raise ClubError("a club keeps at least one admin", code="last-admin")
        changed = membership.role != role
        membership.role = role
        membership.save(update_fields=["role"])
    if changed and user.pk != admin.pk:
        made = "an admin" if role == Membership.Role.ADMIN else "a plain member (not an admin)"
        notifications.renew(
            user.pk,
            Notification.Kind.CLUB_MEMBERS,
            f"{_name(admin)} made you {made} of {club.name}",
            url=f"/clubs/{club.slug}/",
            key=f"club-role:{membership.pk}",
            at=timezone.now(),
        )
    return membership


def member_remove(*, club: Club, admin: Any, user: Any) -> None:
    """An admin removes a member (an admin too, while another admin stays); removing yourself
    is leaving (`club_leave`). The removed person is told under the bell. Raises NotClubAdmin,
    ClubError (`not-a-member`, `last-admin`)."""
    check_admin(club, admin)
    if is_person(admin) and user.pk == admin.pk:
        club_leave(club=club, user=user)
        return
    gone = _drop(club, user)
    _tell_member(
        club, user, f"{_name(admin)} removed you from {club.name}", key=f"club-removed:{gone}"
    )


def club_leave(*, club: Club, user: Any) -> None:
    """A member leaves the club; its admins are told. Raises ClubError (`not-a-member`,
    `last-admin`: the only admin makes another member an admin first)."""
    if not is_person(user):
        raise ClubError("sign in to leave a club", code="not-a-member")
    gone = _drop(club, user)
    _tell_admins(
        club,
        f"{user.get_username()} left {club.name}",
        key=f"club-left:{gone}",
        url=f"/clubs/{club.slug}/#members-title",
    )


def entries_kept(club: Club, user: Any) -> tuple[list[str], list[str]]:
    """What a member leaving (or removed) keeps in the club: the names of the seasons not closed
    (running or a draft) and of the tournaments not finished they are entered in (the module's
    docstring: those entries stay)."""
    season_names = Season.objects.filter(
        club=club,
        status__in=[Season.Status.DRAFT, Season.Status.RUNNING],
        competition__in=Entry.objects.filter(user=user, active=True).values("competition"),
    ).values_list("competition__name", flat=True)
    tournament_names = (
        Tournament.objects.filter(club=club, entries__user=user, entries__withdrawn=False)
        .exclude(status=Tournament.Status.FINISHED)
        .values_list("name", flat=True)
    )
    return sorted(season_names), sorted(set(tournament_names))


def _drop(club: Club, user: Any) -> int:
    """Delete an active membership, refusing the club's last admin's; returns the id the row
    had (its notices' key)."""
    with transaction.atomic():
        memberships = Membership.objects.select_for_update().filter(club=club)
        active = memberships.filter(status=Membership.Status.ACTIVE)
        membership = active.filter(user=user).first()
        if membership is None:
            raise ClubError(
                f"{user.get_username()} is not a member of {club.name}", code="not-a-member"
            )
        admins = list(active.filter(role=Membership.Role.ADMIN))
        if admins == [membership]:
            raise ClubError(
                f"{user.get_username()} is the only admin of {club.name}: a club keeps at least "
                "one admin (make another member an admin first)",
                code="last-admin",
            )
        gone = membership.pk
        membership.delete()
    return gone


def invitation_rotate(*, club: Club, admin: Any) -> str:
    """A new invitation link; the old one stops working. Returns the new code."""
    check_admin(club, admin)
    club.invite_code = _new_code()
    club.save(update_fields=["invite_code"])
    return club.invite_code


def _activate(club: Club, user: Any) -> Membership:
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
        if membership is None:
            try:
                with transaction.atomic():
                    membership = Membership.objects.create(club=club, user=user)
                    _tell_joined(club, membership, but=user)
                    return membership
            except IntegrityError:
                membership = Membership.objects.get(club=club, user=user)
        if membership.status == Membership.Status.ACTIVE:
            raise ClubError(
                f"{user.get_username()} is already a member of {club.name}",
                code="already-member",
            )
        membership.status = Membership.Status.ACTIVE
        membership.save(update_fields=["status"])
        _answered(membership)
        _tell_joined(club, membership, but=user)
        return membership


# The club's admins told of its people (the module's docstring).


def _name(user: Any) -> str:
    """Who acted, as a notice names them (staff acting for a club included)."""
    return str(user.get_username())


def _admins(club: Club) -> list[int]:
    return list(
        Membership.objects.filter(
            club=club, role=Membership.Role.ADMIN, status=Membership.Status.ACTIVE
        ).values_list("user_id", flat=True)
    )


def _tell_admins(club: Club, text: str, *, key: str, url: str, but: Any = None) -> None:
    for admin_id in _admins(club):
        if but is None or admin_id != but.pk:
            notifications.notify(admin_id, Notification.Kind.CLUB_MEMBERS, text, url=url, key=key)


def _tell_member(club: Club, user: Any, text: str, *, key: str) -> None:
    """One line under a person's bell about their own place in the club, linked to it."""
    notifications.notify(
        user, Notification.Kind.CLUB_MEMBERS, text, url=f"/clubs/{club.slug}/", key=key
    )


def _tell_joined(club: Club, membership: Membership, *, but: Any) -> None:
    """Someone joined: every admin but `but` (who joined, or approved them) told once (the
    membership's row: leaving and joining again is another join)."""
    _tell_admins(
        club,
        f"{membership.user.get_username()} joined {club.name}",
        key=f"club-joined:{membership.pk}",
        url=f"/clubs/{club.slug}/#members-title",
        but=but,
    )


def _request_key(membership: Membership) -> str:
    return f"club-request:{membership.pk}"


def _answered(membership: Membership) -> None:
    """A request was answered (approved, declined, or its person joined by the link): nothing
    is left to answer under any admin's bell."""
    Notification.objects.filter(
        user_id__in=_admins(membership.club), key=_request_key(membership), read_at=None
    ).update(read_at=timezone.now())
