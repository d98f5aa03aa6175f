"""Ladders over the API (api/ladders.py): the list with rules and entrants, a leaderboard
after real sets were played and rated, a bot's public record, and entering and leaving a
ladder with every refusal typed and nothing changed by it."""

from __future__ import annotations

import random
import re

import pytest
from django.db import transaction
from django.test import Client

from accounts.services import token_issue
from games import projections
from games.models import Bot
from league.ladders import ladder_matchmaking
from league.models import Entry
from tests.games.factories import make_user
from tests.league.factories import enter_bots, make_bot, make_competition

pytestmark = pytest.mark.django_db
CARD = re.compile(r"\b(red|yellow|green|blue)-(\d|skip|reverse|draw2)\b|\bwild\b")


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def post(client, path, body=None):
    return client.post(path, body or {}, content_type="application/json")


@pytest.fixture
def rated_ladder(eager_tasks):
    ladder = make_competition(seats_per_game=3, matchmaking=True, name="Bots", slug="bots")
    entries = enter_bots(ladder, 3)
    with transaction.atomic():
        ladder_matchmaking(ladder, rng=random.Random(3))
    projections.run("game-results")
    projections.run("ladder-ratings")
    return ladder, entries


@pytest.mark.django_db(transaction=True)
def test_the_list_shows_each_ladder_with_its_rules_and_entrants(rated_ladder):
    ladder, entries = rated_ladder
    body = Client().get("/api/ladders").json()
    [row] = body
    assert (row["slug"], row["family"], row["seats_per_game"]) == ("bots", "official", 3)
    assert row["duplicate"] is True and row["matchmaking"] is True
    assert sorted(e["bot_id"] for e in row["entrants"]) == sorted(e.bot_id for e in entries)
    assert {e["kind"] for e in row["entrants"]} == {"bot"}


@pytest.mark.django_db(transaction=True)
def test_the_leaderboard_ranks_the_rated_entrants_by_ordinal(rated_ladder):
    ladder, entries = rated_ladder
    response = Client().get("/api/ladders/bots")
    assert response.status_code == 200
    body = response.json()
    ranked = body["ranked"]
    assert len(ranked) == 3 and body["unranked"] == []
    ordinals = [line["ordinal"] for line in ranked]
    assert ordinals == sorted(ordinals, reverse=True)
    assert ranked[0]["rank"] == 1
    for line in ranked:
        assert line["ordinal"] == pytest.approx(line["mu"] - 3 * line["sigma"])
        assert (line["sets"], line["games"], line["kind"]) == (1, 3, "bot")
        assert len(line["trend"]) == 1
    assert not CARD.search(response.content.decode())


@pytest.mark.django_db(transaction=True)
def test_a_bots_record_has_its_history_head_to_head_and_games(rated_ladder):
    ladder, entries = rated_ladder
    bot = entries[0].bot
    response = Client().get(f"/api/bots/{bot.pk}")
    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["owner"], body["status"]) == (bot.name, bot.owner.username, "active")
    [record] = body["ladders"]
    assert record["ladder"]["slug"] == "bots"
    [change] = record["history"]
    assert len(change["places"]) == 3 and len(change["games"]) == 3
    assert sorted(h["games"] for h in record["head_to_head"]) == [3, 3]
    assert {game["what"] for game in body["recent_games"]} == {"ladder Bots"}
    assert all(game["finished"] for game in body["recent_games"])
    assert not CARD.search(response.content.decode())


def test_unknown_ladders_and_bots_are_404():
    for path in ("/api/ladders/nope", "/api/bots/999999"):
        response = Client().get(path)
        assert (response.status_code, response.json()["code"]) == (404, "not-found")


def test_an_owner_enters_a_validated_bot_and_takes_it_out():
    ladder = make_competition(slug="open")
    bot = make_bot()
    client = signed_in(bot.owner)
    response = post(client, "/api/ladders/open/enter", {"bot": bot.pk})
    assert response.status_code == 201
    assert response.json()["kind"] == "bot" and response.json()["active"] is True
    assert Entry.objects.get(competition=ladder, bot=bot).active

    response = post(client, "/api/ladders/open/leave", {"bot": bot.pk})
    assert (response.status_code, response.json()["active"]) == (200, False)
    assert not Entry.objects.get(competition=ladder, bot=bot).active


def test_a_person_enters_in_person_with_a_token():
    make_competition(slug="people")
    person = make_user()
    key = token_issue(user=person)
    response = Client().post(
        "/api/ladders/people/enter",
        {"person": True},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )
    assert response.status_code == 201
    assert response.json()["kind"] == "person"


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (Bot.Status.VALIDATING, "bot-validating"),
        (Bot.Status.SUSPENDED, "bot-suspended"),
        (Bot.Status.FAILED, "bot-failed"),
    ],
)
def test_a_bot_that_is_not_active_is_refused_with_its_reason(status, code):
    make_competition(slug="strict")
    bot = make_bot(status=status)
    response = post(signed_in(bot.owner), "/api/ladders/strict/enter", {"bot": bot.pk})
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert response.json()["message"]
    assert not Entry.objects.exists()


def test_refusals_change_nothing():
    ladder = make_competition(slug="busy")
    bot = make_bot()
    owner = signed_in(bot.owner)
    assert post(owner, "/api/ladders/busy/enter", {"bot": bot.pk}).status_code == 201

    again = post(owner, "/api/ladders/busy/enter", {"bot": bot.pk})
    assert (again.status_code, again.json()["code"]) == (400, "already-entered")
    stranger = post(signed_in(make_user()), "/api/ladders/busy/leave", {"bot": bot.pk})
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not-owner")
    absent = post(signed_in(make_user()), "/api/ladders/busy/leave", {"person": True})
    assert (absent.status_code, absent.json()["code"]) == (400, "not-entered")
    anonymous = post(Client(), "/api/ladders/busy/enter")
    assert anonymous.status_code in (401, 403)
    nowhere = post(owner, "/api/ladders/missing/enter", {"bot": bot.pk})
    assert (nowhere.status_code, nowhere.json()["code"]) == (404, "not-found")
    bad = post(owner, "/api/ladders/busy/enter", {"bot": "one"})
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    assert list(Entry.objects.filter(competition=ladder).values_list("bot", "active")) == [
        (bot.pk, True)
    ]


def test_a_bot_named_by_its_name_is_told_to_send_its_id_and_nothing_changes():
    make_competition(slug="open")
    bot = make_bot()
    owner = signed_in(bot.owner)

    for wrong in (bot.name, "", True, 7.5, [bot.pk]):
        response = post(owner, "/api/ladders/open/enter", {"bot": wrong})
        body = response.json()
        assert (response.status_code, body["code"]) == (400, "invalid"), wrong
        [said] = body["errors"]["bot"]
        assert "A bot's id, a whole number (not its name)" in said, wrong
        assert "GET /api/me/bots" in said and "/me/bots/" in said
    assert not Entry.objects.exists()
    # The id, as a number or as a string of digits, as ever.
    assert post(owner, "/api/ladders/open/enter", {"bot": str(bot.pk)}).status_code == 201
    assert post(owner, "/api/ladders/open/leave", {"bot": bot.pk}).status_code == 200


def test_a_league_is_not_a_ladder():
    make_competition(kind="league", slug="club-league")
    bot = make_bot()
    response = post(signed_in(bot.owner), "/api/ladders/club-league/enter", {"bot": bot.pk})
    assert (response.status_code, response.json()["code"]) == (404, "not-found")


def test_the_schema_describes_the_ladder_endpoints():
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/ladders", "/api/ladders/{slug}", "/api/ladders/{slug}/enter",
                 "/api/bots/{bot_id}"):  # fmt: skip
        assert path in schema["paths"]
    # An entry's `bot` is said to be the bot's id, not its name.
    for name in ("EntryInput", "TournamentEntryInput"):
        said = schema["components"]["schemas"][name]["properties"]["bot"]["description"]
        assert "Its id, as GET /api/me/bots lists it: not its name." in said
