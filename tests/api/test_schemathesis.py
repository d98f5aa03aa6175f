"""schemathesis against the whole OpenAPI schema: every operation, fuzzed through the WSGI app
with the auth its schema lists (a session, a personal token, a pull bot's token, or none),
against a world where the path parameters resolve (a game the person is to play in, a game
waiting for the pull bot, a finished game, the person's bots, a ladder, a club and a season),
so most requests reach real objects rather than 404s. Each answer must be no server error, a
status the schema lists for the operation, the content type it lists, and a body that matches
its schema. docs/api.md, "Bad input", lists what is left out and how to fuzz for longer.

Each operation is a test of its own in its own rolled-back transaction (a savepoint of the
class's, which holds the world, made once), so whatever one operation's examples change (a
resignation, a vacation, a new bot) never reaches another's.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_started
from django.db import close_old_connections
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import token_create, token_issue
from bots import turns
from bots.remote import tokens
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from tables import services as tables
from tests.games.factories import SHORT, make_game, make_user, play_to_end
from tests.league.factories import make_club, make_competition, make_season
from tests.tournaments.factories import make_tournament

# Examples per operation: enough to reach every documented branch of most operations within
# CI's budget; UNO_FUZZ_EXAMPLES=500 for a longer local run (docs/api.md, "Bad input").
EXAMPLES = int(os.environ.get("UNO_FUZZ_EXAMPLES", "30"))
# derandomize: CI fuzzes the same examples every run, so a failure there reproduces here.
# UNO_FUZZ_RANDOM=1 draws new ones each run (for a local hunt).
DERANDOMIZE = os.environ.get("UNO_FUZZ_RANDOM") != "1"
# Most requests name a real object; the rest keep the generated id, to fuzz the 404s too.
REAL_OBJECTS = 0.85

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

# GET /api/health answers 503 by design while a part is down (here: no Celery worker runs), with
# the body its schema lists; every other check still applies to it.
HEALTH_CHECKS = [check for check in CHECKS if check is not not_a_server_error]

# What the fuzzer must not do with the credential it is sending: rotating or revoking the
# personal token it authenticates with would turn every later example of the operation into
# a 401 `token-invalid`. These run with the session only (rotating the token leaves
# the session open); tests/api/test_personal_tokens.py covers them with the token.
SESSION_ONLY = {("POST", "/api/me/token"), ("DELETE", "/api/me/token")}

# Keys that were never issued, sent to every operation: a wrong key is refused (403 or 401) and
# never read as anonymous.
WRONG_KEYS = {"wrong-token": "Token not-a-key", "wrong-bot-token": "Bot not-a-token"}

# The schema /api/schema/ serves (test_the_served_schema_is_the_one_fuzzed checks it): drf-
# spectacular's generator, run at import so that each operation becomes a test of its own.
DOCUMENT = SchemaGenerator().get_schema(request=None, public=True)
schema = schemathesis.openapi.from_dict(DOCUMENT)
schema.app = WSGIHandler()


@dataclass
class World:
    person: Any
    session: str
    csrf: str
    personal_token: str
    pull_bot: Bot
    bot_token: str
    # The person is to play in it (seat 0 against a built-in bot).
    my_game: Game
    # Waiting for the pull bot's decision (seat 1).
    bot_game: Game
    finished: Game
    ladder: str
    club: str
    season: str
    # An open table someone else opened (four seats: joins and leaves reach it).
    table: int
    # A tournament taking entries (the person may enter and withdraw).
    tournament: str
    # The person's second personal token (not the one the fuzzer sends): revoked by id.
    other_token: int

    def paths(self) -> dict[str, list[Any]]:
        games = [self.my_game.pk, self.bot_game.pk, self.finished.pk]
        return {
            "game_id": games,
            "bot_id": [self.pull_bot.pk],
            "slug": [self.ladder, self.club, self.season, self.tournament],
            "username": [self.person.username],
            "table_id": [self.table],
            "token_id": [self.other_token],
        }


@pytest.fixture(scope="class")
def world(class_transaction: None) -> World:
    """The objects the fuzzer's path parameters point at, and the credentials it sends: made
    once for the class (about 0.1 s of CPU each time, for each of some 70 operations)."""
    person = make_user("fuzzer")
    client = Client()
    client.force_login(person)
    pull_bot = Bot.objects.create(
        owner=person, name="fuzz-poller", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    bot_game = game_create(
        variant_spec=SHORT,
        seats=[SeatSpec(bot="greedy"), SeatSpec(registered=pull_bot), SeatSpec(bot="random")],
        seed=9,
    )
    turns.advance_game(game_id=bot_game.pk)
    bot_game.refresh_from_db()
    assert bot_game.to_act == [1], "the pull bot's decision is pending"
    my_game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=person), SeatSpec(bot="greedy")], seed=4
    )
    turns.advance_game(game_id=my_game.pk)
    my_game.refresh_from_db()
    assert my_game.to_act == [0], "the person is to play"
    finished = make_game(
        players=0,
        bots=["greedy", "random"],
        spec={"rules": "official", "options": {"scoring": "single-hand", "hand_size": 1}},
    )
    play_to_end(finished.pk)
    club, _, _ = make_club(admin=person, members=1)
    season = make_season(club, person)
    ladder = make_competition(slug="fuzz-ladder", name="Fuzz ladder")
    table = tables.open_table(opener=make_user("fuzz-opener"), variant_spec=SHORT, seats=4)
    return World(
        person=person,
        session=client.cookies["sessionid"].value,
        # A CSRF secret: Django accepts the same 32 characters in the cookie and the header.
        csrf=secrets.token_hex(16),
        personal_token=token_issue(user=person),
        pull_bot=pull_bot,
        bot_token=tokens.issue_token(pull_bot),
        my_game=my_game,
        bot_game=bot_game,
        finished=finished,
        ladder=ladder.slug,
        club=club.slug,
        season=season.slug,
        table=table.pk,
        tournament=make_tournament(slug="fuzz-cup").slug,
        other_token=token_create(user=person, name="fuzz-ci")[0].pk,
    )


@pytest.fixture
def wsgi_host(settings: Any) -> None:
    """The WSGI client's Host."""
    settings.ALLOWED_HOSTS = ["localhost"]


@pytest.fixture
def in_test_transaction() -> Iterator[None]:
    """Keep the test's database connection through the WSGI requests, as Django's test client
    does: the handler closes a connection found inside a transaction when a request starts,
    which would end the test's own transaction (and its isolation) mid-test."""
    request_started.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)


def schemes(case: Any) -> list[str]:
    """The auths the operation's schema lists ("" for none: a public read), and a wrong key of
    each kind of token, which must be refused as documented wherever it is sent."""
    names = [next(iter(item), "") for item in case.operation.definition.raw.get("security", [])]
    if (case.method, case.path) in SESSION_ONLY:
        names = [name for name in names if name == "cookieAuth"]
    return [*(names or [""]), *WRONG_KEYS]


def credentials(world: World, scheme: str) -> tuple[dict[str, str], dict[str, str]]:
    """The headers and cookies of one auth scheme."""
    if scheme == "cookieAuth":
        return {"X-CSRFToken": world.csrf}, {"sessionid": world.session, "csrftoken": world.csrf}
    if scheme == "personalToken":
        return {"Authorization": f"Token {world.personal_token}"}, {}
    if scheme == "botToken":
        return {"Authorization": f"Bot {world.bot_token}"}, {}
    if scheme in WRONG_KEYS:
        return {"Authorization": WRONG_KEYS[scheme]}, {}
    return {}, {}


class TestTheApiAnswersAsItsSchemaSays:
    """Every operation, each a test in a savepoint of the class's transaction."""

    @schema.parametrize()
    @schema.given(data=st.data())
    @settings(
        max_examples=EXAMPLES,
        derandomize=DERANDOMIZE,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def test_the_api_answers_as_its_schema_says(
        self, case, data, db, world, wsgi_host, in_test_transaction
    ):
        for name, choices in world.paths().items():
            if name in (case.path_parameters or {}) and data.draw(
                st.floats(0, 1).map(lambda x: x < REAL_OBJECTS), label=f"real {name}"
            ):
                case.path_parameters[name] = data.draw(st.sampled_from(choices), label=name)
        scheme = data.draw(st.sampled_from(schemes(case)), label="auth")
        checks = HEALTH_CHECKS if case.path == "/api/health" else CHECKS
        headers, cookies = credentials(world, scheme)
        case.call_and_validate(headers=headers, cookies=cookies, checks=checks)


def test_the_served_schema_is_the_one_fuzzed(client):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    assert response.json() == DOCUMENT


@pytest.mark.parametrize(
    "path", ["/api/games/{game}", "/api/games/{game}/events", "/api/clubs", "/api/players/{user}"]
)
def test_a_wrong_personal_token_is_refused_on_the_public_reads_too(db, client, path):
    """As the schema now lists (401): a key never issued is refused, not read as anonymous."""
    person = make_user()
    game = make_game(players=1, bots=["greedy"])
    url = path.format(game=game.pk, user=person.username)
    assert client.get(url).status_code == 200
    response = client.get(url, HTTP_AUTHORIZATION="Token not-a-key")
    assert response.status_code == 401
    assert response.json()["code"] == "token-invalid"
