from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="challenge_emailed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        # The challenges made before their emails: none is emailed now, late, by the sweep.
        migrations.RunSQL(
            'UPDATE "tables_table" SET "challenge_emailed_at" = "created_at" '
            'WHERE "challenged_id" IS NOT NULL',
            migrations.RunSQL.noop,
        ),
    ]
