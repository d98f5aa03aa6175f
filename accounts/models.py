"""A person's profile and personal API tokens. Django's User holds the name, email and password."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class Profile(models.Model):
    """What the service knows of a person beyond Django's User."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    # newno's Youngest Rule hands an open choice to the youngest seat (docs/rules.md).
    birth_date = models.DateField(null=True, blank=True)
    # The open database (games/export.py; docs/database.md) shows the person's username at their
    # seats unless they say no here; then only an anonymous seat label.
    export_name = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"


# What a personal token may do (docs/api.md, "Personal tokens"): `bots`, the owners' API (register,
# change, validate, enter and leave ladders with a bot, read calls and strikes); `play`, a person's
# own moves (commands, resigning, vacation, entering a ladder in person). Reads need no scope.
SCOPES = ("bots", "play")
# The token `/api/me/token` manages (api/people.py): rotating replaces it, revoking deletes it,
# and the person's other tokens are left alone.
DEFAULT_TOKEN = "default"


class PersonalToken(models.Model):
    """One of a person's API tokens (`Authorization: Token <key>`): shown once, stored as its
    SHA-256.

    A person holds up to TOKENS_MAX of them (accounts/services.py), each with a name of its own
    (unique per person in any case) and its own scopes: revoking one leaves the others. The one
    named DEFAULT_TOKEN is the one `/api/me/token` rotates and revokes (docs/api.md); tokens made
    when a person had only one were given that name.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personal_tokens"
    )
    # What its person calls it ("ci", "laptop"): accounts/services.py's check_token_name.
    name = models.CharField(max_length=40)
    key_hash = models.CharField(max_length=64, unique=True)
    # The first characters of the key, so a person can tell which key a page speaks of.
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    # The scopes chosen when it was made (SCOPES), space-separated in their order there. Tokens
    # made before scopes existed hold them all, so nothing they did stops working.
    scopes = models.CharField(max_length=64, default=" ".join(SCOPES))

    class Meta:
        constraints = [
            # "CI" beside "ci" would be two tokens a person cannot tell apart.
            models.UniqueConstraint(
                "user", Lower("name"), name="personal_token_name_unique_per_person"
            )
        ]

    def __str__(self) -> str:
        return f"token {self.name!r} ({self.prefix}…) of {self.user}"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()


class UsernameSkeleton(models.Model):
    """A person's username as its confusable skeleton (Unicode TR39; accounts/usernames.py),
    unique: no two people's names read the same. Kept by accounts/usernames.py's receivers on
    every save of a User that names it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="username_skeleton",
    )
    skeleton = models.TextField(unique=True)
    # The skeleton of the name case-folded (NFKC, then casefold): "АLICE" (a Cyrillic А) reads as
    # "alice" to a reader who ignores case, as the site's unique names do. Null for a name whose
    # folded skeleton an older person's already held when it was first kept (nobody is renamed).
    folded = models.TextField(unique=True, null=True)  # noqa: DJ001 (NULLs never collide: unique)

    def __str__(self) -> str:
        return f"skeleton of {self.user}"
