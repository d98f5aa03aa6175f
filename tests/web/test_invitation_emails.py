"""An invitation's emails (tables/challenge_emails.py, `send_invitation_emails`): each person a
new game names (/play/new/) learns of it away from the site, as a person challenged does, with
who invites them, the seats, the rules and the link to accept or decline; one email each, never
a second; none for a person on the site until they are off it, none to one who chose no email
or has no address, none once they accepted or the invitation is over. Tasks in-process on
commit, as under `make run`."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games.models import NotificationPreference
from social.models import Notification
from tables import tasks
from tables.models import Table
from tests.web.test_new_game import form_data
from tests.web.test_new_game_consent import client_of, person

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def invite(creator, *names: str) -> Table:
    """The creator's new game on /play/new/: them first, then `names`, then a greedy bot."""
    seats = {"seat1": "", "seat2": "", "seat3": ""}
    for number, name in enumerate(names, start=1):
        seats |= {f"seat{number}": "person", f"seat{number}_user": name}
    seats[f"seat{len(names) + 1}"] = "bot:greedy"
    answer = client_of(creator).post("/play/new/", form_data(**seats))
    assert answer.status_code == 302, answer.content.decode()
    return Table.objects.filter(opener=creator).latest("pk")


def invitation_emails() -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if "invites you" in m.subject]


def sweep_at(moment) -> None:
    with time_machine.travel(moment, tick=False):
        tasks.sweep_tables()


def test_each_person_named_is_emailed_the_invitation_once(on_commit):
    ana, ben, cat = person("ana"), person("ben"), person("cat")
    table = on_commit(invite, ana, "ben", "cat")

    emails = invitation_emails()
    assert sorted(m.to[0] for m in emails) == ["ben@example.com", "cat@example.com"]
    to_ben = next(m for m in emails if m.to == ["ben@example.com"])
    assert to_ben.subject == "ana invites you to a casual Official game for 4"
    # The same words under ben's bell.
    assert Notification.objects.get(user=ben, kind="challenge").text == to_ben.subject
    assert "The seats, in order: ana, you, cat, greedy." in to_ben.body
    assert "The rules: Official" in to_ben.body and "Casual: unrated." in to_ben.body
    assert "The game starts when everyone invited has accepted" in to_ben.body
    assert f"before {table.expires_at:%a %-d %b %Y, %H:%M} UTC" in to_ben.body
    assert f"\nhttps://uno.example.org/tables/{table.pk}/\n" in to_ben.body
    assert to_ben.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    to_cat = next(m for m in emails if m.to == ["cat@example.com"])
    assert "The seats, in order: ana, ben, you, greedy." in to_cat.body
    # The link is the page where ben answers it.
    page = client_of(ben).get(f"/tables/{table.pk}/").content.decode()
    assert "ana invites you to this game" in page
    # Never a second: the task again, and the sweep an hour later, send nothing.
    on_commit(tasks.send_invitation_emails, table.pk)
    on_commit(sweep_at, timezone.now() + timedelta(hours=1))
    assert len(invitation_emails()) == 2
    assert Notification.objects.filter(user=cat, kind="challenge").count() == 1


def test_a_person_on_the_site_is_emailed_only_once_off_it_unless_they_answered(on_commit):
    """Mira and Noor are on other pages when ana invites them: no email, the invitation waits
    under their bells. Noor accepts; once Mira has been off the site 10 minutes with it still
    open, the sweep sends her its one email, and Noor none."""
    ana, mira, noor = person("ana"), person("mira"), person("noor")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for someone in (mira, noor):
            assert client_of(someone).get("/clubs/").status_code == 200
        table = on_commit(invite, ana, "mira", "noor")
        assert client_of(noor).post(f"/tables/{table.pk}/join").status_code == 302
    assert invitation_emails() == []
    on_commit(sweep_at, start + timedelta(minutes=9))
    assert invitation_emails() == []
    on_commit(sweep_at, start + timedelta(minutes=11))
    on_commit(sweep_at, start + timedelta(minutes=12))
    assert [m.to for m in invitation_emails()] == [[mira.email]]
    assert noor.email not in str([m.to for m in mail.outbox])


def test_nobody_is_emailed_who_chose_no_email_has_no_address_or_whose_invitation_ended(
    on_commit,
):
    ana = person("ana")
    quiet = person("quiet")
    NotificationPreference.objects.create(user=quiet, turn_emails="none")
    nowhere = person("nowhere")
    nowhere.email = ""
    nowhere.save()
    on_commit(invite, ana, "quiet", "nowhere")
    assert invitation_emails() == []
    # Each was claimed: the sweep later sends nothing either.
    on_commit(sweep_at, timezone.now() + timedelta(minutes=11))
    assert invitation_emails() == []
    # An invitation declined before its task ran: nobody is emailed.
    ben = person("ben")
    table = invite(ana, "ben")
    assert client_of(ben).post(f"/tables/{table.pk}/decline").status_code == 302
    on_commit(tasks.send_invitation_emails, table.pk)
    on_commit(sweep_at, timezone.now() + timedelta(minutes=11))
    assert invitation_emails() == []
    for user in (quiet, nowhere):
        assert Notification.objects.filter(user=user, kind="challenge").count() == 1


def test_a_lost_task_is_made_good_by_the_sweep(on_commit):
    ana, ben = person("ana"), person("ben")
    # Made with no commit callbacks run: the outcome that sends the task is lost.
    table = invite(ana, "ben")
    assert invitation_emails() == []
    on_commit(sweep_at, timezone.now())  # not before GAMES_NOTICE_RESEND
    assert invitation_emails() == []
    on_commit(sweep_at, timezone.now() + timedelta(minutes=11))
    assert [m.to for m in invitation_emails()] == [[ben.email]]
    assert f"/tables/{table.pk}/" in invitation_emails()[0].body
