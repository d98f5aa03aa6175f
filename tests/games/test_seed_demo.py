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


def test_it_plays_one_bot_match_per_family_and_seats_demo_in_another(
    settings, django_capture_on_commit_callbacks, eager_tasks
):
    settings.DEBUG = True
    from games.models import Game

    with django_capture_on_commit_callbacks(execute=True):
        seed_demo()
    games = list(Game.objects.order_by("id"))
    families = [g.variant["rules"] for g in games if g.status == "match-over"]
    assert sorted(families) == ["basic-plus", "censorship", "newno", "official", "official"]
    waiting = [g for g in games if g.status == "playing"]
    assert len(waiting) == 1 and waiting[0].to_act == [0]
    assert waiting[0].seats.get(number=0).user.username == "demo"

    seed_demo()
    assert Game.objects.count() == len(games)
