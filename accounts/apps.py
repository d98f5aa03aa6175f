from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Look-alike usernames are refused on every save of a User (accounts/usernames.py).
        from django.contrib.auth.models import User
        from django.db.models.signals import post_save, pre_save

        from accounts import usernames

        pre_save.connect(usernames.before_save, sender=User, dispatch_uid="username-look-alike")
        post_save.connect(usernames.after_save, sender=User, dispatch_uid="username-skeleton")
