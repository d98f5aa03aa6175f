"""Fill a local database with demo data; safe to run again and again."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"


class Command(BaseCommand):
    help = "Create demo data for local use (a demo/demo staff login). Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        # A known staff password is a hole anywhere but on a developer's machine.
        if not settings.DEBUG:
            raise CommandError("seed_demo creates a demo/demo staff login; run it with DEBUG=1.")
        self.seed_staff_user()

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
