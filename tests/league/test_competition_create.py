"""competition_create: a league or a ladder with its settings; bad input is a typed error and
creates nothing."""

from __future__ import annotations

import pytest

from games.errors import GameError
from league.errors import InvalidCompetition
from league.models import Competition
from league.services import competition_create
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

LADDER = {"name": "Bot ladder", "slug": "bots", "kind": "ladder", "variant": {"rules": "official"}}


def test_it_creates_a_ladder_with_its_settings():
    owner = make_user()
    ladder = competition_create(
        **LADDER,
        seats_per_game=3,
        turn_seconds=600,
        bot_timeout=0.5,
        pull_timeout=12,
        vacation_days=2,
        created_by=owner,
    )
    ladder.refresh_from_db()
    assert (ladder.kind, ladder.seats_per_game, ladder.created_by) == ("ladder", 3, owner)
    assert (ladder.turn_seconds, ladder.bot_timeout, ladder.pull_timeout) == (600, 0.5, 12.0)
    assert ladder.vacation_days == 2
    assert ladder.matchmaking is True


def test_the_variant_is_stored_normalised():
    ladder = competition_create(**LADDER)
    assert ladder.variant["rules"] == "official"
    assert ladder.variant["options"]["target"] == 500


def test_left_out_settings_are_the_sites_of_the_day(settings):
    settings.GAMES_TURN_SECONDS = 1234
    settings.BOTS_WEBHOOK_TIMEOUT = 0.75
    settings.BOTS_PULL_TIMEOUT = 9.0
    league = competition_create(
        name="Club", slug="club", kind="league", variant={"rules": "basic-plus"}
    )
    assert (league.turn_seconds, league.bot_timeout, league.pull_timeout) == (1234, 0.75, 9.0)
    assert (league.vacation_days, league.matchmaking) == (0, False)


def test_the_default_bot_timeout_is_one_second():
    assert competition_create(**LADDER).bot_timeout == 1.0


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"variant": {"rules": "speed-uno"}}, "invalid-variant"),
        ({"variant": {"rules": "official", "options": {"target": -5}}}, "invalid-variant"),
        ({"variant": "official"}, "invalid-variant"),
        ({"seats_per_game": 1}, "invalid-setting"),
        ({"seats_per_game": 11}, "invalid-setting"),
        # Censorship needs three seats; 10 hands of 15 cards do not fit the deck.
        ({"variant": {"rules": "censorship"}, "seats_per_game": 2}, "invalid-setting"),
        (
            {"variant": {"rules": "official", "options": {"hand_size": 15}}, "seats_per_game": 10},
            "invalid-setting",
        ),
        ({"turn_seconds": 0}, "invalid-setting"),
        ({"bot_timeout": 0.0}, "invalid-setting"),
        ({"bot_timeout": float("nan")}, "invalid-setting"),
        ({"bot_timeout": 31.0}, "invalid-setting"),
        ({"pull_timeout": -1.0}, "invalid-setting"),
        ({"pull_timeout": "soon"}, "invalid-setting"),
        ({"vacation_days": -1}, "invalid-setting"),
        ({"kind": "cup"}, "invalid-setting"),
        ({"kind": "league", "matchmaking": True}, "invalid-setting"),
        ({"name": ""}, "invalid-setting"),
        ({"slug": "not a slug"}, "invalid-setting"),
    ],
)
def test_bad_input_is_a_typed_error_and_creates_nothing(change, code):
    with pytest.raises(InvalidCompetition) as raised:
        competition_create(**{**LADDER, **change})
    assert raised.value.code == code
    assert raised.value.message
    assert isinstance(raised.value, GameError)
    assert not Competition.objects.exists()


def test_a_taken_slug_is_refused():
    competition_create(**LADDER)
    with pytest.raises(InvalidCompetition) as raised:
        competition_create(**{**LADDER, "name": "Another"})
    assert raised.value.code == "slug-taken"
    assert Competition.objects.count() == 1
