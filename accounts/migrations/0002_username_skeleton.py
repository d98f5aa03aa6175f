"""UsernameSkeleton: each person's username as its confusable skeleton (Unicode TR39), unique, so
that no new name reads the same as an existing one (accounts/usernames.py; issue 28).

People made before it get theirs, oldest first; where two existing names already look alike, the
older keeps the skeleton and the younger keeps their name without one (nobody is renamed)."""

import icu
from django.conf import settings
from django.db import migrations, models


def username_skeleton(name):
    # accounts/usernames.py's, as it was when this migration was written.
    return str(icu.SpoofChecker().getSkeleton(0, name))


def keep_skeletons(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    UsernameSkeleton = apps.get_model("accounts", "UsernameSkeleton")
    seen = set()
    rows = []
    for pk, username in User.objects.order_by("pk").values_list("pk", "username").iterator():
        skeleton = username_skeleton(username)
        if skeleton not in seen:
            seen.add(skeleton)
            rows.append(UsernameSkeleton(user_id=pk, skeleton=skeleton))
    UsernameSkeleton.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="UsernameSkeleton",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=models.deletion.CASCADE,
                        primary_key=True,
                        related_name="username_skeleton",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("skeleton", models.TextField(unique=True)),
            ],
        ),
        migrations.RunPython(keep_skeletons, migrations.RunPython.noop),
    ]
