"""Remote bots through a real `celery worker` process, real Redis and the test database.

A webhook bot served on loopback (tests/games/fake_bot.py) plays a whole match that the worker
drives, answering once too slowly and once with an illegal command; a pull bot, a thread of this
process polling the real HTTP API (pytest-django's live server), plays a whole match while the
worker moves the built-in seats.
"""

from __future__ import annotations

import json
import random
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bots.remote import tokens, validation, webhook
from bots.strategies import find_strategy
from engine import MATCH_OVER, PLAYING, State, Variant
from games import event_reads
from games.actors import actor_label
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Bot, Game, GameEvent
from tests.games.conftest import needs_postgresql
from tests.games.factories import make_user
from tests.games.fake_bot import FakeBot
from tests.games.workers import Worker, assert_finished_whole, sending_to, wait_for

pytestmark = [needs_postgresql, pytest.mark.django_db(transaction=True)]

# Short enough for a few seconds' play, long enough for dozens of remote decisions.
MATCH = {"rules": "official", "options": {"target": 100}}
LOOPBACK = "127.0.0.1,localhost"
# The worker suspends a bot after two strikes in a row, so the match below, with two strikes
# apart, stays unsuspended only because the good answers between them reset the count.
STRIKES_TO_SUSPEND = 2


@pytest.fixture(scope="module")
def worker(django_db_setup, redis_url) -> Iterator[Worker]:
    worker = Worker(
        redis_url,
        # The fake webhook bot listens on loopback, which the worker refuses without this.
        BOTS_ALLOW_LOOPBACK_URLS="1",
        BOTS_STRIKES_TO_SUSPEND=str(STRIKES_TO_SUSPEND),
        # urllib would send a loopback call through a proxy named in the environment.
        NO_PROXY=LOOPBACK,
        no_proxy=LOOPBACK,
    )
    worker.start()
    with sending_to(worker):
        yield worker


@dataclass(frozen=True, slots=True)
class Append:
    """One append of a game's log: its first version, command id, actor, and the state it was
    decided against (None for the match's start)."""

    version: int
    command_id: str
    actor: str
    before: State | None

    def waits_only_for(self, seat: int) -> bool:
        """Whether the game was waiting for `seat` alone: its turn, with no uno call owed that
        another seat could catch first."""
        state = self.before
        return (
            state is not None
            and state.status == PLAYING
            and state.to_act[:1] == (seat,)
            and not state.uncalled
        )


def appends(game_id: int) -> list[Append]:
    game = Game.objects.get(pk=game_id)
    variant = Variant.from_spec(game.variant)
    events = event_reads.load(game_id)
    starts = list(
        GameEvent.objects.filter(game_id=game_id)
        .exclude(command_id=None)
        .order_by("version")
        .values_list("version", "command_id", "actor")
    )
    ends = [version - 1 for version, _, _ in starts[1:]] + [len(events)]
    found = []
    state = None
    for (version, command_id, actor), end in zip(starts, ends, strict=True):
        found.append(Append(version, command_id, actor, state))
        state = variant.replay(events[version - 1 : end], state)
    return found


def wait_for_the_end(
    game: Game, worker: Worker, also: Callable[[], object] = lambda: False
) -> None:
    wait_for(
        lambda: also() or Game.objects.get(pk=game.pk).status == MATCH_OVER,
        timeout=60,
        what=lambda: f"game {game.pk} to end; worker log:\n{worker.output()[-3000:]}",
    )


def test_a_webhook_bot_plays_a_match_through_the_worker_with_a_slow_and_an_illegal_answer(
    worker,
):
    slow, illegal = 1, 3  # the numbers of the requests answered badly, good answers between
    with FakeBot() as fake:
        fake.plan, fake.delay = {slow: "slow", illegal: "illegal"}, 1.0
        bot = Bot.objects.create(
            owner=make_user(), name="hooky", kind=Bot.Kind.WEBHOOK, url=fake.url,
            secret="s3cret", status=Bot.Status.ACTIVE,
        )  # fmt: skip
        seats = [
            SeatSpec(registered=bot),
            SeatSpec(bot="greedy"),
            SeatSpec(bot="colour-control"),
            SeatSpec(bot="random"),
        ]
        timeout = GameSettings(bot_timeout=0.5)
        game = game_create(variant_spec=MATCH, seats=seats, seed=3, settings=timeout)
        wait_for_the_end(game, worker)
    assert_finished_whole(game.pk)

    for body, signature in fake.requests:
        assert webhook.verify("s3cret", body, signature)
    # The decisions the game waited for; out-of-turn windows (optional) are no calls.
    requests = [(json.loads(body), signature) for body, signature in fake.requests]
    requests = [(payload, sign) for payload, sign in requests if "optional" not in payload]
    assert len(requests) > illegal + 1, "the match ended before the planned answers"
    assert all(payload["game"] == game.pk and payload["seat"] == 0 for payload, _ in requests)
    asked = [payload["version"] for payload, _ in requests]
    assert len(set(asked)) == len(asked), "a decision was asked twice"

    # Every decision of the bot's seat was asked of it, one request and one append each; the
    # slow and the illegal one were played by the fallback, the others by the bot.
    label = actor_label(bot)
    log = appends(game.pk)
    decisions = {a.version - 1: a for a in log if a.waits_only_for(0)}
    assert sorted(decisions) == asked
    fallback = {asked[slow], asked[illegal]}
    for version, append in decisions.items():
        if version in fallback:
            assert append.command_id == f"system/fallback:0:{version}"
            assert append.actor == "system"
        else:
            assert append.command_id == f"bot:#{bot.pk}/webhook:{version}"
            assert append.actor == label, version
    assert decisions[asked[slow + 1]].actor == decisions[asked[illegal + 1]].actor == label
    assert [a.version for a in log[1:] if a.actor == "system"] == sorted(v + 1 for v in fallback)

    bot.refresh_from_db()
    assert bot.calls == len(requests)
    assert (bot.timeouts, bot.illegal_answers, bot.errors) == (1, 1, 0)
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    assert bot.strikes == 0


class PullBot:
    """A pull bot in a thread: it polls the API over HTTP with its token and posts greedy's move
    for every decision, until stopped. What it posted and any error it met are kept."""

    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url
        self.token = token
        self.posted: list[str] = []
        self.error: BaseException | None = None
        self.stop = threading.Event()
        # No proxy from the environment between us and the live server on loopback.
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self.thread = threading.Thread(target=self.run, daemon=True)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.base_url + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Authorization": f"Bot {self.token}", "Content-Type": "application/json"},
        )
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def run(self) -> None:
        rng = random.Random(1)
        try:
            while not self.stop.is_set():
                status, decisions = self.call("GET", "/api/bot/decisions")
                assert status == 200, decisions
                if not decisions:
                    self.stop.wait(0.02)
                for decision in decisions:
                    if decision["optional"]:
                        continue  # out-of-turn windows: tests/games/test_remote_windows.py
                    command = find_strategy("greedy")(decision["view"], decision["legal"], rng)
                    command_id = f"pull:{decision['version']}"
                    body = {
                        "command": command,
                        "expected_version": decision["version"],
                        "command_id": command_id,
                    }
                    path = f"/api/bot/games/{decision['game']}/commands"
                    status, answer = self.call("POST", path, body)
                    assert status == 200, (status, answer)
                    self.posted.append(command_id)
        except BaseException as error:  # handed to the test's thread
            self.error = error

    def __enter__(self) -> PullBot:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=15)


def test_a_pull_bot_plays_a_match_over_http_while_the_worker_moves_the_builtin_bots(
    worker, live_server
):
    bot = Bot.objects.create(
        owner=make_user(), name="poller", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    token = tokens.issue_token(bot)
    seats = [
        SeatSpec(bot="greedy"),
        SeatSpec(registered=bot),
        SeatSpec(bot="colour-control"),
        SeatSpec(bot="random"),
    ]
    with PullBot(live_server.url, token) as pull:
        game = game_create(variant_spec=MATCH, seats=seats, seed=5)
        wait_for_the_end(game, worker, also=lambda: pull.error)
    if pull.error is not None:
        raise pull.error
    assert_finished_whole(game.pk)

    # Each of the bot's decisions was its own command; none was the fallback's.
    label = actor_label(bot)
    log = appends(game.pk)
    decisions = [a for a in log if a.waits_only_for(1)]
    # How many depends on the deal and the bots' seeded choices (seeded by the game's id too).
    assert decisions
    assert all(a.actor == label for a in decisions)
    stored = sorted(a.command_id for a in log if a.actor == label)
    assert stored == sorted(f"bot:#{bot.pk}/{posted}" for posted in pull.posted)
    assert [a for a in log[1:] if a.actor == "system"] == []
    # The built-in seats were moved by the worker (this process ran no advance).
    assert any(a.command_id.startswith("system/advance:") for a in log)

    bot.refresh_from_db()
    assert bot.calls == len(pull.posted)
    assert (bot.strikes, bot.timeouts, bot.errors, bot.illegal_answers) == (0, 0, 0, 0)
    assert bot.status == Bot.Status.ACTIVE


def test_a_pull_bot_passes_its_validation_round_through_the_worker(worker, live_server):
    bot = Bot.objects.create(owner=make_user(), name="newcomer", kind=Bot.Kind.PULL)
    token = tokens.issue_token(bot)
    with PullBot(live_server.url, token) as pull:
        # The task would run this too; the round's games wait on the bot's polling.
        bot = validation.bot_validate(bot)
        assert bot.status == Bot.Status.VALIDATING
        wait_for(
            lambda: Bot.objects.get(pk=bot.pk).status != Bot.Status.VALIDATING or pull.error,
            timeout=120,
            what=lambda: f"the validation round to end; worker log:\n{worker.output()[-3000:]}",
        )
    if pull.error is not None:
        raise pull.error
    bot.refresh_from_db()
    # The worker's append listener sent settle_validation when the round's last game ended.
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    assert bot.status_reason == "passed 3 validation matches"
    games = validation.validation_games(bot.pk, bot.validation_round)
    assert games.count() == 3
    for game in games:
        assert_finished_whole(game.pk)
    assert bot.calls == len(pull.posted) > 0 and bot.strikes == 0
