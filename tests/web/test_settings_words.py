"""Where a person's settings are, said where they are looked for: the notification centre names
the profile's turn emails (by an anchor) and the turn alerts of the lobby and the game page; the
profile's vacations say which games give vacation days (docs/web.md, "Accounts" and "The
notification centre")."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User

from accounts.models import Profile
from games.game_settings import GameSettings
from games.models import Seat
from tests.games.factories import make_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def ada(client):
    user = User.objects.create_user("ada", email="ada@example.org", password="lovelace-1815")
    Profile.objects.create(user=user, birth_date=datetime.date(1815, 12, 10))
    client.force_login(user)
    return user


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_notification_centre_says_where_each_setting_lives(client, ada):
    html = client.get("/notifications/").content.decode()
    assert 'href="/accounts/profile/#turn-emails"' in html
    assert 'href="/play/"' in html.split("<main", 1)[1]
    shown = words(html)
    assert (
        "Emails (turns, challenges, and what waits here while you are away): your profile" in shown
    )
    assert "Browser notifications and sound: the Notifications and Sound buttons" in shown

    profile = client.get("/accounts/profile/").content.decode()
    # The anchor lands on the settings that hold "When it is my turn, send".
    section = profile.split('id="turn-emails"', 1)[1].split("</section>", 1)[0]
    assert "When it is my turn, send" in section


def test_the_profile_says_which_games_give_vacation_days(client, ada):
    budgeted = make_game(players=1, bots=["greedy"], settings=GameSettings(vacation_days=5))
    plain = make_game(players=1, bots=["greedy"])
    for game in (budgeted, plain):
        Seat.objects.filter(game=game, number=0).update(user=ada)

    shown = words(client.get("/accounts/profile/").content.decode())

    assert "Each game gives every seat a number of vacation days" not in shown
    assert "A club season or a ladder may give each seat of its games a number of vacation" in shown
    assert f"Game {plain.pk} no vacation days in this game" in shown
    assert f"Game {budgeted.pk} 0 of 5 days used, 5 left" in shown
