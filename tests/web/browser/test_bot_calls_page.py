"""A bot's recent calls on its owner's page, on a phone and a desktop: each failed call with
its reason code and the bot's answer as JSON (never a Python dict), the table scrolling inside
its frame on a phone."""

from __future__ import annotations

import pytest

from botcalls import reasons
from bots.remote import webhook
from bots.remote.strikes import ILLEGAL, Detail, as_json, record_call
from games.models import Bot
from tests.games.factories import make_user
from tests.web.browser.clicks import scrolls_sideways
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_owner_reads_each_calls_reason_code_and_answer(open_page):
    owner = make_user()
    bot = Bot.objects.create(
        owner=owner, name="Hooky", kind=Bot.Kind.WEBHOOK, url="https://bots.example.org/h",
        secret="s", status=Bot.Status.ACTIVE,
    )  # fmt: skip
    answer = {"type": "play", "seat": 0, "card": "blue-9", "uno": False}
    record_call(
        bot.pk,
        outcome=ILLEGAL,
        latency=0.031,
        reason=f"illegal answer {as_json(answer)} at version 12: card-not-in-hand: no blue-9",
        game_id=5,
        detail=Detail(reasons.ILLEGAL_ANSWER, 0, 12, answer, "card-not-in-hand"),
    )
    record_call(bot.pk, outcome=webhook.TIMEOUT, latency=1.0, reason="timeout: no answer in time",
                game_id=5, detail=Detail(reasons.TIMEOUT, 0, 14))  # fmt: skip
    record_call(bot.pk, outcome=webhook.OK, latency=0.02, game_id=5)
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height, name in ((360, 740, "phone"), (1200, 900, "desktop")):
        page = open_page(owner, f"/me/bots/{bot.pk}/", width=width, height=height)
        rows = page.locator("tr.call")
        assert rows.count() == 3
        illegal = rows.nth(2).inner_text()
        assert "illegal-answer" in illegal and "card-not-in-hand" in illegal
        assert '{"type": "play", "seat": 0, "card": "blue-9", "uno": false}' in illegal
        assert "'card'" not in illegal and "False" not in illegal
        assert "timeout" in rows.nth(1).inner_text()
        assert not scrolls_sideways(page)
        page.locator("table.calls").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"test_bot_calls_page-{name}.png"), full_page=True)
