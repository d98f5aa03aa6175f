"""A person's seasons a page at a time on their player page and in GET /api/players/<username>
(league/selectors.py player_page: newest first, a keyset), with a number of queries that does
not grow with the seasons they entered (every season's tables read at once)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league import standings
from league.clubs import club_join
from league.models import Season
from league.seasons import season_close, season_enter
from tests.league.factories import make_bot, make_club, make_season

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def seasons_of(person, count: int, *, first: int = 0) -> list[Season]:
    """`count` seasons a week apart that `person` entered (with a bot), every other closed."""
    club, admin, _ = make_club()
    club_join(club=club, user=person, code=club.invite_code)
    made = []
    for number in range(first, first + count):
        season = make_season(
            club, admin, start_date=datetime.date(2026, 1, 5) + datetime.timedelta(weeks=number)
        )
        season_enter(season=season, actor=admin, user=person)
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin))
        if number % 2:
            Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)
            season_close(season=season, admin=admin)
        made.append(season)
    return made


@pytest.fixture
def ada():
    from tests.games.factories import make_user

    return make_user("ada")


def test_the_api_lists_a_persons_seasons_a_page_at_a_time(ada):
    newest = [season.slug for season in reversed(seasons_of(ada, 3))]
    client = Client()

    first = client.get("/api/players/ada?limit=2")
    assert [row["season"]["slug"] for row in first.json()["seasons"]] == newest[:2]
    assert all(row["line"]["entrant"]["username"] == "ada" for row in first.json()["seasons"])
    second = client.get(NEXT.match(first["Link"])["url"])
    assert [row["season"]["slug"] for row in second.json()["seasons"]] == newest[2:]
    assert "Link" not in second
    # The record per family is the person's whole record on every page.
    assert first.json()["families"] == second.json()["families"]


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("before=999999", 404, "not-found"),
        ("before=abc", 400, "invalid"),
        ("limit=0", 400, "invalid"),
        ("limit=21", 400, "invalid"),
    ],
)
def test_a_bad_page_of_seasons_is_a_typed_error(ada, query, status, code):
    response = Client().get(f"/api/players/ada?{query}")
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["message"]


def test_the_player_page_shows_older_seasons_a_page_at_a_time(ada, monkeypatch):
    monkeypatch.setattr(standings, "PLAYER_SEASONS", 2)
    seasons = seasons_of(ada, 3)
    client = Client()

    def shown(html: str) -> list[str]:
        return re.findall(r'href="/seasons/([\w-]+)/"', html.split('id="seasons-heading"')[1])

    first = client.get("/players/ada/").content.decode()
    older = re.search(r'href="\?before=(\d+)#seasons-heading">Older seasons</a>', first)
    assert older and int(older[1]) == seasons[1].pk
    assert shown(first)[:2] == [seasons[2].slug, seasons[1].slug]
    second = client.get(f"/players/ada/?before={older[1]}").content.decode()
    assert shown(second)[:1] == [seasons[0].slug]
    assert "Older seasons" not in second and "The newest seasons" in second

    # A season somebody else entered is no place in ada's list.
    (elsewhere,) = seasons_of(make_bot().owner, 1)
    assert client.get(f"/players/ada/?before={elsewhere.pk}").status_code == 404
    assert client.get("/players/ada/?before=x").status_code == 400


def test_a_players_queries_do_not_grow_with_their_seasons(ada):
    client = Client()

    def counted() -> list[int]:
        found = []
        for url in ("/players/ada/", "/api/players/ada"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            found.append(len(queries))
        return found

    seasons_of(ada, 2)
    few = counted()
    seasons_of(ada, 5, first=2)
    assert all(now <= before for now, before in zip(counted(), few, strict=True))
