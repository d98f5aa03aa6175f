"""The `player-families` projection (league/projections.py): a person's finished matches per
rule family, folded from the match-ended events. The player page and GET /api/players/<name>
read its rows: the same numbers as the games' own results, in a number of queries that does not
grow with the person's games, and a rebuild gives the same rows as the catch-up."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import projections
from games.creation import SeatSpec, game_create
from games.models import HandResult, MatchResult, Seat
from league.models import PlayerFamilyRecord
from tests.games.factories import make_user, play_to_end

pytestmark = pytest.mark.django_db

SINGLE = {"scoring": "single-hand"}


def finished(ada, cy, rules: str, seed: int) -> None:
    game = game_create(
        variant_spec={"rules": rules, "options": SINGLE},
        seats=[SeatSpec(user=cy), SeatSpec(user=ada)],
        seed=seed,
    )
    play_to_end(game.pk, seed=seed)
    projections.run("game-results")
    projections.run("player-families")


def from_the_games(user) -> list[tuple[str, int, int, int, int]]:
    """(family, matches, wins, hands, points) from the games' own results."""
    found: dict[str, list[int]] = {}
    for seat in Seat.objects.filter(user=user).select_related("game"):
        result = MatchResult.objects.get(game=seat.game)
        gained = [hand.gained[seat.number] for hand in HandResult.objects.filter(game=seat.game)]
        row = found.setdefault(seat.game.variant["rules"], [0, 0, 0, 0])
        row[0] += 1
        row[1] += result.places[seat.number] == 1
        row[2] += len(gained)
        row[3] += sum(gained)
    return [(family, *numbers) for family, numbers in sorted(found.items())]


def rows() -> list[tuple[str, str, int, int, int, int]]:
    return list(
        PlayerFamilyRecord.objects.order_by("user__username", "family").values_list(
            "user__username", "family", "matches", "wins", "hands", "points"
        )
    )


def counted(username: str) -> list[list[str]]:
    client = Client()
    found = []
    for url in (f"/players/{username}/", f"/api/players/{username}"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        found.append([query["sql"] for query in queries])
    return found


def test_the_record_per_family_is_the_games_own_read_in_bounded_queries_and_rebuilt_alike():
    ada, cy = make_user("ada"), make_user("cy")
    finished(ada, cy, "official", 1)
    few = counted("ada")
    finished(ada, cy, "basic-plus", 2)
    finished(ada, cy, "official", 3)

    families = Client().get("/api/players/ada").json()["families"]
    expected = from_the_games(ada)
    assert [(f["family"], f["matches"], f["wins"], f["hands"]) for f in families] == [
        (family, matches, wins, hands) for family, matches, wins, hands, _ in expected
    ]
    assert [f["mean_points_per_hand"] for f in families] == [
        round(points / hands, 2) for *_, hands, points in expected
    ]
    assert [f["matches"] for f in families] == [1, 2]
    # Every game of theirs is counted, without reading a game's results or hands again.
    many = counted("ada")
    assert [len(sqls) for sqls in many] == [len(sqls) for sqls in few]
    assert not [sql for sqls in many for sql in sqls if "games_handresult" in sql]

    caught_up = rows()
    assert [row[0] for row in caught_up] == ["ada", "ada", "cy", "cy"]
    projections.rebuild("player-families")
    assert rows() == caught_up
