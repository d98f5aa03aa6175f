"""GET and POST /api/games/<id>/analysis (api/analysis.py): a finished game's analysis read and
asked for, refused with stable codes while the match plays (nothing of it said, no card
leaked), for a game that never reveals, twice, and for nobody signed in; in the schema."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from analysis import services
from analysis.models import GameAnalysis
from games.models import Game
from tests.api.test_schema import schema
from tests.games.factories import make_game, make_user, play_to_end

pytestmark = pytest.mark.django_db

ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand"}}


@pytest.fixture(autouse=True)
def few_playouts(settings):
    settings.ANALYSIS_PLAYOUTS = 2


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def over(seed: int = 2, **kwargs) -> Game:
    game = make_game(players=0, bots=["greedy", "random"], spec=ONE_HAND, seed=seed, **kwargs)
    play_to_end(game.pk, seed=seed)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    return game


def url(game: Game) -> str:
    return f"/api/games/{game.pk}/analysis"


def test_ask_then_read_a_bots_game_analysis_as_it_goes_from_queued_to_done():
    game = over()
    anonymous = APIClient()
    missing = anonymous.get(url(game))
    assert missing.status_code == 404 and missing.json()["code"] == "no-analysis"

    asked = signed_in(make_user("ana")).post(url(game))
    assert asked.status_code == 202, asked.content
    body = asked.json()
    assert body["status"] == "queued" and body["analysis"] is None
    assert body["progress"] == {"done": 0, "total": 0}

    services.run(body_row := GameAnalysis.objects.get(game=game).pk)
    read = anonymous.get(url(game))
    assert read.status_code == 200
    done = read.json()
    assert done["status"] == "done" and done["progress"]["done"] == done["progress"]["total"] > 0
    analysis = done["analysis"]
    assert len(analysis["decisions"]) == done["progress"]["total"]
    decision = analysis["decisions"][0]
    assert {"version", "hand", "seat", "chosen", "best", "cost", "options"} <= decision.keys()
    assert decision["best"]["value"] >= decision["chosen"]["value"] - 1e-9
    assert [s["seat"] for s in analysis["summaries"]] == [0, 1]
    hand = analysis["hands"][0]
    assert {"deal_luck", "draw_luck", "decision_cost"} <= hand["seats"][0].keys()
    assert len(hand["chances"][0][1]) == 2

    again = signed_in(make_user("ben")).post(url(game))
    assert again.status_code == 409 and again.json()["code"] == "analysis-exists"
    assert GameAnalysis.objects.get(pk=body_row).status == "done"


def test_a_game_in_play_says_nothing_of_its_analysis_and_leaks_no_card():
    game = make_game(players=2, spec=ONE_HAND)
    ana = game.seats.get(number=0).user
    # Even with a row there (queued by hand), nothing of it is said while the match plays.
    GameAnalysis.objects.create(game=game, seed=1, playouts=2)
    for client in (APIClient(), signed_in(ana), signed_in(make_user("eve"))):
        read = client.get(url(game))
        assert read.status_code == 403
        assert read.json()["code"] == "game-in-play"
        assert set(read.json()) == {"code", "message"}
    asked = signed_in(ana).post(url(game))
    assert asked.status_code == 403 and asked.json()["code"] == "game-in-play"
    # No card of anyone's hand is in any answer.
    hands = game.seats.count()
    text = json.dumps([APIClient().get(url(game)).json(), asked.json()])
    assert hands == 2 and '"card' not in text and "hands" not in text


def test_a_game_that_never_reveals_is_refused_and_nobody_signed_in_cannot_ask():
    hidden = over(seed=4, reveal="never")
    read = APIClient().get(url(hidden))
    assert read.status_code == 403 and read.json()["code"] == "not-revealed"
    asked = signed_in(make_user("ana")).post(url(hidden))
    assert asked.status_code == 403 and asked.json()["code"] == "not-revealed"

    game = over(seed=5)
    anonymous = APIClient().post(url(game))
    assert anonymous.status_code in (401, 403)
    assert not GameAnalysis.objects.filter(game=game).exists()
    assert APIClient().get("/api/games/999999/analysis").json()["code"] == "game-not-found"


def test_the_analysis_is_in_the_schema():
    document = schema()
    operations = document["paths"]["/api/games/{game_id}/analysis"]
    assert {"get", "post"} <= operations.keys()
    assert {"200", "403", "404"} <= operations["get"]["responses"].keys()
    assert {"202", "403", "404", "409"} <= operations["post"]["responses"].keys()
