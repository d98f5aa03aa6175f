"""A bot's owner's pages in the browser. Its recent calls, on a phone and a desktop: each failed
call with its reason code and the bot's answer as JSON (never a Python dict), the table
scrolling inside its frame on a phone. And on a phone (360x740), "Your bots": renaming a bot on
its page, retiring one after the confirmation (a form, scripts off), the retired one listed
apart, nothing scrolling sideways."""

from __future__ import annotations

import re

import pytest

from botcalls import reasons
from bots.remote import webhook
from bots.remote.strikes import ILLEGAL, Detail, as_json, record_call
from games.models import Bot
from tests.games.factories import make_user
from tests.web.browser.clicks import scrolls_sideways, too_wide
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


def test_a_bot_is_renamed_then_retired_from_your_bots_on_a_phone(open_page):
    owner = make_user()
    gus = Bot.objects.create(
        owner=owner, name="Gus", kind=Bot.Kind.BUILTIN, strategy="greedy", status=Bot.Status.ACTIVE
    )
    Bot.objects.create(
        owner=owner, name="Hooky the webhook bot with a long name", kind=Bot.Kind.WEBHOOK,
        url="https://bots.example.org/h", secret="s", status=Bot.Status.ACTIVE,
    )  # fmt: skip
    ARTIFACTS.mkdir(exist_ok=True)
    # Scripts off: every step is a link or a form.
    page = open_page(owner, "/me/bots/", width=360, height=740, javascript=False)
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "test_bot_calls_page-your-bots.png"), full_page=True)

    page.locator(f"a[href='/me/bots/{gus.pk}/#name-heading']").click()
    page.get_by_role("textbox", name="Name").fill("Gus II")
    page.get_by_role("button", name="Rename it").click()
    assert page.get_by_text("Gus is renamed Gus II").is_visible()
    assert page.locator("h1").inner_text() == "Gus II"
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "test_bot_calls_page-renamed.png"), full_page=True)

    page.get_by_role("link", name="Your bots").click()
    # "retire…", and for a screen reader the bot's name in between.
    page.get_by_role("link", name=re.compile(r"^retire Gus II\s*…$")).click()
    assert page.locator("h1").inner_text() == "Retire Gus II?"
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "test_bot_calls_page-retire.png"), full_page=True)
    page.get_by_role("button", name="Retire Gus II").click()

    assert page.url.endswith("/me/bots/")
    assert page.get_by_text("Gus II is retired: it plays nothing new").is_visible()
    retired = page.locator("ul.bot-rows--retired li")
    assert retired.count() == 1 and "Gus II" in retired.inner_text()
    assert "Gus II" not in page.locator("ul.bot-rows").first.inner_text()
    assert not scrolls_sideways(page), too_wide(page)
    page.screenshot(path=str(ARTIFACTS / "test_bot_calls_page-retired.png"), full_page=True)
    gus.refresh_from_db()
    assert (gus.name, gus.status) == ("Gus II", Bot.Status.RETIRED)
