"""games.visibility.game_view and game_events: each viewer sees only what the rules let it see."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import AnonymousUser

from engine import Variant
from games import event_reads
from games.commands import game_command
from games.errors import Forbidden, GameNotFound
from games.models import Game
from games.visibility import game_events, game_view
from tests.games.factories import bot_move, make_game, make_user, owner, play_to_end, play_turn

pytestmark = pytest.mark.django_db


def replayed(game: Game):
    return Variant.from_spec(game.variant).replay(event_reads.load(game.pk))


def played(turns: int = 40, **kwargs) -> Game:
    """A game to 500 points, some turns in: cards drawn, maybe a reshuffle, still playing."""
    game = make_game(spec={"rules": "official"}, **kwargs)
    rng = random.Random(9)
    for _ in range(turns):
        play_turn(game.pk, rng)
    game.refresh_from_db()
    return game


def assert_redacted_for(shown: list[dict], seat: int | None, raw: list[dict]) -> None:
    """Nothing in `shown` tells `seat` a card it may not know."""
    assert [e["event"]["type"] for e in shown] == [e["type"] for e in raw]
    for item in shown:
        event = item["event"]
        kind = event["type"]
        assert "seed" not in event
        if kind == "hand-started":
            assert "deck" not in event
            assert ("cards" in event) == (seat is not None)
        if kind == "cards-drawn" and event["seat"] != seat:
            assert set(event["cards"]) <= {None}
        if kind == "pile-reshuffled":
            assert set(event["order"]) <= {None}


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    game = played()
    state = replayed(game)

    view = game_view(game_id=game.pk, viewer=owner(game, 0))

    assert view["seat"] == 0
    assert view["hand"] == state.hands[0]
    assert view["hand_sizes"] == [len(state.hands[0]), len(state.hands[1])]
    assert "hands" not in view
    assert view["version"] == game.version


def test_the_seat_to_act_is_shown_what_it_may_do():
    game = played()
    seat = game.to_act[0]
    waiting = 1 - seat

    acting = game_view(game_id=game.pk, viewer=owner(game, seat))
    idle = game_view(game_id=game.pk, viewer=owner(game, waiting))

    assert acting["legal"]
    assert {command["seat"] for command in acting["legal"]} == {seat}
    assert all(command["type"] in ("call-uno", "catch") for command in idle["legal"])


@pytest.mark.parametrize("spectator", [None, AnonymousUser(), "a stranger"])
def test_a_spectator_sees_no_hand_at_all(spectator):
    game = played()
    if spectator == "a stranger":
        spectator = make_user()

    view = game_view(game_id=game.pk, viewer=spectator)

    assert view["seat"] is None
    assert "hand" not in view
    assert "hands" not in view
    assert view["legal"] == []


def test_a_user_may_not_look_from_a_seat_they_do_not_hold():
    game = played(turns=0)

    with pytest.raises(Forbidden) as raised:
        game_view(game_id=game.pk, viewer=owner(game, 0), seat=1)
    with pytest.raises(Forbidden):
        game_events(game_id=game.pk, viewer=make_user(), seat=0)

    assert raised.value.code == "not-your-seat"


def test_a_missing_game_is_not_found():
    with pytest.raises(GameNotFound):
        game_view(game_id=404_404, viewer=None)
    with pytest.raises(GameNotFound):
        game_events(game_id=404_404, viewer=None)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_the_events_hide_the_deck_the_seed_and_the_other_seats_cards(seat):
    game = played()
    raw = event_reads.load(game.pk)
    viewer = owner(game, seat) if seat is not None else None
    variant = Variant.from_spec(game.variant)

    shown = game_events(game_id=game.pk, viewer=viewer)

    assert_redacted_for(shown, seat, raw)
    assert [e["event"] for e in shown] == [variant.view_event(e, seat) for e in raw]
    assert [e["version"] for e in shown] == list(range(1, len(raw) + 1))
    # Something was hidden: the draws of the other seat at least.
    assert [e["event"] for e in shown] != raw


def test_a_seat_is_dealt_its_own_cards_and_no_others():
    game = played(turns=0)
    state = replayed(game)

    shown = game_events(game_id=game.pk, viewer=owner(game, 1))

    dealt = next(e["event"] for e in shown if e["event"]["type"] == "hand-started")
    assert sorted(dealt["cards"]) == sorted(state.hands[1])


def test_the_events_after_a_version_start_there():
    game = played(turns=5)

    shown = game_events(game_id=game.pk, viewer=None, after=4)

    assert shown[0]["version"] == 5
    assert shown[-1]["version"] == game.version


def test_a_command_result_shows_the_actor_its_own_view():
    game = played(turns=3)
    actor, command, version = bot_move(game.pk, random.Random(3))

    result = game_command(game_id=game.pk, actor=actor, command=command, expected_version=version)

    variant = Variant.from_spec(game.variant)
    raw = event_reads.load(game.pk, after=version)
    assert [item["event"] for item in result.events] == [
        variant.view_event(event, command["seat"]) for event in raw
    ]


def test_the_whole_log_becomes_public_when_the_match_is_over():
    game = make_game(seed=5)
    play_to_end(game.pk, seed=5)
    raw = event_reads.load(game.pk)
    state = replayed(game)

    for viewer in (None, owner(game, 0), make_user()):
        shown = game_events(game_id=game.pk, viewer=viewer)
        assert [e["event"] for e in shown] == raw
    view = game_view(game_id=game.pk, viewer=None)
    assert view["hands"] == state.hands
    assert view["status"] == "match-over"


def test_a_game_that_never_reveals_stays_redacted_after_the_match():
    game = make_game(seed=5, reveal=Game.Reveal.NEVER)
    play_to_end(game.pk, seed=5)
    raw = event_reads.load(game.pk)

    for seat in (0, None):
        viewer = owner(game, seat) if seat is not None else None
        shown = game_events(game_id=game.pk, viewer=viewer)
        assert_redacted_for(shown, seat, raw)
        assert [e["event"] for e in shown] != raw
    assert "hands" not in game_view(game_id=game.pk, viewer=None)
