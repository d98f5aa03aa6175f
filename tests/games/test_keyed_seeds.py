"""Seeds nobody can compute from what they know: a validation game's and a season fixture's
seed is keyed with the site's SECRET_KEY (games.seeds.keyed_seed), so a bot's owner who
knows the bot's id and round, or anyone who reads a season's public draw seed, cannot deal
the cards in advance."""

from __future__ import annotations

import pytest

from bots.remote import validation
from engine.events import MATCH_STARTED
from games import event_reads
from games.models import Bot
from games.seeds import keyed_seed
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_keyed_seed_is_stable_and_depends_on_the_secret_key(settings):
    first = keyed_seed("validation:7:1:0")
    assert first == keyed_seed("validation:7:1:0")
    assert first != keyed_seed("validation:7:1:1")
    assert "validation" not in first
    settings.SECRET_KEY = "another-secret-key-for-this-test"
    assert keyed_seed("validation:7:1:0") != first


def test_a_validation_game_is_not_dealt_from_its_label():
    bot = Bot.objects.create(owner=make_user(), name="b", kind=Bot.Kind.BUILTIN, strategy="greedy")
    game = validation._validation_game(bot, 1, 0)
    [started] = event_reads.load(game.pk, types={MATCH_STARTED})
    assert started["seed"] == keyed_seed(f"validation:{bot.pk}:1:0")
    assert str(bot.pk) not in started["seed"].split(":")
