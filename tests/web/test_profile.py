"""The profile page (/accounts/profile/): settings, the personal API token, vacations."""

from __future__ import annotations

import datetime
import html

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import PersonalToken, Profile
from accounts.services import key_hash, user_for_token
from games import seat_facts
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.models import NotificationPreference, Seat
from tests.games.factories import SHORT, make_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def ada(client):
    user = User.objects.create_user("ada", email="ada@example.org", password="lovelace-1815")
    Profile.objects.create(user=user, birth_date=datetime.date(1815, 12, 10))
    client.force_login(user)
    return user


ALL_SCOPES = {"scopes": ["bots", "play"]}


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# Settings.


def test_it_shows_the_birth_date_and_the_turn_emails(client, ada):
    page = client.get("/accounts/profile/")

    html = page.content.decode()
    assert page.status_code == 200
    assert 'value="1815-12-10"' in html
    assert 'value="each" required id="id_turn_emails_0" checked' in html
    assert "one daily digest" in html and "no email" in html


def test_it_saves_the_birth_date_and_the_notification_preference(client, ada):
    response = client.post(
        "/accounts/profile/", {"birth_date": "1990-01-31", "turn_emails": "digest"}, follow=True
    )

    assert "Your settings are saved." in messages_of(response)
    assert Profile.objects.get(user=ada).birth_date == datetime.date(1990, 1, 31)
    assert NotificationPreference.objects.get(user=ada).turn_emails == "digest"
    assert client.get("/accounts/profile/").context["form"].initial["turn_emails"] == "digest"


def test_the_open_database_shows_the_username_until_the_box_is_unticked(client, ada):
    page = client.get("/accounts/profile/").content.decode()
    assert "Show my username in the open database" in page
    assert (
        'name="export_name" aria-describedby="id_export_name_helptext" id="id_export_name" checked'
        in page
    )

    settings = {"birth_date": "1990-01-31", "turn_emails": "each"}
    client.post("/accounts/profile/", settings)  # the box unticked: the browser sends nothing
    assert Profile.objects.get(user=ada).export_name is False
    page = client.get("/accounts/profile/").content.decode()
    assert (
        'name="export_name" aria-describedby="id_export_name_helptext" id="id_export_name">' in page
    )

    client.post("/accounts/profile/", {**settings, "export_name": "on"})
    assert Profile.objects.get(user=ada).export_name is True


def test_bad_settings_are_shown_and_not_saved(client, ada):
    page = client.post("/accounts/profile/", {"birth_date": "2999-01-01", "turn_emails": "hourly"})

    assert page.status_code == 200
    assert set(page.context["form"].errors) == {"birth_date", "turn_emails"}
    assert Profile.objects.get(user=ada).birth_date == datetime.date(1815, 12, 10)
    assert not NotificationPreference.objects.filter(user=ada).exists()


# The API token.


def test_creating_a_token_asks_first_and_shows_the_key_once(client, ada):
    confirm = client.get("/accounts/profile/token/")
    assert "Create an API token?" in confirm.content.decode()
    assert not PersonalToken.objects.exists()

    created = client.post("/accounts/profile/token/", ALL_SCOPES, follow=True)

    key = created.context["key"]
    assert key in created.content.decode()
    assert "no-store" in created["Cache-Control"]
    token = PersonalToken.objects.get(user=ada)
    assert token.key_hash == key_hash(key) and key.startswith(token.prefix)
    # Never again: the profile shows the prefix and the dates, not the key.
    profile = client.get("/accounts/profile/").content.decode()
    assert key not in profile
    assert f"{token.prefix}…" in profile
    assert "<dt>Last used</dt><dd>never</dd>" in profile
    assert key not in client.get("/accounts/profile/token/").content.decode()
    # The key works, and the profile says when it was last used.
    assert user_for_token(key) == ada
    used = PersonalToken.objects.get(user=ada).last_used_at
    assert (
        f'<dt>Last used</dt><dd><time datetime="{used.isoformat(timespec="seconds")}">'
        in client.get("/accounts/profile/").content.decode()
    )


def test_rotating_replaces_the_token(client, ada):
    old_key = client.post("/accounts/profile/token/", ALL_SCOPES, follow=True).context["key"]
    old_hash = PersonalToken.objects.get(user=ada).key_hash
    old_prefix = PersonalToken.objects.get(user=ada).prefix

    confirm = client.get("/accounts/profile/token/")
    assert "Rotate your API token?" in confirm.content.decode()
    rotated = client.post("/accounts/profile/token/", ALL_SCOPES, follow=True)

    new_key = rotated.context["key"]
    assert f"It replaces <code>{old_prefix}…</code>" in rotated.content.decode()
    assert new_key != old_key
    assert not PersonalToken.objects.filter(key_hash=old_hash).exists()
    assert PersonalToken.objects.get(user=ada).key_hash == key_hash(new_key)
    assert user_for_token(old_key) is None and user_for_token(new_key) == ada


def test_revoking_asks_first_and_deletes_the_token(client, ada):
    key = client.post("/accounts/profile/token/", ALL_SCOPES, follow=True).context["key"]

    confirm = client.get("/accounts/profile/token/revoke/")
    assert "Revoke your API token?" in confirm.content.decode()
    assert PersonalToken.objects.filter(user=ada).exists()
    revoked = client.post("/accounts/profile/token/revoke/", follow=True)

    assert "Your API token is revoked: it no longer works." in messages_of(revoked)
    assert not PersonalToken.objects.exists()
    assert user_for_token(key) is None
    assert "You have no API token." in revoked.content.decode()


def test_a_token_is_made_with_the_scopes_ticked_and_shows_them(client, ada):
    confirm = client.get("/accounts/profile/token/").content.decode()
    # `bots` ticked at first, `play` not: the bots guide says to tick it only if scripts should
    # also play your own seats (docs/bots-api.md, "Registering a bot").
    assert '<input type="checkbox" name="scopes" value="bots" checked>' in confirm
    assert '<input type="checkbox" name="scopes" value="play">' in confirm

    created = client.post("/accounts/profile/token/", {"scopes": ["bots"]}, follow=True)

    assert "Its scopes: bots." in created.content.decode()
    assert PersonalToken.objects.get(user=ada).scope_list == ["bots"]
    profile = client.get("/accounts/profile/").content.decode()
    assert "<dt>Scopes</dt><dd>bots</dd>" in profile
    # Rotating offers the old token's scopes.
    rotate = client.get("/accounts/profile/token/").content.decode()
    assert '<input type="checkbox" name="scopes" value="bots" checked>' in rotate
    assert '<input type="checkbox" name="scopes" value="play">' in rotate
    # The key opens the owners' API, not the moves.
    key = created.context["key"]
    api = Client(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/me/bots").status_code == 200
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=ada), SeatSpec(bot="greedy")], seed=3
    )
    refused = api.post(f"/api/games/{game.pk}/resign")
    assert (refused.status_code, refused.json()["code"]) == (403, "token-scope")


def test_a_token_needs_a_scope(client, ada):
    refused = client.post("/accounts/profile/token/", {})

    assert refused.status_code == 400
    assert "Choose at least one scope." in refused.content.decode()
    assert not PersonalToken.objects.exists()


def test_the_revoke_button_ends_the_tokens_api_access(client, ada):
    key = client.post("/accounts/profile/token/", ALL_SCOPES, follow=True).context["key"]
    token = PersonalToken.objects.get(user=ada)
    profile = client.get("/accounts/profile/").content.decode()
    revoke = f"/accounts/profile/tokens/{token.pk}/revoke/"
    assert f'href="{revoke}">Revoke' in profile

    client.post(revoke)

    response = Client(HTTP_AUTHORIZATION=f"Token {key}").get("/api/me/bots")
    assert (response.status_code, response.json()["code"]) == (401, "token-invalid")


def test_revoking_without_a_token_says_so(client, ada):
    response = client.get("/accounts/profile/token/revoke/", follow=True)

    assert "You have no API token to revoke." in messages_of(response)


# Vacations.


def seat_ada(game, ada) -> None:
    Seat.objects.filter(game=game, number=0).update(user=ada)


def test_it_lists_playing_games_with_their_vacation_days(client, ada):
    budgeted = make_game(players=1, bots=["greedy"], settings=GameSettings(vacation_days=5))
    plain = make_game(players=1, bots=["greedy"])
    seat_ada(budgeted, ada)
    seat_ada(plain, ada)

    page = client.get("/accounts/profile/")

    html = page.content.decode()
    assert f"/accounts/profile/vacation/{budgeted.pk}/" in html
    assert "0 of 5 days used, 5 left" in html
    assert "no vacation days in this game" in html
    assert f"/accounts/profile/vacation/{plain.pk}/" not in html


def test_taking_vacation_days_pauses_the_clock(client, ada):
    game = make_game(players=1, bots=["greedy"], settings=GameSettings(vacation_days=5))
    seat_ada(game, ada)

    response = client.post(f"/accounts/profile/vacation/{game.pk}/", {"days": 2}, follow=True)

    (message,) = messages_of(response)
    assert message.startswith(f"Game {game.pk}: your clock is paused until ")
    assert message.endswith("3 vacation day(s) left.")
    assert seat_facts.facts_of(game.pk).vacation_days[0] == 2
    assert "2 of 5 days used, 3 left" in response.content.decode()
    assert "paused until" in response.content.decode()


@pytest.mark.parametrize(
    ("days", "message"),
    [
        (9, "9 days asked, 5 of the 5 vacation days of this game left"),
        (0, "give a whole number of days, at least 1"),
    ],
)
def test_a_refused_vacation_is_a_message_and_changes_nothing(client, ada, days, message):
    game = make_game(players=1, bots=["greedy"], settings=GameSettings(vacation_days=5))
    seat_ada(game, ada)

    response = client.post(f"/accounts/profile/vacation/{game.pk}/", {"days": days}, follow=True)

    assert messages_of(response) == [f"Game {game.pk}: {message}."]
    assert seat_facts.facts_of(game.pk).vacation_days[0] == 0


def test_a_vacation_in_someone_elses_game_is_refused(client, ada):
    game = make_game(players=1, bots=["greedy"], settings=GameSettings(vacation_days=5))

    response = client.post(f"/accounts/profile/vacation/{game.pk}/", {"days": 1}, follow=True)

    assert messages_of(response) == [f"Game {game.pk}: you hold no seat in game {game.pk}."]


# Several named tokens.


def make_named(client, name: str, scopes=("bots",)):
    """The form posted, and the page it leads to (the key's, or the form again, refused)."""
    data = {"name": name, "scopes": list(scopes)}
    return client.post("/accounts/profile/tokens/", data, follow=True)


def test_the_profile_makes_named_tokens_and_lists_them_without_keys(client, ada):
    profile = client.get("/accounts/profile/").content.decode()
    assert "You have no API token." in profile
    assert 'name="name"' in profile and 'action="/accounts/profile/tokens/"' in profile

    ci = make_named(client, "ci", ["bots"])
    laptop = make_named(client, "laptop", ["play"])

    assert (ci.status_code, laptop.status_code) == (200, 200)
    assert "no-store" in ci["Cache-Control"]
    keys = [ci.context["key"], laptop.context["key"]]
    assert keys[0] in ci.content.decode() and "Its scopes: bots." in ci.content.decode()
    assert "Your new API token “ci”" in ci.content.decode()
    assert [user_for_token(key) for key in keys] == [ada, ada]
    profile = client.get("/accounts/profile/").content.decode()
    for token in PersonalToken.objects.filter(user=ada):
        assert f"<code>{token.prefix}…</code>" in profile
        assert (
            f'href="/accounts/profile/tokens/{token.pk}/revoke/">Revoke'
            f'<span class="visually-hidden"> the token “{token.name}”</span>…</a>'
        ) in profile
    assert "<h3>ci</h3>" in profile and "<h3>laptop</h3>" in profile
    assert "<dt>Scopes</dt><dd>bots</dd>" in profile and "<dt>Scopes</dt><dd>play</dd>" in profile
    assert not any(key in profile for key in keys)


def test_a_new_key_is_shown_after_a_redirect_and_a_reload_makes_no_other_token(client, ada):
    posted = client.post("/accounts/profile/tokens/", {"name": "ci", "scopes": ["bots"]})
    token = PersonalToken.objects.get(user=ada)
    assert posted.status_code == 302
    assert posted["Location"] == f"/accounts/profile/tokens/{token.pk}/shown"
    shown = client.get(posted["Location"])
    key = shown.context["key"]
    assert key in shown.content.decode() and key not in posted["Location"]
    assert "no-store" in shown["Cache-Control"]
    # A reload: the profile, saying the key was shown once; no second token, no key.
    again = client.get(posted["Location"], follow=True)
    page = again.content.decode()
    assert again.redirect_chain == [("/accounts/profile/", 302)]
    assert key not in page
    assert messages_of(again) == [
        "The key of the token “ci” is shown only once, on the page after it is made, and only "
        "its hash is kept: if you did not copy it, revoke that token below and make another."
    ]
    assert PersonalToken.objects.filter(user=ada).count() == 1
    assert key not in str(dict(client.session))
    # Another person's token's page is a 404.
    other = Client()
    other.force_login(User.objects.create_user("bea"))
    assert other.get(posted["Location"]).status_code == 404


def test_a_bad_or_taken_name_or_a_full_set_is_refused_and_said(client, ada):
    assert make_named(client, "ci").status_code == 200

    taken = make_named(client, "CI")
    blank = make_named(client, "  ")
    no_scope = client.post("/accounts/profile/tokens/", {"name": "laptop"})

    assert taken.status_code == 409
    assert "You already have a token named “ci”" in taken.content.decode()
    assert blank.status_code == 400
    assert "A token's name has 1 to 40 characters." in html.unescape(blank.content.decode())
    assert no_scope.status_code == 400 and "Choose at least one scope." in no_scope.content.decode()
    # The form keeps what was typed.
    assert 'value="laptop"' in no_scope.content.decode()
    for number in range(9):
        assert make_named(client, f"t{number}").status_code == 200
    full = make_named(client, "one more")
    assert full.status_code == 409 and "at most 10 API tokens" in full.content.decode()
    assert PersonalToken.objects.filter(user=ada).count() == 10


def test_revoking_one_token_asks_first_and_leaves_the_others(client, ada):
    ci = make_named(client, "ci").context["key"]
    laptop = make_named(client, "laptop").context["key"]
    token = PersonalToken.objects.get(user=ada, name="ci")

    confirm = client.get(f"/accounts/profile/tokens/{token.pk}/revoke/").content.decode()
    assert "Revoke the token “ci”?" in confirm and f"<code>{token.prefix}…</code>" in confirm
    assert user_for_token(ci) == ada
    revoked = client.post(f"/accounts/profile/tokens/{token.pk}/revoke/", follow=True)

    assert "The token “ci” is revoked: it no longer works." in messages_of(revoked)
    assert user_for_token(ci) is None and user_for_token(laptop) == ada
    assert "<h3>ci</h3>" not in revoked.content.decode()
    assert "<h3>laptop</h3>" in revoked.content.decode()


def test_another_persons_token_cannot_be_revoked_here(client, ada):
    bea = User.objects.create_user("bea")
    other = Client()
    other.force_login(bea)
    key = make_named(other, "theirs").context["key"]
    theirs = PersonalToken.objects.get(user=bea)

    for method in (client.get, client.post):
        assert method(f"/accounts/profile/tokens/{theirs.pk}/revoke/").status_code == 404
    assert user_for_token(key) == bea
