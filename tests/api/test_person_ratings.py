"""People's ratings over the API: `GET /api/players/<username>` carries a rating per pool
(mu, sigma, the displayed figure, games, provisional), `GET /api/ratings` lists the pools and
`GET /api/ratings/<family>` is a pool's leaderboard of people, paged, every line a person."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.test import Client, override_settings

from api import ratings as api_ratings
from games import projections
from league import ratings
from tests.games.factories import make_user
from tests.ratings.games import one_card_game, run_ratings

pytestmark = pytest.mark.django_db


def get(path: str) -> dict:
    response = Client().get(path)
    assert response.status_code == 200, response.content
    return response.json()


def test_a_player_carries_a_rating_per_pool_provisional_until_enough_games():
    ana, ben = make_user("ana"), make_user("ben")
    one_card_game([ana, ben], winner=0)
    one_card_game([ana, ben], winner=0)
    run_ratings()

    with override_settings(RATINGS_PROVISIONAL_GAMES=3):
        body = get("/api/players/ana")
    assert body["kind"] == "person"
    assert list(body["ratings"]) == ["official"]
    official = body["ratings"]["official"]
    assert set(official) == {
        "family", "name", "kind", "mu", "sigma", "rating", "games", "provisional", "rated_at",
    }  # fmt: skip
    assert official["family"] == "official" and official["name"] == "Official"
    assert official["kind"] == "person"
    assert official["games"] == 2 and official["provisional"] is True
    assert official["mu"] > ratings.MU and official["sigma"] < ratings.SIGMA
    assert official["rating"] == pytest.approx(official["mu"] - 3 * official["sigma"])

    with override_settings(RATINGS_PROVISIONAL_GAMES=2):
        assert get("/api/players/ana")["ratings"]["official"]["provisional"] is False
    # ben lost both: below ana.
    assert get("/api/players/ben")["ratings"]["official"]["rating"] < official["rating"]


def test_a_person_without_rated_games_has_no_ratings():
    ana, ben = make_user("ana"), make_user("ben")
    one_card_game([ana, ben], rated=False)
    run_ratings()
    assert get("/api/players/ana")["ratings"] == {}


@override_settings(RATINGS_PROVISIONAL_GAMES=2)
def test_the_leaderboard_ranks_people_then_lists_the_provisional_ones(monkeypatch):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    for _ in range(2):
        one_card_game([ana, ben], winner=0)
    one_card_game([cy, ana, "greedy"], winner=0)
    run_ratings()

    body = get("/api/ratings/official")
    assert (body["family"], body["name"], body["count"], body["page"], body["pages"]) == (
        "official", "Official", 3, 1, 1,
    )  # fmt: skip
    names = [(line["username"], line["rank"], line["provisional"]) for line in body["lines"]]
    # ana (3 games) and ben (2) are ranked; cy (1 game) is provisional, unranked, last.
    assert names[:2] == [("ana", 1, False), ("ben", 2, False)]
    assert names[2] == ("cy", None, True)
    assert {line["kind"] for line in body["lines"]} == {"person"}
    # No bot is ever on a people's board.
    assert all(line["username"] in {"ana", "ben", "cy"} for line in body["lines"])
    line = body["lines"][0]
    assert set(line) == {
        "rank", "kind", "username", "user_id", "mu", "sigma", "rating", "games",
        "provisional", "rated_at",
    }  # fmt: skip
    assert line["user_id"] == ana.pk and line["games"] == 3

    monkeypatch.setattr(api_ratings, "PAGE_SIZE", 2)
    first, second = get("/api/ratings/official"), get("/api/ratings/official?page=2")
    assert [line["username"] for line in first["lines"]] == ["ana", "ben"]
    assert [line["username"] for line in second["lines"]] == ["cy"]
    assert first["pages"] == second["pages"] == 2
    assert get("/api/ratings/official?page=9")["lines"] == []

    pools = get("/api/ratings")
    assert [pool["family"] for pool in pools] == [
        "official", "basic-plus", "newno", "censorship", "official-precognitive",
        "basic-plus-precognitive",
    ]  # fmt: skip
    assert pools[0] == {"family": "official", "name": "Official", "people": 3}
    assert get("/api/ratings/newno")["lines"] == []


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/ratings/chess", 404, "not-found"),
        ("/api/ratings/official?page=0", 400, "invalid"),
        ("/api/ratings/official?page=x", 400, "invalid"),
    ],
)
def test_an_unknown_pool_or_a_bad_page_is_refused_with_a_stable_code(path, status, code):
    response = Client().get(path)
    assert response.status_code == status
    assert response.json()["code"] == code


def test_the_answers_are_byte_identical_after_a_rebuild():
    ana, ben = make_user("ana"), make_user("ben")
    paths = ["/api/players/ana", "/api/players/ben", "/api/ratings/official"]
    # The time stands still: the answers decay sigma as of now.
    with time_machine.travel(datetime.datetime(2026, 5, 1, 9, tzinfo=datetime.UTC), tick=False):
        one_card_game([ana, ben], winner=1)
        one_card_game([ben, ana, "greedy"], winner=1)
        run_ratings()
        before = [Client().get(path).content for path in paths]
        projections.rebuild("person-ratings")
        assert [Client().get(path).content for path in paths] == before
