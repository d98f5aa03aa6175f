"""A league fixture's own deadline where its players look: their game's page and lobby card say
it ("deadline moved to …" once a ruling moved it; the round's line on the season page keeps
the round's), and a move is told to the people seated in it under the bell
(league/seasons.py fixture_retime)."""

from __future__ import annotations

import datetime
from html import unescape

import pytest
from django.urls import reverse

from league.models import Fixture
from league.seasons import season_start
from tests.games.factories import make_user
from tests.web.clients import signed_in
from tests.web.league_pages import autumn_season, days_later, open_fixture_of, project, text

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def started(eager_tasks):
    season, ada, ben = autumn_season()
    season = season_start(season=season, admin=ada)
    project()
    return season, ada, ben


def seen(client, url: str) -> str:
    """The page's text as a reader sees it."""
    return unescape(text(client.get(url).content.decode()))


def said(when: datetime.datetime) -> str:
    """A deadline as the game's page and the lobby write it: "Mon 7 Dec, 18:00 UTC"."""
    return f"{when:%a %-d %b, %H:%M} UTC"


def staff_member():
    staff = make_user("sam")
    staff.is_staff = True
    staff.save()
    return staff


def test_a_fixtures_game_page_and_lobby_card_say_its_deadline(started):
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    client = signed_in(ada)

    page = seen(client, reverse("web:play", args=[fixture.game_id]))
    lobby = seen(client, reverse("web:lobby"))

    where = f"Autumn League · Premier · round {fixture.round}, table {fixture.table}"
    assert f"{where} · deadline {said(fixture.deadline)}" in page
    # Beside the turn's clock, the lobby's card says whose deadline it is.
    assert f"{where} · fixture deadline {said(fixture.deadline)}" in lobby
    assert "moved" not in page


def test_a_moved_deadline_is_told_to_the_players_and_shown_on_their_game(started):
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    round_deadline = fixture.deadline
    new = days_later(10).replace(second=0, microsecond=0)
    retime = reverse("web:fixture-retime", args=["autumn", fixture.pk])

    moved = signed_in(staff_member()).post(
        retime, {"deadline": new.strftime("%Y-%m-%dT%H:%M"), "note": ""}
    )
    assert moved.status_code == 302

    client = signed_in(ada)
    notices = seen(client, reverse("web:notifications"))
    assert (
        f"Your fixture's deadline moved to {new:%a %-d %b %Y, %H:%M} UTC: Autumn League, "
        f"Premier, round {fixture.round} (game {fixture.game_id})"
    ) in notices
    page = seen(client, reverse("web:play", args=[fixture.game_id]))
    assert f"table {fixture.table} · deadline moved to {said(new)}" in page
    lobby = seen(client, reverse("web:lobby"))
    assert f"table {fixture.table} · fixture deadline moved to {said(new)}" in lobby
    # The season's round line keeps the round's deadline; the fixture says its own.
    season_page = seen(client, reverse("web:season", args=["autumn"]))
    assert f"deadline {said(round_deadline)}" in season_page
    assert f"Deadline moved to {said(new)}" in season_page


def test_whoever_moves_the_deadline_is_not_told_and_each_move_is_told(started):
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    retime = reverse("web:fixture-retime", args=["autumn", fixture.pk])
    staff = staff_member()

    for days in (5, 6):
        later = {"deadline": days_later(days).strftime("%Y-%m-%dT%H:%M")}
        assert signed_in(ada).post(retime, later).status_code == 302
    assert "deadline moved" not in seen(signed_in(ada), reverse("web:notifications"))
    for days in (7, 8):
        later = {"deadline": days_later(days).strftime("%Y-%m-%dT%H:%M")}
        assert signed_in(staff).post(retime, later).status_code == 302
    notices = seen(signed_in(ada), reverse("web:notifications"))
    assert notices.count("Your fixture's deadline moved to") == 2
    assert Fixture.objects.get(pk=fixture.pk).deadline.date() == days_later(8).date()
