"""Validation games made before rounds existed were driven in-process by their task: mark them
`inline`, so the dispatch keeps leaving them alone (bots/turns.py worker_to_act)."""

from __future__ import annotations

from django.db import migrations


def mark_inline(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(context__kind="validation").only("pk", "context"):
        if "round" not in game.context:
            game.context = {**game.context, "inline": True}
            game.save(update_fields=["context"])


class Migration(migrations.Migration):
    dependencies = [("games", "0005_bot_validation_rounds")]

    operations = [migrations.RunPython(mark_inline, migrations.RunPython.noop)]
