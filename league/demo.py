"""`make run`'s club: the Riverside UNO Club, run by demo, with a season in progress in two
families (official at tables of three, newno head to head). The bots' fixtures of the first
round play out when they open; demo's wait for demo. And its ladder: the Bot Arena, built-in
bots rated with duplicate deals, with a few rounds played. Called by seed_demo; safe to run
again (an existing club or ladder is left as it is).
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Bot
from league.clubs import club_create, club_join
from league.ladders import ladder_matchmaking
from league.models import Club, Competition
from league.seasons import DivisionSpec, season_create, season_enter, season_start
from league.services import competition_create, competition_join

CLUB_SLUG = "riverside"

# Registered built-in bots owned by demo: (name, strategy).
BOTS = [
    ("Greta", "greedy"),
    ("Rex", "random"),
    ("Stacy", "stacker"),
    ("Cole", "colour-control"),
]


def seed_club(*, admin: Any, members: list[Any]) -> Club | None:
    """Create the demo club and start its two seasons; None when it exists already."""
    if Club.objects.filter(slug=CLUB_SLUG).exists():
        return None
    bots = [builtin_bot(admin, name, strategy) for name, strategy in BOTS]
    with transaction.atomic():
        club = club_create(
            name="Riverside UNO Club",
            slug=CLUB_SLUG,
            creator=admin,
            description="Thursday nights at the library, and turns in between.",
        )
        for member in members:
            club_join(club=club, user=member, code=club.invite_code)
    start = timezone.localdate() - datetime.timedelta(days=1)
    official = season_create(
        club=club,
        admin=admin,
        name="Riverside Autumn League",
        slug="riverside-autumn",
        variant={"rules": "official", "options": {"target": 200}},
        seats_per_game=3,
        start_date=start,
        # Three to a division, three rounds: everyone meets twice more.
        rounds=3,
        divisions=[DivisionSpec("Premier", relegate=1), DivisionSpec("Challenger", promote=1)],
        seed=11,
    )
    # Premier: demo and two bots, so the bots play until a turn is demo's; Challenger: ana
    # (whose fixtures wait for ana) and the other two bots.
    for bot in bots[:2]:
        season_enter(season=official, actor=admin, bot=bot, tier=1)
    season_enter(season=official, actor=admin, user=admin, tier=1)
    for member in members:
        season_enter(season=official, actor=admin, user=member, tier=2)
    for bot in bots[2:]:
        season_enter(season=official, actor=admin, bot=bot, tier=2)
    newno = season_create(
        club=club,
        admin=admin,
        name="Riverside Newno Cup",
        slug="riverside-newno",
        variant={"rules": "newno", "options": {"target": 150}},
        seats_per_game=2,
        start_date=start,
        seed=5,
    )
    season_enter(season=newno, actor=admin, user=admin)
    for bot in bots[:3]:
        season_enter(season=newno, actor=admin, bot=bot)
    # On commit the workers play the bots' fixtures (in-process without a broker).
    season_start(season=official, admin=admin)
    season_start(season=newno, admin=admin)
    return club


LADDER_SLUG = "bot-arena"
# The ladder's entrants besides the club's bots: (name, strategy), owned by the members.
LADDER_BOTS = [
    ("Gus", "greedy"),
    ("Randi", "random"),
    ("Coco", "colour-control"),
    ("Lena", "lane-planner"),
]
# Matchmaking runs played when the ladder is made: each seats two tables of four, and each
# table plays its four rotations, so the board and the charts have some history.
LADDER_ROUNDS = 4


def seed_ladder(*, admin: Any, members: list[Any]) -> Competition | None:
    """Create the Bot Arena (an official ladder of built-in bots with duplicate deals) and play
    a few rounds of it in-process; None when it exists already. Beat's matchmaking
    (run_periodic under `make run`) goes on seating its tables every
    LEAGUE_MATCHMAKING_SECONDS."""
    if Competition.objects.filter(slug=LADDER_SLUG).exists():
        return None
    bots = demo_bots(admin, members)
    ladder = competition_create(
        name="Bot Arena",
        slug=LADDER_SLUG,
        kind=Competition.Kind.LADDER,
        variant={"rules": "official", "options": {"target": 100}},
        seats_per_game=4,
        created_by=admin,
    )
    for bot in bots:
        competition_join(ladder, bot=bot)
    for number in range(LADDER_ROUNDS):
        # Each run's tables play to the end on commit (in-process without a broker); with a
        # broker the workers play them and beat's runs seat the next tables.
        with transaction.atomic():
            ladder_matchmaking(ladder, rng=random.Random(number))
    return ladder


def demo_bots(admin: Any, members: list[Any]) -> list[Bot]:
    """The demo's eight built-in bots: the club's four (the admin's) and the Bot Arena's four,
    owned in turn by the members and the admin; each made once."""
    owners = [admin, *members]
    bots = [builtin_bot(admin, name, strategy) for name, strategy in BOTS]
    bots += [
        builtin_bot(owners[number % len(owners)], name, strategy)
        for number, (name, strategy) in enumerate(LADDER_BOTS, 1)
    ]
    return bots


def builtin_bot(owner: Any, name: str, strategy: str) -> Bot:
    """The owner's registered built-in bot of that name (made active, as a built-in needs no
    validation games), made once."""
    bot, _ = Bot.objects.get_or_create(
        owner=owner,
        name=name,
        defaults={"kind": Bot.Kind.BUILTIN, "strategy": strategy, "status": Bot.Status.ACTIVE},
    )
    return bot
