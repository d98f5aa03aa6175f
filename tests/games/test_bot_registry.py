"""bots/registry.py: registering bots, changing them, validating them again, pull tokens.

Validation is sent on commit; only built-in bots' validations are run here (eagerly, in-process),
so these tests do not depend on how webhook or pull bots are validated.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from bots.registry import (
    bot_new_token,
    bot_register,
    bot_revalidate,
    bot_update,
)
from bots.remote import tokens, validation
from bots.remote.validation import WAITING
from games import tasks
from games.errors import Forbidden, GameError
from games.models import Bot, Game
from tests.games.factories import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

HOOK = "http://127.0.0.1:9/move"


@pytest.fixture(autouse=True)
def one_validation_match(settings):
    settings.BOTS_VALIDATION_MATCHES = 1
    settings.BOTS_ALLOW_LOOPBACK_URLS = True


def validation_games(bot: Bot) -> int:
    return Game.objects.filter(context__kind="validation", context__bot=bot.pk).count()


def test_a_builtin_bot_is_validating_until_its_validation_runs_on_commit(
    django_capture_on_commit_callbacks,
):
    owner = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        bot, token = bot_register(
            owner=owner, name=" Greedy Gus ", kind="builtin", strategy="greedy"
        )
        assert (bot.status, bot.status_reason) == (Bot.Status.VALIDATING, WAITING)
        assert validation_games(bot) == 0

    assert token is None
    bot.refresh_from_db()
    assert (bot.owner, bot.name, bot.kind, bot.strategy) == (
        owner,
        "Greedy Gus",
        "builtin",
        "greedy",
    )
    assert (bot.url, bot.secret, bot.token_hash) == ("", "", "")
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    assert bot.status_reason == "passed 1 validation matches"
    assert validation_games(bot) == 1


def test_a_webhook_bot_without_a_secret_gets_a_random_one(django_capture_on_commit_callbacks):
    owner = make_user()
    with django_capture_on_commit_callbacks() as callbacks:
        first, token = bot_register(owner=owner, name="hook", kind="webhook", url=HOOK)
        second, _ = bot_register(owner=owner, name="hook 2", kind="webhook", url=HOOK)

    assert token is None
    assert len(callbacks) == 2
    assert len(first.secret) >= 40 and first.secret != second.secret
    stored = Bot.objects.get(pk=first.pk)
    assert (stored.url, stored.secret, stored.status) == (HOOK, first.secret, Bot.Status.VALIDATING)


def test_a_webhook_bot_keeps_the_secret_its_owner_gives(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        bot, _ = bot_register(
            owner=make_user(), name="hook", kind="webhook", url=HOOK, secret="my secret"
        )
    assert Bot.objects.get(pk=bot.pk).secret == "my secret"


def test_a_pull_bot_gets_a_token_of_which_only_the_hash_is_stored(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks() as callbacks:
        bot, token = bot_register(owner=make_user(), name="poller", kind="pull")

    # No validation task: a pull bot's round starts at its first poll.
    assert callbacks == []
    assert Bot.objects.get(pk=bot.pk).status_reason == validation.WAITING_FOR_POLL
    assert token and len(token) >= 40
    stored = Bot.objects.get(pk=bot.pk)
    assert stored.token_hash == tokens.token_hash(token) != token
    assert tokens.bot_for_token(token) == stored


LONG_NAME = "x" * 65


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"name": "", "kind": "pull"}, "invalid-bot"),
        ({"name": "   ", "kind": "pull"}, "invalid-bot"),
        ({"name": LONG_NAME, "kind": "pull"}, "invalid-bot"),
        ({"name": "b", "kind": "robot"}, "invalid-bot"),
        ({"name": "b", "kind": "builtin"}, "unknown-strategy"),
        ({"name": "b", "kind": "builtin", "strategy": "genius"}, "unknown-strategy"),
        ({"name": "b", "kind": "builtin", "strategy": "greedy", "url": HOOK}, "invalid-bot"),
        ({"name": "b", "kind": "pull", "secret": "s"}, "invalid-bot"),
        ({"name": "b", "kind": "pull", "strategy": "greedy"}, "invalid-bot"),
        ({"name": "b", "kind": "webhook", "url": HOOK, "strategy": "greedy"}, "invalid-bot"),
        ({"name": "b", "kind": "webhook"}, "invalid-url"),
        ({"name": "b", "kind": "webhook", "url": "ftp://127.0.0.1/move"}, "invalid-url"),
        ({"name": "b", "kind": "webhook", "url": "not a url"}, "invalid-url"),
        ({"name": "b", "kind": "webhook", "url": "http://127.0.0.1/" + "x" * 200}, "invalid-url"),
        ({"name": "b", "kind": "webhook", "url": HOOK, "secret": "s" * 129}, "invalid-bot"),
    ],
)
def test_bad_input_gets_a_typed_error_and_changes_nothing(
    fields, code, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(GameError) as error:
        bot_register(owner=make_user(), **fields)
    assert error.value.code == code
    assert error.value.message
    assert not Bot.objects.exists()
    assert callbacks == []


def test_a_private_url_is_refused_unless_allowed(settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = False
    with pytest.raises(GameError) as error:
        bot_register(owner=make_user(), name="b", kind="webhook", url=HOOK)
    assert error.value.code == "invalid-url"
    assert "127.0.0.1" in error.value.message
    assert not Bot.objects.exists()


def test_an_owner_cannot_use_one_name_twice_but_another_owner_can(
    django_capture_on_commit_callbacks,
):
    owner, other = make_user(), make_user()
    with django_capture_on_commit_callbacks():
        bot_register(owner=owner, name="twin", kind="pull")
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(GameError) as error:
        bot_register(owner=owner, name="twin", kind="builtin", strategy="greedy")
    assert error.value.code == "name-taken"
    assert callbacks == []
    assert Bot.objects.filter(owner=owner).count() == 1

    with django_capture_on_commit_callbacks():
        bot_register(owner=other, name="twin", kind="pull")
    assert Bot.objects.filter(name="twin").count() == 2


def test_only_a_signed_in_person_registers_a_bot():
    with pytest.raises(Forbidden) as error:
        bot_register(owner=AnonymousUser(), name="b", kind="pull")
    assert error.value.code == "not-a-person"
    assert not Bot.objects.exists()


def builtin_bot(owner=None, **fields) -> Bot:
    fields = {"status": Bot.Status.ACTIVE, "status_reason": "passed", **fields}
    return Bot.objects.create(
        owner=owner or make_user(), name="b", kind="builtin", strategy="greedy", **fields
    )


def webhook_bot(**fields) -> Bot:
    fields = {"status": Bot.Status.ACTIVE, **fields}
    return Bot.objects.create(
        owner=make_user(), name="hook", kind="webhook", url=HOOK, secret="old", **fields
    )


def test_a_new_strategy_is_validated_again(django_capture_on_commit_callbacks):
    bot = builtin_bot()
    with django_capture_on_commit_callbacks(execute=True):
        changed = bot_update(bot=bot, owner=bot.owner, strategy="colour-control")
        assert (changed.status, changed.status_reason) == (Bot.Status.VALIDATING, WAITING)

    bot.refresh_from_db()
    assert bot.strategy == "colour-control"
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    assert validation_games(bot) == 1


def test_the_same_strategy_again_changes_nothing(django_capture_on_commit_callbacks):
    bot = builtin_bot()
    with django_capture_on_commit_callbacks() as callbacks:
        bot_update(bot=bot, owner=bot.owner, strategy="greedy")
    assert callbacks == []
    assert Bot.objects.get(pk=bot.pk).status == Bot.Status.ACTIVE


def test_a_new_url_is_validated_again_but_a_new_secret_alone_is_not(
    django_capture_on_commit_callbacks,
):
    bot = webhook_bot()
    with django_capture_on_commit_callbacks() as callbacks:
        bot_update(bot=bot, owner=bot.owner, secret="new")
    stored = Bot.objects.get(pk=bot.pk)
    assert (stored.secret, stored.status, callbacks) == ("new", Bot.Status.ACTIVE, [])

    with django_capture_on_commit_callbacks() as callbacks:
        bot_update(bot=bot, owner=bot.owner, url="http://127.0.0.1:9/v2")
    stored = Bot.objects.get(pk=bot.pk)
    assert (stored.url, stored.status, len(callbacks)) == (
        "http://127.0.0.1:9/v2",
        Bot.Status.VALIDATING,
        1,
    )


@pytest.mark.parametrize(
    ("make", "fields", "code"),
    [
        (builtin_bot, {"strategy": "genius"}, "unknown-strategy"),
        (builtin_bot, {"strategy": ""}, "unknown-strategy"),
        (builtin_bot, {"url": HOOK}, "invalid-bot"),
        (webhook_bot, {"strategy": "greedy"}, "invalid-bot"),
        (webhook_bot, {"url": "gopher://127.0.0.1/"}, "invalid-url"),
        (webhook_bot, {"url": ""}, "invalid-url"),
        (webhook_bot, {"secret": ""}, "invalid-bot"),
        (webhook_bot, {"url": "http://127.0.0.1:9/v2", "secret": ""}, "invalid-bot"),
    ],
)
def test_a_bad_update_gets_a_typed_error_and_changes_nothing(
    make, fields, code, django_capture_on_commit_callbacks
):
    bot = make()
    before = Bot.objects.filter(pk=bot.pk).values().get()
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(GameError) as error:
        bot_update(bot=bot, owner=bot.owner, **fields)
    assert error.value.code == code
    assert Bot.objects.filter(pk=bot.pk).values().get() == before
    assert callbacks == []


def test_only_the_owner_changes_a_bot(django_capture_on_commit_callbacks):
    bot = builtin_bot()
    before = Bot.objects.filter(pk=bot.pk).values().get()
    stranger = make_user()
    with django_capture_on_commit_callbacks() as callbacks:
        for change in (
            lambda: bot_update(bot=bot, owner=stranger, strategy="random"),
            lambda: bot_revalidate(bot=bot, owner=stranger),
            lambda: bot_new_token(bot=bot, owner=stranger),
            lambda: bot_update(bot=bot, owner=AnonymousUser(), strategy="random"),
        ):
            with pytest.raises(Forbidden) as error:
                change()
            assert error.value.code == "not-your-bot"
    assert Bot.objects.filter(pk=bot.pk).values().get() == before
    assert callbacks == []


def test_a_failed_bot_is_validated_again_on_request(django_capture_on_commit_callbacks):
    bot = builtin_bot(status=Bot.Status.FAILED, status_reason="validation match 1: timeout")
    with django_capture_on_commit_callbacks(execute=True):
        again = bot_revalidate(bot=bot, owner=bot.owner)
        assert (again.status, again.status_reason) == (Bot.Status.VALIDATING, WAITING)

    bot.refresh_from_db()
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    assert validation_games(bot) == 1


def test_a_new_token_replaces_the_old_one(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        bot, old = bot_register(owner=make_user(), name="poller", kind="pull")

    new = bot_new_token(bot=bot, owner=bot.owner)

    assert new != old
    assert tokens.bot_for_token(new) == bot
    assert tokens.bot_for_token(old) is None


def test_only_pull_bots_have_tokens():
    bot = builtin_bot()
    with pytest.raises(GameError) as error:
        bot_new_token(bot=bot, owner=bot.owner)
    assert error.value.code == "not-a-pull-bot"
    assert Bot.objects.get(pk=bot.pk).token_hash == ""


def test_asking_again_while_validating_queues_nothing(django_capture_on_commit_callbacks):
    owner = make_user()
    with django_capture_on_commit_callbacks():
        bot, _ = bot_register(owner=owner, name="hook", kind="webhook", url=HOOK)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.VALIDATING
    with django_capture_on_commit_callbacks() as callbacks:
        again = bot_revalidate(bot=bot, owner=owner)
    assert callbacks == []
    assert again.validation_round == bot.validation_round


def test_a_validation_whose_task_was_lost_is_sent_again_not_failed(
    django_capture_on_commit_callbacks,
):
    """Regression: a bot registered while the broker was down answered `validating`, its
    validation task was lost, and an hour later the sweep failed it for matches never played."""
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        # The on-commit hints are never run: the task that would play the round is lost.
        with django_capture_on_commit_callbacks(execute=False) as lost:
            bot, _ = bot_register(owner=make_user(), name="lost", kind="builtin", strategy="greedy")
        assert len(lost) == 1
        assert validation.validation_games(bot.pk, bot.validation_round).count() == 0
    # Past the resend delay, and past the round's time limit too: the sweep plays it.
    later = start + timedelta(seconds=settings.BOTS_VALIDATION_TIMEOUT + 60)
    with time_machine.travel(later, tick=False):
        tasks.settle_validations()
    bot.refresh_from_db()
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    played = validation.validation_games(bot.pk, bot.validation_round)
    assert played.count() == settings.BOTS_VALIDATION_MATCHES
    assert all(game.status == Game.Status.MATCH_OVER for game in played)
