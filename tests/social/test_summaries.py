"""While you were away (social/summaries.py): a person off the site gets one email listing what
waits under their bell (a season's news, a club's announcement, a forfeit), not the turns and
challenges that have emails of their own; never twice for a notice, at most one every
SOCIAL_SUMMARY_EVERY_SECONDS, none while they are on the site or came back since, none to one
who chose no email."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone

from clocks import presence
from games import tasks
from games.models import NotificationPreference
from social.models import Notification
from social.notifications import notify
from social.summaries import send_summaries

pytestmark = pytest.mark.django_db

START = timezone.now().replace(microsecond=0)


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = "https://uno.example.org"


def person(name: str, email: bool = True) -> User:
    return User.objects.create_user(name, email=f"{name}@example.com" if email else "")


def news_for(user: User, at, *texts: str) -> None:
    with time_machine.travel(at, tick=False):
        for n, text in enumerate(texts):
            notify(user, "season", text, url="/seasons/winter/", key=f"news:{at}:{n}")


def summaries() -> list:
    return [m for m in mail.outbox if m.subject.startswith("While you were away")]


def run_at(at) -> int:
    with time_machine.travel(at, tick=False):
        return send_summaries()


def test_a_person_away_gets_one_email_of_what_waits_under_the_bell_and_never_twice():
    omar = person("omar")
    news_for(omar, START, "Winter League has started: your first fixture is open")
    with time_machine.travel(START, tick=False):
        notify(omar, "club", "priya posted on Office UNO's board", url="/clubs/office/", key="c")
        # Emailed on its own: not in the summary.
        notify(omar, "turn", "Your turn against priya", url="/games/4/", key="turn:4:1")

    # Not yet: one back within the half hour reads it under the bell.
    assert run_at(START + timedelta(minutes=20)) == 0
    assert run_at(START + timedelta(minutes=31)) == 1

    (email,) = summaries()
    assert email.to == ["omar@example.com"]
    assert email.subject == "While you were away: 2 things wait under your bell"
    assert (
        "- Winter League has started: your first fixture is open\n"
        "  https://uno.example.org/seasons/winter/\n"
        "- priya posted on Office UNO's board\n"
        "  https://uno.example.org/clubs/office/\n"
    ) in email.body
    assert "Your turn" not in email.body
    assert "Everything under your bell: https://uno.example.org/notifications/" in email.body
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # Never the same notice twice; a new one waits for the period's end.
    assert run_at(START + timedelta(hours=1)) == 0
    news_for(omar, START + timedelta(hours=2), "Round 2 of Winter League is open")
    assert run_at(START + timedelta(hours=5)) == 0
    assert run_at(START + timedelta(hours=6, minutes=25)) == 0  # 6 h after the first: 6 h 31
    assert run_at(START + timedelta(hours=6, minutes=35)) == 1
    later = summaries()[1]
    assert later.subject == "While you were away: 1 thing waits under your bell"
    assert "Round 2 of Winter League is open" in later.body
    assert "has started" not in later.body


def test_nothing_is_sent_to_a_person_back_since_on_the_site_now_or_who_read_it():
    back, here, reader = person("back"), person("here"), person("reader")
    for user in (back, here, reader):
        news_for(user, START, "Winter League has started")
    # back came to the site after the notice (the bell showed it), then left again.
    presence.active(back.pk, now=START + timedelta(minutes=5))
    # here is on the site when the summaries run.
    presence.active(here.pk, now=START + timedelta(minutes=35))
    Notification.objects.filter(user=reader).update(read_at=START + timedelta(minutes=1))

    assert run_at(START + timedelta(minutes=40)) == 0
    assert summaries() == []


def test_nothing_is_sent_to_a_person_with_no_email_or_no_address():
    quiet, nowhere = person("quiet"), person("nowhere", email=False)
    NotificationPreference.objects.create(user=quiet, turn_emails="none")
    for user in (quiet, nowhere):
        news_for(user, START, "Winter League has started")

    assert run_at(START + timedelta(hours=1)) == 0


def test_a_long_list_ends_with_how_many_more_and_the_beat_sends_it():
    omar = person("omar")
    news_for(omar, START, *[f"News {n}" for n in range(13)])
    assert settings.CELERY_BEAT_SCHEDULE["notice-summaries"]["task"] == (
        "games.tasks.send_notice_summaries"
    )

    with time_machine.travel(START + timedelta(hours=1), tick=False):
        tasks.send_notice_summaries()

    (email,) = summaries()
    assert email.subject == "While you were away: 13 things wait under your bell"
    assert "- News 9\n" in email.body and "News 10" not in email.body
    assert "- and 3 more\n" in email.body
