# The partial index of the notices no email has claimed (games/models/notices.py TurnNotice).
# Built CONCURRENTLY on PostgreSQL: games_turnnotice only grows, and a plain CREATE INDEX would
# hold the dispatcher's inserts of new notices for the whole build. Hence not atomic:
# CONCURRENTLY cannot run inside a transaction.

from __future__ import annotations

from django.db import migrations, models


def _index() -> models.Index:
    return models.Index(
        condition=models.Q(("sent_at__isnull", True)), fields=["seat"], name="turn_notice_unsent"
    )


def build(apps, schema_editor):
    notice = apps.get_model("games", "TurnNotice")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.add_index(notice, _index(), concurrently=True)
    else:
        schema_editor.add_index(notice, _index())


def drop(apps, schema_editor):
    notice = apps.get_model("games", "TurnNotice")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.remove_index(notice, _index(), concurrently=True)
    else:
        schema_editor.remove_index(notice, _index())


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("games", "0024_match_result_forfeits"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddIndex(model_name="turnnotice", index=_index())],
            database_operations=[migrations.RunPython(build, drop)],
        ),
    ]
