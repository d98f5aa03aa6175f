"""The bot schemas (api/decision_schemas.py): every payload a bot is sent or sends, of every
family and sight mode, validates against them; they name every command type and decision kind the
engine knows; they are served at /api/schemas/<name>.json and are in the OpenAPI document, the
webhook as an OpenAPI 3.1 `webhooks` entry."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from rest_framework.test import APIClient

from api import decision_schemas
from bots import driver
from bots.remote import tokens
from bots.remote.webhook_turns import request_body
from bots.strategies import find_strategy
from engine import MATCH_OVER, Variant
from engine.commands import FIELDS
from engine.rules import RULESETS
from engine.rules.precognitive import SIGHTS
from games.creation import SeatSpec, game_create
from games.models import Bot
from tests.api.test_schema import schema
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.games.fake_bot import webhook_bot
from tests.games.test_remote_windows import advance_until

VALIDATORS = {
    name: Draft202012Validator(decision_schemas.document(name), format_checker=FormatChecker())
    for name in decision_schemas.PUBLISHED
}


def valid(name: str, payload: Any) -> None:
    errors = sorted(VALIDATORS[name].iter_errors(payload), key=lambda e: list(e.path))
    assert not errors, f"{name}: {errors[0].message} at {list(errors[0].path)}\n{payload}"


def invalid(name: str, payload: Any) -> bool:
    return not VALIDATORS[name].is_valid(payload)


# Every family, and precognitive over official and basic-plus in every sight mode: a short target
# so a match is a few hands, and the built-in bot that knows the family.
SPECS: list[tuple[dict[str, Any], str]] = [
    ({"rules": "official", "options": {"target": 100}}, "greedy"),
    ({"rules": "basic-plus", "options": {"target": 100}}, "colour-control"),
    ({"rules": "newno", "options": {"target": 100}}, "stacker"),
    ({"rules": "censorship", "options": {"target": 100}}, "censor"),
    *(
        (
            {"rules": family, "options": {"target": 50}, "precognitive": {"sight": sight}},
            "lane-planner",
        )
        for family in ("official", "basic-plus")
        for sight in SIGHTS
    ),
]


def play_and_validate(spec: dict[str, Any], strategy: str, seed: int, seen: dict[str, set[str]]):
    """A whole match of built-in bots; at every step every seat's decision as the pull API
    lists it and the webhook request, the spectator's view, and the command sent, validated."""
    variant = Variant.from_spec(spec)
    state = variant.replay(variant.start(3, seed=seed))
    strategies = {seat: find_strategy(strategy) for seat in range(3)}
    rng = random.Random(seed)
    deadline = datetime(2026, 1, 1, 12, 0, 0, 123456, tzinfo=UTC)
    version = 0
    for _ in range(3000):
        for seat in range(3):
            view = variant.view(state, seat)
            legal = variant.legal_commands(state, seat)
            view["version"], view["legal"] = version, legal
            pull = {
                "game": 1,
                "variant": variant.spec,
                "seat": seat,
                "version": version,
                "view": view,
                "legal": legal,
                "deadline": deadline.isoformat(),
                "optional": seat not in state.to_act,
            }
            valid("decision", pull)
            webhook_view = variant.view(state, seat)
            valid(
                "webhook-request",
                request_body(
                    game_id=1,
                    variant=variant.spec,
                    seat=seat,
                    version=version,
                    view=webhook_view,
                    legal=legal,
                    deadline=deadline,
                    optional=seat not in state.to_act,
                ),
            )
            for command in legal:
                valid("webhook-answer", command)
        valid("view", variant.view(state, None))
        if state.pending is not None:
            seen[spec["rules"]].add(state.pending["type"])
        command = driver.next_command(variant, state, strategies, rng)
        if command is None:
            break
        valid("command-body", {"command": command, "expected_version": version})
        events, state = driver.step(variant, state, command)
        version += len(events)
    assert state.status == MATCH_OVER
    view = variant.view(state, 0)
    view["hands"] = [list(hand) for hand in state.hands]
    valid("view", view)


def test_a_match_of_each_family_validates_against_the_schemas():
    """The fast representative: newno, the family with the most decision kinds."""
    seen: dict[str, set[str]] = defaultdict(set)
    play_and_validate({"rules": "newno", "options": {"target": 100}}, "stacker", 1, seen)
    assert {"play", "first-play"} <= seen["newno"]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "strategy"), SPECS, ids=lambda v: str(v))
def test_every_family_and_sight_mode_validates_against_the_schemas(spec, strategy):
    seen: dict[str, set[str]] = defaultdict(set)
    for seed in range(2):
        play_and_validate(spec, strategy, seed, seen)
    family = spec["rules"]
    kinds = set(decision_schemas.DECISION_KINDS[family])
    if "precognitive" in spec:
        kinds |= set(decision_schemas.PRECOGNITIVE_KINDS)
    assert seen[family] <= kinds
    assert "play" in seen[family]


def test_the_schemas_name_every_command_type_family_and_decision_kind():
    command = decision_schemas.document("command")
    listed = {ref["$ref"].removeprefix("#/$defs/command-") for ref in command["oneOf"]}
    assert listed == set(FIELDS)
    assert set(decision_schemas.DECISION_KINDS) == set(RULESETS)
    for family, ruleset in RULESETS.items():
        # Every command a family handles is one the schema knows.
        assert set(ruleset.handlers) <= listed, family
        view = command["$defs"][f"view-{family}"]
        kinds = view["properties"]["pending"]["anyOf"][0]["properties"]["type"]["enum"]
        assert set(decision_schemas.DECISION_KINDS[family]) <= set(kinds)
    pending = command["$defs"]["pending"]["properties"]["type"]["enum"]
    assert set(pending) == decision_schemas.all_decision_kinds()


def test_the_schemas_refuse_what_the_engine_refuses():
    assert invalid("command", {"type": "fly", "seat": 0})
    assert invalid("command", {"type": "play", "seat": 0})  # no card
    assert invalid("command", {"type": "play", "seat": 0, "card": "red-11"})
    assert invalid("command", {"type": "choose-color", "seat": 0, "color": "pink"})
    assert invalid("command", {"type": "draw", "seat": 0, "card": "red-1"})
    assert invalid("command-body", {"command": {"type": "draw", "seat": 0}})
    assert not invalid("command", {"type": "play", "seat": 0, "card": "wild", "color": "red"})
    # A webhook bot lets a window go with null (or {}); nothing else but a command.
    assert not invalid("webhook-answer", None)
    assert not invalid("webhook-answer", {})
    assert invalid("webhook-answer", {"seat": 0})


@pytest.mark.django_db
def test_the_pull_api_s_decisions_and_commands_validate() -> None:
    bot = Bot.objects.create(owner=make_user(), name="typed", kind=Bot.Kind.PULL, status="active")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    spec = {"rules": "censorship", "options": {"target": 100}}
    game = game_create(variant_spec=spec, seats=[SeatSpec(registered=bot)] * 3, seed=5)
    rng = random.Random(5)
    for _ in range(25):
        decisions = client.get("/api/bot/decisions").json()
        valid("decisions", decisions)
        due = [d for d in decisions if not d["optional"]]
        if not due:
            break
        decision = due[0]
        mine = [c for c in decision["legal"] if c.get("seat") == decision["seat"]]
        body = {"command": rng.choice(mine), "expected_version": decision["version"]}
        valid("command-body", body)
        answer = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")
        assert answer.status_code == 200, answer.json()
        for offered in answer.json()["next"]:
            valid("decision", offered)


@pytest.mark.django_db
def test_a_pull_bots_decisions_carry_the_games_settings() -> None:
    """A view says the family (`rules`, a precognitive game's base) and no more: each decision
    carries the game's normalised spec, `variant`, as GET /api/games/<id> shows it: the target,
    the uno penalty, a precognitive game's lane and sight."""
    bot = Bot.objects.create(owner=make_user(), name="typed", kind=Bot.Kind.PULL, status="active")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    spec = {"rules": "official", "options": {"target": 150}, "precognitive": {"lane": 2}}
    game = game_create(variant_spec=spec, seats=[SeatSpec(registered=bot)] * 3, seed=5)
    shown = client.get(f"/api/games/{game.pk}").json()["variant"]
    assert shown["precognitive"]["lane"] == 2 and shown["options"]["target"] == 150

    (decision,) = [d for d in client.get("/api/bot/decisions").json() if not d["optional"]]

    valid("decision", decision)
    assert decision["view"]["rules"] == "official"  # the base family, as documented
    assert decision["variant"] == shown
    assert decision["variant"]["options"]["uno_penalty"] == 2
    assert decision["variant"]["precognitive"] == {"lane": 2, "sight": "sighted"}
    mine = [c for c in decision["legal"] if c.get("seat") == decision["seat"]]
    body = {"command": mine[0], "expected_version": decision["version"]}
    answer = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json").json()
    assert answer["next"] and all(offered["variant"] == shown for offered in answer["next"])
    # A variant is the game's settings, nothing else.
    assert invalid("decision", {**decision, "variant": {"rules": "official"}})
    assert invalid("decision", {k: v for k, v in decision.items() if k != "variant"})


@pytest.mark.django_db
def test_the_webhook_requests_a_bot_receives_validate(fake) -> None:
    """The requests a webhook bot really receives, in turn and in a newno jump-in window."""
    bot = webhook_bot(fake.url)
    seats = [
        SeatSpec(registered=bot, age=30),
        SeatSpec(bot="stacker", age=20),
        SeatSpec(bot="stacker", age=40),
        SeatSpec(bot="greedy", age=10),
    ]
    hands = [["red-2", "blue-2"], ["blue-2", "green-8"], ["green-3", "blue-4"]]
    hands.append(["red-1", "green-9"])
    deck = stacked(hands, "yellow-1", first=1)
    spec = {"rules": "newno", "options": {"target": 200, "hand_size": 2}}
    game = game_create(variant_spec=spec, seats=seats, deck=deck, dealer=0)
    advance_until(
        game,
        lambda game: len({json.loads(b).get("optional") for b, _ in fake.requests}) == 2,
        "a request in turn and one for a window",
    )
    for body, _ in fake.requests:
        valid("webhook-request", json.loads(body))
        assert json.loads(body)["variant"] == game.variant  # the game's settings, in each


@pytest.mark.django_db
def test_the_schemas_are_served_and_in_the_openapi_document() -> None:
    client = APIClient()
    for name in decision_schemas.PUBLISHED:
        answer = client.get(f"/api/schemas/{name}.json")
        assert answer.status_code == 200
        assert answer.json() == decision_schemas.document(name)
        Draft202012Validator.check_schema(answer.json())
    missing = client.get("/api/schemas/nothing.json")
    assert (missing.status_code, missing.json()["code"]) == (404, "not-found")

    document = schema()
    assert document["openapi"].startswith("3.1")
    components = document["components"]["schemas"]
    webhook = document["webhooks"]["decision"]["post"]
    request = webhook["requestBody"]["content"]["application/json"]["schema"]
    assert request["$ref"].endswith("/BotWebhookRequest")
    assert components["BotWebhookRequest"]["properties"]["view"]["$ref"].endswith("/BotView")
    decisions = document["paths"]["/api/bot/decisions"]["get"]["responses"]["200"]
    item = decisions["content"]["application/json"]["schema"]["items"]["$ref"].rsplit("/", 1)[1]
    assert components[item]["properties"]["view"]["$ref"].endswith("/BotView")
    assert components[item]["properties"]["legal"]["items"]["$ref"].endswith("/BotCommand")
