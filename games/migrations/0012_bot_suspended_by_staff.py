"""Bot.suspended_by_staff: a suspension the staff made (staff.actions.bot_suspend) is lifted by
the staff alone, not by its owner's re-validation (issue 28). Bots the staff suspended before
this field existed are found by the reason bot_suspend wrote for them."""

from __future__ import annotations

from django.db import migrations, models

STAFF_REASON = "suspended by the staff: "


def mark_staff_suspensions(apps, schema_editor):
    Bot = apps.get_model("games", "Bot")
    Bot.objects.filter(status="suspended", status_reason__startswith=STAFF_REASON).update(
        suspended_by_staff=True
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0011_append_statements")]

    operations = [
        migrations.AddField(
            model_name="bot",
            name="suspended_by_staff",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_staff_suspensions, migrations.RunPython.noop),
    ]
