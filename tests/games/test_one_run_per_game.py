"""One run per game asks a bot at a time (bots/remote/leases.py), and a strike counts only when
its fallback move was appended: two runs of advance_game for one game at once (a duplicate task,
the reconciler, the dispatch of a seat's resignation) never ask a webhook bot the same decision
twice nor strike it twice. Real PostgreSQL (committed data, one connection per thread)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from bots import turns
from bots.remote import leases, webhook, wire
from engine import MATCH_OVER
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import Bot, Game, GameEvent, GameLease
from games.seat_facts import game_resign
from tests.engine.decks import stacked
from tests.games.conftest import needs_postgresql
from tests.games.factories import SHORT, make_user
from tests.games.fake_bot import FakeBot, webhook_bot

pytestmark = [needs_postgresql, pytest.mark.django_db(transaction=True)]


class Run(threading.Thread):
    """`call()` in a thread with a database connection of its own; `join()` returns its result."""

    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.call = call
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.call()
        except BaseException as error:  # noqa: BLE001 (raised again in the test's thread)
            self.error = error
        finally:
            connection.close()

    def join(self, timeout: float | None = 30) -> Any:  # type: ignore[override]
        super().join(timeout)
        assert not self.is_alive(), "the run did not finish"
        if self.error is not None:
            raise self.error
        return self.result


def wait_for(check: Callable[[], bool], timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "waited in vain"
        time.sleep(0.01)


def bot_game(bot: Bot, other: SeatSpec | None = None, timeout: float = 1) -> Game:
    """The game most tests here set up: SHORT, seed 4, dealer 1, the webhook `bot` on seat 0 and
    first to act, with `timeout` seconds to answer; seat 1 `other` (the greedy bot unless given)."""
    seats = [SeatSpec(registered=bot), other or SeatSpec(bot="greedy")]
    limit = GameSettings(bot_timeout=timeout)
    return game_create(variant_spec=SHORT, seats=seats, seed=4, dealer=1, settings=limit)


def in_turn(fake: FakeBot) -> list[dict[str, Any]]:
    payloads = [json.loads(body) for body, _ in fake.requests]
    return [payload for payload in payloads if not payload.get("optional")]


def fallbacks(game: Game, seat: int) -> int:
    played = GameEvent.objects.filter(game=game, type="fallback-played")
    return sum(1 for data in played.values_list("data", flat=True) if data["seat"] == seat)


def test_two_runs_at_once_ask_a_slow_bot_each_decision_once(fake, broker_tasks):
    # Slow but legal: 0.3 s of the 2 s it has.
    fake.mode, fake.delay = "slow", 0.3
    bot = webhook_bot(fake.url)
    game = bot_game(bot, timeout=2)
    for _ in range(12):
        if Game.objects.get(pk=game.pk).status == MATCH_OVER:
            break
        # Two workers advance the game at once (the dispatch's task and the reconciler's, say).
        barrier = threading.Barrier(2)

        def advance(barrier: threading.Barrier = barrier) -> turns.Advance:
            barrier.wait()
            return turns.advance_game(game_id=game.pk)

        runs = [Run(advance), Run(advance)]
        for run in runs:
            run.start()
        for run in runs:
            run.join()
    asked = in_turn(fake)
    assert len(asked) >= 5
    # Each decision (a version of the game) asked once, and each answer is the bot's move.
    assert sorted({payload["version"] for payload in asked}) == [p["version"] for p in asked]
    bot.refresh_from_db()
    assert (bot.calls, bot.strikes, bot.timeouts) == (len(asked), 0, 0)
    moves = GameEvent.objects.filter(game=game, command_id__startswith=f"bot:#{bot.pk}/webhook:")
    assert moves.count() == len(asked)


def hanging_game(fake: FakeBot) -> tuple[Game, Bot, Any]:
    """A game whose webhook bot (seat 0, first to act) hangs past its 0.5 s; seat 1 a person,
    seat 2 the greedy bot (so that the match goes on when the person resigns)."""
    fake.mode, fake.delay = "slow", 1.0
    bot = webhook_bot(fake.url)
    person = make_user()
    seats = [SeatSpec(registered=bot), SeatSpec(user=person), SeatSpec(bot="greedy")]
    limit = GameSettings(bot_timeout=0.5)
    game = game_create(variant_spec=SHORT, seats=seats, seed=4, dealer=2, settings=limit)
    assert game.to_act == [0]
    return game, bot, person


def test_a_strike_whose_fallback_loses_the_version_race_is_not_counted(fake, broker_tasks):
    game, bot, person = hanging_game(fake)
    asking = Run(lambda: turns.advance_game(game_id=game.pk))
    asking.start()
    wait_for(lambda: len(fake.requests) == 1)
    # While the bot is asked, the person resigns: the game moves on, the question is stale.
    game_resign(game_id=game.pk, actor=person)
    advance = asking.join()
    assert advance.conflict
    assert advance.strike == ""
    bot.refresh_from_db()
    # The call is counted (it timed out); the strike is not, as no fallback move was made.
    assert (bot.calls, bot.timeouts, bot.strikes) == (1, 1, 0)
    assert fallbacks(game, 0) == 0


def test_a_run_that_finds_the_bot_asked_leaves_it_to_the_asking_run(fake, broker_tasks):
    # The case: asked at version v, a seat resigns (v + 1), and a second run (the
    # resignation's dispatch) must not ask the same decision while the first waits.
    game, bot, person = hanging_game(fake)
    asking = Run(lambda: turns.advance_game(game_id=game.pk))
    asking.start()
    wait_for(lambda: len(fake.requests) == 1)
    game_resign(game_id=game.pk, actor=person)
    second = turns.advance_game(game_id=game.pk)
    assert second.busy
    first = asking.join()
    assert len(fake.requests) == 1
    # The asking run says the game must be advanced again: the second run's work is left to it.
    assert first.again
    third = turns.advance_game(game_id=game.pk)
    assert third.strike.startswith("timeout")
    asked = in_turn(fake)
    assert [payload["version"] for payload in asked] == [game.version, game.version + 1]
    bot.refresh_from_db()
    assert (bot.calls, bot.timeouts, bot.strikes) == (2, 2, 1)
    assert fallbacks(game, 0) == 1


def test_a_lease_left_by_a_killed_worker_expires(fake, broker_tasks):
    fake.mode = "play"
    bot = webhook_bot(fake.url)
    game = bot_game(bot)
    # A worker took the lease and died with it.
    held = leases.acquire(game.pk, seconds=60)
    assert held is not None
    assert turns.advance_game(game_id=game.pk).busy
    assert fake.requests == []
    GameLease.objects.filter(game=game).update(until=timezone.now() - timedelta(seconds=1))
    advance = turns.advance_game(game_id=game.pk)
    assert not advance.busy
    assert advance.commands == 1
    assert len(fake.requests) == 1
    # The dead worker's release, if it ever came, changes nothing.
    assert leases.release(held) is False


def test_in_process_the_refused_run_s_work_is_sent_again_and_the_match_ends(
    fake, eager_tasks, settings
):
    # The case through the tasks, in-process: with two strikes to suspend, the stale
    # question's timeout and the next one's would have suspended the bot.
    settings.BOTS_STRIKES_TO_SUSPEND = 2
    fake.plan, fake.delay = {0: "slow", 1: "slow"}, 1.0
    bot = webhook_bot(fake.url)
    person = make_user()
    # The greedy bot too, so that the match goes on when the person resigns.
    seats = [SeatSpec(registered=bot), SeatSpec(user=person), SeatSpec(bot="greedy")]
    # The game's creation dispatches its first run in the creating thread: it asks the bot.
    limit = GameSettings(bot_timeout=0.5)
    creating = Run(
        lambda: game_create(variant_spec=SHORT, seats=seats, seed=4, dealer=2, settings=limit)
    )
    creating.start()
    wait_for(lambda: len(fake.requests) == 1)
    game_id = json.loads(fake.requests[0][0])["game"]
    # The resignation's dispatch runs here, finds the lease held and leaves the game to the
    # creating thread's run, which sends it again when it is over: the match plays to its end.
    game_resign(game_id=game_id, actor=person)
    assert len(fake.requests) == 1
    creating.join(timeout=120)
    game = Game.objects.get(pk=game_id)
    assert game.status == MATCH_OVER
    asked = [payload["version"] for payload in in_turn(fake)]
    assert asked == sorted(set(asked))
    bot.refresh_from_db()
    assert bot.status == Bot.Status.ACTIVE
    assert (bot.timeouts, fallbacks(game, 0)) == (2, 1)


def test_a_run_whose_lease_ran_out_before_the_request_asks_nothing(fake, broker_tasks, monkeypatch):
    # The bot host's name lookup outlasts the lease (a stalled worker), and another run takes
    # the lease meanwhile: the first run must not ask the bot too.
    fake.mode = "play"
    bot = webhook_bot(fake.url)
    game = bot_game(bot)
    other: list[leases.Lease | None] = []
    real = wire.resolve

    def slow_lookup(host: str, port: int) -> list[webhook.Address]:
        GameLease.objects.filter(game=game).update(until=timezone.now() - timedelta(seconds=1))
        other.append(leases.acquire(game.pk, seconds=60))
        return real(host, port)

    monkeypatch.setattr(wire, "resolve", slow_lookup)
    advance = turns.advance_game(game_id=game.pk)
    assert other and other[0] is not None
    assert fake.requests == []
    assert advance.busy and advance.commands == 0
    # The note is on the other run's lease: it advances the game again when it lets go.
    assert not advance.again
    assert leases.release(other[0]) is True


def test_a_lease_that_ran_out_with_nobody_else_sends_the_game_again(
    fake, broker_tasks, monkeypatch
):
    fake.mode = "play"
    bot = webhook_bot(fake.url)
    game = bot_game(bot)
    real = wire.resolve

    def slow_lookup(host: str, port: int) -> list[webhook.Address]:
        GameLease.objects.filter(game=game).update(until=timezone.now() - timedelta(seconds=1))
        return real(host, port)

    monkeypatch.setattr(wire, "resolve", slow_lookup)
    advance = turns.advance_game(game_id=game.pk)
    assert fake.requests == []
    # Nobody holds the lease: the run's task sends the game again.
    assert advance.busy and advance.again


def test_lease_times_are_the_database_s_not_a_skewed_worker_s(fake, monkeypatch):
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(bot="greedy"), SeatSpec(bot="greedy")])
    real_now = timezone.now
    # A worker whose clock is an hour slow takes the lease for a minute...
    monkeypatch.setattr(timezone, "now", lambda: real_now() - timedelta(hours=1))
    slow = leases.acquire(game.pk, seconds=60)
    assert slow is not None
    # ...and one whose clock is an hour fast still sees it held, and leaves a note.
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(hours=1))
    assert leases.acquire(game.pk, seconds=60) is None
    monkeypatch.setattr(timezone, "now", real_now)
    with connection.cursor() as cursor:
        cursor.execute("SELECT until - now() FROM games_gamelease WHERE game_id = %s", [game.pk])
        (left,) = cursor.fetchone()
    assert timedelta(seconds=50) < left <= timedelta(seconds=60)
    assert leases.release(slow) is True


def test_a_note_outlives_a_holder_that_failed(fake, broker_tasks, monkeypatch):
    fake.mode = "play"
    bot = webhook_bot(fake.url)
    game = bot_game(bot)

    def failing(*args: Any, **kwargs: Any) -> turns.Advance:
        # A run is refused while this one holds the lease, and then this one fails.
        assert leases.acquire(game.pk, seconds=60) is None
        raise RuntimeError("the holder failed")

    monkeypatch.setattr(turns, "_advance", failing)
    with pytest.raises(RuntimeError):
        turns.advance_game(game_id=game.pk)
    monkeypatch.undo()
    # The refused run's note is still there, on a free lease: the reconciler sends the game.
    assert GameLease.objects.get(game=game).again
    assert leases.take_notes() == [game.pk]
    assert leases.take_notes() == []
    assert turns.advance_game(game_id=game.pk).commands == 1


def test_a_strike_whose_fallback_passes_counts_once_for_its_version(fake, broker_tasks):
    # A newno first play of a draw2 leaves both neighbours an open stack: a failing bot's
    # fallback cannot stack and lets it pass, so nothing is appended and the game stays at the
    # version the bot was asked at. (A seat with nothing to play at the open start is not asked
    # at all: tests/games/test_decisions_answerable.py.)
    fake.mode = "error"
    bot = webhook_bot(fake.url)
    opener = make_user()
    seats = [SeatSpec(user=opener), SeatSpec(registered=bot), SeatSpec(user=make_user())]
    hands = [["red-draw2", "red-1", "red-2"], ["blue-3", "green-4", "green-5"],
             ["yellow-6", "yellow-7", "green-8"]]  # fmt: skip
    game = game_create(
        variant_spec={"rules": "newno", "options": {"hand_size": 3}}, seats=seats,
        deck=stacked(hands, "red-5", first=1), dealer=0, settings=GameSettings(bot_timeout=1),
    )  # fmt: skip
    opened = game_command(
        game_id=game.pk, actor=opener, command={"type": "play", "seat": 0, "card": "red-draw2"},
        expected_version=game.version,
    )  # fmt: skip
    game.refresh_from_db()
    assert opened.version == game.version and sorted(game.to_act) == [1, 2]
    first = turns.advance_game(game_id=game.pk)
    assert first.strike.startswith("error")
    assert first.version == game.version
    # The reconciler's re-drive at the same version: neither asked nor struck again.
    second = turns.advance_game(game_id=game.pk)
    assert second.strike == ""
    assert second.version == game.version
    assert len(in_turn(fake)) == 1
    bot.refresh_from_db()
    assert (bot.calls, bot.errors, bot.strikes) == (1, 1, 1)


def test_waiting_on_a_held_lease_uses_up_no_advances_of_a_validation(
    fake, broker_tasks, settings, monkeypatch
):
    from bots.remote import validation

    fake.mode = "play"
    bot = webhook_bot(fake.url)

    def match() -> Game:
        return bot_game(bot)

    # How many advances the match takes when nobody is in the way.
    counted: list[int] = []
    real = turns.advance_game

    def counting(**kwargs: Any) -> turns.Advance:
        counted.append(1)
        return real(**kwargs)

    monkeypatch.setattr(turns, "advance_game", counting)
    assert validation._drive(match()) == ""
    settings.BOTS_VALIDATION_MAX_ADVANCES = len(counted) + 1
    # The same match again, its lease held by another run for its first 0.5 s (ten waits).
    game = match()
    held = leases.acquire(game.pk, seconds=60)
    assert held is not None
    timer = threading.Timer(0.5, lambda: (leases.release(held), connection.close()))
    timer.start()
    try:
        assert validation._drive(game) == ""
    finally:
        timer.join()
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
