"""A seed chosen by a person (POST /api/games "seed"): the engine is open, so whoever chooses the
seed knows every hand and the draw order. It is allowed only for practice (every other seat a
built-in bot or the creator's own bot); the game then tells every seat who chose it, and it
counts for no record (games/lobby.py, league/standings.py)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from engine import Variant
from games import projections
from games.models import Bot, Game
from tests.games.factories import make_user, play_to_end

pytestmark = pytest.mark.django_db

OFFICIAL = {"rules": "official", "options": {"target": 50}}


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def post(client: APIClient, seats: list[dict], **extra):
    return client.post("/api/games", {"variant": OFFICIAL, "seats": seats, **extra}, format="json")


def test_a_chosen_seed_with_another_person_seated_is_refused_and_writes_nothing():
    ana, ben = make_user("ana"), make_user("ben")
    seats = [{"user": "me"}, {"user": "ben"}]
    # What the refusal prevents: the open engine deals ben's hand from the seed alone.
    dealt = Variant.from_spec(OFFICIAL).replay(Variant.from_spec(OFFICIAL).start(2, seed=31337))
    assert len(dealt.hands[1]) == 7

    response = post(signed_in(ana), seats, seed=31337)

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "seed-not-allowed"
    assert "practice" in body["message"] and "ben sits at seat 1" in body["message"]
    assert not Game.objects.exists()
    # Without a seed the same table starts (the server deals) once ben accepts, and says
    # nothing of practice.
    invited = post(signed_in(ana), seats)
    assert invited.status_code == 202
    started = signed_in(ben).post(f"/api/tables/{invited.json()['id']}/join").json()["game"]
    assert signed_in(ben).get(f"/api/games/{started}").json()["seed_chosen_by"] is None


def test_a_chosen_seed_with_someone_elses_registered_bot_is_refused():
    ana, ben = make_user("ana"), make_user("ben")
    bens = Bot.objects.create(
        owner=ben, name="bens", kind=Bot.Kind.BUILTIN, strategy="greedy", status=Bot.Status.ACTIVE
    )

    response = post(signed_in(ana), [{"user": "me"}, {"bot_id": bens.pk}], seed=7)

    assert (response.status_code, response.json()["code"]) == (400, "seed-not-allowed")
    assert "bens" in response.json()["message"]
    assert not Game.objects.exists()


def test_practice_against_built_in_and_own_bots_is_allowed_and_says_so():
    ana = make_user("ana")
    mine = Bot.objects.create(
        owner=ana, name="mine", kind=Bot.Kind.BUILTIN, strategy="greedy", status=Bot.Status.ACTIVE
    )

    response = post(
        signed_in(ana), [{"user": "me"}, {"bot": "greedy"}, {"bot_id": mine.pk}], seed=5
    )

    assert response.status_code == 201, response.json()
    assert response.json()["seed_chosen_by"] == "ana"
    game_id = response.json()["game"]
    # A spectator is told too, and so is the play page.
    assert APIClient().get(f"/api/games/{game_id}").json()["seed_chosen_by"] == "ana"
    page = signed_in(ana).get(f"/games/{game_id}/").content.decode()
    assert "Practice deal: seed chosen by ana" in page and "counts for no record" in page
    drawn = post(signed_in(ana), [{"user": "me"}, {"bot": "greedy"}]).json()["game"]
    assert "Practice deal" not in signed_in(ana).get(f"/games/{drawn}/").content.decode()


def test_a_practice_deal_counts_for_no_record():
    ana = make_user("ana")
    client = signed_in(ana)
    practice = post(client, [{"user": "me"}, {"bot": "greedy"}], seed=3).json()["game"]
    drawn = post(client, [{"user": "me"}, {"bot": "greedy"}]).json()["game"]
    play_to_end(practice)
    play_to_end(drawn)
    projections.run("game-results")
    projections.run("player-families")

    families = APIClient().get("/api/players/ana").json()["families"]

    assert [(f["family"], f["matches"]) for f in families] == [("official", 1)]
    page = APIClient().get("/players/ana/").content.decode()
    assert page.count("Practice deal: not in the record") == 1
    assert "<td>1</td>" in page.split('class="family-record"')[1].split("</tr>")[0]
