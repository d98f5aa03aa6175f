"""The sign-up page (/accounts/signup/): a person, their profile, and a session."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from accounts.models import Profile
from games.models import Game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

GOOD = {
    "username": "grace",
    "email": "grace@example.org",
    "password1": "cobol-compiler-1959",
    "password2": "cobol-compiler-1959",
    "birth_date": "1990-12-09",
}


def test_it_shows_the_form(client):
    page = client.get("/accounts/signup/")

    assert page.status_code == 200
    html = page.content.decode()
    for field in ("username", "email", "password1", "password2", "birth_date"):
        assert f'name="{field}"' in html
    assert 'type="date"' in html
    assert "csrfmiddlewaretoken" in html
    # Why a birth date: the family by the name the site gives it everywhere else.
    assert (
        "Required. Used only in NEWNO games, where a choice several players may make goes to the "
        "youngest when nobody takes it. Other players never see it" in html
    )


def test_it_creates_a_person_with_a_profile_and_signs_them_in(client):
    response = client.post("/accounts/signup/", GOOD)

    assert response.status_code == 302 and response.url == "/play/"
    user = User.objects.get(username="grace")
    assert user.email == "grace@example.org"
    assert user.check_password("cobol-compiler-1959")
    assert Profile.objects.get(user=user).birth_date == datetime.date(1990, 12, 9)
    assert client.session["_auth_user_id"] == str(user.pk)
    assert "Sign out grace" in client.get("/play/").content.decode()


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"username": "ada"}, "username", "A user with that username already exists."),
        ({"password1": "short", "password2": "short"}, "password2", "too short"),
        ({"password2": "something-else-2"}, "password2", "fields didn’t match"),
        ({"birth_date": ""}, "birth_date", "This field is required."),
        ({"birth_date": "2999-01-01"}, "birth_date", "cannot be in the future"),
        ({"email": "not-an-address"}, "email", "Enter a valid email address."),
        # A new name fits a seat's box on a phone (accounts/usernames.py NEW_USERNAME_MAX).
        (
            {"username": "S" * 31},
            "username",
            "A username has at most 30 characters (31 given).",
        ),
    ],
)
def test_a_bad_sign_up_shows_the_error_and_creates_nobody(client, change, field, message):
    User.objects.create_user("ada", password="lovelace-1815")

    page = client.post("/accounts/signup/", {**GOOD, **change})

    assert page.status_code == 200
    assert message in page.content.decode()
    assert message in " ".join(page.context["form"].errors[field])
    assert User.objects.count() == 1 and Profile.objects.count() == 0
    assert "_auth_user_id" not in client.session


def test_the_name_box_says_and_stops_at_the_longest_name(client):
    page = client.get("/accounts/signup/").content.decode()
    assert 'maxlength="30"' in page and "Up to 30 characters" in page
    answer = client.post("/accounts/signup/", {**GOOD, "username": "S" * 30})
    assert answer.status_code == 302 and User.objects.filter(username="S" * 30).exists()


def test_a_script_asking_for_json_is_told_the_refusal_in_json_and_nobody_is_made(client):
    """curl --fail-with-body, as the bot guide signs up: a 400 with the field errors stops it,
    where the form's 200 let it go on with no session."""
    User.objects.create_user("ada", password="lovelace-1815")
    bad = {**GOOD, "username": "ada", "email": "not-an-address"}

    answer = client.post("/accounts/signup/", bad, HTTP_ACCEPT="application/json")

    assert answer.status_code == 400
    body = answer.json()
    assert (body["code"], body["message"]) == ("invalid", "The sign-up is not valid.")
    assert body["errors"]["username"] == ["A user with that username already exists."]
    assert body["errors"]["email"] == ["Enter a valid email address."]
    assert User.objects.count() == 1 and "_auth_user_id" not in client.session
    # Accepted, it is the browser's answer: the 302 to the lobby, signed in.
    made = client.post("/accounts/signup/", GOOD, HTTP_ACCEPT="application/json")
    assert made.status_code == 302 and "_auth_user_id" in client.session


@pytest.mark.parametrize(
    "look_alike",
    [
        "\u0430lice",  # Cyrillic а
        "\u0430\u217cice",  # Cyrillic а, Roman numeral fifty
        "a\u04c0ice",  # Cyrillic palochka for the l
        "aIice",  # a capital I for the l
        "\u0410LICE",  # Cyrillic А, the rest in capitals: "ALICE" is taken whatever its case
        "\u0430LICE",  # Cyrillic а
    ],
)
def test_a_name_that_reads_like_a_taken_one_is_refused(client, look_alike):
    User.objects.create_user("alice", password="wonderland-1865")

    page = client.post("/accounts/signup/", {**GOOD, "username": look_alike})

    assert page.status_code == 200
    errors = " ".join(page.context["form"].errors["username"])
    assert "looks the same as the existing username “alice”" in errors
    assert "looks the same as the existing username" in page.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]
    assert "_auth_user_id" not in client.session


def test_names_that_only_share_letters_are_not_look_alikes(client):
    User.objects.create_user("alice", password="wonderland-1865")

    response = client.post("/accounts/signup/", {**GOOD, "username": "alicia"})

    assert response.status_code == 302
    assert User.objects.filter(username="alicia").exists()


def test_a_signed_in_person_is_sent_to_the_lobby(client):
    client.force_login(User.objects.create_user("ada"))

    assert client.get("/accounts/signup/").url == "/play/"


def test_the_birth_date_given_at_sign_up_seats_the_person_in_newno(client):
    client.post("/accounts/signup/", GOOD)
    seats = {"seat0": "me", "seat1": "bot:stacker", "seat1_user": ""}

    response = client.post("/play/new/", {"rules": "newno", **seats})

    game = Game.objects.get()
    assert response.url == f"/games/{game.pk}/"
    grace = game.seats.get(number=0)
    assert grace.user.username == "grace"
    # Older than the bot: ranked 1 (only the order is recorded, never the birth date).
    assert (grace.age, game.seats.get(number=1).age) == (1, 0)


def test_signing_up_from_a_link_that_asked_to_sign_in_goes_on_to_that_link(client):
    # An invitation opened signed out: the sign-in page offers sign-up for the same page.
    going = "/clubs/harbour/join/abc123/"
    sign_in = client.get(f"/accounts/login/?next={going}").content.decode()
    assert "Sign in, or sign up, to go on to the page you opened." in sign_in
    assert 'href="/accounts/signup/?next=/clubs/harbour/join/abc123/"' in sign_in
    form = client.get(f"/accounts/signup/?next={going}").content.decode()
    assert f'<input type="hidden" name="next" value="{going}">' in form

    response = client.post("/accounts/signup/", {**GOOD, "next": going})

    assert response.status_code == 302 and response.url == going
    assert User.objects.filter(username="grace").exists()


def test_a_next_off_the_site_is_not_followed(client):
    response = client.post("/accounts/signup/", {**GOOD, "next": "https://elsewhere.example/"})

    assert response.status_code == 302 and response.url == "/play/"
    assert (
        "elsewhere"
        not in client.get("/accounts/signup/?next=//elsewhere.example/").content.decode()
    )


def test_a_sign_up_sent_twice_signs_in_the_account_its_first_send_made(client):
    """A double tap on a phone: the browser keeps the second answer, without the first's
    session. The second finds the account the same name and password made a moment ago and
    signs its person in, where it said the name was taken."""
    first = client.post("/accounts/signup/?next=/play/new/", {**GOOD, "next": "/play/new/"})
    assert first.status_code == 302
    client.cookies.clear()  # the first answer never reached the browser

    second = client.post("/accounts/signup/?next=/play/new/", {**GOOD, "next": "/play/new/"})

    assert second.status_code == 302 and second.url == "/play/new/"
    user = User.objects.get()
    assert client.session["_auth_user_id"] == str(user.pk)
    assert "Sign out grace" in client.get("/play/").content.decode()


@pytest.mark.parametrize(
    ("joined_minutes_ago", "password"),
    [(1, "not-the-password-1"), (11, GOOD["password1"])],
    ids=["wrong password", "an older account"],
)
def test_a_taken_name_is_still_refused_unless_its_account_was_just_made_with_that_password(
    client, joined_minutes_ago, password
):
    user = User.objects.create_user("grace", password=GOOD["password1"])
    User.objects.filter(pk=user.pk).update(
        date_joined=user.date_joined - datetime.timedelta(minutes=joined_minutes_ago)
    )

    page = client.post("/accounts/signup/", {**GOOD, "password1": password, "password2": password})

    assert page.status_code == 200
    assert "A user with that username already exists." in page.content.decode()
    assert "_auth_user_id" not in client.session
