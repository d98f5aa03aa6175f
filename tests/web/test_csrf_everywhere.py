"""CSRF on every form: each URL pattern of the web and staff namespaces, and Django's sign-in,
sign-out and password views the site mounts, refuses a POST without the CSRF token (403), even
from a signed-in staff member; none is csrf_exempt but the one-click unsubscribe link of turn
emails (RFC 8058: a mail provider POSTs it with no cookie; its signed token is the guard, and
tests/web/test_turn_emails.py shows a damaged one changes nothing). tests/web/test_access.py
and test_clubs.py check some forms by hand with data; this walks them all, so a new one cannot
be missed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from frontdoor.converters import IdConverter

pytestmark = pytest.mark.django_db

# Modules whose un-namespaced views are the site's forms too (config/urls.py mounts them).
UNNAMESPACED = ("web.", "django.contrib.auth.views")
# Guarded by a signed token in the address instead (see above).
EXEMPT = {"web:unsubscribe"}


def walk(patterns: list[Any], namespace: str | None = None) -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from walk(pattern.url_patterns, pattern.namespace or namespace)
        elif namespace in ("web", "staff"):
            yield f"{namespace}:{pattern.name}", pattern
        elif namespace is None and pattern.callback.__module__.startswith(UNNAMESPACED):
            yield str(pattern.name), pattern


def site_forms() -> list[tuple[str, str, Any]]:
    """(name, a URL of it, its view) for every pattern walked, its parameters filled in."""
    found = []
    for name, pattern in walk(get_resolver().url_patterns):
        converters = getattr(pattern.pattern, "converters", {})
        kwargs = {
            key: 1 if isinstance(converter, (IntConverter, IdConverter)) else "x"
            for key, converter in converters.items()
        }
        found.append((name, reverse(name, kwargs=kwargs), pattern.callback))
    return found


def staff_client(*, enforce_csrf_checks: bool) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf_checks)
    client.force_login(User.objects.get(username="root"))
    return client


def test_every_form_refuses_a_post_without_the_csrf_token():
    User.objects.create_superuser("root", "root@example.org", "pw")
    forms = site_forms()
    names = {name for name, _, _ in forms}
    # The walk reaches all three kinds of page, or it proves nothing.
    assert {"web:signup", "web:command", "staff:game-abort", "login", "logout"} <= names

    unguarded, accepting_post = [], []
    for name, url, view in forms:
        if name in EXEMPT:
            continue
        assert not getattr(view, "csrf_exempt", False), f"{name} is csrf_exempt"
        response = staff_client(enforce_csrf_checks=True).post(url, {"anything": "1"})
        if response.status_code != 403:
            unguarded.append((name, url, response.status_code))
        # Without CSRF checks: does the view take POSTs at all (anything but 405)?
        if staff_client(enforce_csrf_checks=False).post(url, {}).status_code != 405:
            accepting_post.append(name)

    assert unguarded == []
    # The forms that do take POSTs are many, each of them refused above.
    assert {"web:signup", "web:profile", "web:command", "web:resign", "web:club-ask"} <= set(
        accepting_post
    )
    assert {"staff:game-abort", "staff:bot-suspend", "login", "password_change"} <= set(
        accepting_post
    )
    assert "web:board" not in accepting_post  # GET only: 405 with the token


def test_the_refusal_changes_nothing_for_sign_up_and_sign_in():
    User.objects.create_user("ada", password="lovelace-1815")
    guarded = Client(enforce_csrf_checks=True)

    signup = guarded.post(
        "/accounts/signup/",
        {
            "username": "eve",
            "email": "eve@example.org",
            "password1": "a-long-passphrase-9",
            "password2": "a-long-passphrase-9",
            "birth_date": "1990-01-02",
        },
    )
    login = guarded.post("/accounts/login/", {"username": "ada", "password": "lovelace-1815"})

    assert signup.status_code == 403 and not User.objects.filter(username="eve").exists()
    assert login.status_code == 403 and "_auth_user_id" not in guarded.session
