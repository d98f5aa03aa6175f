"""The people's directory (/players/?q=): find a person by the start of their username, and,
with nothing typed, the people playing now and those waiting at an open table, each with a
Challenge button (the challenge form, web/tables.py). Public, like the player pages it links.

Bounded reads only (docs/performance.md, "Pages as the data grows"): the search is one
auth_user range by the case-folded prefix (folded by the database, as its index folds it),
through an index on UPPER(username) (accounts/migrations/0007_username_prefix_index.py), at most
RESULTS rows; "playing now" looks at the PLAYING_SCAN newest playing games (games.models.Game's
partial index `game_playing`; `last_activity` has no index, so that an append's row update
stays HOT), and of those that moved in the last PLAYING_MINUTES reads the ACTED_LOOK_BACK
newest events (the event log's (game, version) index) to list the people who themselves acted
in that time (starting a game is not acting in it), at most RESULTS: a game moved only by its
bots (its person away, or their turn played by the default bot past its deadline) lists nobody.
The waiting people are the openers of the open tables (tables.models.Table's index on status and
expiry), at most RESULTS.

A person who said no to their name in the open database (accounts.models.Profile.export_name)
is left out of these lists, so nobody browses them by a letter of the alphabet; typing their
whole username still finds them (their player page is public at that address anyway).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Func, Max, OuterRef, Q, Subquery
from django.db.models.functions import Collate, Upper
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from games.models import Game, GameEvent, Seat
from games.variant_text import variant_title
from tables.models import Table

RESULTS = 30
PLAYING_MINUTES = 15
# The newest playing games "playing now" looks at: a bounded read whatever the number playing.
PLAYING_SCAN = 500
# The newest events of each of those games that are read for who acted in them: a person's move
# and the bots' answers to it are a few events, so a person who moved in the last
# PLAYING_MINUTES is among them unless a crowd of bots played since.
ACTED_LOOK_BACK = 100
QUERY_MAX = 150
# What a game's start writes (engine Variant.start, every family): not a move of whoever started
# it; and the deal of a later hand and the prompt after a move are the system's or follow one.
START_EVENTS = ("match-started", "hand-started", "card-flipped", "prompted")
# Hidden from the lists: the people who keep their name out of the open database.
HIDDEN = Q(profile__export_name=False)


@dataclass(frozen=True, slots=True)
class Person:
    """A person as the directory lists them."""

    username: str
    joined: datetime.datetime | None
    # "playing now", "waiting at table 12 (Official)": what they do, when the page knows.
    doing: str = ""
    table_url: str = ""

    @property
    def url(self) -> str:
        return reverse("web:player", args=[self.username])

    @property
    def challenge_url(self) -> str:
        return reverse("web:table-new") + "?" + urlencode({"challenge": self.username})


def found(query: str) -> tuple[list[Person], bool]:
    """The people whose username starts with `query` (any case), in the order of their names;
    and whether more match than are shown."""
    # UPPER(username) COLLATE "C", as the index (accounts/migrations/0007) holds it: the prefix
    # is a range of it and the order its own (names are unique whatever their case:
    # accounts/usernames.py), so the read stops after RESULTS + 1 rows.
    key: Func = Upper("username")
    if connection.vendor == "postgresql":
        key = Collate(key, "C")
    # Folded by the database, as the index is: Python's upper() differs from PostgreSQL's (ß,
    # ǆ) and from SQLite's (ASCII only).
    with connection.cursor() as cursor:
        cursor.execute("SELECT UPPER(%s)", [query])
        folded = str(cursor.fetchone()[0])
    rows = list(
        User.objects.annotate(key=key)
        .filter(is_active=True, key__startswith=folded)
        .filter(~HIDDEN | Q(username__iexact=query))
        .order_by("key")
        .values_list("username", "date_joined")[: RESULTS + 1]
    )
    return [Person(name, joined) for name, joined in rows[:RESULTS]], len(rows) > RESULTS


def playing_now(now: datetime.datetime) -> list[Person]:
    """The people who themselves acted (a move, a call, a resignation: the log names them; not
    starting the game) in the last PLAYING_MINUTES at one of the PLAYING_SCAN newest games still
    being played, and still hold their seat there, the latest to act first. A match that ended
    meanwhile lists nobody (the page says "in a game still being played")."""
    since = now - datetime.timedelta(minutes=PLAYING_MINUTES)
    newest = (
        Game.objects.filter(status=Game.Status.PLAYING)
        .order_by("-id")
        .values_list("id", "last_activity", "version")[:PLAYING_SCAN]
    )
    recent = Q()
    moved = []
    for game_id, at, version in newest:
        if at is not None and at >= since:
            moved.append(game_id)
            recent |= Q(game_id=game_id, version__gt=version - ACTED_LOOK_BACK)
    if not moved:
        return []
    acted = (
        GameEvent.objects.filter(recent, recorded_at__gte=since, actor__startswith="user:")
        # A game's start is written in its starter's name (an invitation's opener, a rematch's
        # last to accept): starting a game is no move in it. Its first append is the start
        # (its events share version 1's moment), whatever the card turned up made of it (a
        # reverse, a draw two's cards, a wild draw four put back).
        .exclude(type__in=START_EVENTS)
        .exclude(
            recorded_at=Subquery(
                GameEvent.objects.filter(game_id=OuterRef("game_id"), version=1).values(
                    "recorded_at"
                )[:1]
            )
        )
        .values("actor", "game_id")
        .annotate(last=Max("recorded_at"))
        .order_by("-last", "actor")
        .values_list("actor", "game_id")
    )
    # Where each person acted: a seat of theirs in another game (a ruling on a fixture they
    # do not play, a bot-moved game of theirs) does not make them one who is playing.
    pairs = {(int(actor.removeprefix("user:")), game_id) for actor, game_id in acted}
    order: dict[int, int] = {}
    for actor, _ in acted:
        order.setdefault(int(actor.removeprefix("user:")), len(order))
    if not order:
        return []
    seats = (
        Seat.objects.filter(
            game_id__in=moved,
            user_id__in=order,
            controller=Seat.Controller.PERSON,
            user__is_active=True,
        )
        .exclude(user__profile__export_name=False)
        .values_list("user_id", "game_id", "user__username", "user__date_joined")
    )
    rows = [(user, name, joined) for user, game, name, joined in seats if (user, game) in pairs]
    people = {user_id: Person(name, joined, "playing now") for user_id, name, joined in rows}
    return [people[user_id] for user_id in sorted(people, key=order.__getitem__)][:RESULTS]


def waiting(now: datetime.datetime) -> list[Person]:
    """The openers of the open tables anyone may join, newest table first."""
    tables = (
        Table.objects.filter(status=Table.Status.OPEN, challenged__isnull=True, expires_at__gt=now)
        .filter(opener__is_active=True)
        .exclude(opener__profile__export_name=False)
        .select_related("opener")
        .order_by("-created_at", "-pk")[:RESULTS]
    )
    people: dict[str, Person] = {}
    for table in tables:
        opener = table.opener
        people.setdefault(
            opener.username,
            Person(
                opener.username,
                opener.date_joined,
                f"waiting at table {table.pk} ({variant_title(table.variant)})",
                reverse("web:table", args=[table.pk]),
            ),
        )
    return list(people.values())


@require_safe
def people(request: HttpRequest) -> HttpResponse:
    """Find a person by name; with no name typed, who plays now and who waits for players."""
    query = request.GET.get("q", "").strip()[:QUERY_MAX]
    now = timezone.now()
    context: dict[str, object] = {"query": query, "results": RESULTS}
    if query:
        matches, more = found(query)
        context.update(matches=matches, more=more)
    else:
        context.update(playing=playing_now(now), waiting=waiting(now))
    context["playing_minutes"] = PLAYING_MINUTES
    return render(request, "players/people.html", context)
