"""A ladder's leaderboard a page at a time (league/ladder_reads.py board_page): the ranked lines
best first, then those off the board, on the ladder's page and in GET /api/ladders/<slug>, with
a number of queries that does not grow with the entrants."""

from __future__ import annotations

import re
from statistics import NormalDist

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league import ladder_reads
from league.models import Rating
from league.services import competition_join
from tests.games.factories import make_user
from tests.league.factories import enter_bots, make_bot, make_competition
from tests.web.ladder_pages import board_rows

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def ladder_of(ranked: int, unranked: int):
    """A ladder with `ranked` rated entrants (the first the best) and `unranked` never rated."""
    ladder = make_competition()
    entries = enter_bots(ladder, ranked + unranked)
    now = timezone.now()
    for number, entry in enumerate(entries[:ranked]):
        Rating.objects.create(
            competition=ladder, entry=entry, mu=40.0 - number, sigma=2.0, events=1, games=2,
            last_played=now, rated_at=now,
        )  # fmt: skip
    return ladder, entries


def test_the_api_pages_the_board_ranked_first_then_off_the_board():
    ladder, entries = ladder_of(3, 2)
    client = Client()

    first = client.get(f"/api/ladders/{ladder.slug}?limit=2")
    body = first.json()
    assert [line["entry"] for line in body["ranked"]] == [entries[0].pk, entries[1].pk]
    assert [line["rank"] for line in body["ranked"]] == [1, 2] and body["unranked"] == []
    url = NEXT.match(first["Link"])["url"]
    assert f"after={entries[1].pk}" in url
    second = client.get(url).json()
    # The last ranked line, then the first off the board (by name: made in order here).
    assert [line["entry"] for line in second["ranked"]] == [entries[2].pk]
    assert len(second["unranked"]) == 1
    third = client.get(NEXT.match(client.get(url)["Link"])["url"])
    assert third.json()["ranked"] == [] and len(third.json()["unranked"]) == 1
    assert "Link" not in third
    shown = {line["entry"] for line in second["unranked"] + third.json()["unranked"]}
    assert shown == {entries[3].pk, entries[4].pk}


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("after=999999", 404, "not-found"),
        ("after=abc", 400, "invalid"),
        ("limit=0", 400, "invalid"),
        ("limit=51", 400, "invalid"),
    ],
)
def test_a_bad_page_of_the_board_is_a_typed_error(query, status, code):
    ladder, _ = ladder_of(1, 0)
    response = Client().get(f"/api/ladders/{ladder.slug}?{query}")
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["message"]


def test_the_ladder_page_shows_the_board_a_page_at_a_time(monkeypatch):
    monkeypatch.setattr(ladder_reads, "BOARD_PAGE", 2)
    ladder, entries = ladder_of(3, 1)
    client = Client()
    page = f"/ladders/{ladder.slug}/"

    def ranks(html: str) -> int:
        board = html.split('id="board-heading"')[1].split('id="enter-heading"')[0]
        return len(re.findall(r"<tr", board)) - len(re.findall(r"<thead>\s*<tr", board))

    first = client.get(page).content.decode()
    further = re.search(r'href="\?after=(\d+)#board-heading">Further down the board</a>', first)
    assert further and int(further[1]) == entries[1].pk
    assert "Off the board" not in first
    second = client.get(f"{page}?after={further[1]}").content.decode()
    assert "Further down the board" not in second and "Off the board" in second
    assert "The top of the board" in second
    assert ranks(first) == 2 and ranks(second) == 2

    assert client.get(f"{page}?after=999999").status_code == 404
    assert client.get(f"{page}?after=x").status_code == 400


def test_the_boards_queries_and_size_do_not_grow_with_the_entrants():
    ladder, _ = ladder_of(3, 1)
    client = Client()

    def measured() -> list[tuple[int, int]]:
        found = []
        for url in (f"/ladders/{ladder.slug}/", f"/api/ladders/{ladder.slug}"):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200
            found.append((len(queries), len(response.content)))
        return found

    before = measured()
    # Many more entrants, ranked and not: the first page's queries stay, its lines stop at 50.
    enter_bots(ladder, 10)  # never rated
    now = timezone.now()
    for number, entry in enumerate(enter_bots(ladder, 60)):
        Rating.objects.create(
            competition=ladder, entry=entry, mu=10.0 - number / 100, sigma=2.0, events=1,
            games=2, last_played=now, rated_at=now,
        )  # fmt: skip
    after = measured()
    assert all(now[0] <= then[0] for now, then in zip(after, before, strict=True))
    body = client.get(f"/api/ladders/{ladder.slug}").json()
    assert len(body["ranked"]) + len(body["unranked"]) == 50


def test_a_page_of_the_board_ranks_as_the_whole_board_does():
    # Two entrants tied for second: the tie spans the pages' edge and keeps its shared rank.
    ladder = make_competition()
    entries = enter_bots(ladder, 5)
    now = timezone.now()
    for entry, mu in zip(entries[:4], (40.0, 30.0, 30.0, 20.0), strict=True):
        Rating.objects.create(
            competition=ladder, entry=entry, mu=mu, sigma=2.0, events=1, games=2,
            last_played=now, rated_at=now,
        )  # fmt: skip
    whole = ladder_reads.leaderboard(ladder, now=now)
    first = ladder_reads.board_page(ladder, limit=2, now=now)
    second = ladder_reads.board_page(ladder, after=first.after, limit=2, now=now)
    third = ladder_reads.board_page(ladder, after=second.after, limit=2, now=now)

    paged = [*first.ranked, *second.ranked, *third.ranked]
    assert [(line.entry.pk, line.rank) for line in paged] == [
        (line.entry.pk, line.rank) for line in whole.ranked
    ]
    assert [line.rank for line in paged] == [1, 2, 2, 4]
    assert [line.entry.pk for line in third.unranked] == [entries[4].pk]
    assert (first.ranked_end, second.ranked_end, third.ranked_end) == (False, False, True)
    assert third.after is None


def test_the_ordinal_is_said_with_the_certainty_it_has():
    """mu − 3 sigma is below the skill with the chance a normal law gives three sigmas on one
    side, 99.87%: not 99.7% (the chance of within three sigmas either side). The ladder's page
    and the people's ratings page say it alike."""
    ladder, _ = ladder_of(2, 0)
    one_sided = round(NormalDist().cdf(3) * 100, 1)

    for path in (f"/ladders/{ladder.slug}/", "/ratings/"):
        html = Client().get(path).content.decode()
        said = re.search(r"([\d.]+)% sure the skill is at least this", html)
        assert said is not None, path
        assert float(said[1]) == one_sided, path


def test_two_entrants_of_one_name_are_each_named_with_their_owner():
    # Each owner's "Gus" (a name is checked per owner only): the entrant cell tells them apart,
    # on the board and off it, and a name nobody shares stays as it is.
    ladder = make_competition()
    ana, bob, cy, dan = (make_user(name) for name in ("ana", "bob", "cy", "dan"))
    ranked = [competition_join(ladder, bot=make_bot(owner=ana, name="Gus"))]
    ranked.append(competition_join(ladder, bot=make_bot(owner=cy, name="Rex")))
    for owner, name in ((bob, "gus"), (bob, "Ida"), (dan, "Ida")):
        competition_join(ladder, bot=make_bot(owner=owner, name=name))
    now = timezone.now()
    for number, entry in enumerate(ranked):
        Rating.objects.create(
            competition=ladder, entry=entry, mu=40.0 - number, sigma=2.0, events=1, games=2,
            last_played=now, rated_at=now,
        )  # fmt: skip

    html = Client().get(f"/ladders/{ladder.slug}/").content.decode()

    rows = [cells for _, cells in board_rows(html)]
    assert [cells[:3] for cells in rows[:2]] == [
        ["1", "Gus (ana) bot", "ana"],
        ["2", "Rex bot", "cy"],
    ]
    # Off the board, by name: no rank.
    assert sorted(cells[0] for cells in rows[2:]) == [
        "Ida (bob) bot",
        "Ida (dan) bot",
        "gus (bob) bot",
    ]
