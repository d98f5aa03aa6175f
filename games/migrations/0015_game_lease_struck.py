"""GameLease.struck: the seats struck at a version whose fallback made no move, so a re-driven
run neither asks nor strikes them again there (bots/remote/leases.py; issue 28)."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0014_presence_and_held_notices")]

    operations = [
        migrations.AddField(
            model_name="gamelease",
            name="struck",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
