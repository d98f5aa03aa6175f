"""The seed_demo command: demo data for a local site, safe to run again."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def seed_demo() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_it_creates_the_demo_staff_user(settings):
    settings.DEBUG = True

    output = seed_demo()

    user = get_user_model().objects.get(username="demo")
    assert user.is_staff
    assert user.check_password("demo")
    assert "Created staff user 'demo' with password 'demo'" in output


def test_it_is_idempotent_and_leaves_an_existing_user_alone(settings):
    settings.DEBUG = True
    seed_demo()
    user = get_user_model().objects.get(username="demo")
    user.set_password("changed-by-hand")
    user.save()

    output = seed_demo()

    assert get_user_model().objects.filter(username="demo").count() == 1
    assert get_user_model().objects.get(username="demo").check_password("changed-by-hand")
    assert "already exists" in output


def test_it_refuses_to_run_without_debug(settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG=1"):
        seed_demo()

    assert not get_user_model().objects.filter(username="demo").exists()
