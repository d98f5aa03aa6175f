"""Tournaments over the API (api/tournaments.py): creating one, the list and a tournament with
its rounds and tables, entering and withdrawing with every refusal typed and nothing changed by
it, and the standings after a round was played."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games import projections
from games.models import Bot
from league.clubs import club_create
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import make_tournament, play_round
from tournaments.models import Entry, Tournament
from tournaments.rounds import tournament_advance
from tournaments.services import tournament_enter, tournament_start

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client, path, body=None):
    return client.post(path, body or {}, content_type="application/json")


def delete(client, path, body=None):
    return client.delete(path, body or {}, content_type="application/json")


def later(days: float = 1) -> str:
    return (timezone.now() + datetime.timedelta(days=days)).isoformat()


def test_a_person_runs_an_open_tournament_and_the_list_shows_it():
    ana = make_user("ana")
    answer = post(
        signed_in(ana),
        "/api/tournaments",
        {
            "name": "Autumn Swiss",
            "slug": "autumn-swiss",
            "variant": {"rules": "official"},
            "target": 100,
            "table_size": 3,
            "rounds": 2,
            "entry_closes": later(),
        },
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["slug"] == "autumn-swiss" and body["status"] == "open"
    assert body["variant"]["options"]["target"] == 100 and body["organiser"] == "ana"
    assert body["rounds_played"] == [] and body["club"] is None and body["bots_allowed"]

    listed = Client().get("/api/tournaments?status=open").json()
    assert [t["slug"] for t in listed] == ["autumn-swiss"]
    assert Client().get("/api/tournaments?status=finished").json() == []
    assert Client().get("/api/tournaments?status=nope").json()["code"] == "invalid"


@pytest.mark.parametrize(
    ("fields", "status", "code"),
    [
        ({"table_size": 9}, 400, "invalid"),
        ({"variant": {"rules": "chess"}}, 400, "invalid-variant"),
        ({"format": "round-robin"}, 400, "invalid"),
        ({"slug": "taken"}, 400, "slug-taken"),
        ({"site_wide": True}, 403, "not-staff"),
        ({"club": "their-club"}, 403, "not-club-admin"),
        ({"club": "no-club"}, 404, "not-found"),
    ],
)
def test_a_tournament_the_rules_refuse_is_a_typed_error_and_nothing_is_made(fields, status, code):
    ana = make_user()
    make_tournament(slug="taken")
    club_create(name="Their club", slug="their-club", creator=make_user())
    body = {
        "name": "Cup",
        "slug": "cup",
        "variant": {"rules": "official"},
        "entry_closes": later(),
        **fields,
    }
    answer = post(signed_in(ana), "/api/tournaments", body)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert not Tournament.objects.filter(organiser=ana).exists()


def test_a_clubs_tournament_refuses_a_non_members_bot_with_a_typed_error():
    """A stranger's bot once got into a club's tournament (201): it is its members'."""
    admin, stranger = make_user("ada"), make_user("sam")
    club = club_create(name="Riverside", slug="riverside", creator=admin)
    make_tournament(admin, slug="club-cup", club=club)
    bot = make_bot(owner=stranger)

    refused = post(signed_in(stranger), "/api/tournaments/club-cup/entry", {"bot": bot.pk})

    assert refused.status_code == 400
    assert refused.json()["code"] == "not-a-member"
    assert "Riverside" in refused.json()["message"]
    assert not Entry.objects.filter(bot=bot).exists()
    page = Client().get("/tournaments/club-cup/").content.decode()
    assert "members of Riverside and their bots" in page


def test_entering_and_withdrawing_with_every_refusal_typed():
    ana, bea = make_user("ana"), make_user("bea")
    cup = make_tournament(slug="cup", max_entrants=2, bots_allowed=False)
    client = signed_in(ana)

    entered = post(client, "/api/tournaments/cup/entry", {"person": True})
    assert entered.status_code == 201
    assert entered.json() == {
        "entry": Entry.objects.get(user=ana).pk,
        "tournament": "cup",
        "name": "ana",
        "kind": "person",
        "withdrawn": False,
        "paused": False,
    }
    again = post(client, "/api/tournaments/cup/entry", {"person": True})
    assert (again.status_code, again.json()["code"]) == (400, "already-entered")
    bot = Bot.objects.create(
        owner=ana, name="coco", kind="builtin", strategy="greedy", status="active"
    )
    by_bot = post(client, "/api/tournaments/cup/entry", {"bot": bot.pk})
    assert (by_bot.status_code, by_bot.json()["code"]) == (400, "bots-not-allowed")
    by_name = post(client, "/api/tournaments/cup/entry", {"bot": "coco"})
    assert (by_name.status_code, by_name.json()["code"]) == (400, "invalid")
    assert "A bot's id, a whole number (not its name)" in by_name.json()["errors"]["bot"][0]
    theirs = post(signed_in(bea), "/api/tournaments/cup/entry", {"bot": bot.pk})
    assert (theirs.status_code, theirs.json()["code"]) == (403, "not-owner")
    assert post(client, "/api/tournaments/cup/entry").json()["code"] == "entrant-missing"
    both = post(client, "/api/tournaments/cup/entry", {"person": True, "bot": bot.pk})
    assert both.json()["code"] == "entrant-ambiguous"
    assert post(signed_in(bea), "/api/tournaments/cup/entry", {"person": True}).status_code == 201
    full = post(signed_in(make_user()), "/api/tournaments/cup/entry", {"person": True})
    assert (full.status_code, full.json()["code"]) == (400, "tournament-full")
    assert post(Client(), "/api/tournaments/cup/entry", {"person": True}).status_code == 403
    assert post(client, "/api/tournaments/nope/entry", {"person": True}).status_code == 404

    left = delete(client, "/api/tournaments/cup/entry", {"person": True})
    assert left.status_code == 200 and left.json()["withdrawn"] is True
    twice = delete(client, "/api/tournaments/cup/entry", {"person": True})
    assert (twice.status_code, twice.json()["code"]) == (400, "not-entered")
    assert list(
        Entry.objects.filter(tournament=cup, withdrawn=False).values_list("user", flat=True)
    ) == [bea.pk]

    cup.entry_opens = timezone.now() - datetime.timedelta(minutes=2)
    cup.entry_closes = timezone.now() - datetime.timedelta(minutes=1)
    cup.save()
    closed = post(client, "/api/tournaments/cup/entry", {"person": True})
    assert (closed.status_code, closed.json()["code"]) == (400, "tournament-closed")


def test_the_standings_and_the_tables_after_a_round_of_bots():
    organiser = make_user()
    cup = make_tournament(organiser, slug="bots-cup", table_size=3, rounds=2)
    bots = [make_bot(strategy="greedy") for _ in range(4)]
    entries = [tournament_enter(cup, actor=organiser, bot=bot) for bot in bots]
    tournament_start(cup, actor=organiser)
    play_round(cup)
    tournament_advance(cup)
    projections.run("tournament-results")

    detail = Client().get("/api/tournaments/bots-cup").json()
    assert detail["status"] == "running" and [r["number"] for r in detail["rounds_played"]] == [
        1,
        2,
    ]
    first = detail["rounds_played"][0]
    seated = [seat["entry"] for table in first["tables"] for seat in table["seats"]]
    assert sorted(seated + [b["entry"] for b in first["byes"]]) == sorted(e.pk for e in entries)
    assert all(table["over"] for table in first["tables"])
    assert {seat["kind"] for table in first["tables"] for seat in table["seats"]} == {"bot"}

    lines = Client().get("/api/tournaments/bots-cup/standings").json()
    assert len(lines) == 4 and lines[0]["rank"] == 1
    assert sum(line["played"] for line in lines) == len(seated)
    assert [line["points"] for line in lines] == sorted(
        (line["points"] for line in lines), reverse=True
    )
    assert {line["kind"] for line in lines} == {"bot"}
    assert Client().get("/api/tournaments/nope/standings").json()["code"] == "not-found"


def test_an_arena_entrant_pauses_and_resumes_with_every_refusal_typed():
    ana = make_user("ana")
    client = signed_in(ana)
    make_tournament(slug="swiss-cup")
    arena = make_tournament(slug="arena-cup", format="arena", table_size=2)
    swiss = post(client, "/api/tournaments/swiss-cup/pause", {"person": True})
    assert (swiss.status_code, swiss.json()["code"]) == (400, "not-an-arena")
    stranger = post(client, "/api/tournaments/arena-cup/pause", {"person": True})
    assert (stranger.status_code, stranger.json()["code"]) == (400, "not-entered")
    assert post(client, "/api/tournaments/arena-cup/entry", {"person": True}).status_code == 201

    paused = post(client, "/api/tournaments/arena-cup/pause", {"person": True})
    assert paused.status_code == 200 and paused.json()["paused"] is True
    twice = post(client, "/api/tournaments/arena-cup/pause", {"person": True})
    assert (twice.status_code, twice.json()["code"]) == (400, "already-paused")
    assert post(client, "/api/tournaments/arena-cup/pause").json()["code"] == "entrant-missing"
    assert post(Client(), "/api/tournaments/arena-cup/pause", {"person": True}).status_code == 403

    resumed = delete(client, "/api/tournaments/arena-cup/pause", {"person": True})
    assert resumed.status_code == 200 and resumed.json()["paused"] is False
    again = delete(client, "/api/tournaments/arena-cup/pause", {"person": True})
    assert (again.status_code, again.json()["code"]) == (400, "not-paused")
    assert not Entry.objects.get(tournament=arena, user=ana).paused
    shown = client.get("/api/tournaments/arena-cup").json()
    assert shown["seed_by"] == "rating" and shown["format"] == "arena"


@pytest.mark.parametrize("debug", [False, True])
def test_the_ladders_paths_on_a_tournament_and_back_say_where_to_go(settings, debug):
    """Ladders take POST /enter and /leave, tournaments POST and DELETE /entry: a caller who
    uses one's path on the other gets the 404 `not-found` as before, whose message names the
    endpoint meant (with DEBUG on too, as `make run` serves it)."""
    settings.DEBUG = debug
    make_tournament(slug="cup")
    client = signed_in(make_user("ana"))

    for path in ("/api/tournaments/cup/enter", "/api/tournaments/cup/leave"):
        response = post(client, path, {"person": True})
        assert response.status_code == 404
        assert response.json() == {
            "code": "not-found",
            "message": f"There is no API endpoint at {path}. A tournament is entered with "
            "POST /api/tournaments/cup/entry and withdrawn from with DELETE "
            "/api/tournaments/cup/entry.",
        }
    response = post(client, "/api/ladders/bot-arena/entry", {"person": True})
    assert response.status_code == 404
    assert response.json()["code"] == "not-found"
    assert response.json()["message"].endswith(
        "A ladder is entered with POST /api/ladders/bot-arena/enter and left with POST "
        "/api/ladders/bot-arena/leave."
    )
    # Any other unknown path says only that.
    other = post(client, "/api/tournaments/cup/enroll", {"person": True})
    assert other.json()["message"] == "There is no API endpoint at /api/tournaments/cup/enroll."
    assert not Entry.objects.exists()
