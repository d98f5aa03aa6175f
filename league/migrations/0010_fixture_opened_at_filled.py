# An opened fixture's game was made as it opened: its creation time. One UPDATE, in a
# migration of its own, so the column's addition (0009) holds its table's lock only for itself.

from django.db import migrations
from django.db.models import OuterRef, Subquery


def fill(apps, schema_editor):
    Fixture = apps.get_model("league", "Fixture")
    Game = apps.get_model("games", "Game")
    made = Game.objects.filter(pk=OuterRef("game_id")).values("created_at")[:1]
    Fixture.objects.filter(game__isnull=False, opened_at__isnull=True).update(
        opened_at=Subquery(made)
    )


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0009_fixture_opened_at"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
