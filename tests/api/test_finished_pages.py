"""A person's finished games a page at a time (games/lobby.py finished_page): GET /api/games
with `status=finished`, its `Link: rel="next"`, and the lobby's finished tab with "Older
games". The games here end by a staff abort, the quickest real way for a match to be over."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from games import lobby
from games.creation import SeatSpec, game_create
from games.models import Game
from staff.actions import game_abort
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def games_of(person: User, count: int) -> list[Game]:
    return [
        game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(user=person), SeatSpec(bot="greedy")],
            seed=number,
            actor=person,
        )
        for number in range(count)
    ]


def finish(game: Game) -> None:
    game_abort(
        game_id=game.pk,
        user=User.objects.create_user(f"staff{game.pk}", is_staff=True),
        reason="test",
    )


@pytest.fixture
def ada(client):
    person = make_user("ada")
    client.force_login(person)
    return person


def test_finished_games_come_a_page_at_a_time_newest_first(client, ada):
    games = games_of(ada, 6)
    for game in games[:5]:
        finish(game)
    newest_first = [game.pk for game in reversed(games[:5])]

    seen, url, pages = [], "/api/games?status=finished&limit=2", 0
    while url:
        response = client.get(url)
        assert response.status_code == 200
        seen += [row["id"] for row in response.json()]
        assert all(row["status"] == "match-over" for row in response.json())
        link = response.get("Link")
        url = NEXT.match(link)["url"] if link else None
        pages += 1

    assert seen == newest_first
    assert pages == 3


def test_a_game_finished_between_two_pages_shifts_nothing(client, ada):
    games = games_of(ada, 4)
    for game in games[:3]:
        finish(game)
    first = client.get("/api/games?status=finished&limit=2")
    finish(games[3])  # now the newest finished game: it belongs to a first page, not the next

    following = client.get(NEXT.match(first["Link"])["url"])

    assert [row["id"] for row in first.json()] == [games[2].pk, games[1].pk]
    assert [row["id"] for row in following.json()] == [games[0].pk]
    assert "Link" not in following


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("before=999999", 404, "game-not-found"),
        ("before=abc", 400, None),
        ("limit=0", 400, None),
        ("limit=51", 400, None),
    ],
)
def test_a_bad_page_is_a_typed_error(client, ada, query, status, code):
    response = client.get(f"/api/games?status=finished&{query}")
    assert response.status_code == status
    body = response.json()
    assert body["code"] == (code or body["code"]) and body["code"]
    assert body["message"]


def test_the_lobby_shows_older_games_a_page_at_a_time(client, ada, monkeypatch):
    monkeypatch.setattr(lobby, "FINISHED_PAGE", 2)
    games = games_of(ada, 3)
    for game in games:
        finish(game)

    def shown(page: str) -> list[int]:
        return [int(pk) for pk in re.findall(r'aria-label="Open game (\d+)"', page)]

    first = client.get("/play/?show=finished").content.decode()
    older = re.search(r'href="\?show=finished&amp;before=(\d+)">Older games</a>', first)
    assert older and int(older[1]) == games[1].pk
    assert shown(first) == [games[2].pk, games[1].pk]

    second = client.get(f"/play/?show=finished&before={older[1]}").content.decode()
    assert shown(second) == [games[0].pk]
    assert "Older games" not in second

    assert client.get("/play/?show=finished&before=999999").status_code == 404
    assert client.get("/play/?show=finished&before=x").status_code == 400


def test_an_aborted_game_is_marked_so_and_a_finished_one_is_not(client, ada):
    aborted, other = games_of(ada, 2)
    finish(aborted)
    # The other is over too, but not by an abort: its last event is no game-aborted.
    Game.objects.filter(pk=other.pk).update(status=Game.Status.MATCH_OVER)

    html = client.get("/play/?show=finished").content.decode()
    cards = {
        int(found[1]): card
        for card in html.split('<li class="game')[1:]
        if (found := re.search(r'aria-label="Open game (\d+)"', card))
    }
    assert "Aborted</strong> by the staff" in cards[aborted.pk]
    assert "Aborted" not in cards[other.pk]
