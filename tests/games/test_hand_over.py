"""games/dispatch.py `hand_over`: a request hands its game to the workers through the broker's
Redis, one task for every game handed over while a drain is on its way, and the drain
(`dispatch_pending`, what a worker runs) dispatches each of them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis

from config import celery_app
from games import dispatch
from games.creation import SeatSpec, game_create
from games.models import Game, Seat
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker(redis_url: str) -> Iterator[tuple[redis.Redis, str]]:
    """Tasks sent to a queue of this test's own on Redis, where nothing consumes them."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.broker_url, conf.task_default_queue
    queue = f"test-hand-over-{uuid.uuid4().hex[:8]}"
    conf.task_always_eager, conf.broker_url, conf.task_default_queue = False, redis_url, queue
    client = redis.Redis.from_url(redis_url)
    try:
        yield client, queue
    finally:
        conf.task_always_eager, conf.broker_url, conf.task_default_queue = saved
        client.delete(queue, f"games.dispatch.pending:{queue}", f"games.dispatch.armed:{queue}")
        for key in client.scan_iter("_kombu.binding.*"):
            for member in client.smembers(key):
                if queue.encode() in member:
                    client.srem(key, member)
        client.close()


def people_game() -> Game:
    return game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=make_user()) for _ in range(2)], seed=5
    )


def clocked(game: Game) -> list[int]:
    return list(
        Seat.objects.filter(game=game, deadline_at__isnull=False).values_list("number", flat=True)
    )


def test_games_handed_over_meanwhile_share_one_task_and_the_drain_dispatches_each(broker):
    client, queue = broker
    games = [people_game(), people_game()]
    assert [clocked(game) for game in games] == [[], []]

    for game in games:
        dispatch.hand_over(game.pk)

    # One task for both: the second found the first's drain on its way.
    assert client.llen(queue) == 1
    dispatch.dispatch_pending()  # what the worker runs
    # Each game's first turn clock started, as its own dispatch starts it.
    assert [clocked(game) for game in games] == [game.to_act for game in games]
    assert client.scard(f"games.dispatch.pending:{queue}") == 0
    # The drain is over: the next game handed over sends a task of its own.
    dispatch.hand_over(people_game().pk)
    assert client.llen(queue) == 2


def test_a_drain_that_still_finds_games_after_its_passes_makes_way_for_the_next(
    broker, monkeypatch
):
    client, queue = broker
    monkeypatch.setattr(dispatch, "DRAIN_BATCH", 1)
    monkeypatch.setattr(dispatch, "DRAIN_PASSES", 2)
    games = [people_game() for _ in range(3)]
    for game in games:
        dispatch.hand_over(game.pk)
    assert client.llen(queue) == 1

    dispatch.dispatch_pending()

    # Two games dispatched, the third left to the next drain, sent behind what was queued.
    assert sorted(bool(clocked(game)) for game in games) == [False, True, True]
    assert client.scard(f"games.dispatch.pending:{queue}") == 1
    assert client.llen(queue) == 2
    dispatch.dispatch_pending()
    assert all(clocked(game) for game in games)


def test_a_redis_that_lost_the_hand_over_s_script_is_sent_it_again(broker):
    client, queue = broker
    game = people_game()
    dispatch.hand_over(game.pk)
    # A restarted Redis has no scripts: the next hand-over still adds its game, under the mark.
    client.script_flush()
    dispatch.hand_over(people_game().pk)
    assert client.scard(f"games.dispatch.pending:{queue}") == 2
    assert client.llen(queue) == 1
    assert 0 < client.ttl(f"games.dispatch.armed:{queue}") <= dispatch.ARMED_SECONDS
