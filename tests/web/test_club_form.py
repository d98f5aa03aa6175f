"""The new-club form's name and address (web/league_forms.py): a name with nothing to make an
address from is refused at the name, in words, with no empty box of errors; a long name's
address is cut after a whole word."""

from __future__ import annotations

import re
from html import unescape

import pytest

from league.models import Club
from tests.games.factories import make_user
from tests.web.clients import signed_in
from web.league_forms import ADDRESS_LENGTH, address_from

pytestmark = pytest.mark.django_db

NO_ADDRESS = (
    "This name has no letter or digit to make the page's address from: "
    "add one, or type an address under Address."
)


def test_an_emoji_name_is_refused_at_the_name_with_why():
    response = signed_in(make_user()).post("/clubs/new/", {"name": "🎲🃏🎲"})
    html = unescape(response.content.decode())

    assert response.status_code == 200 and not Club.objects.exists()
    assert "Give an address" not in html
    # The summary above the form names the field and links to it; no box without words.
    summary = re.search(r'<div class="form-errors"[^>]*>(.*?)</div>', html, re.S)
    assert summary is not None
    assert f'<a href="#id_name">Name: {NO_ADDRESS}</a>' in summary.group(1)
    # And the sentence sits at the Name field, before the Address field.
    assert html.index(NO_ADDRESS, summary.end()) < html.index('for="id_slug"')


def test_an_emoji_name_with_an_address_typed_makes_the_club():
    response = signed_in(make_user()).post("/clubs/new/", {"name": "🎲🃏🎲", "slug": "dice"})

    assert response.status_code == 302 and Club.objects.get().slug == "dice"


def test_a_form_with_no_error_shows_no_error_box():
    html = signed_in(make_user()).get("/clubs/new/").content.decode()

    assert "form-errors" not in html


def test_a_long_name_makes_an_address_cut_after_a_whole_word():
    name = "The Friendly and Ancient Society of the Greater Riverside Card Players"
    response = signed_in(make_user()).post("/clubs/new/", {"name": name})

    club = Club.objects.get()
    assert club.slug == "the-friendly-and-ancient-society-of-the-greater-riverside-card"
    assert len(club.slug) <= ADDRESS_LENGTH
    assert response["Location"] == f"/clubs/{club.slug}/"


@pytest.mark.parametrize(
    ("name", "address"),
    [
        ("Riverside UNO", "riverside-uno"),
        ("a" * 70, "a" * 64),  # one word longer than the limit: cut at the limit
        ("x" * 63 + " y", "x" * 63),  # a word that ends at the limit's edge is kept whole
        ("x" * 64 + " y", "x" * 64),
        ("🎲", ""),
    ],
)
def test_address_from(name, address):
    assert address_from(name) == address
