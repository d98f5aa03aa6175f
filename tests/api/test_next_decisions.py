"""A command's answer carries `next`: what the game waits for from the sender's seats right
after it, exactly what a fresh read would show them (GET /api/bot/decisions for a pull bot,
GET /api/games/<id> for a person), so a client needs no read between two of its own moves.
Nothing in it is more than the sender's own view."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.services import token_issue
from bots.remote import tokens
from games.creation import SeatSpec, game_create
from games.models import Bot
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db

OUT_OF_TURN = {"catch", "call-uno"}


def in_turn(legal: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [c for c in legal if c["type"] not in OUT_OF_TURN and c.get("seat") == seat]


def test_a_pull_bot_s_next_is_what_its_decisions_list_now() -> None:
    bot = Bot.objects.create(owner=make_user(), name="both", kind=Bot.Kind.PULL, status="active")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(registered=bot)] * 2, seed=11)
    rng = random.Random(3)
    decision = next(d for d in client.get("/api/bot/decisions").json() if not d["optional"])
    checked = 0
    for _ in range(40):
        body = {
            "command": rng.choice(in_turn(decision["legal"], decision["seat"])),
            "expected_version": decision["version"],
        }
        answer = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json").json()
        listed = [d for d in client.get("/api/bot/decisions").json() if not d["optional"]]
        if not listed:
            assert answer["next"] == []
            break
        # The bot holds both seats: the game always waits for one of them.
        assert len(answer["next"]) == 1
        (offered,) = answer["next"]
        assert offered["version"] == answer["version"]
        assert {k: v for k, v in offered.items() if k != "deadline"} == {
            k: v for k, v in listed[0].items() if k != "deadline"
        }
        assert offered["deadline"][:16] == listed[0]["deadline"][:16]
        decision = offered
        checked += 1
    assert checked >= 20


def test_a_person_s_next_is_their_own_view_and_only_when_the_game_waits_for_them() -> None:
    people = [make_user(), make_user()]
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(user=p) for p in people], seed=4)
    clients = []
    for person in people:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=person)}")
        clients.append(client)
    rng = random.Random(8)
    waited_again = stayed_quiet = 0
    for _ in range(60):
        detail = clients[0].get(f"/api/games/{game.pk}").json()
        if detail["status"] != "playing":
            break
        seat = detail["view"]["to_act"][0]
        detail = clients[seat].get(f"/api/games/{game.pk}").json()
        body = {
            "command": rng.choice(in_turn(detail["legal"], seat)),
            "expected_version": detail["version"],
        }
        answer = clients[seat].post(f"/api/games/{game.pk}/commands", body, format="json").json()
        fresh = clients[seat].get(f"/api/games/{game.pk}").json()
        if fresh["status"] == "playing" and seat in fresh["view"]["to_act"]:
            (offered,) = answer["next"]
            assert offered["seat"] == seat and offered["version"] == fresh["version"]
            assert offered["legal"] == fresh["legal"]
            view = {k: v for k, v in offered["view"].items() if k not in ("version", "legal")}
            assert view == fresh["view"]
            waited_again += 1
        else:
            assert answer["next"] == []
            stayed_quiet += 1
    # Both happened: a draw leaves the drawer to decide; most moves hand the turn over.
    assert waited_again and stayed_quiet
