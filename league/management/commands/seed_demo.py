"""Fill a local database with demo data; safe to run again and again.

Two people: demo/demo (staff, for the admin too) and ana/ana, so two browsers can play each
other. Finished bot matches of every family fill the read models; demo has a game waiting for
them in every family, and one against ana; demo runs a club with two seasons in progress
(league/demo.py); a Swiss tournament of built-in bots has been played to its end and another
takes entries (tournaments/demo.py). Each game has a name (`GameSettings.demo`): a bot
match is made once, a game of demo's again when the last one of its name is over.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from accounts.services import profile_of
from bots.strategies import find_strategy
from engine import PLAYING
from games import lobby
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Game
from games.visibility import game_view
from league import demo
from tournaments import demo as tournament_demo


@dataclass(frozen=True, slots=True)
class Person:
    username: str
    # Known to all: seed_demo refuses to run without DEBUG.
    password: str
    birth_date: datetime.date
    staff: bool = False


DEMO = Person("demo", "demo", datetime.date(1990, 5, 17), staff=True)
ANA = Person("ana", "ana", datetime.date(1996, 2, 3))
PEOPLE = [DEMO, ANA]


@dataclass(frozen=True, slots=True)
class DemoGame:
    """A game to seed: its name, rules, who sits where (people by username, then bots)."""

    name: str
    spec: dict[str, Any]
    people: list[str] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    seed: int = 1
    dealer: int | None = None
    # Play the first person's first turn for them (precognitive: then they owe a precommit).
    first_turn_played: bool = False


SHORT = {"target": 200}

# Played to the end by the bots when seeded, once.
BOT_MATCHES = [
    DemoGame(
        "bots-official",
        {"rules": "official"},
        bots=["colour-control", "greedy", "random", "greedy"],
        seed=4,
    ),
    DemoGame(
        "bots-basic-plus",
        {"rules": "basic-plus", "options": {"scoring": "winner-takes", **SHORT}},
        bots=["colour-control", "greedy", "random"],
        seed=3,
    ),
    DemoGame(
        "bots-newno", {"rules": "newno"}, bots=["stacker", "greedy", "random", "greedy"], seed=4
    ),
    DemoGame(
        "bots-censorship",
        {"rules": "censorship"},
        bots=["censor", "greedy", "random", "greedy"],
        seed=4,
    ),
    DemoGame(
        "bots-precognitive",
        {"rules": "official", "precognitive": {"lane": 2, "sight": "sighted"}},
        bots=["lane-planner", "greedy", "greedy"],
        seed=3,
    ),
]

# Waiting for demo (seat 0), against bots in every family and against ana: the bots play on
# commit until a decision is demo's. Dealt again once the last one of a name is over.
WAITING = [
    DemoGame(
        "waiting-official",
        {"rules": "official", "options": SHORT},
        people=["demo"],
        bots=["colour-control", "greedy"],
        seed=7,
    ),
    DemoGame(
        "waiting-basic-plus",
        {"rules": "basic-plus", "options": SHORT},
        people=["demo"],
        bots=["colour-control", "greedy"],
        seed=8,
    ),
    # The open start waits for demo too (the bots leave it); after the open-choice timeout the
    # Youngest Rule hands it to the youngest seat, a bot, and play reaches demo again.
    DemoGame(
        "waiting-newno",
        {"rules": "newno", "options": SHORT},
        people=["demo"],
        bots=["stacker", "greedy", "random"],
        seed=7,
    ),
    # demo deals, so demo is the censor: seat 1 submits first and demo rules on it.
    DemoGame(
        "waiting-censorship",
        {"rules": "censorship", "options": SHORT},
        people=["demo"],
        bots=["greedy", "random"],
        seed=1,
        dealer=0,
    ),
    # Seat 2 deals, so demo plays first; seed_demo plays that turn for them, and what demo owes
    # is the precommit that fills their lane.
    DemoGame(
        "waiting-precognitive",
        {"rules": "official", "options": SHORT, "precognitive": {"lane": 2, "sight": "sighted"}},
        people=["demo"],
        bots=["lane-planner", "greedy"],
        seed=1,
        dealer=2,
        first_turn_played=True,
    ),
    DemoGame("people-official", {"rules": "official", "options": SHORT}, people=["demo", "ana"]),
]

# Commands of demo's first turn at most (a play, a colour, or a draw and a play).
FIRST_TURN_COMMANDS = 5


class Command(BaseCommand):
    help = (
        "Create demo data for local use: the people demo/demo (staff) and ana/ana, finished bot "
        "matches, a game waiting for demo in every family and one of demo against ana, a club, "
        "a ladder and two tournaments. "
        "Idempotent."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        # A known staff password is a hole anywhere but on a developer's machine.
        if not settings.DEBUG:
            raise CommandError("seed_demo creates a demo/demo staff login; run it with DEBUG=1.")
        users = {person.username: self.seed_person(person) for person in PEOPLE}
        created = [game for game in BOT_MATCHES if self.seed_game(game, users, again=False)]
        created += [game for game in WAITING if self.seed_game(game, users, again=True)]
        if created:
            names = ", ".join(game.name for game in created)
            self.stdout.write(f"Created demo games: {names}.")
        else:
            self.stdout.write("Demo games already exist; left as they are.")
        club = demo.seed_club(admin=users[DEMO.username], members=[users[ANA.username]])
        if club is None:
            self.stdout.write("The demo club already exists; left as it is.")
        else:
            self.stdout.write(f"Created the club {club.name!r} at /clubs/{club.slug}/.")
        ladder = demo.seed_ladder(admin=users[DEMO.username], members=[users[ANA.username]])
        if ladder is None:
            self.stdout.write("The demo ladder already exists; left as it is.")
        else:
            self.stdout.write(f"Created the ladder {ladder.name!r} at /ladders/{ladder.slug}/.")
        made = tournament_demo.seed_tournaments(
            admin=users[DEMO.username], members=[users[ANA.username]]
        )
        if not made:
            self.stdout.write("The demo tournaments already exist; left as they are.")
        for tournament in made:
            self.stdout.write(
                f"Created the tournament {tournament.name!r} ({tournament.get_status_display()})"
                f" at /tournaments/{tournament.slug}/."
            )

    def seed_person(self, person: Person) -> User:
        """Create the person unless they exist; an existing one keeps everything but gets a birth
        date if they have none (newno seats need an age)."""
        user, created = get_user_model().objects.get_or_create(
            username=person.username,
            defaults={
                "is_staff": person.staff,
                # Superuser too, so the admin shows the demo operator every model.
                "is_superuser": person.staff,
                "email": f"{person.username}@example.org",
            },
        )
        profile = profile_of(user)
        if profile.birth_date is None:
            profile.birth_date = person.birth_date
            profile.save(update_fields=["birth_date"])
        if not created:
            self.stdout.write(f"User {person.username!r} already exists; left as it is.")
            return user
        user.set_password(person.password)
        user.save(update_fields=["password"])
        role = "staff user" if person.staff else "user"
        self.stdout.write(
            self.style.WARNING(
                f"Created {role} {person.username!r} with password {person.password!r} "
                "(local use only): sign in at /accounts/login/."
            )
        )
        return user

    def seed_game(self, demo_game: DemoGame, users: dict[str, User], *, again: bool) -> bool:
        """Create the game unless one of its name exists (`again`: one still playing); whether
        it was created."""
        made = Game.objects.filter(context__demo=demo_game.name)
        existing = made.filter(status=PLAYING) if again else made
        if existing.exists():
            return False
        people = [users[username] for username in demo_game.people]
        seats = [SeatSpec(user=user) for user in people]
        seats += [SeatSpec(bot=bot) for bot in demo_game.bots]
        if people and demo_game.spec["rules"] == "newno":
            # Ranked as a game a person starts is (games/lobby.py): by birth date, bots youngest.
            seats = lobby.ranked_by_age(seats)
        # On commit the workers play the bots' turns (in-process without REDIS_URL).
        game = game_create(
            variant_spec=demo_game.spec,
            seats=seats,
            # A game dealt again gets a new deal (the same seed would deal the same cards).
            seed=demo_game.seed + 100 * made.count(),
            dealer=demo_game.dealer,
            settings=GameSettings(demo=demo_game.name),
        )
        if demo_game.first_turn_played:
            first_turn(game, people[0])
        return True


def first_turn(game: Game, user: User) -> None:
    """Play the person's turn with the greedy bot's choices; in precognitive, until what they owe
    is the precommit that fills their lane (a lane fills at the end of a turn, so a new game owes
    none)."""
    rng = random.Random(game.pk)
    for _ in range(FIRST_TURN_COMMANDS):
        view = game_view(game_id=game.pk, viewer=user)
        pending = view["pending"] or {}
        if pending.get("type") == "precommit" or view["seat"] not in view["to_act"]:
            return
        command = find_strategy("greedy")(view, view["legal"], rng)
        if command is None:
            return
        game_command(game_id=game.pk, actor=user, command=command, expected_version=view["version"])
