"""Fill a local database with demo data; safe to run again and again."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.game_settings import GameSettings
from games.models import Game
from games.services import SeatSpec, game_create

DEMO = GameSettings(demo=True)

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"


class Command(BaseCommand):
    help = "Create demo data for local use (a demo/demo staff login). Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        # A known staff password is a hole anywhere but on a developer's machine.
        if not settings.DEBUG:
            raise CommandError("seed_demo creates a demo/demo staff login; run it with DEBUG=1.")
        self.seed_staff_user()
        self.seed_bot_matches()

    def seed_staff_user(self) -> None:
        """Create the demo staff user unless it exists; leave an existing one untouched."""
        user, created = get_user_model().objects.get_or_create(
            username=DEMO_USERNAME,
            # Superuser too, so the admin shows the demo operator every model.
            defaults={"is_staff": True, "is_superuser": True},
        )
        if not created:
            self.stdout.write(f"Staff user {DEMO_USERNAME!r} already exists; left as it is.")
            return
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
        self.stdout.write(
            self.style.WARNING(
                f"Created staff user {DEMO_USERNAME!r} with password {DEMO_PASSWORD!r} "
                "(local use only): log in at /admin/."
            )
        )

    def seed_bot_matches(self) -> None:
        """One finished bot match per family (and one in progress with the demo user), once."""
        if Game.objects.filter(context__demo=True).exists():
            self.stdout.write("Demo games already exist; left as they are.")
            return
        for spec, bots in DEMO_MATCHES:
            # The workers play the bots' turns on commit (in-process without REDIS_URL).
            game_create(
                variant_spec=spec,
                seats=[SeatSpec(bot=name) for name in bots],
                seed=len(bots),
                settings=DEMO,
            )
        user = get_user_model().objects.get(username=DEMO_USERNAME)
        game_create(
            variant_spec={"rules": "official", "options": {"target": 200}},
            seats=[SeatSpec(user=user), SeatSpec(bot="colour-control"), SeatSpec(bot="greedy")],
            seed=7,
            settings=DEMO,
        )
        self.stdout.write(f"Created {len(DEMO_MATCHES)} finished bot matches and one with demo.")


DEMO_MATCHES: list[tuple[dict[str, Any], list[str]]] = [
    ({"rules": "official"}, ["colour-control", "greedy", "random", "greedy"]),
    (
        {"rules": "basic-plus", "options": {"scoring": "winner-takes", "target": 200}},
        ["colour-control", "greedy", "random"],
    ),
    ({"rules": "newno"}, ["stacker", "greedy", "random", "greedy"]),
    ({"rules": "censorship"}, ["censor", "greedy", "random", "greedy"]),
    (
        {"rules": "official", "precognitive": {"lane": 2, "sight": "sighted"}},
        ["lane-planner", "greedy", "greedy"],
    ),
]
