"""Every page a person's session changes: signed-in only (but sign-up), and CSRF-checked."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import token_issue

pytestmark = pytest.mark.django_db

SIGNED_IN_PAGES = [
    "/accounts/profile/",
    "/accounts/profile/token/",
    "/accounts/profile/token/revoke/",
    "/accounts/profile/tokens/",
    "/play/",
    "/play/new/",
]
FORMS = [
    ("/accounts/signup/", {"username": "eve"}),
    ("/accounts/profile/", {"turn_emails": "none"}),
    ("/accounts/profile/token/", {}),
    ("/accounts/profile/token/revoke/", {}),
    ("/accounts/profile/tokens/", {"name": "ci", "scopes": ["bots"]}),
    ("/accounts/profile/tokens/1/revoke/", {}),
    ("/accounts/profile/vacation/1/", {"days": 1}),
    ("/play/new/", {"rules": "official"}),
    ("/accounts/password_change/", {"old_password": "x"}),
    ("/accounts/logout/", {}),
]


@pytest.mark.parametrize("path", SIGNED_IN_PAGES)
def test_anonymous_people_are_sent_to_sign_in(client, path):
    response = client.get(path)

    assert response.status_code == 302
    assert response.url == f"/accounts/login/?next={path}"


@pytest.mark.parametrize(("path", "data"), FORMS)
def test_a_post_without_the_csrf_token_is_refused(path, data):
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.create_user("ada"))

    response = client.post(path, data)

    assert response.status_code == 403
    assert not User.objects.filter(username="eve").exists()


def test_the_forms_carry_the_csrf_token(client):
    assert "csrfmiddlewaretoken" in client.get("/accounts/signup/").content.decode()
    ada = User.objects.create_user("ada")
    client.force_login(ada)
    token_issue(user=ada)  # so that the revoke page shows its form
    for path in SIGNED_IN_PAGES:
        assert "csrfmiddlewaretoken" in client.get(path).content.decode(), path
