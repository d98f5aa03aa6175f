"""What a bot's owner is told when their bot is suspended (by its strikes: bots/remote/strikes.py;
by the staff: staff/actions.py `bot_suspend`): a notice under the bell and an email, once per
suspension, saying which bot, why in plain words (a staff member's message to the owner, never
the staff's own reason, which stays in their audit row), what a suspension does, and what to do
on the bot's page (/me/bots/<id>/). The email goes out on commit: a suspension rolled back
sends nothing."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction

from games.models import Bot
from social.models import Notification
from social.notifications import notify

# Why strikes suspended a bot, by the last call's outcome (bots/remote/webhook.py's TIMEOUT
# and ERROR, strikes.ILLEGAL), as its owner reads it.
STRIKE_WORDS = {
    "timeout": "it did not answer in time",
    "error": "its answer was an error or could not be read",
    "illegal": "it answered with a move the rules do not allow",
}
WHAT_IT_DOES = (
    "While it is suspended the default bot plays its seats in the games it is in, and it is "
    "seated in no new game."
)


def by_strikes(strikes: int, outcome: str) -> str:
    """ "after 5 failed calls in a row (the last: it did not answer in time)" """
    last = STRIKE_WORDS.get(outcome, "it failed")
    return f"after {strikes} failed calls in a row (the last: {last})"


def by_staff(message: str) -> str:
    """The staff's suspension, with their message to the owner when they wrote one."""
    return f"by the staff: “{message}”" if message else "by the staff"


def tell_suspended(bot_id: int, *, why: str, at: datetime, by_the_staff: bool = False) -> bool:
    """Tell the owner of bot `bot_id`, suspended at `at` because `why` (`by_strikes`,
    `by_staff`): a bell notice (kind `bot`, linking the bot's page) now, and an email on commit;
    once per suspension (its moment is the notice's key). False when told already."""
    bot = Bot.objects.select_related("owner").filter(pk=bot_id).first()
    if bot is None:
        return False
    page = f"/me/bots/{bot.pk}/"
    if by_the_staff:
        short = "Only the staff can lift it."
        then = (
            "Only the staff can lift a suspension they made. You may still change the bot on "
            "its page (what their message asks, if they wrote one):"
        )
    else:
        short = "Fix it, then validate it again on its page."
        then = (
            "Fix it (its page lists the calls that failed and why), then validate it again on "
            "its page: once its validation games pass, it plays again:"
        )
    told = notify(
        bot.owner_id,
        Notification.Kind.BOT,
        f"Your bot {bot.name} is suspended {why}. {short}",
        url=page,
        key=f"bot-suspended:{bot.pk}:{at.timestamp():.6f}",
    )
    if told and bot.owner.email:
        body = (
            f"Your bot {bot.name} is suspended {why}.\n\n{WHAT_IT_DOES}\n\n{then}\n"
            f"{settings.SITE_URL.rstrip('/')}{page}\n"
        )
        email = EmailMessage(f"Your bot {bot.name} is suspended", body, None, [bot.owner.email])
        transaction.on_commit(partial(email.send), robust=True)
    return told
