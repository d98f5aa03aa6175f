"""Each starter kit (starters/python, starters/javascript), unmodified, against the real server,
in both protocols, as its README tells an author to use it: a personal token with scope `bots`
is all it has.

The site is pytest-django's live server on loopback, on PostgreSQL; a real `celery worker`
(Redis) plays the bots' turns, as in production. `register new` registers the bot over HTTP,
waits while it passes its validation round (3 matches to 50 points), and enters a ladder; the
ladder's matchmaking (run here as beat would) seats it against a built-in bot, and a whole set
(two rotations of one deal, games of one hand of three cards) is played and rated. Then
`register calls` reads its calls back: every one `ok`.
"""

from __future__ import annotations

import random
import re
import subprocess
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from django.db import transaction

from accounts.services import token_issue
from engine import MATCH_OVER
from engine.events import FALLBACK_PLAYED, PROMPTED
from games import projections
from games.actors import actor_label
from games.models import Bot, Game, GameEvent
from league.ladders import ladder_matchmaking
from league.models import Competition, LadderSet, RatingChange
from tests.games.conftest import needs_postgresql
from tests.games.factories import make_user
from tests.games.workers import Worker, assert_finished_whole, sending_to, wait_for
from tests.league.factories import enter_bots, make_competition
from tests.starters.kits import KITS, NO_PROXY, start, stop, webhook_bot

SECRET = "the starter's secret"
# The smallest ladder that plays a real set: two seats, duplicate deals (two rotations of one
# seed), one hand of three cards a game.
SET = {"rules": "official", "options": {"scoring": "single-hand", "hand_size": 3}}


@pytest.fixture(scope="module")
def worker(django_db_setup, redis_url) -> Iterator[Worker]:
    worker = Worker(redis_url, BOTS_ALLOW_LOOPBACK_URLS="1", **NO_PROXY)
    worker.start()
    with sending_to(worker):
        yield worker


@pytest.fixture
def ladder(settings) -> Competition:
    # The owners' API checks a webhook's URL as the worker will: loopback only with this on.
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    ladder = make_competition(seats_per_game=2, matchmaking=True, variant=SET, slug="starters")
    enter_bots(ladder, 1)
    return ladder


def author(live_server) -> dict[str, str]:
    """The environment the README asks for: the site and a personal token, scope `bots`."""
    key = token_issue(user=make_user("author"), scopes=["bots"])
    return {"UNO_URL": live_server.url, "UNO_TOKEN": key, "UNO_LADDER": "starters"}


def finish(process: subprocess.Popen[str], worker: Worker, status: int = 0) -> str:
    """Wait for `register` to end with `status` (0: the bot active); what it printed."""
    try:
        out, errors = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        out, errors = process.communicate(timeout=10)
        raise AssertionError(
            f"register did not end: {out}{errors}\n{worker.output()[-3000:]}"
        ) from None
    assert process.returncode == status, f"{out}{errors}\n{worker.output()[-3000:]}"
    return out


def play_a_set(ladder: Competition, bot: Bot, worker: Worker) -> None:
    """Matchmaking seats the bot; the set's two rotations are played to the end and rated."""
    with transaction.atomic():
        ladder_matchmaking(ladder, rng=random.Random(1))
    [ladder_set] = LadderSet.objects.filter(competition=ladder)
    games = lambda: Game.objects.filter(context__ladder_set=ladder_set.pk)  # noqa: E731
    # A pull bot waits the poll's Retry-After (1 s) whenever a poll finds nothing to decide, as
    # most do right after its own move while the workers move the others: about a second a
    # decision, a set of two games 6-16 s on an idle machine, more under a whole suite's load.
    # The wait ends when the set does; its bound only says when to give up.
    wait_for(
        lambda: games().count() == 2 and all(g.status == MATCH_OVER for g in games()),
        timeout=90,
        what=lambda: f"the ladder set; worker log:\n{worker.output()[-3000:]}",
    )
    for game in games():
        assert_finished_whole(game.pk)
        seat = game.seats.get(registered_bot=bot).number
        moves = GameEvent.objects.filter(game=game, actor=actor_label(bot)).exclude(command_id=None)
        # A game of three cards can end before the bot's first turn (the other seat plays two
        # skips and its last card); whenever the game waited for the bot, the bot answered.
        prompts = GameEvent.objects.filter(game=game, type=PROMPTED)
        if any(seat in event.data["to_act"] for event in prompts):
            assert moves.exists(), game.pk
        fallbacks = GameEvent.objects.filter(game=game, type=FALLBACK_PLAYED)
        assert not [e for e in fallbacks if e.data.get("seat") == seat]
    assert GameEvent.objects.filter(
        game__in=games(), actor=actor_label(bot), command_id__isnull=False
    ).exists()
    projections.run("game-results")
    projections.run("ladder-ratings")
    assert RatingChange.objects.filter(ladder_set=ladder_set, entry__bot=bot).exists()


def assert_registered_validated_and_entered(out: str, name: str) -> Bot:
    bot = Bot.objects.get(name=name)
    assert f"bot {bot.pk} {name}: active (passed 3 validation matches)" in out, out
    assert "ladder starters: entered" in out, out
    assert bot.competition_entries.filter(competition__slug="starters", active=True).exists()
    return bot


def assert_calls_read_back(kit: str, env: dict[str, str], bot: Bot) -> None:
    reader = start(kit, "register", "calls", str(bot.pk), **env)
    out, errors = reader.communicate(timeout=30)
    assert reader.returncode == 0, errors
    # Every call of the round and the set was a good answer.
    [counts] = [line for line in out.splitlines() if line.startswith("  calls (newest")]
    assert re.fullmatch(r"ok \d+", counts.split(": ", 1)[1]), out
    Bot.refresh_from_db(bot)
    assert (bot.timeouts, bot.errors, bot.illegal_answers, bot.strikes) == (0, 0, 0, 0)


@needs_postgresql
@pytest.mark.parametrize("kit", KITS)
@pytest.mark.django_db(transaction=True)
def test_a_webhook_starter_registers_validates_enters_and_plays_a_set(
    kit, worker, live_server, ladder
):
    env = author(live_server)
    bot_process, url = webhook_bot(kit, SECRET)
    try:
        name = f"{kit}-hook"
        register = start(kit, "register", "new", name, "webhook", url, BOT_SECRET=SECRET, **env)
        bot = assert_registered_validated_and_entered(finish(register, worker), name)
        play_a_set(ladder, bot, worker)
        assert_calls_read_back(kit, env, bot)
    finally:
        errors = stop(bot_process)
    assert errors == "", errors


@needs_postgresql
@pytest.mark.parametrize("kit", KITS)
@pytest.mark.django_db(transaction=True)
def test_a_pull_starter_registers_validates_enters_and_plays_a_set(
    kit, worker, live_server, ladder
):
    env = author(live_server)
    name = f"{kit}-pull"
    register = start(kit, "register", "new", name, "pull", **env)
    assert register.stdout is not None
    first = register.stdout.readline()
    assert first.startswith("BOT_TOKEN="), first + stop(register)
    # The author starts the bot with the token printed; its first poll starts the round. Idle,
    # it waits the poll's Retry-After (BOTS_POLL_SECONDS, 1 s), longer than UNO_POLL_SECONDS.
    token = first.strip().split("=", 1)[1]
    bot_process = start(
        kit, "bot", "pull", UNO_URL=live_server.url, BOT_TOKEN=token, UNO_POLL_SECONDS="0.05"
    )
    try:
        bot = assert_registered_validated_and_entered(first + finish(register, worker), name)
        play_a_set(ladder, bot, worker)
        assert_calls_read_back(kit, env, bot)
    finally:
        errors = stop(bot_process)
    assert errors == "", errors


@needs_postgresql
@pytest.mark.parametrize("kit", KITS)
@pytest.mark.django_db(transaction=True)
def test_a_failed_starter_shows_its_strike_and_passes_once_fixed_and_validated_again(
    kit, worker, live_server, ladder
):
    env = author(live_server)
    # The bot runs with another secret than the one registered: it refuses the server's
    # requests (401), and the first strike fails the round.
    bot_process, url = webhook_bot(kit, "not the registered secret")
    try:
        name = f"{kit}-fixed"
        register = start(kit, "register", "new", name, "webhook", url, BOT_SECRET=SECRET, **env)
        out = finish(register, worker, status=1)
    finally:
        stop(bot_process)
    bot = Bot.objects.get(name=name)
    assert bot.status == Bot.Status.FAILED
    assert f"bot {bot.pk} {name}: failed (validation match 1" in out, out
    assert "calls (newest 1): error 1" in out and ": error, a strike" in out, out
    assert "HTTP 401" in out, out
    assert "ladder starters" not in out
    # Fixed (the right secret, the same URL) and validated again: it passes and is entered.
    bot_process, _ = webhook_bot(kit, SECRET, port=urlsplit(url).port or 0)
    try:
        validate = start(kit, "register", "validate", str(bot.pk), **env)
        assert_registered_validated_and_entered(finish(validate, worker), name)
    finally:
        stop(bot_process)
