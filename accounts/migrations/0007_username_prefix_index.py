# The people's directory (web/people.py) finds a person by the start of their username in any
# case: `UPPER(username) LIKE 'AN%'` read through this index, in the order of the index (the "C"
# collation: a range scan that stops at the page's size, not a sort of every match), whatever the
# number of people. On PostgreSQL only (SQLite, `make run`, scans its few rows).

from django.db import migrations

CREATE = (
    'CREATE INDEX IF NOT EXISTS "auth_user_username_upper_prefix" '
    'ON "auth_user" ((UPPER("username") COLLATE "C"))'
)
DROP = 'DROP INDEX IF EXISTS "auth_user_username_upper_prefix"'


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0006_personal_tokens_named"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create, drop)]
