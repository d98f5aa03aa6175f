"""What a bot's owner and the bot itself can read of its calls: GET /api/me/bots/<id>/calls
(each call's decision, answer as JSON, verdict and reason code), docs/bots-api.md's table of
reason codes kept equal to the code's, the bot's own `fallback-played` reasons in its event
feed, and a late pull bot's typed 409."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.services import token_issue
from botcalls.reasons import REASONS
from bots import turns
from bots.remote import tokens, validation
from clocks import overdue
from games.creation import SeatSpec, game_create
from games.models import Bot, BotCall, Game
from tests.games.factories import SHORT, make_user
from tests.games.fake_bot import FakeBot, active_pull_bot, bot_client, webhook_bot

pytestmark = pytest.mark.django_db
DOCS = Path(__file__).resolve().parents[2] / "docs"


def owner_client(bot: Bot) -> APIClient:
    client = APIClient()
    client.force_login(bot.owner)
    return client


def calls_of(bot: Bot, **query: Any) -> dict[str, Any]:
    response = owner_client(bot).get(f"/api/me/bots/{bot.pk}/calls", query)
    assert response.status_code == 200, response.content
    return response.json()


def asked(game: Game, fake: FakeBot) -> None:
    before = len(fake.requests)
    for _ in range(200):
        turns.advance_game(game_id=game.pk)
        if len(fake.requests) > before:
            return
    raise AssertionError("the webhook bot was never asked")


def webhook_game(bot: Bot) -> Game:
    seats = [SeatSpec(registered=bot), SeatSpec(bot="greedy"), SeatSpec(bot="random")]
    return game_create(variant_spec=SHORT, seats=seats, seed=4)


@pytest.mark.parametrize(
    ("mode", "code", "refusal", "answer"),
    [
        ("illegal", "illegal-answer", "unknown-card", {"type": "play", "card": "purple-11"}),
        ("wrong-seat", "wrong-seat", "wrong-seat", {"type": "draw", "seat": 1}),
        ("error", "error", None, None),
    ],
)
def test_a_webhook_bots_bad_answer_is_listed_with_its_code_and_its_answer_as_json(
    fake, mode, code, refusal, answer
):
    bot = webhook_bot(fake.url)
    game = webhook_game(bot)
    fake.mode = mode
    asked(game, fake)
    asked_at = json.loads(fake.requests[-1][0])["version"]
    call = calls_of(bot)["calls"][0]
    assert call["code"] == code and call["code"] in REASONS
    assert call["decision"] == {"game": game.pk, "seat": 0, "version": asked_at}
    assert call["strike"] is True
    assert call["outcome"] == {"error": "error"}.get(mode, "illegal")
    if answer is None:
        assert call["answer"] is None and call["refusal"] is None
        assert call["message"] == "error: HTTP 500"
    else:
        assert call["answer"] == {**answer, "seat": answer.get("seat", 0)}
        if refusal == "unknown-card":
            assert call["refusal"] in ("unknown-card", "malformed-command", "card-not-in-hand")
        else:
            assert call["refusal"] == refusal
        # JSON in the human message too, never a Python dict's repr.
        assert '"type": ' in call["message"] and "'type'" not in call["message"]


def test_the_bot_page_shows_the_answer_as_json(fake, client):
    bot = webhook_bot(fake.url)
    game = webhook_game(bot)
    fake.mode = "illegal"
    asked(game, fake)
    client.force_login(bot.owner)
    page = client.get(f"/me/bots/{bot.pk}/").content.decode()
    assert "illegal-answer" in page
    assert "&quot;card&quot;: &quot;purple-11&quot;" in page and "&#x27;card&#x27;" not in page


def test_calls_are_paged_newest_first_and_only_for_their_owner():
    bot = Bot.objects.create(owner=make_user(), name="p", kind=Bot.Kind.PULL)
    now = timezone.now()
    made = [
        BotCall.objects.create(bot=bot, game_id=1, at=now, outcome="ok", latency=0.1).pk
        for _ in range(53)
    ]
    first = calls_of(bot)
    assert [c["id"] for c in first["calls"]] == made[::-1][:50] and first["more"] is True
    assert first["calls"][0]["code"] == "ok" and first["calls"][0]["strike"] is False
    rest = calls_of(bot, before=first["calls"][-1]["id"])
    assert [c["id"] for c in rest["calls"]] == made[:3][::-1] and rest["more"] is False
    stranger = APIClient()
    stranger.force_login(make_user())
    assert stranger.get(f"/api/me/bots/{bot.pk}/calls").status_code == 404
    assert APIClient().get(f"/api/me/bots/{bot.pk}/calls").status_code == 403


def test_an_owner_reads_the_calls_with_a_personal_token_of_the_bots_scope():
    owner = make_user()
    bot = Bot.objects.create(owner=owner, name="p", kind=Bot.Kind.PULL)
    BotCall.objects.create(bot=bot, game_id=1, at=timezone.now(), outcome="timeout", latency=1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=owner, scopes=['bots'])}")
    answer = client.get(f"/api/me/bots/{bot.pk}/calls")
    assert answer.status_code == 200, answer.content
    assert [call["code"] for call in answer.json()["calls"]] == ["timeout"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=owner, scopes=['play'])}")
    answer = client.get(f"/api/me/bots/{bot.pk}/calls")
    assert answer.status_code == 403 and answer.json()["code"] == "token-scope"


def documented_reason_codes() -> set[str]:
    text = (DOCS / "bots-api.md").read_text()
    section = text.split("### Reason codes", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {re.match(r"\| `([a-z-]+)`", row).group(1) for row in rows}  # type: ignore[union-attr]


def test_the_docs_table_of_reason_codes_is_the_codes_set():
    assert documented_reason_codes() == set(REASONS)


# Pull bots.


@pytest.fixture
def pull_bot() -> tuple[Bot, str]:
    return active_pull_bot()


def pull_game(bot: Bot) -> Game:
    seats = [SeatSpec(bot="greedy"), SeatSpec(registered=bot), SeatSpec(bot="random")]
    game = game_create(variant_spec=SHORT, seats=seats, seed=9)
    turns.advance_game(game_id=game.pk)
    assert Game.objects.get(pk=game.pk).to_act == [1]
    return game


def test_a_refused_pull_command_is_counted_listed_and_no_strike(pull_bot):
    bot, token = pull_bot
    game = pull_game(bot)
    decision = bot_client(token).get("/api/bot/decisions").json()[0]
    command = {"type": "play", "seat": 1, "card": "purple-11", "uno": False}
    body = {"command": command, "expected_version": decision["version"]}
    refused = bot_client(token).post(f"/api/bot/games/{game.pk}/commands", body, format="json")
    assert refused.status_code == 422
    bot.refresh_from_db()
    # docs/api.md and docs/bots-api.md: counted in `illegal_answers`, no strike.
    assert (bot.illegal_answers, bot.calls, bot.strikes) == (1, 1, 0)
    call = calls_of(bot)["calls"][0]
    assert (call["code"], call["outcome"], call["strike"]) == ("refused", "refused", False)
    assert call["answer"] == command and call["refusal"] == refused.json()["code"]
    assert call["decision"] == {"game": game.pk, "seat": 1, "version": decision["version"]}


@pytest.mark.parametrize(
    ("command", "code"),
    [({"type": "draw", "seat": "1"}, "bad-seat"), ({"type": "draw"}, "malformed-command")],
)
def test_a_refused_command_without_a_seat_number_keeps_the_decisions_seat(pull_bot, command, code):
    # `"seat": "1"` (a string) or no seat at all: the call still says which
    # decision it answered, the seat the bot was asked for.
    bot, token = pull_bot
    game = pull_game(bot)
    decision = bot_client(token).get("/api/bot/decisions").json()[0]
    body = {"command": command, "expected_version": decision["version"]}

    refused = bot_client(token).post(f"/api/bot/games/{game.pk}/commands", body, format="json")

    assert (refused.status_code, refused.json()["code"]) == (422, code)
    call = calls_of(bot)["calls"][0]
    assert (call["answer"], call["refusal"]) == (command, code)
    assert call["decision"] == {
        "game": game.pk,
        "seat": decision["seat"],
        "version": decision["version"],
    }


def test_a_late_pull_bot_is_told_it_was_late_and_sees_why_in_its_event_feed(pull_bot):
    bot, token = pull_bot
    game = pull_game(bot)
    client = bot_client(token)
    decision = client.get("/api/bot/decisions").json()[0]
    assert overdue.expire(now=timezone.now() + timedelta(seconds=31)) == [game.pk]
    body = {"command": decision["legal"][0], "expected_version": decision["version"]}
    late = client.post(f"/api/bot/games/{game.pk}/commands", body, format="json")
    assert late.status_code == 409
    answer = late.json()
    assert answer["code"] == "too-late" and answer["current_version"] > decision["version"]
    assert "default bot played" in answer["message"] and "bot-timeout" in answer["message"]
    call = calls_of(bot)["calls"][0]
    assert (call["code"], call["strike"]) == ("timeout", True)
    assert call["decision"] == {"game": game.pk, "seat": 1, "version": decision["version"]}

    # The bot's token reads its own fallback's reason; a spectator reads only that it happened.
    url = f"/api/games/{game.pk}/events?after={decision['version']}"
    mine = [e["event"] for e in client.get(url).json()["events"]]
    theirs = [e["event"] for e in APIClient().get(url).json()["events"]]
    fallback = {"type": "fallback-played", "seat": 1, "reason": "bot-timeout"}
    assert fallback in mine
    assert {**fallback, "reason": None} in theirs and fallback not in theirs


def test_a_validating_pull_bots_reason_says_its_round_is_played_from_its_first_poll():
    bot = Bot.objects.create(
        owner=make_user(),
        name="newcomer",
        kind=Bot.Kind.PULL,
        status=Bot.Status.VALIDATING,
        status_reason=validation.WAITING_FOR_POLL,
    )
    token = tokens.issue_token(bot)
    read = owner_client(bot).get(f"/api/me/bots/{bot.pk}").json()
    assert read["status_reason"] == validation.WAITING_FOR_POLL
    assert bot_client(token).get("/api/bot/decisions").status_code == 200
    read = owner_client(bot).get(f"/api/me/bots/{bot.pk}").json()
    assert (read["status"], read["status_reason"]) == ("validating", validation.PLAYING_ROUND)
    assert "first GET" not in read["status_reason"].split("(")[0]


def test_deadlines_always_carry_six_digits_of_microseconds(pull_bot):
    bot, token = pull_bot
    pull_game(bot)
    for decision in bot_client(token).get("/api/bot/decisions").json():
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", decision["deadline"])
