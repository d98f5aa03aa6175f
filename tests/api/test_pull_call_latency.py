"""A pull bot's latency, as its owner reads it (GET /api/me/bots/<id>, its calls): the time from
the game's last move to the bot's command (docs/bots-api.md), for a command the rules refused as
for one they took, so a refused command is in the mean at its true latency, not at 0.0."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from bots.remote import tokens
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db


def test_a_refused_command_counts_its_true_latency_in_the_mean():
    owner = make_user("ana")
    bot = Bot.objects.create(owner=owner, name="slow", kind=Bot.Kind.PULL, status="active")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(registered=bot)] * 2, seed=11)
    # The game last moved 7 s ago: the bot thought that long.
    Game.objects.filter(pk=game.pk).update(last_activity=timezone.now() - timedelta(seconds=7))
    (decision,) = [d for d in client.get("/api/bot/decisions").json() if not d["optional"]]
    path = f"/api/bot/games/{game.pk}/commands"

    bad = {"type": "play", "seat": decision["seat"], "card": "purple-11"}
    refused = client.post(path, {"command": bad, "expected_version": decision["version"]}, "json")
    assert (refused.status_code, refused.json()["code"]) == (422, "unknown-card")
    good = next(c for c in decision["legal"] if c["type"] in ("play", "draw"))
    taken = client.post(path, {"command": good, "expected_version": decision["version"]}, "json")
    assert taken.status_code == 200

    owners = APIClient()
    owners.force_authenticate(owner)
    stats = owners.get(f"/api/me/bots/{bot.pk}").json()["stats"]
    assert stats["calls"] == 2 and stats["illegal_answers"] == 1
    # Both commands came about 7 s after the game's last move: so does their mean (not 3.5).
    assert 7 <= stats["mean_latency"] < 9
    calls = owners.get(f"/api/me/bots/{bot.pk}/calls").json()["calls"]
    assert [call["outcome"] for call in calls] == ["ok", "refused"]
    assert all(7 <= call["latency"] < 9 for call in calls)
