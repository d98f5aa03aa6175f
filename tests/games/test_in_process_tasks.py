"""Tasks in-process (no broker, as under `make run`): a task sent while one runs is queued and run
after it, in a loop, never inside it, so a long run of webhook turns (one append, one dispatch
and one `advance_game` per decision) cannot recurse until Python gives up (config/celery.py)."""

from __future__ import annotations

import json
import logging

import pytest

from config import celery_app
from engine import MATCH_OVER
from games import projections
from games.creation import SeatSpec, game_create
from games.models import Game, GameEvent
from tests.games.fake_bot import webhook_bot

# Autocommit, as a request runs: each append's on-commit listeners run as the append commits.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

# Two seats to 200 points: the webhook bot makes some ninety decisions, each its own append.
LONG = {"rules": "official", "options": {"target": 200}}


def test_a_long_run_of_webhook_turns_in_process_plays_the_match_to_its_end(fake, caplog):
    bot = webhook_bot(fake.url)
    with caplog.at_level(logging.INFO):
        # The game's creation commits, and its dispatch plays the whole match in this call.
        game = game_create(
            variant_spec=LONG, seats=[SeatSpec(registered=bot), SeatSpec(bot="greedy")], seed=4
        )
    problems = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert problems == []
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
    asked = [json.loads(body) for body, _ in fake.requests]
    decisions = [payload for payload in asked if not payload.get("optional")]
    assert len(decisions) > 50
    # Each decision asked once, and each answered by one append of the bot's.
    assert len({(asked["version"], asked["seat"]) for asked in decisions}) == len(decisions)
    moves = GameEvent.objects.filter(game=game, command_id__startswith=f"bot:#{bot.pk}/webhook:")
    assert moves.count() == len(decisions)
    # The read models caught up with the whole match when the call returned (once, at the end
    # of the run, not after each of its appends: `coalesce`).
    assert [one.lag for one in projections.status()] == [0] * len(projections.PROJECTIONS)


def test_a_coalescing_task_is_queued_once_until_its_copy_starts():
    runs: list[int] = []

    @celery_app.task(name="tests.in_process.catch_up", coalesce=True)
    def catch_up() -> None:
        runs.append(len(runs))
        if len(runs) == 1:
            # Sent while its queued copy runs: that copy has started, so this one is queued.
            catch_up.delay()

    @celery_app.task(name="tests.in_process.appends")
    def appends() -> None:
        for _ in range(3):
            catch_up.delay()
        assert celery_app.Task.queued() == ["tests.in_process.catch_up"]

    appends.delay()
    assert runs == [0, 1]
    assert celery_app.Task.queued() == []


def test_a_task_sent_by_a_running_task_runs_after_it_not_inside_it():
    order: list[str] = []

    @celery_app.task(name="tests.in_process.inner")
    def inner() -> None:
        order.append("inner")

    @celery_app.task(name="tests.in_process.outer")
    def outer() -> None:
        order.append("outer starts")
        inner.delay()
        inner.delay()
        order.append("outer ends")

    outer.delay()
    assert order == ["outer starts", "outer ends", "inner", "inner"]


def test_a_queued_task_s_failure_is_logged_under_its_name_and_not_raised_to_the_sender(caplog):
    order: list[str] = []

    @celery_app.task(name="tests.in_process.broken")
    def broken() -> None:
        order.append("broken")
        raise RuntimeError("broken inside")

    @celery_app.task(name="tests.in_process.fine")
    def fine() -> None:
        order.append("fine")

    @celery_app.task(name="tests.in_process.sender")
    def sender() -> None:
        broken.delay()
        fine.delay()

    with caplog.at_level(logging.ERROR):
        sender.delay()  # the sender's own task went well: nothing raised to it
    assert order == ["broken", "fine"]
    failed = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert failed == ["in-process task tests.in_process.broken failed"]


def test_a_limited_drain_leaves_the_rest_queued_in_order():
    order: list[int] = []

    @celery_app.task(name="tests.in_process.link")
    def link(number: int) -> None:
        order.append(number)

    @celery_app.task(name="tests.in_process.chain")
    def chain() -> None:
        for number in range(5):
            link.delay(number)

    task_class = celery_app.Task
    with task_class.drain_limit(2, 60.0):
        chain.delay()
        assert order == [0, 1]
        assert task_class.queued() == ["tests.in_process.link"] * 3
        # The limit holds for every drain in the block.
        assert task_class.drain() == 3
    with task_class.drain_limit(2, 60.0):
        assert task_class.drain() == 1
    assert order == [0, 1, 2, 3]
    assert task_class.drain() == 0
    assert order == [0, 1, 2, 3, 4]


def test_an_interrupt_keeps_the_tasks_still_queued(caplog):
    order: list[str] = []

    @celery_app.task(name="tests.in_process.interrupted")
    def interrupted() -> None:
        order.append("interrupted")
        raise KeyboardInterrupt

    @celery_app.task(name="tests.in_process.after")
    def after() -> None:
        order.append("after")

    @celery_app.task(name="tests.in_process.first")
    def first() -> None:
        interrupted.delay()
        after.delay()

    with caplog.at_level(logging.WARNING), pytest.raises(KeyboardInterrupt):
        first.delay()
    assert celery_app.Task.queued() == ["tests.in_process.after"]
    assert any("tests.in_process.after" in r.getMessage() for r in caplog.records)
    assert celery_app.Task.drain() == 0
    assert order == ["interrupted", "after"]
