"""Bot status `retired` and Bot.retired_at: a bot its owner retired, for good
(bots/registry.py bot_retire). No bot is retired before this migration."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_game_playing'),
    ]

    operations = [
        migrations.AddField(
            model_name='bot',
            name='retired_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='bot',
            name='status',
            field=models.CharField(choices=[('validating', 'Validating'), ('active', 'Active'), ('suspended', 'Suspended'), ('failed', 'Failed'), ('retired', 'Retired')], default='validating', max_length=16),
        ),
    ]
