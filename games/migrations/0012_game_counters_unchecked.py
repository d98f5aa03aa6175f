"""games_game's counters without CHECK constraints (docs/performance.md, "Event store").

Every append updates the game's row, and PostgreSQL 15 rebuilds a table's CHECK constraints
from their stored text (stringToNode, then planning the expression) for every statement that
writes the table, whether or not the statement sets those columns: for the three that
Positive*Field made (version, seat_count, hand_number >= 0) about 40,000 instructions of a
single append's 354,000 on the server. The rule stays a model validator (MinValueValidator);
`version` is only ever set by games/store.py, from the expected version plus the events'
count. The reverse adds the constraints back.
"""

import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_append_statements"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="hand_number",
            field=models.SmallIntegerField(
                default=0, validators=[django.core.validators.MinValueValidator(0)]
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="seat_count",
            field=models.SmallIntegerField(
                validators=[django.core.validators.MinValueValidator(0)]
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="version",
            field=models.IntegerField(
                default=0, validators=[django.core.validators.MinValueValidator(0)]
            ),
        ),
    ]
