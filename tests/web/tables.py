"""Set-up for the web tests: games where every seat is a person, moves played through the
services, and what a page shows (its card elements, its command forms)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from bots.strategies import find_strategy
from games.actors import Actor
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.models import Game
from games.repository import Loaded, repository
from games.visibility import game_events, view_of
from tests.games.factories import make_user
from tests.games.factories import owner as seat_owner

# One spec per family the play page must show (precognitive over official, blind and sighted).
FAMILIES: dict[str, dict[str, Any]] = {
    "official": {"rules": "official"},
    "basic-plus": {"rules": "basic-plus"},
    "newno": {"rules": "newno"},
    "censorship": {"rules": "censorship"},
    "precognitive-blind": {"precognitive": {"lane": 2, "sight": "blind"}},
    "precognitive-sighted": {"precognitive": {"lane": 2, "sight": "sighted"}},
}


def official_pair(first: Any, second: Any) -> Game:
    """An official game of two people as the browser tests know its deal (seed 2, the second
    seat deals)."""
    return game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=first), SeatSpec(user=second)],
        seed=2,
        dealer=1,
    )


_CARD = re.compile(r'data-card="([^"]+)"')
_COMMAND = re.compile(r'name="command" value="([^"]+)"')


def people_game(
    spec: dict[str, Any], *, seats: int = 4, seed: int = 1, **kwargs: Any
) -> tuple[Game, list[Any]]:
    """A game where every seat is a new person (newno gets ages): the game and its people."""
    people = [make_user() for _ in range(seats)]
    ages = spec.get("rules") == "newno"
    game = game_create(
        variant_spec=spec,
        seats=[SeatSpec(user=p, age=20 + i if ages else None) for i, p in enumerate(people)],
        seed=seed,
        **kwargs,
    )
    return game, people


def advance(game: Game, turns: int, seed: int = 3) -> Game:
    """Play `turns` moves (a greedy bot's choice for whoever must act), through the services.

    As play_turn's moves, but each decided from the state the last command left (its result's
    `loaded`) while no one else moved the game: inside a test's transaction no snapshot is
    kept, so every load folds the whole log (twice a move, it was most of a long game's cost)."""
    rng = random.Random(seed)
    greedy = find_strategy("greedy")
    owners: dict[int, Actor] = {}
    loaded: Loaded | None = None
    for _ in range(turns):
        game.refresh_from_db()
        if game.status == Game.Status.MATCH_OVER:
            break
        if loaded is None or loaded.version != game.version:
            loaded = repository.get(game.pk, game=game)
        seat = game.to_act[0]
        view = view_of(loaded, seat)
        command = greedy(view, view["legal"], rng)
        if seat not in owners:
            owners[seat] = seat_owner(game, seat)
        result = game_command(
            game_id=game.pk, actor=owners[seat], command=command, expected_version=loaded.version
        )
        loaded = result.loaded
    game.refresh_from_db()
    return game


def page_cards(html: str) -> Counter[str]:
    """The face-up cards a page draws: every card element names its card in data-card."""
    return Counter(_CARD.findall(html))


def page_commands(html: str) -> list[dict[str, Any]]:
    """The commands of a page's forms (the JSON in their hidden `command` fields)."""
    return [json.loads(_unescape(raw)) for raw in _COMMAND.findall(html)]


def _unescape(raw: str) -> str:
    return raw.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&")


def visible_cards(game: Game, viewer: int | None) -> Counter[str]:
    """The cards `viewer` (a seat, or None) may see, from the true state and docs/rules.md: its own
    hand, the top card, lanes as the sight rule allows, a censorship submission if it made or
    rules on it."""
    _, state, _ = repository.state(game)
    seen: Counter[str] = Counter()
    if state.discard:
        seen[state.discard[-1]] += 1
    if viewer is not None:
        seen.update(state.hands[viewer])
    sight = (game.variant.get("precognitive") or {}).get("sight")
    for owner, lane in enumerate(state.lanes):
        if sight == "telepathic" or (sight == "sighted" and owner == viewer):
            seen.update(lane)
    submission = state.extra.get("submission")
    if submission and viewer is not None and viewer in (submission["seat"], state.dealer):
        seen[submission["card"]] += 1
    return seen


def last_hand_cards(game: Game) -> Counter[str]:
    """The cards the last hand-ended event shows (public: every hand is shown at its end)."""
    events = game_events(game_id=game.pk, viewer=None)
    ended = [e["event"] for e in events if e["event"]["type"] == "hand-ended"]
    return Counter(card for hand in (ended[-1]["cards_left"] if ended else []) for card in hand)
