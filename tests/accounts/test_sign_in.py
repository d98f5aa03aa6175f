"""Signing in (web/signin.py): a browser's wrong password gets the form again with its error; a
script that asks for JSON gets 400 `invalid-login`, so that it stops there; a right password is a
302 and a session for both."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.backends import account_named
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
PASSWORD = "right-horse-battery"
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def ada():
    user = make_user("ada")
    user.set_password(PASSWORD)
    user.save()
    return user


def test_a_script_is_told_its_password_is_wrong_with_a_code():
    client = Client()

    response = client.post(LOGIN, {"username": "ada", "password": "wrong"}, **JSON)

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid-login",
        "message": "Your username and password did not match. Please try again.",
    }
    assert "_auth_user_id" not in client.session


def test_a_script_without_a_password_is_told_so():
    response = Client().post(LOGIN, {"username": "ada"}, **JSON)

    assert (response.status_code, response.json()["code"]) == (400, "invalid-login")
    assert response.json()["message"] == (
        "Your username and password did not match. Please try again."
    )


def test_a_browser_gets_the_form_again_with_its_error():
    response = Client().post(LOGIN, {"username": "ada", "password": "wrong"})

    assert response.status_code == 200
    page = response.content.decode()
    assert (
        '<p class="error" role="alert">Your username and password did not match. Please try '
        "again.</p>" in page
    )
    assert 'name="password"' in page


@pytest.mark.parametrize("extra", [{}, JSON])
def test_a_right_password_signs_in_with_a_redirect(extra):
    client = Client()

    response = client.post(LOGIN, {"username": "ada", "password": PASSWORD}, **extra)

    assert (response.status_code, response["Location"]) == (302, "/play/")
    assert response.content == b""
    assert "_auth_user_id" in client.session


def test_a_scripts_wrong_passwords_still_lock_the_name_out(settings):
    client = Client()
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        wrong = client.post(LOGIN, {"username": "ada", "password": f"guess-{n}"}, **JSON)
        assert wrong.status_code == 400
    last = client.post(LOGIN, {"username": "ada", "password": "guess"}, **JSON)

    assert (last.status_code, last.json()["code"]) == (429, "locked-out")


def test_a_name_signs_in_in_any_case_as_sign_up_takes_names_whatever_their_case(ada):
    """A phone's keyboard writes "Ada" or "ADA": names are unique whatever their case, so any
    case signs in the one person with that name; a wrong password stays refused."""
    for typed in ("Ada", "ADA", "ada"):
        client = Client()
        response = client.post(LOGIN, {"username": typed, "password": PASSWORD})
        assert response.status_code == 302, typed
        assert client.session["_auth_user_id"] == str(ada.pk)
    refused = Client().post(LOGIN, {"username": "ADA", "password": "wrong"})
    assert refused.status_code == 200 and "did not match" in refused.content.decode()


def test_a_script_without_the_csrf_token_is_told_what_to_send():
    # curl -H "Accept: application/json" -d username=... -d password=... with no csrftoken.
    client = Client(enforce_csrf_checks=True)

    response = client.post(LOGIN, {"username": "ada", "password": PASSWORD}, **JSON)

    assert response.status_code == 403
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "csrf-failed"
    for step in ("GET /accounts/login/", "csrftoken", "X-CSRFToken", "csrfmiddlewaretoken"):
        assert step in body["message"]
    assert "_auth_user_id" not in client.session


def test_a_script_that_sends_the_token_back_signs_in(ada):
    client = Client(enforce_csrf_checks=True)
    client.get(LOGIN)
    token = client.cookies["csrftoken"].value

    response = client.post(
        LOGIN, {"username": "ada", "password": PASSWORD, "csrfmiddlewaretoken": token}, **JSON
    )

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(ada.pk)


def test_a_browser_without_the_csrf_token_keeps_the_403_page():
    client = Client(enforce_csrf_checks=True)

    response = client.post(LOGIN, {"username": "ada", "password": PASSWORD})

    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert b"CSRF verification failed" in response.content


def test_a_session_signed_in_before_any_case_names_stays_signed_in(ada):
    """A session names the backend that signed it in: one from Django's ModelBackend, made
    before sign-in took names in any case, still opens the person's pages."""
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(ada.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = ada.get_session_auth_hash()
    session.create()
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    assert "Sign out ada" in client.get("/play/").content.decode()


def test_the_account_is_found_through_the_index_of_names_folded(ada):
    """UPPER(username) COLLATE "C", as accounts/migrations/0007's index holds it: a sign-in
    reads one row by the index, not every account."""
    with CaptureQueriesContext(connection) as read:
        assert account_named("ADA") == ada
    (sql,) = [q["sql"] for q in read.captured_queries]
    if connection.vendor == "postgresql":
        assert 'UPPER("auth_user"."username") COLLATE "C"' in sql
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + sql.replace("%s", "'ADA'"))
            plan = " ".join(row[0] for row in cursor.fetchall())
        assert "auth_user_username_upper_prefix" in plan


class CountingHasher(MD5PasswordHasher):
    """MD5, counting what it hashes (the real hasher costs 0.2-0.5 s of CPU each)."""

    algorithm = "counted_md5"
    hashed = 0

    def encode(self, password, salt):
        CountingHasher.hashed += 1
        return super().encode(password, salt)


@pytest.mark.parametrize("name", ["ada", "nobody"], ids=["wrong password", "no such name"])
def test_a_failed_sign_in_hashes_the_password_once(settings, name):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    ada = make_user("ada2")
    ada.set_password(PASSWORD)
    ada.save()
    CountingHasher.hashed = 0

    response = Client().post(LOGIN, {"username": name, "password": "wrong"}, **JSON)

    assert response.json()["code"] == "invalid-login"
    assert CountingHasher.hashed == 1
    # A right password still signs in, once hashed.
    CountingHasher.hashed = 0
    assert Client().post(LOGIN, {"username": "ADA2", "password": PASSWORD}).status_code == 302
    assert CountingHasher.hashed == 1
