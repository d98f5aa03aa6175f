import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_invitations"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="InvitationEmail",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField()),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitation_emails",
                        to="tables.table",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("table", "user"), name="invitation_email_once")
                ],
            },
        ),
        # The invitations made before their emails: none is emailed now, late, by the sweep.
        migrations.RunSQL(
            'INSERT INTO "tables_invitationemail" ("table_id", "user_id", "at") '
            'SELECT "table_id", "user_id", CURRENT_TIMESTAMP FROM "tables_table_invited"',
            migrations.RunSQL.noop,
        ),
    ]
