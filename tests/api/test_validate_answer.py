"""What `POST /api/me/bots/<id>/validate` answers (docs/api.md and docs/bots-api.md, issue 32
item 7: documented as answering `validating`, it may answer `active`): with a broker, 202
`validating`, the round still to be played; on a site without one (tasks in-process, `make
run`), a built-in or webhook bot's round is played inside the request and the answer already
says how it went; a pull bot's answer is `validating` either way, its round waiting for its
first poll. Committed for real (the validation is sent when the request's transaction
commits), so these tests run outside a test transaction."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from bots.remote.validation import WAITING, WAITING_FOR_POLL
from games.models import Bot
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_validation(settings):
    settings.BOTS_VALIDATION_MATCHES = 1


def failed_bot(kind: str) -> tuple[APIClient, Bot]:
    owner = make_user()
    fields = {"strategy": "greedy"} if kind == "builtin" else {}
    bot = Bot.objects.create(
        owner=owner, name="b", kind=kind, status=Bot.Status.FAILED, status_reason="timeout",
        **fields,
    )  # fmt: skip
    client = APIClient()
    client.force_login(owner)
    return client, bot


@pytest.mark.usefixtures("eager_tasks")
def test_without_a_broker_the_answer_already_says_how_the_round_went():
    client, bot = failed_bot("builtin")
    answer = client.post(f"/api/me/bots/{bot.pk}/validate")
    assert answer.status_code == 202
    assert answer.json()["status"] == "active", answer.json()["status_reason"]
    assert answer.json()["status_reason"] == "passed 1 validation matches"


@pytest.mark.usefixtures("broker_tasks")
def test_with_a_broker_the_answer_says_validating():
    client, bot = failed_bot("builtin")
    answer = client.post(f"/api/me/bots/{bot.pk}/validate")
    assert answer.status_code == 202
    assert (answer.json()["status"], answer.json()["status_reason"]) == ("validating", WAITING)


@pytest.mark.usefixtures("eager_tasks")
def test_a_pull_bots_answer_is_validating_until_its_first_poll():
    client, bot = failed_bot("pull")
    answer = client.post(f"/api/me/bots/{bot.pk}/validate")
    assert answer.status_code == 202
    assert (answer.json()["status"], answer.json()["status_reason"]) == (
        "validating",
        WAITING_FOR_POLL,
    )
