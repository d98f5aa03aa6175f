"""Pull bots through the API with their token: pending decisions, commands, typed errors, and
the deadline sweep (fallback and strike)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from bots import turns
from bots.driver import step
from bots.remote import validation
from bots.strategies import find_strategy
from clocks import overdue
from engine import MATCH_OVER
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from games.repository import repository
from tests.games.factories import SHORT
from tests.games.fake_bot import active_pull_bot, bot_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def pull_bot() -> tuple[Bot, str]:
    return active_pull_bot()


def match_with(bot: Bot) -> Game:
    seats = [SeatSpec(bot="greedy"), SeatSpec(registered=bot), SeatSpec(bot="random")]
    return game_create(variant_spec=SHORT, seats=seats, seed=9)


def play_against_builtins(client: APIClient, game: Game, command_id: Any) -> int:
    """Play the match to its end: the built-in bots' runs advanced by hand (no worker here),
    every decision of the pull bot answered with the greedy move and `command_id(decision,
    command)`, each answer checked; returns the commands posted."""
    rng = random.Random(1)
    posted = 0
    for _ in range(3000):
        if Game.objects.get(pk=game.pk).status == MATCH_OVER:
            return posted
        turns.advance_game(game_id=game.pk)
        response = client.get("/api/bot/decisions")
        assert response.status_code == 200
        for decision in response.json():
            assert decision["game"] == game.pk and decision["seat"] == 1
            if decision["optional"]:
                continue  # an out-of-turn window (tests/games/test_remote_windows.py)
            command = find_strategy("greedy")(decision["view"], decision["legal"], rng)
            body = {
                "command": command,
                "expected_version": decision["version"],
                "command_id": command_id(decision, command, posted),
            }
            answer = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")
            assert answer.status_code == 200, answer.json()
            assert not answer.json()["repeated"]
            posted += 1
    raise AssertionError("the match did not end")


def test_a_pull_bot_plays_a_whole_match_against_builtin_bots(pull_bot):
    bot, token = pull_bot
    game = match_with(bot)
    posted = play_against_builtins(
        bot_client(token), game, lambda decision, command, n: f"pull-{decision['version']}"
    )
    bot.refresh_from_db()
    assert posted > 0 and bot.calls == posted and bot.strikes == 0
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason


def test_a_game_waits_for_a_pull_bot(pull_bot):
    bot, _ = pull_bot
    game = match_with(bot)
    for _ in range(50):
        turns.advance_game(game_id=game.pk)
    waiting = Game.objects.get(pk=game.pk)
    assert waiting.to_act == [1]
    assert not turns.bot_to_act(game.pk)
    assert turns.advance_game(game_id=game.pk).commands == 0


def test_past_the_deadline_the_fallback_moves_with_a_strike(pull_bot):
    bot, token = pull_bot
    game = match_with(bot)
    turns.advance_game(game_id=game.pk)
    waiting = Game.objects.get(pk=game.pk)
    assert waiting.to_act == [1]
    assert overdue.expire() == []
    later = timezone.now() + timedelta(seconds=31)
    assert overdue.expire(now=later) == [game.pk]
    assert overdue.expire(now=later) == []  # a second tick does nothing
    assert Game.objects.get(pk=game.pk).version > waiting.version
    bot.refresh_from_db()
    assert (bot.strikes, bot.timeouts) == (1, 1)


def test_errors_are_typed_json(pull_bot):
    bot, token = pull_bot
    client = bot_client(token)
    game = match_with(bot)
    turns.advance_game(game_id=game.pk)
    decision = client.get("/api/bot/decisions").json()[0]
    url = f"/api/bot/games/{game.pk}/commands"

    def post(command, version=decision["version"], path=url):
        return client.post(path, {"command": command, "expected_version": version}, format="json")

    stale = post(decision["legal"][0], version=decision["version"] - 1)
    assert stale.status_code == 409 and stale.json()["code"] == "version-conflict"
    other = post({**decision["legal"][0], "seat": 0})
    assert other.status_code == 403 and other.json()["code"] == "not-your-seat"
    illegal = post({"type": "play", "seat": 1, "card": "purple-11", "uno": False})
    assert illegal.status_code == 422 and "message" in illegal.json()
    missing = post(decision["legal"][0], path="/api/bot/games/999999/commands")
    assert missing.status_code == 404 and missing.json()["code"] == "game-not-found"
    assert bot_client("wrong").get("/api/bot/decisions").status_code in (401, 403)
    assert APIClient().get("/api/bot/decisions").status_code in (401, 403)


# Validation: a pull bot's round is played through the API, its opponents moved by the dispatch
# (transactional tests, so the append listeners run on each commit, with eager tasks).


@pytest.fixture
def validating(pull_bot, eager_tasks) -> tuple[Bot, str]:
    bot, token = pull_bot
    Bot.objects.filter(pk=bot.pk).update(status=Bot.Status.VALIDATING)
    bot.refresh_from_db()
    return validation.bot_validate(bot), token


def play_decisions(client: APIClient, rng: random.Random, limit: int = 5000) -> int:
    """Answer every pending decision with the greedy move until none is left; the posts made."""
    posted = 0
    for _ in range(limit):
        pending = [d for d in client.get("/api/bot/decisions").json() if not d["optional"]]
        if not pending:
            return posted
        decision = pending[0]
        command = find_strategy("greedy")(decision["view"], decision["legal"], rng)
        body = {"command": command, "expected_version": decision["version"]}
        answer = client.post(f"/api/bot/games/{decision['game']}/commands", body, format="json")
        assert answer.status_code == 200, answer.json()
        posted += 1
    raise AssertionError("the decisions never ran out")


def round_games(bot: Bot) -> list[Game]:
    return list(validation.validation_games(bot.pk, bot.validation_round).order_by("pk"))


@pytest.mark.django_db(transaction=True)
def test_a_pull_bot_passes_validation_by_playing_its_matches_through_the_api(validating):
    bot, token = validating
    # The round waits for the bot: its owner may need time to deploy it with its token.
    assert (bot.status, bot.status_reason) == (Bot.Status.VALIDATING, validation.WAITING_FOR_POLL)
    assert round_games(bot) == []
    validation.settle_validations(now=timezone.now() + timedelta(days=30))
    bot.refresh_from_db()
    assert bot.status == Bot.Status.VALIDATING  # an unstarted round does not time out

    first_poll = bot_client(token).get("/api/bot/decisions")
    assert first_poll.status_code == 200
    games = round_games(bot)
    assert len(games) == 3 and all(game.status == Game.Status.PLAYING for game in games)
    # The bot sits in a different place each match.
    assert len({game.seats.get(registered_bot=bot).number for game in games}) == 3

    posted = play_decisions(bot_client(token), random.Random(3))

    bot.refresh_from_db()
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    assert bot.status_reason == "passed 3 validation matches"
    assert all(game.status == MATCH_OVER for game in round_games(bot))
    assert bot.calls == posted > 0 and bot.timeouts == bot.illegal_answers == 0


@pytest.mark.django_db(transaction=True)
def test_an_illegal_command_fails_a_pull_bots_validation_and_its_games_still_end(validating):
    bot, token = validating
    client = bot_client(token)
    decision = client.get("/api/bot/decisions").json()[0]
    body = {
        "command": {"type": "play", "seat": decision["seat"], "card": "purple-11", "uno": False},
        "expected_version": decision["version"],
    }
    refused = client.post(f"/api/bot/games/{decision['game']}/commands", body, format="json")
    assert refused.status_code == 422

    bot.refresh_from_db()
    assert bot.status == Bot.Status.FAILED
    assert f"validation game {decision['game']}: illegal command" in bot.status_reason
    assert "purple-11" in bot.status_reason
    # Nothing waits on the failed bot: the fallback played its seats to the end.
    assert client.get("/api/bot/decisions").json() == []
    assert all(game.status == MATCH_OVER for game in round_games(bot))


@pytest.mark.django_db(transaction=True)
def test_a_timeout_fails_a_pull_bots_validation(validating):
    bot, token = validating
    assert bot_client(token).get("/api/bot/decisions").json()  # the round starts
    later = timezone.now() + timedelta(seconds=31)
    overdue.expire(now=later)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.FAILED
    assert "timeout: no command" in bot.status_reason
    assert all(game.status == MATCH_OVER for game in round_games(bot))


@pytest.mark.django_db(transaction=True)
def test_a_round_not_over_in_time_fails_and_a_new_round_starts_clean(validating, settings):
    bot, token = validating
    bot_client(token).get("/api/bot/decisions")  # the round starts
    first = round_games(bot)
    validation.settle_validations()
    bot.refresh_from_db()
    assert bot.status == Bot.Status.VALIDATING  # not overdue yet

    later = timezone.now() + timedelta(seconds=settings.BOTS_VALIDATION_TIMEOUT + 1)
    validation.settle_validations(now=later)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.FAILED
    assert "not finished within 1:00:00: 0 of 3 matches over" in bot.status_reason

    # The owner asks again: a new round, and only its games wait on the bot.
    bot = validation.bot_validate(bot)
    assert bot.status == Bot.Status.VALIDATING and bot.validation_round == 2
    pending = {d["game"] for d in bot_client(token).get("/api/bot/decisions").json()}
    assert pending and pending.isdisjoint(game.pk for game in first)
    assert all(Game.objects.get(pk=game.pk).status == MATCH_OVER for game in first)
    play_decisions(bot_client(token), random.Random(4))
    bot.refresh_from_db()
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason


def test_a_bot_cannot_take_the_command_ids_the_system_will_use(pull_bot):
    """Regression: command ids were shared by every actor of a game, and the workers' were a
    prefix and a version (`advance:<v>`). A bot that sent its move with the id of the system's
    next append made that append, and every later one, come back "repeated": the game froze."""
    bot, token = pull_bot
    game = match_with(bot)

    def system_ids(decision: dict[str, Any], command: dict[str, Any], n: int) -> str:
        # The version the game reaches with this command: where the system appends next.
        variant, state, _ = repository.state(Game.objects.get(pk=game.pk))
        after = decision["version"] + len(step(variant, state, command)[0])
        return [f"advance:{after}", f"system/advance:{after}", f"fallback:1:{after}"][n % 3]

    assert play_against_builtins(bot_client(token), game, system_ids) > 3
