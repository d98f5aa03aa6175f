"""Rematch through the API (games/rematch.py, api/rematch.py): offer the same table again after
a match, the others accept or decline, bots accept at once; typed refusals with stable codes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from bots.registry import bot_retire
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Bot, Game
from tests.games.factories import SHORT, make_game, make_user, play_to_end

pytestmark = pytest.mark.django_db


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def over(**kwargs) -> Game:
    game = make_game(**kwargs)
    play_to_end(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    return game


def people(game: Game):
    return [seat.user for seat in game.seats.order_by("number") if seat.user is not None]


def url(game: Game) -> str:
    return f"/api/games/{game.pk}/rematch"


def test_two_people_accept_and_the_same_table_starts_again_with_a_new_deal():
    game = over(players=2, bots=["greedy"], settings=GameSettings(turn_seconds=3600))
    ana, ben = people(game)
    assert signed_in(ana).get(url(game)).json()["status"] == "none"

    offered = signed_in(ana).post(url(game), {}, format="json")
    assert offered.status_code == 200
    assert offered.json() == {
        "game": game.pk,
        "status": "open",
        "offered_by": ana.username,
        "answers": {ana.username: "accepted", ben.username: "waiting"},
        "new_game": None,
        "possible": True,
    }
    accepted = signed_in(ben).post(url(game), {"answer": "accept"}, format="json").json()
    assert accepted["status"] == "started"
    new = Game.objects.get(pk=accepted["new_game"])
    assert new.variant == game.variant
    assert GameSettings.of(new.context).turn_seconds == 3600
    seats = lambda g: [(s.number, s.user_id, s.bot) for s in g.seats.order_by("number")]  # noqa: E731
    assert seats(new) == seats(game)
    assert new.status == Game.Status.PLAYING
    # Everyone sees where it went.
    assert signed_in(ana).get(url(game)).json()["new_game"] == new.pk


def test_alone_with_bots_the_offer_starts_the_game_at_once():
    game = over(players=1, bots=["greedy", "random"])
    (ana,) = people(game)
    answer = signed_in(ana).post(url(game), {}, format="json").json()
    assert answer["status"] == "started" and answer["new_game"] is not None


def test_a_decline_ends_the_offer_for_good():
    game = over(players=2)
    ana, ben = people(game)
    signed_in(ana).post(url(game), {}, format="json")
    declined = signed_in(ben).post(url(game), {"answer": "decline"}, format="json").json()
    assert declined["status"] == "declined"
    assert declined["answers"][ben.username] == "declined"
    again = signed_in(ana).post(url(game), {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already-offered"


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("stranger", {}, 403, "not-a-player"),
        ("ana", {"answer": "accept"}, 409, "no-offer"),
    ],
)
def test_refusals_have_stable_codes(who, body, status, code):
    game = over(players=2)
    ana, _ben = people(game)
    person = ana if who == "ana" else make_user("stranger")
    response = signed_in(person).post(url(game), body, format="json")
    assert response.status_code == status
    assert response.json()["code"] == code


def test_a_game_still_playing_has_no_rematch():
    game = make_game(players=2)
    ana, _ben = people(game)
    response = signed_in(ana).post(url(game), {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "not-over"


def test_answering_twice_and_answering_a_started_offer_are_refused():
    game = over(players=3)
    ana, ben, cy = people(game)
    signed_in(ana).post(url(game), {}, format="json")
    signed_in(ben).post(url(game), {"answer": "accept"}, format="json")
    twice = signed_in(ben).post(url(game), {"answer": "accept"}, format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "already-answered"
    signed_in(cy).post(url(game), {"answer": "accept"}, format="json")
    late = signed_in(ana).post(url(game), {"answer": "decline"}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "offer-closed"


def test_league_and_ladder_games_have_no_rematch():
    game = over(players=2, settings=GameSettings(kind="ladder", competition=1))
    ana, _ben = people(game)
    response = signed_in(ana).post(url(game), {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "not-rematchable"
    assert signed_in(ana).get(url(game)).json()["possible"] is False


def test_an_unknown_answer_is_a_400():
    game = over(players=2)
    ana, _ben = people(game)
    response = signed_in(ana).post(url(game), {"answer": "maybe"}, format="json")
    assert response.status_code == 400


def test_a_table_with_a_retired_bot_has_no_rematch_and_nothing_starts():
    ana, cy = make_user("ana"), make_user("cy")
    gus = Bot.objects.create(
        owner=cy, name="Gus", kind="builtin", strategy="greedy", status="active"
    )
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=ana), SeatSpec(registered=gus)], seed=1
    )
    play_to_end(game.pk)
    bot_retire(bot=gus, owner=cy)
    games = Game.objects.count()

    response = signed_in(ana).post(url(game), {}, format="json")

    assert response.status_code == 400
    assert response.json() == {
        "code": "bot-retired",
        "message": "bot Gus is retired: it plays no new game",
    }
    assert signed_in(ana).get(url(game)).json()["status"] == "none"
    assert Game.objects.count() == games
