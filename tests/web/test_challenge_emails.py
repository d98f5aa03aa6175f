"""A challenge's one email (tables/challenge_emails.py): the person challenged from the challenge
form learns of it away from the site, with who challenged, the rules and the link to accept or
decline; one email per challenge, never a second; none for a person who chose no email, and the
email's one-click link stops them. Tasks in-process on commit, as under `make run`."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.models import NotificationPreference
from social.models import Notification
from tables import services, tasks
from tables.models import Table
from tests.games.factories import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def person(name: str, *, emails: str | None = None):
    user = make_user(name)
    user.email = f"{name}@example.com"
    user.save()
    if emails is not None:
        NotificationPreference.objects.create(user=user, turn_emails=emails)
    return user


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def challenge_form(name: str, **fields: str) -> dict[str, str]:
    return {
        "rules": "official",
        "seats": "2",
        "turn_seconds": "86400",
        "rated": "casual",
        "fill_with_bots_after": "",
        "challenge": name,
        "lane": "1",
        "sight": "sighted",
        "target": "200",
        **fields,
    }


def challenge_emails() -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if "challenges you" in m.subject]


def test_a_challenge_from_the_form_emails_the_person_challenged_once(on_commit):
    ana, ben = person("ana"), person("ben")
    answer = on_commit(browser(ana).post, "/tables/new/", challenge_form("ben"))
    table = Table.objects.get(opener=ana)
    assert answer.status_code == 302
    (email,) = challenge_emails()
    assert email.to == ["ben@example.com"]
    assert email.subject == "ana challenges you to a casual Official table for 2"
    # The same words under ben's bell.
    assert Notification.objects.get(user=ben, kind="challenge").text == email.subject
    assert "The rules: Official: winner takes all to 200" in email.body
    assert "A turn: up to 1 day, then the default bot plays it." in email.body
    assert "Casual: unrated." in email.body
    assert f"Accept or decline it before {table.expires_at:%a %-d %b %Y, %H:%M} UTC" in email.body
    assert f"\nhttps://uno.example.org/tables/{table.pk}/\n" in email.body
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The link is the page where ben answers it.
    page = browser(ben).get(f"/tables/{table.pk}/").content.decode()
    assert "ana challenges you: accept and the game starts." in page
    # Never a second: the task again, and the sweep an hour later, send nothing.
    assert tasks.send_challenge_email.delay(table.pk) is not None
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        on_commit(tasks.sweep_tables)
    assert len(challenge_emails()) == 1


def test_nobody_is_emailed_who_chose_no_email_or_has_no_address(on_commit):
    ana = person("ana")
    quiet = person("quiet", emails=NotificationPreference.TurnEmails.NONE)
    nowhere = make_user("nowhere")
    digest = person("dig", emails=NotificationPreference.TurnEmails.DIGEST)
    for name in ("quiet", "nowhere", "dig"):
        on_commit(browser(ana).post, "/tables/new/", challenge_form(name))
    # A daily digest is too late for a challenge that waits a day: it is emailed at once.
    assert [m.to for m in challenge_emails()] == [["dig@example.com"]]
    # Every one of them is told under the bell, and each challenge is claimed: never sent later.
    for user in (quiet, nowhere, digest):
        assert Notification.objects.filter(user=user, kind="challenge").count() == 1
    assert not Table.objects.filter(challenge_emailed_at=None).exists()


def test_a_lost_task_is_made_good_by_the_sweep_unless_the_challenge_was_answered(on_commit):
    ana = person("ana")
    person("ben"), person("cat")
    # Opened with no commit callbacks run: the outcome that sends the task is lost.
    answered = services.open_table(
        opener=ana, variant_spec={"rules": "official"}, seats=2, challenge="ben"
    )
    waiting = services.open_table(
        opener=ana, variant_spec={"rules": "official"}, seats=2, challenge="cat"
    )
    services.decline(table_id=answered.pk, person=answered.challenged)
    assert challenge_emails() == []
    # Not before GAMES_NOTICE_RESEND: the task may still be on its way.
    on_commit(tasks.sweep_tables)
    assert challenge_emails() == []
    with time_machine.travel(timezone.now() + timedelta(minutes=11)):
        on_commit(tasks.sweep_tables)
        on_commit(tasks.sweep_tables)
    assert [m.to for m in challenge_emails()] == [["cat@example.com"]]
    assert waiting.pk != answered.pk


def test_the_challenge_emails_one_click_link_stops_them(on_commit):
    ana, ben = person("ana"), person("ben")
    on_commit(browser(ana).post, "/tables/new/", challenge_form("ben"))
    (email,) = challenge_emails()
    assert (
        "Stop every email from us (turns, challenges, invitations and what waits under your "
        "bell) with one click:" in email.body
    )
    link = re.search(r"https://uno\.example\.org(/notifications/unsubscribe/[^/\s]+/)", email.body)
    assert "challenge" in Client().get(link.group(1)).content.decode()
    Client().post(link.group(1))
    assert NotificationPreference.objects.get(user=ben).turn_emails == "none"
    Table.objects.filter(opener=ana).update(status=Table.Status.CANCELLED)
    on_commit(browser(ana).post, "/tables/new/", challenge_form("ben"))
    assert len(challenge_emails()) == 1


def test_a_person_on_the_site_is_emailed_a_challenge_only_once_off_it(on_commit):
    """Mira is on other pages when ana challenges her: the challenge waits under her bell, no
    email; once she has been off the site GAMES_SITE_ACTIVE_SECONDS with it still open, the
    sweep sends its one email."""
    ana, mira = person("ana"), person("mira")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        assert browser(mira).get("/clubs/").status_code == 200
        answer = on_commit(browser(ana).post, "/tables/new/", challenge_form("mira"))
        assert answer.status_code == 302
        assert Notification.objects.get(user=mira, kind="challenge").read_at is None
    assert challenge_emails() == []
    with time_machine.travel(start + timedelta(minutes=9), tick=False):
        on_commit(tasks.sweep_tables)
    assert challenge_emails() == []
    with time_machine.travel(start + timedelta(minutes=11), tick=False):
        on_commit(tasks.sweep_tables)
        on_commit(tasks.sweep_tables)
    assert [m.to for m in challenge_emails()] == [["mira@example.com"]]
