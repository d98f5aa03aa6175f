"""Every decision a bot is given can be answered (docs/bots-api.md, "Every decision can be
answered"; issue 32 item 5): a decision the game waits for offers a command that costs the bot
nothing, and an out-of-turn window says `"optional": true` (null lets it go) and offers one too.
A seat whose only legal commands are catches that would cost it cards (a newno open choice with
no card to play, a skipped newno seat holding the skip) is asked nothing, and nobody waits for it.

Whole short matches of every family (official, basic-plus, newno, censorship, the precognitive
modifier) through the pull API and through a webhook bot; the newno cases on stacked decks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from bots import turns
from bots.driver import play
from bots.strategies import find_strategy
from bots.turns import seat_rows
from engine import MATCH_OVER, Variant
from engine.commands import free_commands
from engine.events import PROMPTED
from games import event_reads
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from games.seats import work_for
from tests.engine.decks import stacked
from tests.games.fake_bot import active_pull_bot, bot_client, webhook_bot

pytestmark = pytest.mark.django_db

FAMILIES = {
    "official": {"rules": "official", "options": {"target": 20, "hand_size": 4}},
    "basic-plus": {"rules": "basic-plus", "options": {"target": 20, "hand_size": 4}},
    "newno": {"rules": "newno", "options": {"target": 20, "hand_size": 4}},
    "censorship": {"rules": "censorship", "options": {"target": 20, "hand_size": 4}},
    "precognitive": {
        "rules": "official",
        "options": {"target": 20, "hand_size": 4},
        "precognitive": {"lane": 2},
    },
}


def answerable(decision: dict[str, Any]) -> list[dict[str, Any]]:
    """The commands of a decision that cost the bot nothing."""
    return free_commands(decision["legal"], decision["view"]["uncalled"])


def seated(bot: Bot, spec: dict[str, Any], seed: int) -> Game:
    seats = [SeatSpec(registered=bot), SeatSpec(bot="greedy"), SeatSpec(bot="stacker")]
    return game_create(variant_spec=spec, seats=seats, seed=seed)


def over(game: Game) -> bool:
    return Game.objects.get(pk=game.pk).status == MATCH_OVER


@pytest.mark.parametrize("family", FAMILIES)
def test_every_decision_a_pull_bot_is_given_offers_a_command_that_costs_nothing(family, settings):
    settings.BOTS_PULL_WINDOW_SECONDS = 0  # no window holds this match up (the webhook's below)
    bot, token = active_pull_bot()
    client = bot_client(token)
    game = seated(bot, FAMILIES[family], seed=3)
    rng = random.Random(3)
    served = 0
    for _ in range(3000):
        if over(game):
            break
        turns.advance_game(game_id=game.pk)
        response = client.get("/api/bot/decisions")
        assert response.status_code == 200
        for decision in response.json():
            free = answerable(decision)
            assert free, f"nothing to answer with: {decision['legal']}"
            assert decision["optional"] is False
            served += 1
            command = find_strategy("greedy")(decision["view"], decision["legal"], rng) or free[0]
            body = {"command": command, "expected_version": decision["version"]}
            posted = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")
            assert posted.status_code == 200, posted.json()
            for following in posted.json()["next"]:
                assert answerable(following), following["legal"]
    assert over(game) and served > 0
    bot.refresh_from_db()
    assert (bot.strikes, bot.timeouts, bot.illegal_answers) == (0, 0, 0)


# Transactional, as the workers run: each run's load starts from the state the last one left
# (games/recent.py keeps none inside a test's transaction, where each load folds the whole log).
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("family", FAMILIES)
def test_every_request_a_webhook_bot_is_sent_offers_a_command_that_costs_nothing(
    family, fake, settings, broker_tasks
):
    settings.BOTS_WINDOW_SECONDS = 0.5
    fake.mode = "answer"  # greedy's move, and a free one where greedy would let a choice pass
    bot = webhook_bot(fake.url)
    game = seated(bot, FAMILIES[family], seed=5)
    for _ in range(3000):
        if over(game):
            break
        turns.advance_game(game_id=game.pk)
    assert over(game)
    requests = [json.loads(body) for body, _ in fake.requests]
    assert len(requests) > 5
    for request in requests:
        assert answerable(request), f"nothing to answer with: {request['legal']}"
        # In turn the key is absent; a window says so.
        assert request.get("optional", False) is (request["seat"] not in request["view"]["to_act"])
    bot.refresh_from_db()
    assert (bot.strikes, bot.timeouts, bot.errors, bot.illegal_answers) == (0, 0, 0, 0)


# A newno open start (docs/rules.md "newno") on a flipped red-5 where nobody holds a red card, a
# 5 or a black one: no seat can make the first play, so its only legal commands are catches, and
# each would cost the catcher 2 cards. Seat 0 (no ages: the lowest seat is the youngest) is then
# forced by close-window, and may draw.
NOTHING_TO_OPEN = [["blue-1", "green-2"], ["yellow-3", "green-4"], ["blue-6", "yellow-7"]]


def open_start(first: SeatSpec) -> Game:
    spec = {"rules": "newno", "options": {"hand_size": 2}}
    seats = [first, SeatSpec(bot="greedy"), SeatSpec(bot="random")]
    deck = stacked(NOTHING_TO_OPEN, "red-5", first=1)
    return game_create(variant_spec=spec, seats=seats, deck=deck, dealer=0)


def closed_at_once(game: Game, version: int) -> None:
    """The advance after the deal sent close-window, and seat 0 is forced: it may draw."""
    game.refresh_from_db()
    assert game.to_act == [0]
    prompted = [e for e in event_reads.load(game.pk, after=version) if e["type"] == PROMPTED]
    assert prompted[0]["pending"]["forced"] is True
    assert event_reads.load(game.pk, after=version)[0]["type"] == "prompted"


def test_a_pull_bot_with_nothing_to_open_a_newno_hand_is_not_asked_nor_waited_for():
    bot, token = active_pull_bot()
    client = bot_client(token)
    game = open_start(SeatSpec(registered=bot))
    assert sorted(game.to_act) == [0, 1, 2]
    # Three catches, each of which would cost it two cards: not a decision it can act on.
    assert client.get("/api/bot/decisions").json() == []
    version = game.version
    advance = turns.advance_game(game_id=game.pk)
    # The built-in seats cannot open either: close-window at once, not after 30 seconds.
    assert advance.version == version + 1
    closed_at_once(game, version)
    (decision,) = client.get("/api/bot/decisions").json()
    assert decision["optional"] is False
    assert {"type": "draw", "seat": 0} in answerable(decision)


def test_a_webhook_bot_with_nothing_to_open_a_newno_hand_is_not_asked(fake):
    bot = webhook_bot(fake.url)
    game = open_start(SeatSpec(registered=bot))
    version = game.version
    turns.advance_game(game_id=game.pk)
    assert fake.requests == []  # not asked: nothing to answer with but catches that cost
    closed_at_once(game, version)
    turns.advance_game(game_id=game.pk)
    (request,) = [json.loads(body) for body, _ in fake.requests]
    assert request["version"] == version + 1 and "optional" not in request
    assert {"type": "draw", "seat": 0} in answerable(request)
    bot.refresh_from_db()
    assert bot.strikes == 0


def test_a_skipped_newno_seat_holding_the_skip_is_offered_no_window():
    # Seat 0 opens red-6, seat 1 answers red-8 (clockwise), seat 2 plays red-skip over seat 0,
    # which holds the twin red-skip but may not jump in with a skip it was skipped by: its only
    # legal commands are catches that cost cards, so a remote seat 0 gets no window there.
    variant = Variant.from_spec({"rules": "newno", "options": {"hand_size": 3}})
    hands = [["red-6", "red-skip", "blue-1"], ["red-8", "green-2", "green-3"]]
    hands.append(["red-skip", "yellow-4", "yellow-9"])
    events = variant.start(3, deck=stacked(hands, "red-5", first=1), dealer=0, seed=1)
    state = variant.replay(events)
    for seat, card in ((0, "red-6"), (1, "red-8")):
        command = {"type": "play", "seat": seat, "card": card}
        state = variant.replay(variant.decide(state, command), state)
    assert list(state.to_act) == [2]
    greedy = find_strategy("greedy")
    run = play(
        variant, state, {1: greedy, 2: greedy}, random.Random(0), limit=1,
        remote=frozenset({0}),
    )  # fmt: skip
    assert (run.state.pending or {}).get("jump", {}).get("card") == "red-skip"
    assert 0 in run.state.pending["jump"]["skipped"]
    assert variant.legal_commands(run.state, 0) and not variant.free_commands(run.state, 0)
    # The driver does not stop for a window of seat 0: seat 1 moves on at once.
    more = play(variant, run.state, {1: greedy, 2: greedy}, random.Random(0), limit=1,
                remote=frozenset({0}))  # fmt: skip
    assert not more.window and more.commands == 1


def test_every_poll_says_how_long_to_wait_before_the_next(settings):
    # docs/bots-api.md, "Pull bots": the poll interval is the Retry-After of every 200.
    _, token = active_pull_bot()
    answer = bot_client(token).get("/api/bot/decisions")
    assert answer.status_code == 200 and answer.json() == []
    assert answer["Retry-After"] == "1" == str(settings.BOTS_POLL_SECONDS)
    settings.BOTS_POLL_SECONDS = 3
    assert bot_client(token).get("/api/bot/decisions")["Retry-After"] == "3"


def test_the_openapi_document_describes_the_poll_interval():
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    ok = schema["paths"]["/api/bot/decisions"]["get"]["responses"]["200"]
    assert ok["headers"]["Retry-After"]["schema"]["type"] == "integer"
    assert "BOTS_POLL_SECONDS" in ok["headers"]["Retry-After"]["description"]


def test_an_open_start_only_pull_bots_with_nothing_to_play_could_answer_is_closed_at_once():
    # Every seat a pull bot's, none with a card for the open start: a worker is sent (no seat a
    # worker moves is to act) and closes it, rather than the 30-second sweep.
    bots = [active_pull_bot()[0] for _ in NOTHING_TO_OPEN]
    spec = {"rules": "newno", "options": {"hand_size": 2}}
    deck = stacked(NOTHING_TO_OPEN, "red-5", first=1)
    game = game_create(
        variant_spec=spec, seats=[SeatSpec(registered=bot) for bot in bots], deck=deck, dealer=0
    )
    assert work_for(seat_rows(game.pk)).advance
    version = game.version
    turns.advance_game(game_id=game.pk)
    closed_at_once(game, version)
    assert not work_for(seat_rows(game.pk)).advance  # now seat 0's turn: the bot's own
