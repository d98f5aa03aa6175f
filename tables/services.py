"""The rules of open tables and challenges: open one, join it, leave it, cancel it, decline a
challenge, and the sweep that fills tables with bots or lets them expire. The API
(api/tables.py) and the site (web/tables.py) both go through here.

A table starts its game the moment its last seat is taken, in the same transaction as that
seat: joins lock the table's row (select_for_update), so two people racing for the last seat
are served one after the other and the second is told `table-full`. The seats of the game are
shuffled (the opener does not always sit first), bots fill the seats left empty when the
opener asked for them, and every person at the table is told (social.notifications).
"""

from __future__ import annotations

import datetime
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from chat.models import Mute
from clocks import presence
from engine import DECK, Variant
from games import lobby, outbox
from games.actors import Person
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from ratings.pools import pool_name, pool_of
from social.follows import follower_ids
from social.notifications import notify
from tables import invitations, listings
from tables.errors import InvalidTable, NotYours, TableNotFound, TableRefused
from tables.models import Table, TableSeat

log = logging.getLogger(__name__)

OPEN = Table.Status.OPEN
STARTED = Table.Status.STARTED
CANCELLED = Table.Status.CANCELLED
EXPIRED = Table.Status.EXPIRED
DECLINED = Table.Status.DECLINED

# The turn lengths a table may have (seconds): live tables to a day and more.
TURN_CHOICES = (60, 300, 3600, 86400, 3 * 86400)
DEFAULT_TURN = 300
# The built-in bots that take the empty seats, by family: greedy plays every family, and each
# family's own heuristic (docs/bots.md) joins it; one is drawn at random per seat.
FILL_BOTS = {
    "official": ("greedy", "colour-control"),
    "basic-plus": ("greedy", "colour-control"),
    "newno": ("greedy", "stacker"),
    "censorship": ("greedy", "censor"),
}
PRECOGNITIVE_BOTS = ("greedy", "lane-planner")
# Seats are shuffled and bots drawn from the system's randomness: nobody can plan a seat.
_random = random.SystemRandom()


# Opening ----------------------------------------------------------------------------------


def open_table(
    *,
    opener: Person,
    variant_spec: Mapping[str, Any],
    seats: int,
    turn_seconds: int = DEFAULT_TURN,
    rated: bool = False,
    fill_with_bots_after: int | None = None,
    challenge: str | None = None,
) -> Table:
    """Open a table (or, with `challenge`, a challenge to that username) with the opener in its
    first seat. InvalidTable for bad options, TableRefused `too-many-tables` past
    TABLES_MAX_OPEN; nothing is written then."""
    variant = _variant(variant_spec)
    _check_seats(variant, seats)
    if type(turn_seconds) is not int or turn_seconds not in TURN_CHOICES:
        raise InvalidTable(
            f"turn_seconds must be one of {', '.join(map(str, TURN_CHOICES))}",
            code="invalid-turn-seconds",
        )
    challenged = None
    if challenge is not None:
        challenged = person_named(challenge)
        if challenged is None:
            raise InvalidTable(f"nobody is called {challenge!r}", code="unknown-user")
        if challenged.pk == opener.pk:
            raise InvalidTable("you cannot challenge yourself", code="challenge-self")
        if Mute.objects.filter(muter=challenged, muted=opener).exists():
            raise NotYours(f"{challenged.username} does not take your challenges", code="blocked")
        if fill_with_bots_after is not None:
            raise InvalidTable(
                "a challenge starts when it is accepted: its other seats go to bots then, "
                "so it takes no fill_with_bots_after",
                code="invalid-fill",
            )
    open_minutes = _open_minutes(challenged is not None)
    if fill_with_bots_after is not None and (
        type(fill_with_bots_after) is not int or not 1 <= fill_with_bots_after <= open_minutes
    ):
        raise InvalidTable(
            f"fill_with_bots_after must be 1 to {open_minutes} minutes (the table expires "
            "then), or null",
            code="invalid-fill",
        )
    if variant.spec["rules"] == "newno":
        _check_birth_date(opener)
    now = timezone.now()
    with transaction.atomic():
        invitations.check_open_cap(opener, now)
        table = Table.objects.create(
            opener=opener,
            variant=variant.spec,
            seat_count=seats,
            turn_seconds=turn_seconds,
            rated=rated,
            fill_with_bots_after=fill_with_bots_after,
            fills_at=(
                now + datetime.timedelta(minutes=fill_with_bots_after)
                if fill_with_bots_after is not None
                else None
            ),
            challenged=challenged,
            created_at=now,
            expires_at=now + datetime.timedelta(minutes=open_minutes),
        )
        TableSeat.objects.create(table=table, user=opener)
        if challenged is not None:
            notify(
                challenged,
                "challenge",
                challenge_sentence(table),
                url=reverse("web:table", args=[table.pk]),
                key=f"challenge:{table.pk}",
            )
            # And one email, on commit (tables/challenge_emails.py).
            outbox.publish(outbox.ChallengeSent(table.pk))
        else:
            # A public table tells the opener's followers (one notice each, once per table).
            for follower in follower_ids(opener):
                notify(
                    follower,
                    "follow",
                    f"{opener.username}, whom you follow, opened {_described(table)}",
                    url=reverse("web:table", args=[table.pk]),
                    key=f"followed-table:{table.pk}",
                )
    return table


def _open_minutes(challenge: bool) -> int:
    return int(settings.TABLES_CHALLENGE_MINUTES if challenge else settings.TABLES_OPEN_MINUTES)


def _variant(spec: Mapping[str, Any]) -> Variant:
    try:
        return Variant.from_spec(spec)
    except (ValueError, TypeError) as error:
        raise InvalidTable(str(error), code="invalid-variant") from error


def _check_seats(variant: Variant, seats: int) -> None:
    rules = variant.ruleset
    low, high = rules.min_seats, rules.max_seats
    hand = int(rules.options.get("hand_size", 7))
    # As many seats as the family allows and the deck deals a hand to (Ruleset.start_decision).
    high = min(high, (len(DECK) - 1) // hand)
    if type(seats) is not int or not low <= seats <= high:
        raise InvalidTable(
            f"{rules.name} with {hand} cards a hand seats {low} to {high}, not {seats!r}",
            code="invalid-seats",
        )


def person_named(name: str) -> Any:
    """The active person called `name`: exactly, else in any case (usernames are unique
    whatever their case, accounts/usernames.py, so a name typed in other capitals is theirs);
    None when there is none."""
    people = User.objects.filter(is_active=True)
    return people.filter(username=name).first() or people.filter(username__iexact=name).first()


def _check_birth_date(person: Person) -> None:
    """newno's Youngest Rule needs every person's birth date (games/lobby.py ranked_by_age)."""
    born = Profile.objects.filter(user=person).values_list("birth_date", flat=True).first()
    if born is None:
        raise InvalidTable(
            f"{person.username} has given no birth date, which newno's Youngest Rule needs "
            "(profile page)",
            code="birth-date-missing",
        )


def challenge_sentence(table: Table) -> str:
    """A challenge in one line, its notice under the bell and its email's subject: "maya
    challenges you to a casual Official table for 2"."""
    return f"{table.opener.username} challenges you to {_described(table)}"


def _described(table: Table) -> str:
    """The table in a notice's words: "a rated Official table for 2"."""
    kind = "a rated" if table.rated else "a casual"
    return f"{kind} {pool_name(pool_of(table.variant))} table for {table.seat_count}"


# Joining, leaving, cancelling, declining ---------------------------------------------------


def join(*, table_id: int, person: Person) -> Table:
    """Take a seat (accept, for a challenge or an invitation); the last seat (for an
    invitation, the last person invited to accept) starts the game. Refusals:
    `own-table`, `already-seated`, `table-full` (it filled and started), `table-not-open`,
    `not-challenged`, `blocked` (someone seated muted the person), `birth-date-missing`."""
    lapsed = False
    with transaction.atomic():
        table = _locked(table_id)
        if table.challenged_id is not None and person.pk not in (
            table.challenged_id,
            table.opener_id,
        ):
            raise NotYours("this challenge is addressed to someone else", code="not-challenged")
        invited = invitations.invited_ids(table) if table.is_invitation else set()
        if table.is_invitation and person.pk not in invited | {table.opener_id}:
            raise NotYours("this invitation is addressed to others", code="not-challenged")
        if table.opener_id == person.pk:
            raise TableRefused("you opened this table: you sit at it already", code="own-table")
        if table.status == STARTED:
            raise TableRefused(
                "the table filled up and its game started without you", code="table-full"
            )
        if table.status == OPEN and table.expires_at <= timezone.now():
            # Past its time, before the sweep came by: expired now, and the refusal after.
            _close(table, EXPIRED)
            lapsed = True
        elif table.status != OPEN:
            raise TableRefused(f"the table was {table.status}", code="table-not-open")
        else:
            seated = list(table.seats.values_list("user_id", flat=True))
            if person.pk in seated:
                raise TableRefused("you sit at this table already", code="already-seated")
            if Mute.objects.filter(muter_id__in=seated, muted_id=person.pk).exists():
                # A person who muted (blocked) another never finds them at their table.
                raise NotYours(
                    "someone at this table has blocked you: choose another table", code="blocked"
                )
            if len(seated) >= table.seat_count:
                raise TableRefused("every seat of the table is taken", code="table-full")
            if table.variant.get("rules") == "newno":
                _check_birth_date(person)
            TableSeat.objects.create(table=table, user=person)
            if table.challenged_id == person.pk or person.pk in invited:
                invitations.answered(table, person)
            if table.is_invitation:
                if invitations.everyone_accepted(table):
                    table.game = invitations.start(table, present=person)
                    _close(table, STARTED, "game")
            elif table.is_challenge or len(seated) + 1 == table.seat_count:
                _start(table, present=person)
    if lapsed:
        raise TableRefused("the table expired: nobody joined in time", code="table-not-open")
    return table


def leave(*, table_id: int, person: Person) -> Table:
    """Stand up from an open table; the opener leaving cancels it. `not-seated` for someone
    who holds no seat, `table-not-open` once it started or closed."""
    with transaction.atomic():
        table = _locked(table_id)
        listings.check_may_see(table, person)
        if table.status != OPEN:
            raise TableRefused(f"the table was {table.status} already", code="table-not-open")
        if table.opener_id == person.pk:
            _close(table, CANCELLED)
            return table
        deleted, _ = TableSeat.objects.filter(table=table, user=person).delete()
        if not deleted:
            raise TableRefused("you hold no seat at this table", code="not-seated")
    return table


def cancel(*, table_id: int, person: Person) -> Table:
    """The opener closes their open table (a challenge too): `not-opener` for anyone else."""
    with transaction.atomic():
        table = _locked(table_id)
        listings.check_may_see(table, person)
        if table.opener_id != person.pk:
            raise NotYours("only the one who opened a table may cancel it", code="not-opener")
        if table.status != OPEN:
            raise TableRefused(f"the table was {table.status} already", code="table-not-open")
        _close(table, CANCELLED)
    return table


def decline(*, table_id: int, person: Person) -> Table:
    """The challenged person declines the challenge, or a person invited the invitation (even
    once they accepted: the game has not started); the challenger is told."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.challenged_id != person.pk and not (
            table.is_invitation and person.pk in invitations.invited_ids(table)
        ):
            raise NotYours("only the person challenged may decline", code="not-challenged")
        if table.status != OPEN:
            raise TableRefused(f"the challenge was {table.status} already", code="table-not-open")
        _close(table, DECLINED)
        invitations.answered(table, person)
        if table.is_invitation:
            invitations.declined(table, person)
            return table
        notify(
            table.opener,
            "challenge",
            f"{person.username} declined your challenge",
            url=reverse("web:table", args=[table.pk]),
            key=f"challenge-declined:{table.pk}",
        )
    return table


def _locked(table_id: int) -> Table:
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("opener")
        .filter(pk=table_id)
        .first()
    )
    if table is None:
        raise TableNotFound(table_id)
    return table


def _close(table: Table, status: str, *fields: str) -> None:
    table.status = status
    table.closed_at = timezone.now()
    table.save(update_fields=["status", "closed_at", *fields])


def _start(table: Table, *, present: Person | None = None) -> None:
    """Start the game of a locked table: its people, built-in bots in the seats left empty,
    shuffled; every person told but `present`, whose join started it (and who is at the game now:
    clocks/presence.py, its first turn, if theirs, is no email). Called inside the caller's
    transaction."""
    people = [
        seat.user
        for seat in TableSeat.objects.filter(table=table)
        .select_related("user")
        .order_by("joined_at", "pk")
    ]
    specs = [SeatSpec(user=user) for user in people]
    specs += [SeatSpec(bot=_random.choice(fill_bots(table.variant))) for _ in range(
        table.seat_count - len(people))]  # fmt: skip
    _random.shuffle(specs)
    if table.variant.get("rules") == "newno":
        specs = lobby.ranked_by_age(specs)
    game = game_create(
        variant_spec=table.variant,
        seats=specs,
        settings=GameSettings(turn_seconds=table.turn_seconds, rated=table.rated, table=table.pk),
    )
    table.game = game
    _close(table, STARTED, "game")
    if present is not None:
        presence.seen(present.pk, game.pk)
    url = reverse("web:play", args=[game.pk])
    for user in people:
        if present is not None and user.pk == present.pk:
            continue  # they started it, and are taken to the game: nothing to tell them
        notify(
            user,
            "table-started",
            f"Your table started: {_described(table)} (game {game.pk})",
            url=url,
            key=f"table-started:{table.pk}",
            game=game.pk,
        )


def fill_bots(variant: Mapping[str, Any]) -> Sequence[str]:
    """The built-in strategies a bot that fills a seat of this variant is drawn from."""
    if "precognitive" in variant:
        return PRECOGNITIVE_BOTS
    return FILL_BOTS.get(str(variant.get("rules")), ("greedy",))


# The sweep --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Swept:
    filled: list[int]
    expired: int


def sweep(now: datetime.datetime | None = None) -> Swept:
    """Fill with bots the open tables whose fill time has come, then expire the open tables
    past their time (tables/tasks.py, every TABLES_SWEEP_SECONDS). Safe to run twice at once:
    each fill locks its table and looks again, and the expiry's UPDATE skips a table a join
    started meanwhile."""
    now = now or timezone.now()
    filled = []
    due = Table.objects.filter(status=OPEN, fills_at__lte=now).order_by("fills_at", "pk")
    for table_id in due.values_list("pk", flat=True):
        try:
            with transaction.atomic():
                table = _locked(table_id)
                if table.status != OPEN or table.fills_at is None or table.fills_at > now:
                    continue
                _start(table)
                filled.append(table.pk)
        except Exception:  # noqa: BLE001 (logged with its traceback)
            # One table's trouble must not hold up the others; it expires in its time.
            log.exception("filling table %s with bots failed", table_id)
    expired = Table.objects.filter(status=OPEN, expires_at__lte=now).update(
        status=EXPIRED, closed_at=now
    )
    return Swept(filled, expired)
