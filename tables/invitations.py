"""Invitations: a game set up seat by seat (/play/new/, POST /api/games) that names other
people does not start at once. Nobody is seated in a game they did not agree to: each person
named is asked (a `challenge` notice under their bell, the invitation among their "Challenges
for you" with Accept and Decline), and the game starts, with the seats as the creator set
them, when the last of them accepts (tables/services.py `join`). One decline closes it and
tells the creator. A game naming nobody else (the creator, bots) starts at once, through
games/lobby.py `game_start` as before.

An invitation is a private tables.Table with its seats fixed (`plan`) and its people
(`invited`); it waits TABLES_CHALLENGE_MINUTES, like a challenge, then expires.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from chat.models import Mute
from clocks import presence
from engine import Variant
from games import lobby, outbox
from games.actors import Person, lock_person
from games.creation import SeatSpec, game_create
from games.errors import InvalidGame
from games.game_settings import GameSettings
from games.models import Bot, Game
from ratings.pools import pool_name, pool_of
from social.models import Notification
from social.notifications import notify
from tables.errors import NotYours, TableRefused
from tables.models import Table, TableSeat


def start_or_invite(
    *,
    creator: Person,
    variant_spec: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    seed: int | None = None,
    turn_seconds: int | None = None,
) -> Game | Table:
    """A person's new game: started at once (a Game) when its seats name nobody but the
    creator and bots, else an invitation (a Table) to everyone else named. The refusals are
    game_start's (InvalidGame, Forbidden, GameRefused) and, for an invitation, NotYours
    `blocked` (a person named muted the creator) and TableRefused `too-many-tables`."""
    specs = [lobby.seat_spec(number, seat, creator) for number, seat in enumerate(seats)]
    others = [spec.user for spec in specs if spec.user is not None and spec.user.pk != creator.pk]
    if not others:
        return lobby.game_start(
            creator=creator,
            variant_spec=variant_spec,
            seats=seats,
            seed=seed,
            turn_seconds=turn_seconds,
        )
    return _invite(creator, variant_spec, specs, seed, turn_seconds)


def _invite(
    creator: Person,
    variant_spec: Mapping[str, Any],
    specs: list[SeatSpec],
    seed: int | None,
    turn_seconds: int | None,
) -> Table:
    """Check the game as game_start would (all of it but the deal), then ask its people."""
    lobby.check_turn_seconds(turn_seconds)
    if not any(spec.user is not None and spec.user.pk == creator.pk for spec in specs):
        lobby.check_watch(specs, creator)  # refuses any person's seat: `creator-not-seated`
    if seed is not None:
        lobby.check_practice(specs, creator)  # refuses another person: `seed-not-allowed`
    try:
        variant = Variant.from_spec(variant_spec)
        variant.start(len(specs))
    except (ValueError, TypeError) as error:
        raise InvalidGame(str(error), code="invalid-variant") from error
    if variant.spec["rules"] == "newno":
        lobby.ranked_by_age(specs)  # every person's birth date: `birth-date-missing`
    for spec in specs:
        if spec.registered is not None:
            _usable(spec.registered)
    people = list({spec.user.pk: spec.user for spec in specs if spec.user is not None}.values())
    invited = [person for person in people if person.pk != creator.pk]
    for person in invited:
        if Mute.objects.filter(muter=person, muted=creator).exists():
            raise NotYours(f"{person.username} does not take your invitations", code="blocked")
    now = timezone.now()
    with transaction.atomic():
        check_open_cap(creator, now)
        table = Table.objects.create(
            opener=creator,
            variant=variant.spec,
            seat_count=len(specs),
            turn_seconds=turn_seconds or settings.GAMES_TURN_SECONDS,
            plan=[_planned(spec) for spec in specs],
            created_at=now,
            expires_at=now + datetime.timedelta(minutes=settings.TABLES_CHALLENGE_MINUTES),
        )
        table.invited.set(invited)
        TableSeat.objects.create(table=table, user=creator)
        for person in invited:
            notify(
                person,
                "challenge",
                invitation_sentence(table),
                url=reverse("web:table", args=[table.pk]),
                key=f"challenge:{table.pk}",
            )
        # And one email each, on commit (tables/challenge_emails.py).
        outbox.publish(outbox.InvitationSent(table.pk))
    return table


def check_open_cap(opener: Person, now: datetime.datetime) -> None:
    """TableRefused `too-many-tables` when `opener` has TABLES_MAX_OPEN open tables, challenges
    and invitations; the person's row locked first (inside the caller's transaction), so the cap
    holds under concurrent requests."""
    lock_person(opener)
    opened = Table.objects.filter(
        opener=opener, status=Table.Status.OPEN, expires_at__gt=now
    ).count()
    if opened >= settings.TABLES_MAX_OPEN:
        raise TableRefused(
            f"you have {opened} open tables, challenges and invitations already (at most "
            f"{settings.TABLES_MAX_OPEN}): cancel one or wait for an answer",
            code="too-many-tables",
        )


def answered(table: Table, person: Person) -> None:
    """A person asked (a challenge, an invitation) accepted or declined: its notice under their
    bell is read (it asked for an answer, which they gave)."""
    Notification.objects.filter(
        user_id=person.pk, key=f"challenge:{table.pk}", read_at__isnull=True
    ).update(read_at=timezone.now())


def _usable(bot: Bot) -> None:
    """A registered bot that may be seated when the game starts (games/creation.py refuses a
    failed or retired one then: said now, not to the last person to accept)."""
    if bot.status in (Bot.Status.FAILED, Bot.Status.RETIRED):
        code = "bot-failed" if bot.status == Bot.Status.FAILED else "bot-retired"
        raise InvalidGame(f"bot {bot.name} is {bot.status}: it plays no new game", code=code)


def _planned(spec: SeatSpec) -> dict[str, Any]:
    if spec.user is not None:
        return {"user": spec.user.pk}
    if spec.registered is not None:
        return {"bot_id": spec.registered.pk}
    return {"bot": spec.bot}


def invitation_sentence(table: Table) -> str:
    """An invitation in one line, its notice under the bell: "ana invites you to a casual
    Official game for 3"."""
    return f"{table.opener.username} invites you to a casual {_kind(table)}"


def _kind(table: Table) -> str:
    return f"{pool_name(pool_of(table.variant))} game for {table.seat_count}"


def _seated(table: Table) -> tuple[list[dict[str, Any]], dict[int, Any], dict[int, Bot]]:
    """The plan, with its people and registered bots read (two queries)."""
    plan = table.plan or []
    users = User.objects.in_bulk([seat["user"] for seat in plan if "user" in seat])
    bots = Bot.objects.in_bulk([seat["bot_id"] for seat in plan if "bot_id" in seat])
    return plan, users, bots


def plan_names(table: Table) -> list[str]:
    """The planned seats in order, as the table's page lists them: usernames, bot names."""
    plan, users, bots = _seated(table)
    names = []
    for seat in plan:
        if "user" in seat:
            found = users.get(seat["user"])
            names.append(found.username if found is not None else "?")
        elif "bot_id" in seat:
            bot = bots.get(seat["bot_id"])
            names.append(bot.name if bot is not None else "?")
        else:
            names.append(str(seat["bot"]))
    return names


def invited_ids(table: Table) -> set[int]:
    return set(table.invited.values_list("pk", flat=True))


def everyone_accepted(table: Table) -> bool:
    """Every person invited sits at the (locked) table: its game may start."""
    seated = set(TableSeat.objects.filter(table=table).values_list("user_id", flat=True))
    return invited_ids(table) <= seated


def start(table: Table, *, present: Person) -> Game:
    """Start a locked invitation's game, its seats as planned (not shuffled: the creator chose
    them); everyone told but `present`, whose acceptance started it. Called inside the caller's
    transaction; the caller closes the table."""
    plan, users, bots = _seated(table)
    specs = [
        SeatSpec(user=users[seat["user"]])
        if "user" in seat
        else SeatSpec(registered=bots[seat["bot_id"]])
        if "bot_id" in seat
        else SeatSpec(bot=seat["bot"])
        for seat in plan
    ]
    if table.variant.get("rules") == "newno":
        specs = lobby.ranked_by_age(specs)
    game = game_create(
        variant_spec=table.variant,
        seats=specs,
        settings=GameSettings(turn_seconds=table.turn_seconds, table=table.pk),
        actor=table.opener,
    )
    presence.seen(present.pk, game.pk)
    url = reverse("web:play", args=[game.pk])
    for user in {spec.user.pk: spec.user for spec in specs if spec.user is not None}.values():
        if user.pk == present.pk:
            continue
        notify(
            user,
            "table-started",
            f"Everyone accepted: your {_kind(table)} started (game {game.pk})",
            url=url,
            key=f"table-started:{table.pk}",
            game=game.pk,
        )
    return game


def declined(table: Table, person: Person) -> None:
    """`person` declined the (locked, now closed) invitation: the creator is told, and so is
    everyone else invited, whose question is answered for them."""
    url = reverse("web:table", args=[table.pk])
    notify(
        table.opener,
        "challenge",
        f"{person.username} declined your invitation ({_kind(table)}): it will not start",
        url=url,
        key=f"challenge-declined:{table.pk}",
    )
    for other in table.invited.exclude(pk=person.pk):
        answered(table, other)  # their question is answered for them
        notify(
            other,
            "challenge",
            f"{person.username} declined {table.opener.username}'s invitation "
            f"({_kind(table)}): it will not start",
            url=url,
            key=f"challenge-declined:{table.pk}",
        )
