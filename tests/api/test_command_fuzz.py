"""Bad commands through the API: arbitrary JSON commands and bodies (tests/engine/junk.py) posted
to POST /api/games/<id>/commands by the seated person (personal token) and to the pull bot's
POST /api/bot/games/<id>/commands by its bot token, against a real mid-game position.

Every refusal is a 4xx with {"code", "message"} (the code a reason, never a 500), and changes
nothing in the game: the same version, the same events, the same state. The rare bad-looking
command the rules accept is fine; each example runs in a savepoint rolled back afterwards, so
every one starts from the same position. The heavier run (every family, more examples) is
marked slow (UNO_SLOW_TESTS=1).
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.services import token_issue
from bots import turns
from bots.remote import tokens
from games.actors import SYSTEM
from games.creation import SeatSpec, game_create
from games.models import Bot, Game, GameEvent
from games.repository import repository
from games.visibility import game_view
from tests.engine.junk import CODE, bad_commands, json_values
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

SPECS: dict[str, dict[str, Any]] = {
    "official": {"rules": "official"},
    "basic-plus": {"rules": "basic-plus"},
    "newno": {"rules": "newno"},
    "censorship": {"rules": "censorship"},
    "precognitive": {"rules": "official", "precognitive": {"lane": 2, "sight": "sighted"}},
}


@dataclass
class Seated:
    client: APIClient
    game: Game
    url: str


def record(game: Game) -> tuple[int, int, bytes]:
    """The game's version, its event count and its folded state."""
    fresh = Game.objects.get(pk=game.pk)
    _, state, _ = repository.state(fresh)
    return fresh.version, GameEvent.objects.filter(game=fresh).count(), pickle.dumps(state)


def client_with(authorization: str) -> APIClient:
    # A 500 comes back as a response, so that an assertion (not an exception) reports it.
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=authorization)
    return client


def person_game(family: str) -> Seated:
    """A person (seat 0) against two built-in bots, advanced to the person's turn."""
    person = make_user()
    ages = {"age": 0} if family == "newno" else {}
    seats = [
        SeatSpec(user=person, **ages),
        SeatSpec(bot="greedy", **({"age": 1} if ages else {})),
        SeatSpec(bot="random", **({"age": 2} if ages else {})),
    ]
    game = game_create(variant_spec=SPECS[family], seats=seats, seed=5)
    turns.advance_game(game_id=game.pk)
    client = client_with(f"Token {token_issue(user=person)}")
    return Seated(client, game, f"/api/games/{game.pk}/commands")


def bot_game() -> Seated:
    """A pull bot (seat 1) whose decision the game waits for."""
    bot = Bot.objects.create(
        owner=make_user(), name="fuzzed", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    seats = [SeatSpec(bot="greedy"), SeatSpec(registered=bot), SeatSpec(bot="random")]
    game = game_create(variant_spec=SPECS["official"], seats=seats, seed=9)
    turns.advance_game(game_id=game.pk)
    client = client_with(f"Bot {tokens.issue_token(bot)}")
    return Seated(client, game, f"/api/bot/games/{game.pk}/commands")


def bodies(legal: list[dict[str, Any]], version: int) -> st.SearchStrategy[Any]:
    """Mostly a well-formed envelope at the right version around a bad command, so that the
    engine is reached; sometimes a wrong version or command id, or a body of any shape."""
    command = bad_commands(legal)
    envelope = st.fixed_dictionaries(
        {"command": command, "expected_version": st.just(version)},
        optional={"command_id": st.text(max_size=8) | json_values()},
    )
    anything = st.fixed_dictionaries(
        {},
        optional={"command": command | json_values(), "expected_version": json_values()},
    )
    return st.one_of(envelope, envelope, envelope, anything, json_values())


def fuzz(seated: Seated, examples: int) -> None:
    game = Game.objects.get(pk=seated.game.pk)
    # The acting seat's legal commands, for the near misses.
    seat = game.to_act[0] if game.to_act else None
    legal = game_view(game_id=game.pk, viewer=SYSTEM, seat=seat)["legal"]
    before = record(game)

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(body=bodies(legal, game.version))
    def run(body: Any) -> None:
        # Each example from the same position, and within the command rate limit.
        cache.clear()
        with transaction.atomic():
            response = seated.client.post(seated.url, body, format="json")
            status = response.status_code
            assert status < 500, (status, body, response.content[:300])
            answer = response.json()
            if status == 200:
                note("accepted")
            else:
                assert 400 <= status < 500, status
                assert set(answer) >= {"code", "message"}, answer
                assert isinstance(answer["code"], str) and CODE.match(answer["code"]), answer
                assert isinstance(answer["message"], str) and answer["message"], answer
                assert record(game) == before, f"a refused command changed game {game.pk}"
                note(f"{status} {answer['code']}")
            transaction.set_rollback(True)

    run()


def test_a_persons_bad_command_is_refused_with_a_code_and_changes_nothing():
    fuzz(person_game("official"), examples=120)


def test_a_pull_bots_bad_command_is_refused_with_a_code_and_changes_nothing():
    fuzz(bot_game(), examples=120)


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(SPECS))
def test_a_bad_command_is_refused_in_every_family(family):
    fuzz(person_game(family), examples=1000)
