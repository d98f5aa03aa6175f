"""games.creation.game_create: a new game, its seats, and its first hand dealt."""

from __future__ import annotations

import pytest

from engine import Variant
from games import event_reads
from games.creation import SeatSpec, game_create
from games.errors import InvalidGame
from games.game_settings import GameSettings
from games.models import Game, GameEvent, Seat
from tests.games.factories import SHORT, make_game, make_user

pytestmark = pytest.mark.django_db


def test_it_stores_the_game_its_seats_and_the_events_of_the_deal():
    alice, bob = make_user(), make_user()

    game = game_create(
        variant_spec=SHORT,
        seats=[SeatSpec(user=alice), SeatSpec(user=bob), SeatSpec(bot="greedy")],
        seed=7,
        settings=GameSettings(kind="ladder", competition=3),
    )

    expected = Variant.from_spec(SHORT).start(3, seed=7)
    assert event_reads.load(game.pk) == expected
    assert game.version == len(expected)
    assert game.variant == Variant.from_spec(SHORT).spec
    assert game.seat_count == 3
    assert game.context == {"kind": "ladder", "competition": 3}
    assert GameSettings.of(game.context) == GameSettings(kind="ladder", competition=3)
    assert game.reveal == Game.Reveal.AFTER_MATCH
    seats = list(game.seats.values_list("number", "user", "bot", "controller"))
    assert seats == [
        (0, alice.pk, "", "person"),
        (1, bob.pk, "", "person"),
        (2, None, "greedy", "builtin"),
    ]


def test_the_game_row_mirrors_the_state_after_the_deal():
    game = make_game(seed=3)

    state = Variant.from_spec(game.variant).replay(event_reads.load(game.pk))
    assert game.status == state.status == Game.Status.PLAYING
    assert game.hand_number == state.hand_number == 1
    assert game.to_act == list(state.to_act)
    assert game.last_activity is not None


def test_it_deals_a_stacked_deck_when_given_one():
    variant = Variant.from_spec(SHORT)
    deck = [e for e in variant.start(2, seed=5) if e["type"] == "hand-started"][0]["deck"]

    game = make_game(seed=None, deck=deck)

    started = [e for e in event_reads.load(game.pk) if e["type"] == "hand-started"]
    assert started[0]["deck"] == deck


def test_it_records_who_created_the_game_as_the_actor():
    game = make_game()

    assert set(GameEvent.objects.filter(game=game).values_list("actor", flat=True)) == {"system"}


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"rules": "no-such-rules"}, "invalid-variant"),
        ({"rules": "official", "options": {"target": -5}}, "invalid-variant"),
        ({"rules": "official", "colour": "red"}, "invalid-variant"),
    ],
)
def test_a_bad_variant_is_refused_and_nothing_is_written(spec, code):
    with pytest.raises(InvalidGame) as raised:
        game_create(variant_spec=spec, seats=[SeatSpec(bot="greedy")] * 2)

    assert raised.value.code == code
    assert not Game.objects.exists()
    assert not GameEvent.objects.exists()


@pytest.mark.parametrize(
    ("seats", "code"),
    [
        ([SeatSpec(bot="greedy")], "invalid-game"),
        ([SeatSpec(bot="greedy"), SeatSpec()], "invalid-seat"),
        ([SeatSpec(bot="greedy"), SeatSpec(bot="no-such-bot")], "unknown-bot"),
    ],
)
def test_bad_seats_are_refused_and_nothing_is_written(seats, code):
    with pytest.raises(InvalidGame) as raised:
        game_create(variant_spec=SHORT, seats=seats)

    assert raised.value.code == code
    assert not Game.objects.exists()
    assert not Seat.objects.exists()


def test_a_seat_cannot_hold_both_a_user_and_a_bot():
    with pytest.raises(InvalidGame, match="one of them") as raised:
        game_create(variant_spec=SHORT, seats=[SeatSpec(user=make_user(), bot="greedy")] * 2)

    assert raised.value.code == "invalid-seat"


def test_an_unknown_reveal_setting_is_refused():
    with pytest.raises(InvalidGame, match="reveal"):
        make_game(reveal="sometimes")

    assert not Game.objects.exists()


def test_newno_seat_ages_go_into_the_deal():
    game = game_create(
        variant_spec={"rules": "newno"},
        seats=[SeatSpec(bot="greedy", age=30), SeatSpec(bot="random", age=9)],
        seed=2,
    )

    assert event_reads.load(game.pk)[0]["ages"] == [30, 9]
    assert list(game.seats.values_list("age", flat=True)) == [30, 9]


@pytest.mark.parametrize(
    ("spec", "ages", "code"),
    [
        ({"rules": "newno"}, [30, None], "invalid-seat"),
        ({"rules": "official"}, [30, 9], "invalid-game"),
    ],
)
def test_ages_are_for_every_seat_and_only_where_the_rules_have_them(spec, ages, code):
    seats = [SeatSpec(bot="greedy", age=age) for age in ages]

    with pytest.raises(InvalidGame) as raised:
        game_create(variant_spec=spec, seats=seats)

    assert raised.value.code == code
    assert not Game.objects.exists()
