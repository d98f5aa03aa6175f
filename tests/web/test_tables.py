"""Open tables and challenges on the site (web/tables.py): the lobby lists open tables with
filters and one-click Join, your own with Cancel, challenges with Accept and Decline; the form
opens a table or a challenge (filled in from a player page's Challenge button); the table page
follows the table and sends its people to the game."""

from __future__ import annotations

import pytest
from django.test import Client

from social.models import Notification
from tables import services
from tables.models import Table
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

OFFICIAL = {"rules": "official"}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def opened(person, **kwargs) -> Table:
    kwargs.setdefault("variant_spec", OFFICIAL)
    kwargs.setdefault("seats", 2)
    return services.open_table(opener=person, **kwargs)


def form(**fields) -> dict[str, str]:
    return {
        "rules": "official",
        "seats": "2",
        "turn_seconds": "300",
        "rated": "casual",
        "fill_with_bots_after": "",
        "challenge": "",
        "lane": "1",
        "sight": "sighted",
        **fields,
    }


def test_open_a_table_from_the_form_then_its_page_waits_for_people():
    ana = make_user("ana")
    page = client_of(ana).get("/tables/new/").content.decode()
    assert "Open a table" in page and 'name="seats"' in page and 'name="rated"' in page
    answer = client_of(ana).post(
        "/tables/new/", form(seats="3", rated="rated", fill_with_bots_after="5", target="200")
    )
    table = Table.objects.get(opener=ana)
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.pk}/"
    assert (table.seat_count, table.rated, table.fill_with_bots_after) == (3, True, 5)
    assert table.variant["options"]["target"] == 200
    shown = client_of(ana).get(f"/tables/{table.pk}/").content.decode()
    assert "Waiting for 2 more people: 1 of 3 seats taken." in shown
    assert "Cancel the table" in shown
    # The page polls itself while it waits.
    assert f'hx-get="/tables/{table.pk}/status"' in shown


def test_the_form_says_what_is_wrong_and_opens_nothing():
    ana = make_user("ana")
    page = client_of(ana).post("/tables/new/", form(rules="censorship", seats="2"))
    assert page.status_code == 200
    assert "Censorship with 7 cards a hand seats 3 to 10, not 2." in page.content.decode()
    page = client_of(ana).post("/tables/new/", form(challenge="nobody-here"))
    assert "Nobody is called" in page.content.decode()
    page = client_of(ana).post("/tables/new/", form(challenge="ana"))
    assert "You cannot challenge yourself." in page.content.decode()
    assert not Table.objects.exists()


def test_the_challenge_form_says_every_error_at_once_the_unknown_name_among_them():
    ana = make_user("ana")
    page = (
        client_of(ana)
        .post("/tables/new/", form(seats="11", challenge="nobody_here"))
        .content.decode()
    )
    assert "Nobody is called “nobody_here”." in page
    assert "less than or equal to 10" in page
    assert "Challenge nobody_here" not in page and "<h1>Challenge a person</h1>" in page
    assert not Table.objects.exists()


def test_the_challenge_form_names_only_a_person_who_exists_and_says_how_a_challenge_waits():
    ana, _ben = make_user("ana"), make_user("ben")
    for typed in ("nobody_here", "ana 😀"):
        page = client_of(ana).get("/tables/new/", {"challenge": typed}).content.decode()
        assert f"Challenge {typed}" not in page and "<h1>Challenge a person</h1>" in page
        assert "<title>Challenge a person · UNO League</title>" in page
    page = client_of(ana).get("/tables/new/?challenge=ben").content.decode()
    assert "<h1>Challenge ben</h1>" in page
    intro = page.split('class="muted table-intro">', 1)[1].split("</p>", 1)[0]
    assert "A challenge is private: only ben sees it" in intro
    assert "It waits 1 day for an answer" in intro
    assert "30 minutes" not in intro and "Open tables" not in intro
    # Played over the day, as a friend does: the site's three days a turn, not an open table's 5
    # minutes (past which the default bot plays the turn).
    assert '<option value="259200" selected>3 days</option>' in page
    fresh = client_of(ana).get("/tables/new/").content.decode()
    assert '<option value="300" selected>5 minutes</option>' in fresh
    # A challenge leaves the bots' delay aside: not asked; a value sent is not an error.
    assert 'name="fill_with_bots_after"' not in page
    client_of(ana).post("/tables/new/", form(challenge="ben", fill_with_bots_after="5"))
    assert Table.objects.get(opener=ana).fill_with_bots_after is None


def test_a_challenge_to_a_name_typed_in_other_capitals_reaches_its_person():
    ana, _ben = make_user("ana"), make_user("ben")
    page = client_of(ana).get("/tables/new/?challenge=BEN").content.decode()
    assert "<h1>Challenge ben</h1>" in page
    client_of(ana).post("/tables/new/", form(challenge="BEN"))
    assert Table.objects.get(opener=ana).challenged.username == "ben"


def test_an_open_table_fills_with_bots_after_five_minutes_unless_changed():
    """On a quiet site a table that waits for people alone closes unplayed: the form's default
    gives its empty seats to bots after five minutes, and says so."""
    ana = make_user("ana")
    page = client_of(ana).get("/tables/new/").content.decode()
    assert '<option value="5" selected>after 5 minutes</option>' in page
    intro = page.split('class="muted table-intro">', 1)[1].split("</p>", 1)[0]
    assert "bots fill the empty ones after the time chosen below (5 minutes" in intro
    assert 'href="/players/"' in intro


def test_the_lobby_lists_open_tables_and_join_is_one_click_into_the_game():
    ana, ben = make_user("ana"), make_user("ben")
    table = opened(ana, rated=True)
    lobby = client_of(ben).get("/play/").content.decode()
    assert "Open tables" in lobby and f'action="/tables/{table.pk}/join"' in lobby
    assert f'aria-label="Join ana\'s table {table.pk}"' in lobby
    joined = client_of(ben).post(f"/tables/{table.pk}/join")
    assert joined.status_code == 302 and joined["Location"] == f"/tables/{table.pk}/"
    table.refresh_from_db()
    assert table.status == "started"
    # The table's page sends its people on to the game; its poll does so with HX-Redirect.
    followed = client_of(ben).get(f"/tables/{table.pk}/")
    assert followed.status_code == 302 and followed["Location"] == f"/games/{table.game_id}/"
    polled = client_of(ana).get(f"/tables/{table.pk}/status", headers={"HX-Request": "true"})
    assert polled["HX-Redirect"] == f"/games/{table.game_id}/"
    # Someone who was not seated sees a link.
    other = client_of(make_user("cy")).get(f"/tables/{table.pk}/").content.decode()
    assert f'href="/games/{table.game_id}/"' in other and "The game started." in other


def test_the_lobby_filters_by_family_and_turn_length():
    ana, ben = make_user("ana"), make_user("ben")
    quick = opened(ana, turn_seconds=60)
    daily = opened(ana, variant_spec={"rules": "basic-plus"}, turn_seconds=86400)
    shown = lambda query: client_of(ben).get(f"/play/?{query}").content.decode()  # noqa: E731
    both = shown("")
    assert f"/tables/{quick.pk}/join" in both and f"/tables/{daily.pk}/join" in both
    only = shown("family=basic-plus")
    assert f"/tables/{quick.pk}/join" not in only and f"/tables/{daily.pk}/join" in only
    only = shown("turn=60")
    assert f"/tables/{quick.pk}/join" in only and f"/tables/{daily.pk}/join" not in only
    none = shown("family=official&turn=86400")
    assert "No open table with these filters right now." in none
    # A newcomer on a quiet site is pointed to someone to play.
    assert 'or <a href="/players/">find a person</a> to challenge.' in none


@pytest.mark.parametrize("query", ["family=chess", "turn=61", "turn=abc", "family=%C3%A9"])
def test_a_bad_filter_is_said_plainly_and_every_table_is_shown(query):
    ana, ben = make_user("ana"), make_user("ben")
    table = opened(ana)
    page = client_of(ben).get(f"/play/?{query}")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Those filters are not ones this page offers" in html
    assert f"/tables/{table.pk}/join" in html


def test_your_own_open_table_is_listed_with_cancel():
    ana = make_user("ana")
    table = opened(ana, seats=3)
    lobby = client_of(ana).get("/play/").content.decode()
    assert "Your open tables" in lobby and f'action="/tables/{table.pk}/cancel"' in lobby
    assert f'action="/tables/{table.pk}/join"' not in lobby
    cancelled = client_of(ana).post(f"/tables/{table.pk}/cancel", follow=True)
    assert Table.objects.get(pk=table.pk).status == "cancelled"
    page = cancelled.content.decode()
    assert "ana cancelled this table." in page and "You cancelled the table." in page
    assert FOLLOWS not in page


FOLLOWS = "This page follows the table: you go to the game when it starts."


def test_only_a_seated_person_is_told_the_page_follows_the_table_and_only_while_it_is_open():
    ana, ben = make_user("ana"), make_user("ben")
    table = opened(ana)
    assert FOLLOWS in client_of(ana).get(f"/tables/{table.pk}/").content.decode()
    # Its poll says it too, and stops saying it once the table is closed.
    assert FOLLOWS in client_of(ana).get(f"/tables/{table.pk}/status").content.decode()
    # Someone who only looks at the table goes nowhere when it starts.
    assert FOLLOWS not in client_of(ben).get(f"/tables/{table.pk}/").content.decode()
    Table.objects.filter(pk=table.pk).update(status="expired")
    for path in (f"/tables/{table.pk}/", f"/tables/{table.pk}/status"):
        page = client_of(ana).get(path).content.decode()
        assert FOLLOWS not in page
    assert "Nobody joined in time: the table expired." in page


def test_a_refusal_is_said_on_the_table_page():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = opened(ana)
    client_of(ben).post(f"/tables/{table.pk}/join")
    refused = client_of(cy).post(f"/tables/{table.pk}/join", follow=True)
    assert "Every seat" in refused.content.decode() or "filled up" in refused.content.decode()
    own = client_of(ana).post(f"/tables/{opened(ana).pk}/join", follow=True)
    assert "You opened this table" in own.content.decode()


def test_challenge_from_the_player_page_then_accept_from_the_lobby():
    ana, ben = make_user("ana"), make_user("ben")
    player = client_of(ana).get("/players/ben/").content.decode()
    assert 'href="/tables/new/?challenge=ben"' in player and "Challenge ben" in player
    assert "Challenge" not in client_of(ben).get("/players/ben/").content.decode()
    filled = client_of(ana).get("/tables/new/?challenge=ben").content.decode()
    assert 'value="ben"' in filled and "Send the challenge" in filled
    client_of(ana).post("/tables/new/", form(challenge="ben"))
    challenge = Table.objects.get(opener=ana)
    assert challenge.challenged == ben
    # Private: not among the tables others see.
    others = client_of(make_user("cy")).get("/play/").content.decode()
    assert f"/tables/{challenge.pk}/join" not in others
    assert client_of(make_user("dee")).get(f"/tables/{challenge.pk}/").status_code == 404
    lobby = client_of(ben).get("/play/").content.decode()
    assert "Challenges for you" in lobby and "ana</strong> challenges you" in lobby
    assert f'action="/tables/{challenge.pk}/decline"' in lobby
    # An answer is asked of ben: first on the page, above his games' tabs and list.
    assert lobby.index("Challenges for you") < lobby.index('aria-label="Which games"')
    accepted = client_of(ben).post(f"/tables/{challenge.pk}/join", follow=True)
    challenge.refresh_from_db()
    assert challenge.status == "started"
    assert accepted.redirect_chain[-1][0] == f"/games/{challenge.game_id}/"


def test_decline_a_challenge_from_the_lobby():
    ana, ben = make_user("ana"), make_user("ben")
    challenge = opened(ana, challenge="ben")
    assert 'aria-label="Notifications, 1 unread"' in client_of(ben).get("/play/").content.decode()
    declined = client_of(ben).post(f"/tables/{challenge.pk}/decline", follow=True)
    assert "You declined the challenge." in declined.content.decode()
    assert "ben declined the challenge." in declined.content.decode()
    lobby = client_of(ben).get("/play/").content.decode()
    assert "Challenges for you" not in lobby
    # Answered: the challenge's notice is no longer counted under the bell.
    assert 'aria-label="Notifications"' in lobby


def test_an_accepted_challenge_is_read_under_the_bell():
    ana, ben = make_user("ana"), make_user("ben")
    challenge = opened(ana, challenge="ben")
    client_of(ben).post(f"/tables/{challenge.pk}/join")
    notice = Notification.objects.get(user=ben, kind="challenge")
    assert notice.read_at is not None


def test_the_table_pages_need_a_signed_in_person():
    table = opened(make_user("ana"))
    for path in ("/tables/new/", f"/tables/{table.pk}/"):
        assert Client().get(path)["Location"].startswith("/accounts/login/")
    assert Client().post(f"/tables/{table.pk}/join")["Location"].startswith("/accounts/login/")
