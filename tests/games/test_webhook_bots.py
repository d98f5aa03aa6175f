"""Webhook bots against a fake bot served on loopback: a whole match, slow and illegal answers
(fallback and strike), suspension, the signature, refused private URLs, retries, trickled answers
(one time limit for the whole exchange), validation."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from bots import turns
from bots.remote import validation, webhook, wire
from engine import MATCH_OVER
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Bot, Game, GameEvent
from tests.games.factories import SHORT
from tests.games.fake_bot import FakeBot, webhook_bot

pytestmark = pytest.mark.django_db


def match_with(bot: Bot, **settings: Any) -> Game:
    seats = [SeatSpec(registered=bot), SeatSpec(bot="greedy"), SeatSpec(bot="random")]
    return game_create(variant_spec=SHORT, seats=seats, seed=4, settings=GameSettings(**settings))


def ask_once(game: Game, fake: FakeBot) -> turns.Advance:
    asked = len(fake.requests)
    for _ in range(200):
        advance = turns.advance_game(game_id=game.pk)
        if len(fake.requests) > asked:
            return advance
    raise AssertionError("the webhook bot was never asked")


def play_out(game: Game, limit: int = 3000) -> None:
    for _ in range(limit):
        if Game.objects.get(pk=game.pk).status == MATCH_OVER:
            return
        turns.advance_game(game_id=game.pk)
    raise AssertionError("the match did not end")


def test_a_webhook_bot_plays_a_whole_match_against_builtin_bots(fake):
    bot = webhook_bot(fake.url)
    game = match_with(bot)
    play_out(game)
    bot.refresh_from_db()
    assert bot.calls == len(fake.requests) > 5
    assert (bot.strikes, bot.timeouts, bot.errors, bot.illegal_answers) == (0, 0, 0, 0)
    assert bot.status == Bot.Status.ACTIVE
    moves = GameEvent.objects.filter(game=game, actor=f"bot:#{bot.pk}:hooky")
    assert moves.exclude(command_id=None).count() == bot.calls
    versions = list(GameEvent.objects.filter(game=game).values_list("version", flat=True))
    assert sorted(versions) == list(range(1, len(versions) + 1))


def test_each_webhook_decision_is_an_append_of_its_own(fake):
    game = match_with(webhook_bot(fake.url))
    advance = ask_once(game, fake)
    assert advance.commands == 1
    last = GameEvent.objects.filter(game=game).exclude(command_id=None).latest("version")
    version = json.loads(fake.requests[-1][0])["version"]
    bot_id = last.game.seats.get(number=0).registered_bot_id
    assert last.command_id == f"bot:#{bot_id}/webhook:{version}"


def test_the_request_is_signed_with_the_bots_secret(fake):
    game = match_with(webhook_bot(fake.url))
    ask_once(game, fake)
    body, signature = fake.requests[-1]
    assert signature.startswith("sha256=")
    assert webhook.verify("s3cret", body, signature)
    assert not webhook.verify("other", body, signature)
    payload = json.loads(body)
    assert set(payload) == {"game", "variant", "seat", "version", "view", "legal", "deadline"}
    assert payload["game"] == game.pk and payload["seat"] == 0 and payload["legal"]


def test_a_slow_answer_gets_the_fallback_move_and_a_strike(fake):
    bot = webhook_bot(fake.url)
    game = match_with(bot, bot_timeout=0.2)
    fake.mode, fake.delay = "slow", 0.6
    advance = ask_once(game, fake)
    assert advance.strike.startswith("timeout")
    assert advance.commands == 1
    bot.refresh_from_db()
    assert (bot.strikes, bot.timeouts, bot.calls) == (1, 1, 1)
    assert GameEvent.objects.filter(game=game, actor="system").exclude(command_id=None).last()


# Each bad answer gets the fallback's move, with a fallback-played event, and a strike. Two are
# regressions: {"type": ["play"]} raised TypeError (unhashable) before any check, and a body
# nested past the decoder's recursion raised RecursionError; either stopped the game for ever.
BAD_ANSWERS = [
    ("illegal", "illegal answer", "illegal_answers", "bot-illegal"),
    ("misshapen", "illegal answer", "illegal_answers", "bot-illegal"),
    ("deep", "error: the answer is not JSON", "errors", "bot-error"),
]


@pytest.mark.parametrize("mode, strike, counter, reason", BAD_ANSWERS)
def test_a_bad_answer_gets_the_fallback_move_and_a_strike(fake, mode, strike, counter, reason):
    bot = webhook_bot(fake.url)
    game = match_with(bot)
    fake.mode = mode
    before = Game.objects.get(pk=game.pk).version
    advance = ask_once(game, fake)
    assert advance.strike.startswith(strike)
    assert advance.version > before and advance.commands == 1
    bot.refresh_from_db()
    assert (bot.strikes, getattr(bot, counter)) == (1, 1)
    fallback = GameEvent.objects.filter(game=game, type="fallback-played").get()
    assert (fallback.actor, fallback.data) == ("system", {"seat": 0, "reason": reason})


def test_an_error_answer_is_a_strike_and_a_good_one_resets_the_strikes(fake):
    bot = webhook_bot(fake.url)
    game = match_with(bot)
    fake.mode = "error"
    assert ask_once(game, fake).strike == "error: HTTP 500"
    fake.mode = "play"
    assert ask_once(game, fake).strike == ""
    bot.refresh_from_db()
    assert (bot.strikes, bot.errors, bot.calls) == (0, 1, 2)


def test_strikes_in_a_row_suspend_the_bot_and_the_fallback_plays_its_seat(fake, settings):
    bot = webhook_bot(fake.url)
    game = match_with(bot)
    fake.mode = "illegal"
    for _ in range(settings.BOTS_STRIKES_TO_SUSPEND):
        ask_once(game, fake)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.SUSPENDED
    assert "3 strikes in a row" in bot.status_reason and "illegal answer" in bot.status_reason
    asked = len(fake.requests)
    play_out(game)
    assert len(fake.requests) == asked


def test_a_private_url_is_refused_without_the_setting(fake, settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = False
    for url in (fake.url, "http://localhost/x", "http://10.1.2.3/", "http://169.254.169.254/"):
        with pytest.raises(webhook.RefusedURL):
            webhook.check_url(url)
    with pytest.raises(webhook.RefusedURL):
        webhook.check_url("ftp://example.org/")
    bot = webhook_bot(fake.url)
    game = match_with(bot)
    advance = ask_once_or_strike(game)
    assert "private" in advance.strike
    assert fake.requests == []


def ask_once_or_strike(game: Game) -> turns.Advance:
    for _ in range(200):
        advance = turns.advance_game(game_id=game.pk)
        if advance.strike:
            return advance
    raise AssertionError("no strike")


def test_a_connection_error_is_retried_once(fake):
    fake.plan = {0: "reset"}
    answer = webhook.ask(url=fake.url, secret="s", payload=_payload(), timeout=1.0)
    assert answer.outcome == webhook.OK and len(fake.requests) == 2


def test_a_connection_error_twice_is_an_error(fake):
    fake.plan = {0: "reset", 1: "reset", 2: "play"}
    answer = webhook.ask(url=fake.url, secret="s", payload=_payload(), timeout=1.0)
    assert answer.outcome == webhook.ERROR and len(fake.requests) == 2


def test_the_host_name_lookup_is_bounded_by_the_call_s_deadline(fake, monkeypatch):
    # A resolver that hangs (getaddrinfo takes no timeout): the call still ends by its deadline.
    real = wire.resolve

    def hanging(host: str, port: int) -> list[webhook.Address]:
        time.sleep(2.0)
        return real(host, port)

    monkeypatch.setattr(wire, "resolve", hanging)
    started = time.monotonic()
    answer = webhook.ask(url=fake.url, secret="s", payload=_payload(), timeout=0.3)
    assert time.monotonic() - started < 1.0
    assert answer.outcome == webhook.TIMEOUT
    assert fake.requests == []


def test_an_address_resolved_under_the_deadline_is_still_checked(fake, monkeypatch):
    port = int(fake.url.rsplit(":", 1)[1].split("/")[0])
    monkeypatch.setattr(
        wire,
        "resolve",
        lambda host, _: [(2, ("10.0.0.1", port))],  # socket.AF_INET
    )
    answer = webhook.ask(url=fake.url, secret="s", payload=_payload(), timeout=1.0)
    assert answer.outcome == webhook.ERROR and "private" in answer.detail
    assert fake.requests == []


def test_a_timeout_is_not_retried(fake, monkeypatch):
    fake.mode, fake.delay = "slow", 0.5
    answer = webhook.ask(url=fake.url, secret="s", payload=_payload(), timeout=0.2)
    assert answer.outcome == webhook.TIMEOUT
    assert len(fake.requests) == 1


# A trickle of one byte every 0.2 s never lets a socket operation wait 1 s: only a limit for the
# whole exchange stops it. With a timeout for each operation instead, these calls took 5.4 s (the
# body trickled) and 19.6 s (the headers too); 64 KiB would take hours.
@pytest.mark.parametrize("mode", ["trickle", "trickle-headers"])
def test_an_answer_trickled_a_byte_at_a_time_times_out_within_the_limit(fake, mode):
    fake.mode, fake.delay = mode, 0.2
    answer, took = ask_in_thread(fake.url, timeout=1.0, bound=5.0)
    assert answer.outcome == webhook.TIMEOUT
    assert took < 1.5
    assert answer.latency < 1.5


def test_a_trickled_answer_that_ends_in_time_is_read_whole(fake):
    fake.mode, fake.delay = "trickle-headers", 0.005
    answer, took = ask_in_thread(fake.url, timeout=5.0, bound=10.0)
    assert answer.outcome == webhook.OK, answer.detail
    assert answer.command == _payload()["legal"][0]


def ask_in_thread(url: str, *, timeout: float, bound: float) -> tuple[webhook.Answer, float]:
    """ask() in a thread: a call that outlives `bound` seconds fails the test, not hangs it."""
    done: list[tuple[webhook.Answer, float]] = []

    def call() -> None:
        started = time.monotonic()
        answer = webhook.ask(url=url, secret="s", payload=_payload(), timeout=timeout)
        done.append((answer, time.monotonic() - started))

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(bound)
    assert done, f"ask() with a timeout of {timeout} s still ran after {bound} s"
    return done[0]


def _payload() -> dict:
    legal = [{"type": "draw", "seat": 0}]
    return {"game": 1, "seat": 0, "version": 1, "view": {"hand": []}, "legal": legal}


def test_validation_makes_a_clean_bot_active(fake):
    bot = webhook_bot(fake.url, status=Bot.Status.VALIDATING)
    validation.bot_validate(bot)
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    games = Game.objects.filter(context__kind="validation", context__bot=bot.pk)
    assert games.count() == 3
    assert all(game.status == MATCH_OVER for game in games)
    # Out-of-turn windows (optional requests) are no calls: count the decisions asked in turn.
    in_turn = [body for body, _ in fake.requests if not json.loads(body).get("optional")]
    assert len(in_turn) == bot.calls > 0


@pytest.mark.parametrize(
    ("mode", "reason"), [("illegal", "illegal answer"), ("slow", "timeout"), ("error", "HTTP 500")]
)
def test_validation_fails_a_bot_on_any_strike_with_the_reason(fake, settings, mode, reason):
    settings.BOTS_WEBHOOK_TIMEOUT = 0.2
    fake.mode, fake.once, fake.delay = mode, True, 0.5
    bot = webhook_bot(fake.url, status=Bot.Status.VALIDATING)
    validation.bot_validate(bot)
    assert bot.status == Bot.Status.FAILED
    assert bot.status_reason.startswith("validation match 1")
    assert reason in bot.status_reason


def test_an_error_in_the_validation_run_never_counts_as_a_pass(fake, monkeypatch):
    bot = webhook_bot(fake.url, status=Bot.Status.VALIDATING)

    def broken(**kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(turns, "advance_game", broken)
    validation.bot_validate(bot)
    assert bot.status == Bot.Status.FAILED
    # The owner learns that it was our error, not what it said (it may name our hosts).
    assert bot.status_reason == validation.INTERNAL_ERROR.format("RuntimeError")
    assert "database went away" not in bot.status_reason


def test_an_inline_validation_game_is_not_dispatched_to_workers(fake):
    bot = webhook_bot(fake.url, status=Bot.Status.VALIDATING)
    game = validation._validation_game(bot, 1, 1)
    assert game.context["inline"] is True
    turns.advance_game(game_id=game.pk)
    assert not turns.bot_to_act(game.pk)


def test_a_validation_task_run_twice_or_for_an_old_round_changes_nothing(fake):
    bot = webhook_bot(fake.url, status=Bot.Status.VALIDATING)
    round_ = validation.open_round(bot.pk, send=False)
    validation.bot_validate(bot, round_)
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    asked = len(fake.requests)

    validation.bot_validate(bot, round_)  # the same task delivered again
    validation.bot_validate(bot, round_ - 1)  # a late task of an older round
    bot.refresh_from_db()
    assert bot.status == Bot.Status.ACTIVE and bot.validation_round == round_
    assert len(fake.requests) == asked
    assert validation.validation_games(bot.pk, round_).count() == 3


def test_a_round_with_a_fallback_move_in_its_log_never_passes(fake):
    # However the tasks interleave, a fallback move for the bot in a round game fails the round.
    fake.mode, fake.once = "illegal", True
    bot = webhook_bot(fake.url, status=Bot.Status.VALIDATING)
    round_ = validation.open_round(bot.pk, send=False)
    for game in validation.round_games(bot.pk, round_):
        # Driven by hand, as a worker would, without the run that fails the round on a strike.
        while Game.objects.get(pk=game.pk).status != MATCH_OVER:
            turns.advance_game(game_id=game.pk)
    assert Bot.objects.get(pk=bot.pk).status == Bot.Status.VALIDATING

    assert validation.settle_validation(bot.pk, round_) == Bot.Status.FAILED
    bot.refresh_from_db()
    assert "the fallback moved for the bot" in bot.status_reason


@pytest.mark.parametrize("kind", [Bot.Kind.WEBHOOK, Bot.Kind.PULL])
def test_a_failed_bot_is_not_asked_any_more_in_running_games(fake, kind):
    bot = webhook_bot(fake.url)
    Bot.objects.filter(pk=bot.pk).update(kind=kind)
    bot.refresh_from_db()
    seats = [SeatSpec(registered=bot), SeatSpec(bot="greedy")]
    game = game_create(variant_spec=SHORT, seats=seats, seed=3, dealer=1)
    assert game.to_act == [0]
    # A pull bot's turn waits for the bot; a webhook bot's is the worker's to ask.
    assert turns.bot_to_act(game.pk) == (kind == Bot.Kind.WEBHOOK)

    Bot.objects.filter(pk=bot.pk).update(status=Bot.Status.FAILED)
    assert turns.bot_to_act(game.pk)  # the worker plays the seat with the fallback now
    for _ in range(400):
        if Game.objects.get(pk=game.pk).status == MATCH_OVER:
            break
        turns.advance_game(game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
    assert fake.requests == []
