"""UsernameSkeleton.folded: the skeleton of each name case-folded, unique, so that "АLICE" (its
first letter Cyrillic) is refused beside "alice" as "ALICE" is (accounts/usernames.py; issue 28's
review). Existing people get theirs oldest first; where two names already fold alike, the older
keeps it and the younger keeps their name without one (nobody is renamed)."""

import unicodedata

import icu
from django.db import migrations, models


def folded_skeleton(name):
    # accounts/usernames.py's, as it was when this migration was written.
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return str(icu.SpoofChecker().getSkeleton(0, folded))


def keep_folded(apps, schema_editor):
    UsernameSkeleton = apps.get_model("accounts", "UsernameSkeleton")
    seen = set()
    for row in UsernameSkeleton.objects.select_related("user").order_by("user_id").iterator():
        folded = folded_skeleton(row.user.username)
        if folded not in seen:
            seen.add(folded)
            row.folded = folded
            row.save(update_fields=["folded"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_username_skeleton")]

    operations = [
        migrations.AddField(
            model_name="usernameskeleton",
            name="folded",
            field=models.TextField(null=True, unique=True),
        ),
        migrations.RunPython(keep_folded, migrations.RunPython.noop),
    ]
