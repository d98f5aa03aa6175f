"""A bot's owner is told when their bot is suspended, by its strikes or by the staff
(bots/suspension_notice.py): under the bell (/notifications/) and by email, once per
suspension, saying which bot, why in plain words (the staff's message to them, never the staff's
own reason) and what to do on the bot's page."""

from __future__ import annotations

from html import unescape

import pytest
from django.core import mail

from bots.remote import strikes, webhook
from games.models import Bot
from social.models import Notification
from staff.actions import bot_suspend
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.web.clients import signed_in
from tests.web.league_pages import text

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def owner():
    person = make_user("ona")
    person.email = "ona@example.com"
    person.save()
    return person


def listed(person) -> str:
    return unescape(text(signed_in(person).get("/notifications/").content.decode()))


def strike_out(bot: Bot, times: int) -> None:
    for _ in range(times):
        strikes.record_call(
            bot.pk, outcome=webhook.TIMEOUT, latency=2.0, reason="timeout after 2.0 s"
        )


def test_strikes_that_suspend_a_bot_tell_its_owner_once_by_bell_and_email(owner, settings):
    settings.SITE_URL = "https://uno.example.org"
    settings.BOTS_STRIKES_TO_SUSPEND = 3
    bot = make_bot(owner=owner, kind=Bot.Kind.WEBHOOK, name="Rex", url="https://rex.example/")
    strike_out(bot, 2)
    assert not Notification.objects.filter(user=owner).exists() and mail.outbox == []
    # The third suspends it; more strikes while it is suspended tell nothing more.
    strike_out(bot, 3)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.SUSPENDED
    why = "after 3 failed calls in a row (the last: it did not answer in time)"
    (notice,) = Notification.objects.filter(user=owner)
    assert notice.text == (
        f"Your bot Rex is suspended {why}. Fix it, then validate it again on its page."
    )
    assert (notice.kind, notice.url, notice.read_at) == ("bot", f"/me/bots/{bot.pk}/", None)
    assert f"Your bot Rex is suspended {why}" in listed(owner)
    (email,) = mail.outbox
    assert email.to == ["ona@example.com"] and email.subject == "Your bot Rex is suspended"
    assert f"Your bot Rex is suspended {why}." in email.body
    assert "validate it again" in email.body
    assert f"https://uno.example.org/me/bots/{bot.pk}/" in email.body
    # Validated again, it plays; a new run of strikes is a new suspension, told again.
    Bot.objects.filter(pk=bot.pk).update(status=Bot.Status.ACTIVE, strikes=0)
    strike_out(bot, 3)
    assert Notification.objects.filter(user=owner, kind="bot").count() == 2
    assert len(mail.outbox) == 2


def test_the_staffs_suspension_tells_the_owner_their_message_never_the_reason(owner):
    staff = make_user()
    staff.is_staff = True
    staff.save()
    bot = make_bot(owner=owner, name="Greta")
    bot_suspend(
        bot_id=bot.pk,
        user=staff,
        reason="private: the owner was rude in chat",
        message="It plays far too slowly in the ladder",
    )
    (notice,) = Notification.objects.filter(user=owner)
    assert notice.text == (
        "Your bot Greta is suspended by the staff: “It plays far too slowly in the ladder”. "
        "Only the staff can lift it."
    )
    assert notice.url == f"/me/bots/{bot.pk}/"
    (email,) = mail.outbox
    assert "It plays far too slowly in the ladder" in email.body
    assert f"/me/bots/{bot.pk}/" in email.body
    for told in (listed(owner), email.body, email.subject):
        assert "rude" not in told and "private" not in told
