"""The fill of bench/pages.py (its docstring tells it whole), which bench/rebuild.py fills with
too: the matches of each length, people's games, club seasons, the 100-bot ladder and the busy
ladder, each made and played to its end in-process by the project's own code, the projections
caught up after each unit (`fill`); `world` finds what the pages are about again in a reused
database. Imported once Django is set up (its imports are inside the functions).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

PREFIX = "pages"
STAFF, ALICE = f"{PREFIX}-staff", f"{PREFIX}-alice"
OPPONENTS = [f"{PREFIX}-{name}" for name in ("bob", "carol", "dave", "erin")]
BUSY, HUNDRED, CLUB = f"{PREFIX}-busy", f"{PREFIX}-hundred", f"{PREFIX}-club"
SPRINT = f"{PREFIX}-sprint"
STRATEGIES = ["greedy", "colour-control", "stacker", "random"]
# The lengths of the matches whose pages are timed at each length (bench rows per length).
MATCH_LENGTHS = (100, 1_000, 10_000)
# Shares of each fill (the rest is the busy ladder's).
PEOPLE_SHARE, SEASON_SHARE, HUNDRED_SHARE, SPRINT_SHARE = 0.03, 0.05, 0.10, 0.02
# A fill to at least this many events makes, in its first fill (the tenth's), every capped page
# timed past its cap (`past_caps`): below it (make bench's 100,000, the smoke test's 2,000) the
# units that takes (about 120,000 events) would outgrow the tenth, or the size itself.
CAPS_FROM = 1_000_000


def events() -> int:
    """The events the log holds, live and archived (games/archive.py)."""
    from django.db.models import Sum

    from games.models import ArchivedStream, GameEvent

    archived = ArchivedStream.objects.aggregate(events=Sum("event_count"))["events"] or 0
    return GameEvent.objects.count() + archived


@dataclass
class World:
    """What the pages are about, found again in a reused database by their names."""

    staff: Any
    alice: Any
    opponents: list[Any]
    busy: Any
    hundred: Any
    sprint: Any
    club: Any
    seasons: int = 0
    fill_seconds: dict[str, float] = field(default_factory=dict)


def world() -> World:
    from django.contrib.auth.models import User

    from games.models import Bot
    from league.clubs import club_create
    from league.models import Club, Competition
    from league.services import competition_create, competition_join

    staff, made = User.objects.get_or_create(username=STAFF, defaults={"is_staff": True})
    alice = User.objects.get_or_create(username=ALICE)[0]
    opponents = [User.objects.get_or_create(username=name)[0] for name in OPPONENTS]
    ladders = (
        (BUSY, 8, 500, True),
        (HUNDRED, 100, 100, False),
        # The sprint ladder: four bots at one table, one game to 50 points a round, a rating
        # change each a game (not a set of four rotations): the bot page timed is one of these.
        (SPRINT, 4, 50, False),
    )
    for slug, bots, target, duplicate in ladders:
        # Also in a database filled before the sprint ladder was in the bench (--reuse).
        if made or not Competition.objects.filter(slug=slug).exists():
            ladder = competition_create(
                name=slug,
                slug=slug,
                kind=Competition.Kind.LADDER,
                variant={"rules": "official", "options": {"target": target}},
                seats_per_game=4,
                duplicate=duplicate,
                created_by=staff,
            )
            for number in range(bots):
                strategy = STRATEGIES[number % len(STRATEGIES)]
                bot = Bot.objects.create(
                    owner=staff, name=f"{slug}-{number}", kind=Bot.Kind.BUILTIN,
                    strategy=strategy, status=Bot.Status.ACTIVE,
                )  # fmt: skip
                competition_join(ladder, bot=bot)
    if made:
        club_create(name=CLUB, slug=CLUB, creator=staff)
    return World(
        staff=staff,
        alice=alice,
        opponents=opponents,
        busy=Competition.objects.get(slug=BUSY),
        hundred=Competition.objects.get(slug=HUNDRED),
        sprint=Competition.objects.get(slug=SPRINT),
        club=Club.objects.get(slug=CLUB),
        seasons=Competition.objects.filter(slug__startswith=f"{CLUB}-").count(),
    )


def match_lengths(final: int) -> list[int]:
    """The lengths of the matches made for a fill to `final` events: those up to final / 2 (a
    small fill's share), at least the shortest."""
    return [length for length in MATCH_LENGTHS if length <= max(MATCH_LENGTHS[0], final // 2)]


def match_owner(length: int, state: str) -> str:
    """The username of the first person of the `state` ("open" or "over") match of `length`
    events: how a reused database's matches are found again."""
    return f"{PREFIX}-{state}-{length}"


def sized_matches() -> dict[tuple[int, str], Any]:
    """The matches of each length, by (length, "open" or "over")."""
    from games.models import Seat

    owners = {
        match_owner(length, state): (length, state)
        for length in MATCH_LENGTHS
        for state in ("open", "over")
    }
    seats = Seat.objects.filter(user__username__in=owners).select_related("game", "user")
    return {owners[seat.user.username]: seat.game for seat in seats}


def long_match() -> Any:
    """The longest match still open (None before the matches are made)."""
    found = sized_matches()
    opened = [length for length, state in found if state == "open"]
    return found[max(opened), "open"] if opened else None


def timed_bot(w: World) -> Any:
    """The bot whose page and GET /api/bots/<id> are timed: the sprint ladder's first."""
    return w.sprint.entries.exclude(bot=None).order_by("pk").first().bot


def past_caps() -> dict[str, int]:
    """The units a fill to CAPS_FROM or more makes first, each page's cap + 1, so that every
    capped page timed shows as much at the tenth as at the size: `pages-alice`'s finished games
    (the lobby's finished tab and GET /api/games?status=finished 50 a page, the staff game
    search 50, the notifications 30, the player page's latest 10), the club's seasons (its page
    20 at a time) and the sprint bot's rating changes (its chart the last 200, its games 20)."""
    from games.lobby import FINISHED_PAGE
    from league.ladder_reads import HISTORY_POINTS
    from league.ladder_reads import RECENT_GAMES as BOT_GAMES
    from league.selectors import SEASONS_PAGE
    from social.notifications import PAGE_SIZE
    from staff.inspector import SEARCH_LIMIT
    from web.players import RECENT_GAMES

    return {
        "people's games": max(FINISHED_PAGE, SEARCH_LIMIT, PAGE_SIZE, RECENT_GAMES) + 1,
        "club seasons": SEASONS_PAGE + 1,
        "sprint ladder": max(HISTORY_POINTS, BOT_GAMES) + 1,
    }


def fill(target: int, final: int, w: World) -> None:
    """Fill the log to `target` events: the matches of each length (once), then each
    component's share of what is missing, then the busy ladder for the rest."""
    from django.db.models import Q

    from games.models import Game
    from league.models import RatingChange

    # The matches of each length first, also in a database filled before they were in the
    # bench (--reuse): every page timed has its subject.
    if long_match() is None:
        for length in match_lengths(final):
            _timed(w, f"{length:,}-event matches", lambda length=length: _matches(w, length))
    start = events()
    missing = target - start
    # What each component has made, in the units its pages cap: at least one of each (every
    # page has its subject), and past every cap for a fill to CAPS_FROM or more.
    sprinter = w.sprint.entries.exclude(bot=None).order_by("pk").first()
    finished = Q(seats__user=w.alice, status=Game.Status.MATCH_OVER)
    goals = [
        ("people's games", PEOPLE_SHARE, lambda: _people_game(w),
         lambda: Game.objects.filter(finished).count()),
        ("club seasons", SEASON_SHARE, lambda: _season(w), lambda: w.seasons),
        ("sprint ladder", SPRINT_SHARE, lambda: _ladder_round(w.sprint),
         lambda: RatingChange.objects.filter(entry=sprinter).count()),
        ("100-bot ladder", HUNDRED_SHARE, lambda: _ladder_round(w.hundred),
         lambda: Game.objects.filter(context__competition=w.hundred.pk).count()),
        ("busy ladder", 1.0, lambda: _ladder_round(w.busy),
         lambda: Game.objects.filter(context__competition=w.busy.pk).count()),
    ]  # fmt: skip
    caps = past_caps() if final >= CAPS_FROM else {}
    short = any(made() < caps.get(name, 1) for name, _, _, made in goals)
    if missing <= 0 and not short:
        print(f"fill: {start:,} events already, none added")
        return
    # Each component adds its share of what is missing (its own events counted), and makes
    # its least units; the busy ladder fills the rest. A component whose least units outgrow
    # its share (at a tenth past the caps) takes nothing from the others' shares.
    with projections_caught_up_by_unit():
        for name, share, unit, made in goals:
            least = caps.get(name, 1)
            now = events()
            goal = now + int(missing * share) if share < 1.0 else target
            while now < goal or made() < least:
                _timed(w, name, unit)
                now = events()
    took = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in w.fill_seconds.items())
    print(f"fill: {start:,} -> {events():,} events; seconds so far: {took}; load {_load()}")


@contextmanager
def projections_caught_up_by_unit() -> Iterator[None]:
    """In-process, the dispatcher catches the projections up after every append (a run of
    every projection, 0.1-0.5 s on this machine, after each of a person's commands); with a
    broker beat runs them every 10 s. The fill does as beat does: no run per append, one after
    each unit (a game, a season's round, a ladder's round), before the next reads them (the
    ladders' matchmaking reads the ratings, a season's close its standings)."""
    from games import tasks

    task = tasks.run_projections
    task.delay = lambda *args, **kwargs: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        del task.delay
        tasks.run_projections()


def _timed(w: World, name: str, unit: Callable[[], object]) -> None:
    from games import tasks

    started = time.perf_counter()
    unit()
    tasks.run_projections()
    w.fill_seconds[name] = w.fill_seconds.get(name, 0.0) + time.perf_counter() - started


def _matches(w: World, length: int) -> None:
    """Two matches of `length` events: one left open, one ended by a staff abort (a finished
    match of that length for its replay), each found again by its first person's name."""
    from django.contrib.auth.models import User

    from bench.commands import build
    from staff.actions import game_abort

    for state in ("open", "over"):
        game, people = build(length, seed=33 + length)
        User.objects.filter(pk=people[0].pk).update(username=match_owner(length, state))
        if state == "over":
            game_abort(game_id=game.pk, user=w.staff, reason="bench: a finished match")


def _people_game(w: World) -> None:
    """One 2-seat official match of two people, to its end through the services."""
    from bots.strategies import find_strategy
    from games.commands import game_command
    from games.errors import GameError
    from games.lobby import game_start
    from games.models import Game
    from games.visibility import game_view

    count = Game.objects.filter(seats__user=w.alice).count()
    opponent = w.opponents[count % len(w.opponents)]
    people = {w.alice.pk: w.alice, opponent.pk: opponent}
    game = game_start(
        creator=w.alice,
        variant_spec={"rules": "official", "options": {"target": 200}},
        seats=[{"user": "me"}, {"user": opponent.username}],
    )
    seated = dict(game.seats.values_list("number", "user_id"))
    greedy = find_strategy("greedy")
    rng = random.Random(game.pk)
    while True:
        status, to_act = Game.objects.values_list("status", "to_act").get(pk=game.pk)
        if status != Game.Status.PLAYING or not to_act:
            return
        person = people[seated[to_act[0]]]
        view = game_view(game_id=game.pk, viewer=person)
        try:
            game_command(
                game_id=game.pk,
                actor=person,
                command=greedy(view, view["legal"], rng),
                expected_version=view["version"],
            )
        except GameError as error:
            raise SystemExit(f"a people's game stopped: game {game.pk}: {error}") from error


def _season(w: World) -> None:
    """One season of the club, eight built-in bots at tables of four, played and closed."""
    import datetime

    from django.utils import timezone

    from games import tasks
    from games.models import Bot
    from league.seasons import (
        open_due_rounds,
        season_close,
        season_create,
        season_enter,
        season_start,
    )

    w.seasons += 1
    slug = f"{CLUB}-{w.seasons}"
    season = season_create(
        club=w.club,
        admin=w.staff,
        name=f"Season {w.seasons}",
        slug=slug,
        variant={"rules": "official", "options": {"target": 200}},
        seats_per_game=4,
        start_date=timezone.localdate() - datetime.timedelta(days=1),
        rounds=3,
        seed=w.seasons,
    )
    for number in range(8):
        bot, _ = Bot.objects.get_or_create(
            owner=w.staff,
            name=f"{CLUB}-{number}",
            defaults={
                "kind": Bot.Kind.BUILTIN,
                "strategy": STRATEGIES[number % len(STRATEGIES)],
                "status": Bot.Status.ACTIVE,
            },
        )
        season_enter(season=season, actor=w.staff, bot=bot)
    season_start(season=season, admin=w.staff)
    # Each round's games play to the end as they are made; the next round opens once the
    # round before has finished.
    while open_due_rounds(season=season):
        tasks.run_projections()
    tasks.run_projections()
    season_close(season=season, admin=w.staff)


def _ladder_round(ladder: Any) -> None:
    from django.db import transaction

    from league.ladders import ladder_matchmaking

    with transaction.atomic():
        ladder_matchmaking(ladder, rng=random.Random(events()))


def _load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())
