"""What a bot author is shown once and what they need later (web/bots.py): a registration and
a new token are post/redirect/get, the token (or a secret we made) shown on the page the POST
redirects to and taken out of the session as it is drawn, never in a URL or a log; a reload of
that page registers nothing again and says, on the bot's page, that the token was shown once and
how to make a new one. The bot's id, which the API names it by, is on its pages and in the
list of one's bots."""

from __future__ import annotations

import datetime
import logging
import re

import pytest
import time_machine
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bots.remote.tokens import issue_token, token_hash
from games.models import Bot
from tests.games.factories import make_user
from tests.web.clients import signed_in
from tests.web.ladder_pages import owned_bot
from tests.web.league_pages import text

pytestmark = pytest.mark.django_db

HOOK = "http://127.0.0.1:9/move"
TOKEN_BOX = re.compile(r'id="bot-token" [^>]*>([^<]+)</textarea>')


@pytest.fixture(autouse=True)
def quick_validation(settings):
    settings.BOTS_VALIDATION_MATCHES = 1
    settings.BOTS_ALLOW_LOOPBACK_URLS = True


def words(html: str) -> str:
    """The page's text as read: no space before a stop or inside brackets that a tag made."""
    return re.sub(r"\(\s+", "(", re.sub(r"\s+([:;,.)])", r"\1", text(html)))


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_reload_after_registering_a_pull_bot_registers_nothing_and_says_the_token_was_shown(
    caplog,
):
    caplog.set_level(logging.DEBUG)
    ada = make_user("ada")
    client = signed_in(ada)

    posted = client.post(reverse("web:my-bots"), {"kind": "pull", "pull-name": "Puller"})

    bot = Bot.objects.get(owner=ada)
    shown_url = reverse("web:my-bot-shown", args=[bot.pk])
    assert (posted.status_code, posted["Location"]) == (302, shown_url)
    shown = client.get(shown_url)
    [token] = TOKEN_BOX.findall(shown.content.decode())
    assert token_hash(token) == bot.token_hash
    assert "no-store" in shown["Cache-Control"]
    assert "Puller is registered" in text(shown.content.decode())
    assert token not in repr(dict(client.session))  # taken out as it was drawn

    reloaded = client.get(shown_url, follow=True)

    assert reloaded.redirect_chain == [(reverse("web:my-bot", args=[bot.pk]), 302)]
    page = reloaded.content.decode()
    assert token not in page
    [said] = shown_messages(reloaded)
    assert "Puller's token is shown only once" in said
    assert "make a new one under “Its token” below" in said
    assert "Its token" in text(page) and "Make a new token" in text(page)
    assert Bot.objects.filter(owner=ada).count() == 1
    # Never in a URL, nor in a log.
    assert token not in posted["Location"] and token not in caplog.text
    assert all(token not in repr(record.args) for record in caplog.records)


def test_a_new_token_is_shown_once_after_a_redirect_and_a_reload_makes_no_other():
    ada = make_user("ada")
    puller = owned_bot(ada, "Puller", kind=Bot.Kind.PULL, strategy="")
    issue_token(puller)
    client = signed_in(ada)

    posted = client.post(reverse("web:my-bot-token", args=[puller.pk]))

    shown_url = reverse("web:my-bot-shown", args=[puller.pk])
    assert (posted.status_code, posted["Location"]) == (302, shown_url)
    shown = client.get(shown_url).content.decode()
    [token] = TOKEN_BOX.findall(shown)
    assert "A new token for Puller" in text(shown) and "The old token no longer works" in shown
    reloaded = client.get(shown_url, follow=True)
    assert token not in reloaded.content.decode()
    assert "Puller's token is shown only once" in shown_messages(reloaded)[0]
    puller.refresh_from_db()
    assert puller.token_hash == token_hash(token)  # the reload made no other


def test_a_secret_we_made_is_shown_once_and_a_reload_says_where_to_set_one():
    ada = make_user("ada")
    client = signed_in(ada)
    data = {"kind": "webhook", "webhook-name": "Hook", "webhook-url": HOOK, "webhook-secret": ""}

    made = client.post(reverse("web:my-bots"), data, follow=True).content.decode()

    hook = Bot.objects.get(owner=ada)
    assert re.search(rf'id="bot-secret" [^>]*>{re.escape(hook.secret)}</textarea>', made)
    reloaded = client.get(reverse("web:my-bot-shown", args=[hook.pk]), follow=True)
    assert hook.secret not in reloaded.content.decode()
    assert shown_messages(reloaded) == [
        "If we made Hook's secret, it is shown only once, on the page after the registration: "
        "set one of your own under “How it plays” below."
    ]


def test_what_was_kept_for_one_bot_is_shown_on_its_page_only():
    ada, cy = make_user("ada"), make_user("cy")
    client = signed_in(ada)
    client.post(reverse("web:my-bots"), {"kind": "pull", "pull-name": "Puller"})
    puller = Bot.objects.get(owner=ada)
    other = owned_bot(ada, "Greta")
    cole = owned_bot(cy, "Cole", kind=Bot.Kind.PULL, strategy="")

    # Another of one's bots: nothing to show there, and Puller's stays for its own page.
    assert client.get(reverse("web:my-bot-shown", args=[other.pk])).status_code == 302
    # Someone else's bot: not found.
    assert client.get(reverse("web:my-bot-shown", args=[cole.pk])).status_code == 404
    assert signed_in(cy).get(reverse("web:my-bot-shown", args=[puller.pk])).status_code == 404
    shown = client.get(reverse("web:my-bot-shown", args=[puller.pk])).content.decode()
    [token] = TOKEN_BOX.findall(shown)
    assert token_hash(token) == puller.token_hash


def test_a_bots_id_is_on_its_pages_and_in_the_list_of_ones_bots():
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta")
    old = owned_bot(ada, "Old Rex", status=Bot.Status.RETIRED)
    client = signed_in(ada)

    mine = text(client.get(reverse("web:my-bots")).content.decode())
    assert f"Greta id {greta.pk}" in mine and f"Old Rex id {old.pk}" in mine
    assert "the API names a bot by the id beside its name" in mine

    owners = client.get(reverse("web:my-bot", args=[greta.pk])).content.decode()
    assert f'<code id="bot-id">{greta.pk}</code>' in owners
    assert 'data-copy="bot-id"' in owners and "copy.js" in owners
    assert f'The API names it so: {{"bot": {greta.pk}}} enters it in a ladder' in text(owners)

    public = Client().get(reverse("web:bot", args=[greta.pk])).content.decode()
    assert f'<code id="bot-id">{greta.pk}</code>' in public
    assert f"/api/bots/{greta.pk} is this page's record as JSON" in text(public)
    assert '{"bot"' not in public  # the owner's, not a visitor's


def test_the_page_after_a_registration_gives_the_id():
    ada = make_user("ada")
    client = signed_in(ada)
    data = {"kind": "builtin", "builtin-name": "Greta", "builtin-strategy": "stacker"}

    shown = client.post(reverse("web:my-bots"), data, follow=True).content.decode()

    greta = Bot.objects.get(owner=ada)
    assert f'Its id is {greta.pk}: the API names the bot by it ({{"bot": {greta.pk}}}' in words(
        shown
    )
    # A built-in bot has nothing shown once: a reload is its page, with no line about it.
    reloaded = client.get(reverse("web:my-bot-shown", args=[greta.pk]), follow=True)
    assert reloaded.redirect_chain == [(reverse("web:my-bot", args=[greta.pk]), 302)]
    assert shown_messages(reloaded) == []


def test_a_token_whose_page_was_not_drawn_within_ten_minutes_is_not_shown_later():
    ada = make_user("ada")
    client = signed_in(ada)
    client.post(reverse("web:my-bots"), {"kind": "pull", "pull-name": "Puller"})
    puller = Bot.objects.get(owner=ada)
    # The redirect was never followed (a closed tab): the token is in no session row, only in
    # the cache, for ten minutes.
    [kept] = [v for v in client.session.values() if isinstance(v, dict) and "handle" in v]
    token = cache.get(f"shown-once:{kept['handle']}")["token"]
    assert token
    assert not any(token in str(row.get_decoded()) for row in Session.objects.all())
    with time_machine.travel(timezone.now() + datetime.timedelta(seconds=601)):
        assert cache.get(f"shown-once:{kept['handle']}") is None

        late = client.get(reverse("web:my-bot-shown", args=[puller.pk]), follow=True)

    assert token not in late.content.decode()
    assert "Puller's token is shown only once" in shown_messages(late)[0]
    assert not any("handle" in str(v) for v in client.session.values())
