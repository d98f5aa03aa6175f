"""No card reaches an API viewer who may not see it, in any family: at every step of a match
played by people, GET /api/games/{id} as each seat and as a spectator shows its own hand and
nothing of the others' hands, the draw pile, a hidden lane, someone else's drawn card or a
censorship submission; the events feed shows each event as the engine redacts it."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from bots.strategies import find_strategy
from engine import DECK
from games import event_reads, lobby
from games.actors import SYSTEM
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.models import Game
from games.repository import repository
from games.visibility import game_view
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

FAMILIES = {
    "official": {"rules": "official"},
    "basic-plus": {"rules": "basic-plus"},
    "newno": {"rules": "newno"},
    "censorship": {"rules": "censorship"},
    "precognitive-blind": {"rules": "official", "precognitive": {"lane": 2, "sight": "blind"}},
    "precognitive-sighted": {
        "rules": "basic-plus",
        "precognitive": {"lane": 2, "sight": "sighted"},
    },
}
# Keys a view may have before the match is over: none of them holds another seat's cards.
VIEW_KEYS = {
    "rules", "seat", "seats", "hand", "hand_sizes", "lane", "top", "color", "direction",
    "to_act", "pending", "uncalled", "draw_pile", "discard_pile", "hand_number", "dealer",
    "scores", "hands_won", "last_hand", "status", "winner", "places", "submission",
}  # fmt: skip
CARDS = set(DECK)
EXPECTED_PENDING = {
    "censorship": "ruling",
    "precognitive-blind": "precommit",
    "precognitive-sighted": "precommit",
}
STEPS = 60


def people_game(spec: dict) -> tuple[Game, list]:
    people = [make_user() for _ in range(4)]
    ages = [30 + n for n in range(4)] if spec["rules"] == "newno" else [None] * 4
    game = game_create(
        variant_spec=spec,
        seats=[SeatSpec(user=user, age=age) for user, age in zip(people, ages, strict=True)],
        seed=21,
    )
    return game, people


def cards_in(value) -> list[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return [value] if value in CARDS else []
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in(item)]
    if isinstance(value, list):
        return [card for item in value for card in cards_in(item)]
    return []


def check_view(detail: dict, state, variant, seat: int | None) -> None:
    view = detail["view"]
    assert set(view) <= VIEW_KEYS, set(view) - VIEW_KEYS
    assert view["draw_pile"] == len(state.draw)
    if seat is None:
        assert "hand" not in view and detail["legal"] == []
    else:
        assert view["hand"] == list(state.hands[seat])
    for owner, lane in enumerate(view["lane"]):
        if variant.ruleset.lane_visible(owner, seat):
            assert lane == list(state.lanes[owner])
        else:
            assert lane == [None] * len(state.lanes[owner])
    pending = view["pending"] or {}
    if pending.get("type") in ("drawn", "resubmit") and pending.get("seat") != seat:
        assert pending["card"] is None
    submission = view.get("submission")
    if submission and seat not in (submission["seat"], state.dealer):
        assert submission["card"] is None and submission["color"] is None
    # What the viewer's legal commands name is in its own hand or lane.
    own = set(state.hands[seat]) | set(state.lanes[seat]) if seat is not None else set()
    assert set(cards_in(detail["legal"])) <= own


@pytest.mark.parametrize("family", FAMILIES)
def test_no_api_view_shows_a_card_its_viewer_may_not_see(family):
    game, people = people_game(FAMILIES[family])
    rng = random.Random(5)
    strategy = find_strategy("greedy")
    seen = set()
    for _ in range(STEPS):
        variant, state, version = repository.state(game)
        if state.status != "playing":
            break
        seen.add((state.pending or {}).get("type"))
        for seat in [None, *range(4)]:
            viewer = people[seat] if seat is not None else None
            check_view(lobby.game_detail(game_id=game.pk, viewer=viewer), state, variant, seat)
        actor_seat = state.to_act[0]
        view = game_view(game_id=game.pk, viewer=SYSTEM, seat=actor_seat)
        command = strategy(view, view["legal"], rng)
        game_command(
            game_id=game.pk, actor=people[actor_seat], command=command, expected_version=version
        )
    # The secrets of the family were on the table at some step.
    assert EXPECTED_PENDING.get(family, "play") in seen
    variant, _, _ = repository.state(game)
    raw = [variant.view_event(event, 0) for event in event_reads.load(game.pk)]
    # The feed as the API serves it to seat 0 is the engine's redaction for seat 0.
    client = APIClient()
    client.force_login(people[0])
    feed = client.get(f"/api/games/{game.pk}/events").json()["events"]
    assert [item["event"] for item in feed] == raw
    spectator = APIClient().get(f"/api/games/{game.pk}/events").json()["events"]
    assert all("deck" not in item["event"] and "seed" not in item["event"] for item in spectator)
    assert not any(
        item["event"]["type"] == "cards-drawn" and cards_in(item["event"]["cards"])
        for item in spectator
    )
