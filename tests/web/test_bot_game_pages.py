"""A bot's games a page at a time on its page and in GET /api/bots/<id> (league/ladder_reads.py
recent_games: newest first by game id, a keyset on the seats' index), with a number of queries
that does not grow with its games."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.creation import SeatSpec, game_create
from league import ladder_reads
from tests.games.factories import SHORT, make_user
from tests.web.ladder_pages import owned_bot

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def games_of(bot, count: int) -> list[int]:
    return [
        game_create(
            variant_spec=SHORT, seats=[SeatSpec(registered=bot), SeatSpec(bot="random")], seed=n
        ).pk
        for n in range(count)
    ]


def test_the_api_lists_a_bots_games_a_page_at_a_time():
    greta = owned_bot(make_user(), "Greta")
    newest = games_of(greta, 5)[::-1]
    client = Client()

    first = client.get(f"/api/bots/{greta.pk}?limit=2")
    assert [game["game"] for game in first.json()["recent_games"]] == newest[:2]
    url = NEXT.match(first["Link"])["url"]
    assert f"before={newest[1]}" in url and "limit=2" in url
    second = client.get(url)
    assert [game["game"] for game in second.json()["recent_games"]] == newest[2:4]
    third = client.get(NEXT.match(second["Link"])["url"])
    assert [game["game"] for game in third.json()["recent_games"]] == newest[4:]
    assert "Link" not in third


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("before=999999", 404, "game-not-found"),
        ("before=abc", 400, "invalid"),
        ("limit=0", 400, "invalid"),
        ("limit=21", 400, "invalid"),
    ],
)
def test_a_bad_page_of_a_bots_games_is_a_typed_error(query, status, code):
    greta = owned_bot(make_user(), "Greta")
    response = Client().get(f"/api/bots/{greta.pk}?{query}")
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["message"]


def test_the_bot_page_shows_older_games_a_page_at_a_time(monkeypatch):
    monkeypatch.setattr(ladder_reads, "RECENT_GAMES", 2)
    ada = make_user()
    greta = owned_bot(ada, "Greta")
    other = owned_bot(ada, "Other")
    games = games_of(greta, 3)
    (elsewhere,) = games_of(other, 1)
    client = Client()
    page = reverse("web:bot", args=[greta.pk])

    def shown(html: str) -> list[int]:
        return [int(pk) for pk in re.findall(r">Watch game (\d+)</a>", html)]

    first = client.get(page).content.decode()
    older = re.search(r'href="\?before=(\d+)#games-heading">Older games</a>', first)
    assert shown(first) == [games[2], games[1]]
    assert older and int(older[1]) == games[1]
    second = client.get(f"{page}?before={older[1]}").content.decode()
    assert shown(second) == [games[0]]
    assert "Older games" not in second

    # Another bot's game is no place in this bot's list.
    assert client.get(f"{page}?before={elsewhere}").status_code == 404
    assert client.get(f"{page}?before=x").status_code == 400
    # The owner's page pages the same way.
    owner = Client()
    owner.force_login(ada)
    mine = owner.get(f"{reverse('web:my-bot', args=[greta.pk])}?before={older[1]}")
    assert shown(mine.content.decode()) == [games[0]]


def test_a_bots_queries_do_not_grow_with_its_games():
    greta = owned_bot(make_user(), "Greta")
    client = Client()

    def counted() -> list[int]:
        found = []
        for url in (reverse("web:bot", args=[greta.pk]), f"/api/bots/{greta.pk}"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            found.append(len(queries))
        return found

    games_of(greta, 2)
    few = counted()
    games_of(greta, 25)
    assert all(now <= before for now, before in zip(counted(), few, strict=True))
    assert len(client.get(f"/api/bots/{greta.pk}").json()["recent_games"]) == 20


def test_a_bots_aborted_game_is_marked_so():
    from django.contrib.auth.models import User

    from staff.actions import game_abort

    greta = owned_bot(make_user(), "Greta")
    aborted, playing = games_of(greta, 2)
    game_abort(
        game_id=aborted, user=User.objects.create_user("staffer", is_staff=True), reason="test"
    )
    html = Client().get(reverse("web:bot", args=[greta.pk])).content.decode()
    assert "aborted" in html.split(f">Replay game {aborted}</a>")[1].split("</li>")[0]
    assert "aborted" not in html.split(f">Watch game {playing}</a>")[1].split("</li>")[0]
