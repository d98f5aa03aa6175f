"""Seat.controller replaces the seat facts that were columns (resigned, auto_played, forfeited,
timeouts, vacation_days_used): those are events in the game's stream from now on. A seat that was
auto-played keeps being moved by the default bot (controller "fallback"); its forfeit, which was a
column, is not in the log, so a rebuilt result of a game that ended before this migration no
longer places it last."""

from django.db import migrations, models


def set_controllers(apps, schema_editor):
    # Set-based, so the table is locked for a few statements, not a loop over its rows.
    seats = apps.get_model("games", "Seat").objects
    seats.filter(auto_played=True).update(controller="fallback")
    moved = seats.filter(auto_played=False)
    moved.filter(user__isnull=False).update(controller="person")
    moved.filter(user__isnull=True).exclude(bot="").update(controller="builtin")
    for kind in ("builtin", "webhook", "pull"):
        moved.filter(user__isnull=True, bot="", registered_bot__kind=kind).update(controller=kind)


class Migration(migrations.Migration):
    dependencies = [("games", "0006_inline_validation_games")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="controller",
            field=models.CharField(
                choices=[
                    ("person", "Person"),
                    ("builtin", "Builtin"),
                    ("webhook", "Webhook"),
                    ("pull", "Pull"),
                    ("fallback", "Fallback"),
                ],
                default="person",
                max_length=16,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(set_controllers, migrations.RunPython.noop),
        migrations.RemoveField(model_name="seat", name="resigned"),
        migrations.RemoveField(model_name="seat", name="auto_played"),
        migrations.RemoveField(model_name="seat", name="forfeited"),
        migrations.RemoveField(model_name="seat", name="timeouts"),
        migrations.RemoveField(model_name="seat", name="vacation_days_used"),
        migrations.AlterField(
            model_name="gameevent",
            name="command_id",
            field=models.CharField(blank=True, max_length=150, null=True),
        ),
    ]
