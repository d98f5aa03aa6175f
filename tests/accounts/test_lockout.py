"""Sign-in lockouts (django-axes; config/settings.py AXES_*): AXES_FAILURE_LIMIT wrong passwords
in a row for one username from one address lock that pair out for AXES_COOLOFF_TIME, with a page
(429) that says when to try again; other addresses and other usernames are not locked."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.http import HttpRequest
from django.test import Client
from django.utils import timezone

from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ATTACKER = "203.0.113.9"
PASSWORD = "right-horse-battery"


@pytest.fixture
def ada():
    user = make_user("ada")
    user.set_password(PASSWORD)
    user.save()
    return user


def sign_in(password: str, username: str = "ada", address: str = ATTACKER, **extra: str):
    return Client(REMOTE_ADDR=address).post(
        LOGIN, {"username": username, "password": password}, **extra
    )


def signed_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def test_25_wrong_passwords_lock_the_pair_out_with_a_page_saying_when(ada, settings):
    limit = settings.AXES_FAILURE_LIMIT
    statuses = [sign_in(f"guess-{n}").status_code for n in range(25)]

    # The limit's last failure is already answered with the lockout.
    assert statuses == [200] * (limit - 1) + [429] * (25 - limit + 1)
    locked = sign_in(PASSWORD)
    assert locked.status_code == 429 and not signed_in(locked)
    page = locked.content.decode()
    assert "Signing in is locked for a while" in page
    assert "Try again after" in page and "15 minutes" in page
    assert 'href="/accounts/password_reset/"' in page
    assert int(locked["Retry-After"]) == 15 * 60


def test_the_lockout_ends_after_the_cooloff(ada, settings):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for n in range(settings.AXES_FAILURE_LIMIT):
            sign_in(f"guess-{n}")
        assert sign_in(PASSWORD).status_code == 429
    # Counted from the last attempt, the one made while locked out.
    with time_machine.travel(start + datetime.timedelta(minutes=14), tick=False):
        assert sign_in(PASSWORD).status_code == 429
    with time_machine.travel(start + datetime.timedelta(minutes=30), tick=False):
        assert signed_in(sign_in(PASSWORD))


def test_the_person_elsewhere_and_other_usernames_here_are_not_locked(ada, settings):
    make_user("bea")
    for n in range(settings.AXES_FAILURE_LIMIT):
        sign_in(f"guess-{n}")
    assert sign_in(PASSWORD).status_code == 429

    # Keyed on username and address together: an attacker cannot lock ada out of her own home.
    assert signed_in(sign_in(PASSWORD, address="198.51.100.20"))
    # Nor does ada's lockout stop another username from the same address.
    assert sign_in("wrong", username="bea").status_code == 200


def test_a_right_password_clears_the_failures(ada, settings):
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(f"guess-{n}").status_code == 200
    assert signed_in(sign_in(PASSWORD))
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(f"again-{n}").status_code == 200


def test_the_admins_sign_in_is_locked_out_too(ada, settings):
    ada.is_staff = True
    ada.save()
    client = Client(REMOTE_ADDR=ATTACKER)
    statuses = [
        client.post("/admin/login/", {"username": "ada", "password": f"guess-{n}"}).status_code
        for n in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert statuses[-1] == 429
    assert sign_in(PASSWORD).status_code == 429


def test_a_script_gets_the_lockout_as_json(ada, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        sign_in(f"guess-{n}")

    response = sign_in(PASSWORD, HTTP_ACCEPT="application/json")

    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "locked-out" and "Try again in 15 minutes" in body["message"]


def test_authenticate_needs_the_request_as_axes_asks(ada):
    # Axes's backend refuses an authenticate() call without the request (it keys on the
    # address): Django's Client.login makes one unless given a request, so the suite signs in
    # with force_login (no authenticate) or through the login page, which passes it.
    with pytest.raises(ValueError, match="requires a request"):
        Client().login(username="ada", password=PASSWORD)
    client = Client()
    assert client.login(request=HttpRequest(), username="ada", password=PASSWORD)
    assert client.get("/accounts/profile/").status_code == 200


def test_a_names_case_gets_no_more_tries(ada, settings):
    """Sign-in takes a name in any case (accounts/backends.py), so its failures count under the
    name case-folded: "ADA", "Ada" and "ada" share one count."""
    limit = settings.AXES_FAILURE_LIMIT
    names = ["ada", "Ada", "ADA", "aDa", "adA"] * limit
    statuses = [sign_in(f"guess-{n}", username=name).status_code for n, name in enumerate(names)]
    assert statuses[: limit - 1] == [200] * (limit - 1)
    assert set(statuses[limit - 1 :]) == {429}
    assert not signed_in(sign_in(PASSWORD, username="Ada"))


def test_a_dotless_i_gets_no_more_tries_than_the_name_it_finds(settings):
    """PostgreSQL folds "mıa" (a dotless ı) to MIA as it folds "mia": both find the account, so
    both count as one (Python's casefold() would have kept "mıa" apart: a second count)."""
    mia = make_user("mia")
    mia.set_password(PASSWORD)
    mia.save()
    for n in range(settings.AXES_FAILURE_LIMIT):
        sign_in(f"guess-{n}", username="mia")
    for name in ("mıa", "MIA", "Mia"):
        answer = sign_in(PASSWORD, username=name)
        assert answer.status_code == 429 and not signed_in(answer), name
