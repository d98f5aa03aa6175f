"""Changing a password (/accounts/password_change/, Django's view with the site's templates)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(client):
    user = User.objects.create_user("ada", password="lovelace-1815")
    client.force_login(user)
    return user


def test_it_changes_the_password_and_keeps_the_person_signed_in(client, ada):
    form = client.get("/accounts/password_change/")
    assert form.status_code == 200
    assert "Change your password" in form.content.decode()
    assert "base.html" in [t.name for t in form.templates]

    done = client.post(
        "/accounts/password_change/",
        {
            "old_password": "lovelace-1815",
            "new_password1": "analytical-engine-1843",
            "new_password2": "analytical-engine-1843",
        },
        follow=True,
    )

    assert done.redirect_chain[-1][0] == "/accounts/password_change/done/"
    assert "Password changed" in done.content.decode()
    ada.refresh_from_db()
    assert ada.check_password("analytical-engine-1843")
    assert client.get("/accounts/profile/").status_code == 200


def test_a_wrong_old_password_changes_nothing(client, ada):
    page = client.post(
        "/accounts/password_change/",
        {
            "old_password": "nope",
            "new_password1": "analytical-engine-1843",
            "new_password2": "analytical-engine-1843",
        },
    )

    assert page.status_code == 200
    assert "Your old password was entered incorrectly" in page.content.decode()
    ada.refresh_from_db()
    assert ada.check_password("lovelace-1815")


def test_it_needs_a_signed_in_person(client):
    response = client.get("/accounts/password_change/")

    assert response.status_code == 302
    assert response.url.startswith("/accounts/login/")
