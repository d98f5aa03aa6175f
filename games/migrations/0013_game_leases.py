"""GameLease: at most one run of advance_game asks a game's webhook bots at a time, with a lease
that expires (bots/remote/leases.py; issue 28)."""

from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0012_bot_suspended_by_staff")]

    operations = [
        migrations.CreateModel(
            name="GameLease",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                ("holder", models.CharField(blank=True, max_length=32)),
                ("until", models.DateTimeField(blank=True, null=True)),
                ("again", models.BooleanField(default=False)),
            ],
        ),
    ]
