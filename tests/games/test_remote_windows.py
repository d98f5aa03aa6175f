"""Remote bots' out-of-turn windows (bots/remote/windows.py): a webhook bot catches, calls uno
and jumps in out of turn; a pull bot finds the optional decision and its catch is applied; a
slow, failed or absent answer to a window is no strike and the game moves on after it; a game of
built-in bots never waits."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from bots import turns
from bots.driver import play, step
from bots.remote import tokens, windows
from bots.strategies import find_strategy
from engine import MATCH_OVER, Variant
from games import tasks
from games.actors import actor_label
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.models import Bot, Game, GameEvent
from games.seats import webhook_out_of_turn, worker_to_act
from tests.engine.decks import stacked
from tests.games.factories import SHORT, make_user
from tests.games.fake_bot import FakeBot, webhook_bot

pytestmark = pytest.mark.django_db

# A whole match, long enough for seats to reach one card often (the driver's own test).
LONG = {"rules": "official", "options": {"target": 500}}


def optional_requests(fake: FakeBot) -> list[dict[str, Any]]:
    payloads = [json.loads(body) for body, _ in fake.requests]
    return [payload for payload in payloads if payload.get("optional")]


def window_events(game: Game, bot: Bot) -> list[GameEvent]:
    """The first event of every append the bot's window answers made."""
    return list(
        GameEvent.objects.filter(
            game=game, command_id__startswith=f"bot:#{bot.pk}/window:"
        ).order_by("version")
    )


# Hands of two cards from a stacked deck (tests/engine/decks.py): a seat's first play leaves it
# one card, so every window below opens within the first commands, whatever the game's id (the
# built-in bots' moves are seeded by it, bots/turns.py).
TWO = {"rules": "official", "options": {"target": 500, "hand_size": 2}}


def stacked_game(
    seats: list[SeatSpec], hands: list[list[str]], first: int, flip: str = "red-5"
) -> Game:
    """An official match of two-card hands dealt as `hands`, `first` to act on `flip`."""
    dealer = (first - 1) % len(seats)
    deck = stacked(hands, flip, first=first)
    return game_create(variant_spec=TWO, seats=seats, deck=deck, dealer=dealer)


def advance_until(game: Game, done: Callable[[Game], Any], what: str, limit: int = 10) -> None:
    """Advance the game until `done(game)` holds, in at most `limit` advances."""
    for _ in range(limit):
        if done(game):
            return
        turns.advance_game(game_id=game.pk)
    assert done(game), f"no {what} in {limit} advances"


def play_without_uno(game: Game, user: Any, seat: int, card: str) -> None:
    """A person plays down to one card and does not call uno: their seat owes the call."""
    game_command(
        game_id=game.pk,
        actor=user,
        command={"type": "play", "seat": seat, "card": card, "uno": False},
        expected_version=Game.objects.get(pk=game.pk).version,
    )


def window_event(bot: Bot, kind: str) -> Callable[[Game], list[GameEvent]]:
    return lambda game: [event for event in window_events(game, bot) if event.type == kind]


def test_a_webhook_bot_catches_an_uncalled_seat_out_of_turn(fake):
    bot = webhook_bot(fake.url)
    # Random in turn, greedy in its windows: it catches whenever it can. A person plays down to
    # one card without calling uno.
    fake.mode, fake.optional_mode = "random", "play"
    person = make_user()
    seats = [SeatSpec(registered=bot), SeatSpec(user=person), SeatSpec(bot="greedy")]
    hands = [["blue-1", "blue-2"], ["red-1", "red-2"], ["red-3", "green-4"]]
    game = stacked_game(seats, hands, first=1)
    play_without_uno(game, person, 1, "red-1")
    # The window first; then the greedy seat plays and the bot is asked in turn.
    advance_until(
        game,
        lambda game: len(fake.requests) > len(optional_requests(fake)) > 0,
        "catch through a window, then a turn",
    )
    optional = optional_requests(fake)
    for payload in optional:
        assert set(payload) == {
            "game",
            "variant",
            "seat",
            "version",
            "view",
            "legal",
            "deadline",
            "optional",
        }
        assert payload["seat"] == 0 and payload["seat"] not in payload["view"]["to_act"]
    caught = [event for event in window_events(game, bot) if event.type == "uno-caught"]
    assert caught, "the bot never caught anyone through a window"
    for event in caught:
        assert event.actor == actor_label(bot) and event.data["seat"] == 0
        assert event.command_id == f"bot:#{bot.pk}/window:{event.version - 1}:0"
    bot.refresh_from_db()
    # Windows are not calls asked of the bot: the stats count its in-turn decisions only.
    assert bot.calls == len(fake.requests) - len(optional) > 0
    assert (bot.strikes, bot.timeouts, bot.errors, bot.illegal_answers) == (0, 0, 0, 0)


def test_a_webhook_bot_that_forgot_its_uno_call_makes_it_out_of_turn(fake):
    bot = webhook_bot(fake.url)
    fake.mode = "no-uno"
    seats = [SeatSpec(registered=bot), SeatSpec(bot="greedy"), SeatSpec(bot="greedy")]
    hands = [["red-1", "red-2"], ["blue-1", "blue-2"], ["green-1", "green-2"]]
    game = stacked_game(seats, hands, first=0)
    advance_until(game, window_event(bot, "uno-called"), "uno call through a window")
    called = window_event(bot, "uno-called")(game)
    assert all(event.data == {"seat": 0} for event in called)
    # Its own debt came first: no built-in bot caught it before its window.
    caught = GameEvent.objects.filter(game=game, type="uno-caught", data__target=0)
    assert caught.count() == 0


def test_a_webhook_bot_jumps_in_out_of_turn_in_newno(fake):
    bot = webhook_bot(fake.url)
    seats = [
        SeatSpec(registered=bot, age=30),
        SeatSpec(bot="stacker", age=20),
        SeatSpec(bot="stacker", age=40),
        SeatSpec(bot="greedy", age=10),
    ]

    def jumps(game: Game) -> list[GameEvent]:
        played = window_event(bot, "card-played")(game)
        return [event for event in played if event.data.get("jump")]

    # Only seat 3 (the youngest) can make the first play, only the bot the second (red-2), and
    # seat 1 must then play the blue-2 the bot holds the twin of.
    hands = [["red-2", "blue-2"], ["blue-2", "green-8"], ["green-3", "blue-4"]]
    hands.append(["red-1", "green-9"])
    deck = stacked(hands, "yellow-1", first=1)
    spec = {"rules": "newno", "options": {"target": 200, "hand_size": 2}}
    game = game_create(variant_spec=spec, seats=seats, deck=deck, dealer=0)
    advance_until(game, jumps, "jump-in through a window")
    assert all(event.data["seat"] == 0 for event in jumps(game))
    bot.refresh_from_db()
    assert bot.strikes == 0


@pytest.mark.parametrize("mode", ["slow", "error", "decline", "illegal"])
def test_a_failed_or_absent_answer_to_a_window_is_no_strike_and_the_game_moves_on(
    fake, settings, mode
):
    settings.BOTS_WINDOW_SECONDS = 0.2
    bot = webhook_bot(fake.url)
    # It forgets its uno calls in turn, and answers its window (to make the call) badly.
    fake.mode, fake.optional_mode, fake.delay = "no-uno", mode, 1.0
    seats = [SeatSpec(registered=bot), SeatSpec(bot="greedy"), SeatSpec(bot="greedy")]
    hands = [["red-1", "red-2"], ["blue-1", "blue-2"], ["green-1", "green-2"]]
    game = stacked_game(seats, hands, first=0)
    for _ in range(10):
        asked = len(optional_requests(fake))
        before = Game.objects.get(pk=game.pk).version
        started = time.monotonic()
        advance = turns.advance_game(game_id=game.pk)
        took = time.monotonic() - started
        if len(optional_requests(fake)) > asked:
            break
    else:
        raise AssertionError("no window was offered")
    # The window let go, the same advance went on with the built-in bots, within the window.
    assert advance.version > before and advance.commands > 0 and not advance.strike
    assert took < 0.2 + 0.5
    assert window_events(game, bot) == []
    # The built-in bots, asked after the window, caught the debt it did not call.
    caught = GameEvent.objects.filter(game=game, type="uno-caught", data__target=0)
    assert caught.filter(version__gt=before, version__lte=advance.version).exists()
    for _ in range(30):
        turns.advance_game(game_id=game.pk)
    bot.refresh_from_db()
    assert (bot.strikes, bot.timeouts, bot.errors, bot.illegal_answers) == (0, 0, 0, 0)
    assert not GameEvent.objects.filter(game=game, type="fallback-played").exists()


# Pull bots: the optional decision in GET /api/bot/decisions, and the game holding for it.


@pytest.fixture
def pull_bot() -> tuple[Bot, APIClient]:
    bot = Bot.objects.create(
        owner=make_user(), name="poller", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {tokens.issue_token(bot)}")
    return bot, client


def a_window(
    bot: Bot, client: APIClient, forget: bool = False
) -> tuple[Game, dict[str, Any], turns.Advance]:
    """A game from a stacked deck whose first play opens a window for the pull bot in seat 1,
    out of turn, and the advance that held for it: a person in seat 2 plays down to one card
    without calling uno (the bot may catch them), or, if `forget`, the bot itself plays down to
    one card without its call (its window is its own call)."""
    person = make_user()
    seats = [SeatSpec(bot="greedy"), SeatSpec(registered=bot), SeatSpec(user=person)]
    seats.append(SeatSpec(bot="greedy"))
    hands = [["blue-1", "blue-2"], ["red-1", "red-2"], ["red-3", "red-4"], ["green-1", "green-2"]]
    game = stacked_game(seats, hands, first=1 if forget else 2)
    if forget:
        (decision,) = client.get("/api/bot/decisions").json()
        command = {"type": "play", "seat": 1, "card": "red-1", "uno": False}
        assert command in decision["legal"]
        body = {"command": command, "expected_version": decision["version"]}
        answer = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")
        assert answer.status_code == 200, answer.json()
    else:
        play_without_uno(game, person, 2, "red-3")
    advance = turns.advance_game(game_id=game.pk)
    (decision,) = client.get("/api/bot/decisions").json()
    assert decision["optional"], decision
    return game, decision, advance


# The pull tests give windows a minute while they look for one, so that a slow machine never
# lets a window close between an advance and the poll; a short one is set where it must close.
SLOW_MACHINE_WINDOW = 60


def test_a_pull_bot_sees_an_optional_decision_and_its_catch_is_applied(pull_bot, settings):
    settings.BOTS_PULL_WINDOW_SECONDS = SLOW_MACHINE_WINDOW
    bot, client = pull_bot
    game, decision, advance = a_window(bot, client)
    waiting = Game.objects.get(pk=game.pk)
    assert decision["game"] == game.pk and decision["seat"] == 1
    assert decision["version"] == waiting.version and 1 not in waiting.to_act
    # The game holds for the window: an advance now moves nothing and says how long.
    held = turns.advance_game(game_id=game.pk)
    assert (held.commands, held.version) == (0, waiting.version)
    assert 0 < held.hold <= SLOW_MACHINE_WINDOW
    end = waiting.last_activity + timedelta(seconds=SLOW_MACHINE_WINDOW)
    assert decision["deadline"] == end.isoformat()
    calls = Bot.objects.get(pk=bot.pk).calls
    catches = [c for c in decision["legal"] if c["type"] == "catch"]
    assert catches and set(decision) >= {"view", "legal", "optional"}
    body = {"command": catches[0], "expected_version": decision["version"], "command_id": "c1"}
    answer = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")
    assert answer.status_code == 200, answer.json()
    stored = GameEvent.objects.get(game=game, command_id=f"bot:#{bot.pk}/c1")
    assert (stored.type, stored.actor) == ("uno-caught", actor_label(bot))
    bot.refresh_from_db()
    # Out of turn, nothing was asked of it: not a call (which would reset its strikes).
    assert (bot.calls, bot.strikes) == (calls, 0)


def test_an_absent_pull_answer_costs_nothing_and_the_game_moves_on_after_the_window(
    pull_bot, settings
):
    settings.BOTS_PULL_WINDOW_SECONDS = SLOW_MACHINE_WINDOW
    bot, client = pull_bot
    game, decision, advance = a_window(bot, client, forget=True)
    version = decision["version"]
    assert turns.advance_game(game_id=game.pk).hold > 0
    calls = Bot.objects.get(pk=bot.pk).calls
    # Now a short window, long past by the time the bot polls again.
    settings.BOTS_PULL_WINDOW_SECONDS = 0.3
    time.sleep(0.35)
    assert not [d for d in client.get("/api/bot/decisions").json() if d["optional"]]
    moved = turns.advance_game(game_id=game.pk)
    assert moved.version > version and not moved.hold
    bot.refresh_from_db()
    assert (bot.calls, bot.strikes, bot.timeouts) == (calls, 0, 0)


def test_the_task_comes_back_when_a_pull_window_closes(pull_bot, settings, monkeypatch):
    settings.BOTS_PULL_WINDOW_SECONDS = SLOW_MACHINE_WINDOW
    bot, client = pull_bot
    game, decision, _ = a_window(bot, client, forget=True)
    sent: list[tuple[Any, float]] = []
    monkeypatch.setattr(
        tasks.advance_game, "apply_async", lambda args, countdown: sent.append((args, countdown))
    )
    tasks.advance_game(game.pk)
    assert len(sent) == 1
    (game_id, over), countdown = sent[0]
    assert (game_id, over) == (game.pk, decision["version"])
    assert 0 < countdown <= SLOW_MACHINE_WINDOW
    # Come back with the windows of that version over: the game moves on, however early.
    tasks.advance_game(game.pk, over)
    assert Game.objects.get(pk=game.pk).version > decision["version"]


# Games without a remote bot never wait, nor look for windows.


def test_a_game_of_builtin_bots_offers_no_window_and_stops_for_none(monkeypatch):
    def never(**kwargs: Any) -> None:
        raise AssertionError("a window was looked for in a game without remote bots")

    monkeypatch.setattr(windows, "offer", never)
    seats = [SeatSpec(bot=name) for name in ("greedy", "random", "random", "colour-control")]
    game = game_create(variant_spec={"rules": "official", "options": {"target": 500}},
                       seats=seats, seed=1)  # fmt: skip
    started = time.monotonic()
    advance = turns.advance_game(game_id=game.pk)
    took = time.monotonic() - started
    # The whole match in one run and one append, as before windows existed.
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER, advance
    assert GameEvent.objects.filter(game=game).exclude(command_id=None).count() == 2
    assert took < 10


def test_the_driver_stops_for_a_remote_seat_only_when_asked_to():
    variant = Variant.from_spec(LONG)
    state = variant.replay(variant.start(4, seed="windows"))
    bots = {seat: find_strategy("random") for seat in range(4)}
    alone = play(variant, state, bots, random.Random(1), limit=50000)
    same = play(variant, state, bots, random.Random(1), limit=50000, remote=frozenset())
    assert not alone.window and same.events == alone.events
    # Seat 3 as a remote seat out of turn: played by the same strategy, but through `remote`.
    others = {seat: bots[seat] for seat in (0, 1, 2)}
    rng = random.Random(1)
    stops = 0
    for _ in range(5000):
        run = play(variant, state, others, rng, limit=50000, remote=frozenset({3}))
        state = run.state
        if state.status == MATCH_OVER:
            break
        if run.window:
            stops += 1
            # It stopped right after a command that opened a chance for seat 3.
            assert state.uncalled or "jump" in (state.pending or {})
            assert 3 not in state.to_act or 3 in state.uncalled
        command = bots[3](variant.view(state, 3), variant.legal_commands(state, 3), rng)
        if command is None:
            # Seat 3 let its window go: the built-in seats carry on past it.
            state = play(variant, state, others, rng, limit=1).state
        else:
            _, state = step(variant, state, command)
    assert state.status == MATCH_OVER and stops > 0


def test_the_dispatcher_sends_an_advance_for_a_webhook_seat_out_of_turn(fake):
    bot = webhook_bot(fake.url)
    user = make_user()
    seats = [SeatSpec(user=user), SeatSpec(registered=bot), SeatSpec(user=make_user())]
    game = game_create(variant_spec=SHORT, seats=seats, seed=4)
    rows = turns.seat_rows(game.pk)
    assert not worker_to_act(rows) or 1 in Game.objects.get(pk=game.pk).to_act
    assert webhook_out_of_turn(rows) == (1 not in Game.objects.get(pk=game.pk).to_act)
    builtin = game_create(variant_spec=SHORT, seats=[SeatSpec(bot="greedy")] * 3, seed=4)
    assert not webhook_out_of_turn(turns.seat_rows(builtin.pk))
