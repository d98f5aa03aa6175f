"""Django's flash messages for the pages only (frontdoor/pages_only.py): an /api/ request skips
their storage; a page keeps them."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import Client

from tests.games.factories import make_user


@pytest.mark.django_db
def test_an_api_request_has_no_message_storage_and_a_page_has():
    client = Client()
    client.force_login(make_user("flash"))

    api = client.get("/api/me/notifications")
    page = client.get("/")

    assert api.status_code == 200
    assert not hasattr(api.wsgi_request, "_messages")
    assert page.status_code == 200
    assert isinstance(page.wsgi_request._messages, FallbackStorage)


@pytest.mark.django_db
def test_a_message_waiting_for_the_next_page_outlives_an_api_request():
    client = Client()
    client.force_login(make_user("flash"))
    # A message queued for the next page, as a page's POST leaves it (in the session's storage).
    first = client.get("/")
    storage = first.wsgi_request._messages
    messages.success(first.wsgi_request, "Saved.")
    storage.update(first)
    client.cookies.update(first.cookies)

    assert client.get("/api/me/notifications").status_code == 200
    page = client.get("/")

    assert [str(message) for message in get_messages(page.wsgi_request)] == ["Saved."]
