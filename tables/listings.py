"""The tables as people see them: one table (a challenge or an invitation only to its people),
the open tables anyone may join, a person's challenges to answer and their own open tables, the
API's list. tables/services.py changes them; the API (api/tables.py) and the site
(web/tables.py) read them here."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.actors import Person
from tables import invitations
from tables.errors import NotYours, TableNotFound
from tables.models import Table

OPEN = Table.Status.OPEN


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as anyone who may see it sees it (the API's body, the pages' rows)."""

    id: int
    status: str
    opener: str
    variant: dict[str, Any]
    seat_count: int
    seated: list[str]
    turn_seconds: int
    rated: bool
    fill_with_bots_after: int | None
    fills_at: datetime.datetime | None
    challenged: str | None
    game: int | None
    created_at: datetime.datetime
    expires_at: datetime.datetime
    # An invitation (tables/invitations.py): the people asked, and every seat as planned.
    invited: tuple[str, ...] = ()
    plan: tuple[str, ...] | None = None

    @property
    def is_invitation(self) -> bool:
        return self.plan is not None

    @property
    def waiting_for(self) -> list[str]:
        """The people invited who have not accepted yet."""
        return [name for name in self.invited if name not in self.seated]

    @property
    def people(self) -> int:
        """An invitation's people: those seated (who accepted, the creator if they play) and
        those asked who have not yet. Its bots are no one to wait for."""
        return len(self.seated) + len(self.waiting_for)

    @property
    def family(self) -> str:
        return str(self.variant.get("rules", ""))

    @property
    def free_seats(self) -> int:
        return max(self.seat_count - len(self.seated), 0)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "opener": self.opener,
            "family": self.family,
            "variant": self.variant,
            "seats": self.seat_count,
            "seated": list(self.seated),
            "turn_seconds": self.turn_seconds,
            "rated": self.rated,
            "fill_with_bots_after": self.fill_with_bots_after,
            "challenged": self.challenged,
            "game": self.game,
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "invited": list(self.invited),
            "plan": list(self.plan) if self.plan is not None else None,
        }


def info(table: Table) -> TableInfo:
    """The table as TableInfo (its seats and people read with it when prefetched)."""
    seats = sorted(table.seats.all(), key=lambda seat: (seat.joined_at, seat.pk))
    return TableInfo(
        id=table.pk,
        status=table.status,
        opener=table.opener.username,
        variant=dict(table.variant),
        seat_count=table.seat_count,
        seated=[seat.user.username for seat in seats],
        turn_seconds=table.turn_seconds,
        rated=table.rated,
        fill_with_bots_after=table.fill_with_bots_after,
        fills_at=table.fills_at,
        challenged=table.challenged.username if table.challenged is not None else None,
        game=table.game_id,
        created_at=table.created_at,
        expires_at=table.expires_at,
        invited=tuple(sorted(person.username for person in table.invited.all())),
        plan=tuple(invitations.plan_names(table)) if table.plan is not None else None,
    )


def _read() -> Any:
    return Table.objects.select_related("opener", "challenged").prefetch_related(
        "seats__user", "invited"
    )


# Reads ------------------------------------------------------------------------------------


def table_info(*, table_id: int, viewer: Any) -> TableInfo:
    """One table, for anyone but a challenge or an invitation, which only its people may see."""
    table = _read().filter(pk=table_id).first()
    if table is None:
        raise TableNotFound(table_id)
    check_may_see(table, viewer)
    return info(table)


def open_tables(*, family: str | None = None, turn_seconds: int | None = None) -> list[TableInfo]:
    """The open tables anyone may join (challenges and invitations are private), oldest first."""
    tables = _read().filter(
        status=OPEN, challenged__isnull=True, plan__isnull=True, expires_at__gt=timezone.now()
    )
    if family:
        tables = tables.filter(variant__rules=family)
    if turn_seconds is not None:
        tables = tables.filter(turn_seconds=turn_seconds)
    return [info(table) for table in tables.order_by("created_at", "pk")]


def challenges_for(person: Person) -> list[TableInfo]:
    """The open challenges and invitations waiting for the person's answer, oldest first."""
    tables = (
        _read()
        .filter(Q(challenged=person) | Q(invited=person), status=OPEN)
        .filter(expires_at__gt=timezone.now())
        .exclude(seats__user=person)
        .distinct()
    )
    return [info(table) for table in tables.order_by("created_at", "pk")]


def tables_of(person: Person) -> list[TableInfo]:
    """The open tables the person opened or sits at (challenges they sent too), newest first."""
    tables = (
        _read().filter(status=OPEN, seats__user=person, expires_at__gt=timezone.now()).distinct()
    )
    return [info(table) for table in tables.order_by("-created_at", "-pk")]


def visible_tables(
    person: Person, *, family: str | None = None, turn_seconds: int | None = None
) -> list[TableInfo]:
    """GET /api/tables: the open tables anyone may join, then the person's open challenges and
    invitations (sent and received), each filtered alike."""
    public = open_tables(family=family, turn_seconds=turn_seconds)
    private = (
        _read()
        .filter(status=OPEN, expires_at__gt=timezone.now())
        .filter(Q(challenged__isnull=False) | Q(plan__isnull=False))
        .filter(Q(opener=person) | Q(challenged=person) | Q(invited=person))
        .distinct()
    )
    if family:
        private = private.filter(variant__rules=family)
    if turn_seconds is not None:
        private = private.filter(turn_seconds=turn_seconds)
    return public + [info(table) for table in private.order_by("created_at", "pk")]


def check_may_see(table: Table, viewer: Any) -> None:
    """A challenge is for its two people, an invitation for its creator and the people it
    invites: anyone else is refused `not-challenged`."""
    if table.challenged_id is None and not table.is_invitation:
        return
    allowed = {table.opener_id, table.challenged_id}
    if table.is_invitation:
        allowed |= invitations.invited_ids(table)
    if getattr(viewer, "pk", None) not in allowed:
        raise NotYours("this challenge is addressed to someone else", code="not-challenged")
