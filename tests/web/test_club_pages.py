"""A club's page and GET /api/clubs/<slug> as the club grows: seasons a page at a time (newest
first, a keyset: league/selectors.py club_seasons), and a number of queries that does not grow
with the seasons (the all-time table reads every season's tables at once:
league/standings.py seasons_tables)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import selectors
from league.models import Season
from league.seasons import season_close, season_enter
from tests.league.factories import make_bot, make_club, make_season

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def add_seasons(club, admin, count: int, *, first: int = 0) -> list[Season]:
    """`count` seasons a week apart, each with two bots entered; every other one closed (its
    final table archived), the rest drafts (their tables read from the projection)."""
    made = []
    for number in range(first, first + count):
        season = make_season(
            club, admin, start_date=datetime.date(2026, 1, 5) + datetime.timedelta(weeks=number)
        )
        for _ in range(2):
            season_enter(season=season, actor=admin, bot=make_bot(owner=admin))
        if number % 2:
            Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)
            season_close(season=season, admin=admin)
        made.append(season)
    return made


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_api_lists_a_clubs_seasons_a_page_at_a_time(client):
    club, admin, _ = make_club()
    seasons = add_seasons(club, admin, 5)
    newest = [season.slug for season in reversed(seasons)]

    first = client.get(f"/api/clubs/{club.slug}?limit=2")
    assert first.status_code == 200
    assert [row["slug"] for row in first.json()["seasons"]] == newest[:2]
    url = NEXT.match(first["Link"])["url"]
    assert f"before={seasons[3].pk}" in url
    second = client.get(url)
    assert [row["slug"] for row in second.json()["seasons"]] == newest[2:4]
    third = client.get(NEXT.match(second["Link"])["url"])
    assert [row["slug"] for row in third.json()["seasons"]] == newest[4:]
    assert "Link" not in third
    # The all-time table counts every season whatever the page: 10 entrants, one season each.
    assert len(first.json()["all_time"]) == len(third.json()["all_time"]) == 10


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("before=999999", 404, "not-found"),
        ("before=abc", 400, "invalid"),
        ("before=0", 400, "invalid"),
        ("limit=0", 400, "invalid"),
        ("limit=21", 400, "invalid"),
    ],
)
def test_a_bad_page_of_seasons_is_a_typed_error(client, query, status, code):
    club, _, _ = make_club()
    response = client.get(f"/api/clubs/{club.slug}?{query}")
    assert response.status_code == status
    assert response.json()["code"] == code
    assert response.json()["message"]


def test_a_season_of_another_club_is_no_page_of_this_one(client):
    club, admin, _ = make_club()
    other, other_admin, _ = make_club()
    (elsewhere,) = add_seasons(other, other_admin, 1)
    assert client.get(f"/api/clubs/{club.slug}?before={elsewhere.pk}").status_code == 404
    assert client.get(f"/clubs/{club.slug}/?before={elsewhere.pk}").status_code == 404


def test_the_club_page_shows_older_seasons_a_page_at_a_time(client, monkeypatch):
    monkeypatch.setattr(selectors, "SEASONS_PAGE", 2)
    club, admin, _ = make_club()
    seasons = add_seasons(club, admin, 3)

    def shown(page: str) -> list[str]:
        return re.findall(r'href="/seasons/([\w-]+)/"', page)

    first = client.get(f"/clubs/{club.slug}/").content.decode()
    older = re.search(r'href="\?before=(\d+)#seasons-title">Older seasons</a>', first)
    assert older and int(older[1]) == seasons[1].pk
    assert sorted(shown(first)) == sorted([seasons[2].slug, seasons[1].slug])

    second = client.get(f"/clubs/{club.slug}/?before={older[1]}").content.decode()
    assert shown(second) == [seasons[0].slug]
    assert "Older seasons" not in second
    assert "The newest seasons" in second

    assert client.get(f"/clubs/{club.slug}/?before=999999").status_code == 404
    assert client.get(f"/clubs/{club.slug}/?before=x").status_code == 400


def test_a_clubs_queries_do_not_grow_with_its_seasons(client):
    club, admin, _ = make_club()
    client.force_login(admin)
    add_seasons(club, admin, 2)
    page, api = queries(client, f"/clubs/{club.slug}/"), queries(client, f"/api/clubs/{club.slug}")
    add_seasons(club, admin, 6, first=2)
    assert queries(client, f"/clubs/{club.slug}/") <= page
    assert queries(client, f"/api/clubs/{club.slug}") <= api


def test_the_all_time_table_adds_each_season_as_it_closes_to_the_seasons_still_open(client):
    # One bot in three seasons: two closed (the club's rows), one a draft (read from its table).
    club, admin, _ = make_club()
    bot = make_bot(owner=admin)
    seasons = [
        make_season(club, admin, start_date=datetime.date(2026, 1, 5) + datetime.timedelta(weeks=n))
        for n in range(3)
    ]
    for season in seasons:
        season_enter(season=season, actor=admin, bot=bot)
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin))
    for season in seasons[:2]:
        Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)
        season_close(season=season, admin=admin)

    lines = {
        line["entrant"]["name"]: line
        for line in client.get(f"/api/clubs/{club.slug}").json()["all_time"]
    }
    # Nothing played: each closed season's top division has every entrant sharing first place,
    # so a title each; the draft season counts as entered, with no title.
    assert (lines[bot.name]["seasons"], lines[bot.name]["titles"]) == (3, 2)
    assert len(lines) == 1 + 3
    assert sorted(line["seasons"] for line in lines.values()) == [1, 1, 1, 3]
    # Closing the draft too adds it once, not again on every read.
    Season.objects.filter(pk=seasons[2].pk).update(status=Season.Status.RUNNING)
    season_close(season=seasons[2], admin=admin)
    again = client.get(f"/api/clubs/{club.slug}").json()["all_time"]
    line = next(line for line in again if line["entrant"]["name"] == bot.name)
    assert (line["seasons"], line["titles"]) == (3, 3)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f'<a href="/bots/{bot.pk}/">{bot.name}</a>' in page
