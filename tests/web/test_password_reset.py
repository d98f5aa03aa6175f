"""Resetting a forgotten password by email (/accounts/password_reset/ … /accounts/reset/done/)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

pytestmark = pytest.mark.django_db


def test_it_emails_a_link_that_sets_a_new_password(client):
    ada = User.objects.create_user("ada", email="ada@example.org", password="lovelace-1815")

    asked = client.post("/accounts/password_reset/", {"email": "ada@example.org"}, follow=True)

    assert asked.redirect_chain[-1][0] == "/accounts/password_reset/done/"
    assert "Check your email" in asked.content.decode()
    assert len(mail.outbox) == 1
    email = mail.outbox[0]
    assert email.to == ["ada@example.org"]
    assert email.subject == "Reset your UNO League password"
    assert "Hello ada" in email.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", email.body)
    assert link is not None

    # The link's token is swapped for a session key, then the form sets the password.
    form = client.get(link.group(1), follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "analytical-engine-1843", "new_password2": "analytical-engine-1843"},
        follow=True,
    )

    assert done.redirect_chain[-1][0] == "/accounts/reset/done/"
    assert "Password set" in done.content.decode()
    ada.refresh_from_db()
    assert ada.check_password("analytical-engine-1843")
    # The link works once.
    again = client.get(link.group(1), follow=True)
    assert "This link no longer works" in again.content.decode()


def test_an_unknown_address_sends_nothing_and_says_the_same(client):
    asked = client.post("/accounts/password_reset/", {"email": "nobody@example.org"}, follow=True)

    assert "Check your email" in asked.content.decode()
    assert mail.outbox == []


def test_the_pages_are_the_sites_own(client):
    page = client.get("/accounts/password_reset/")

    assert "Reset your password" in page.content.decode()
    assert "base.html" in [t.name for t in page.templates]
