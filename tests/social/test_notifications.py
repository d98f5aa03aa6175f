"""The notification centre (social/notifications.py, web/bell.py): a notice is said once per
key, the bell on every page counts the unread ones, the list shows them newest first with the
unread marked, opening one marks it read and goes to its place (a path on this site only),
"Mark all read"; a rematch offered and a season started or a fixture opened are notices too."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import rematch
from league.models import Fixture
from league.seasons import open_due_rounds, season_start
from social.models import Notification
from social.notifications import notify, unread_count
from tests.games.factories import make_game, make_user, play_to_end
from tests.web.league_pages import autumn_season

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def bell_of(html: str) -> str:
    """The bell link's accessible name on a page."""
    found = re.search(
        r'<a class="bell" id="bell" href="/notifications/" aria-label="([^"]*)"', html
    )
    assert found, "no bell on the page"
    return found.group(1)


def test_a_notice_is_said_once_per_key_and_only_to_a_person():
    ana = make_user()
    assert notify(ana, "other", "Hello", url="/play/", key="hello") is True
    assert notify(ana, "other", "Hello again", url="/play/", key="hello") is False
    assert notify(ana.pk, "other", "By id", key="by-id") is True
    assert notify(None, "other", "Nobody", key="x") is False
    assert [n.text for n in Notification.objects.filter(user=ana).order_by("pk")] == [
        "Hello",
        "By id",
    ]
    assert unread_count(ana) == 2


def test_the_bell_on_every_page_counts_what_is_unread():
    ana = make_user()
    browser = client_of(ana)
    for path in ("/play/", "/clubs/", f"/players/{ana.username}/", "/notifications/"):
        assert bell_of(browser.get(path).content.decode()) == "Notifications", path
    notify(ana, "other", "One", url="/play/", key="1")
    notify(ana, "other", "Two", url="/play/", key="2")
    notify(make_user(), "other", "Someone else's", url="/play/", key="3")
    html = browser.get("/clubs/").content.decode()
    assert bell_of(html) == "Notifications, 2 unread"
    assert '<span class="count bell__count" aria-hidden="true">2</span>' in html
    # Past 99 the figure is "99+", and the name says what the figure shows.
    Notification.objects.bulk_create(
        Notification(user=ana, kind="other", text="More", key=f"more{n}") for n in range(98)
    )
    html = browser.get("/clubs/").content.decode()
    assert bell_of(html) == "Notifications, 99+ unread"
    assert '<span class="count bell__count" aria-hidden="true">99+</span>' in html
    # Signed out: no bell.
    assert 'class="bell"' not in Client().get("/clubs/").content.decode()


def test_the_list_is_newest_first_and_opening_a_notice_marks_it_read():
    ana = make_user()
    first = Notification.objects.create(
        user=ana, kind="other", text="Older", url="/clubs/", key="a"
    )
    second = Notification.objects.create(
        user=ana, kind="other", text="Newer", url="/play/", key="b"
    )
    browser = client_of(ana)
    html = browser.get("/notifications/").content.decode()
    assert html.index("Newer") < html.index("Older")
    assert "2 unread" in html and html.count('class="notice notice--unread"') == 2
    assert f'href="/notifications/{second.pk}/open"' in html

    opened = browser.get(f"/notifications/{second.pk}/open")
    assert opened.status_code == 302 and opened["Location"] == "/play/"
    second.refresh_from_db()
    first.refresh_from_db()
    assert second.read_at is not None and first.read_at is None
    html = browser.get("/notifications/").content.decode()
    assert "1 unread" in html and html.count('class="notice notice--unread"') == 1
    assert bell_of(html) == "Notifications, 1 unread"
    # Opening it again still goes there; it stays read.
    assert browser.get(f"/notifications/{second.pk}/open")["Location"] == "/play/"


def test_opening_someone_elses_notice_or_a_link_elsewhere_is_refused():
    ana, ben = make_user(), make_user()
    bens = Notification.objects.create(user=ben, kind="other", text="Ben's", url="/", key="b")
    assert client_of(ana).get(f"/notifications/{bens.pk}/open").status_code == 404
    bens.refresh_from_db()
    assert bens.read_at is None
    assert Client().get(f"/notifications/{bens.pk}/open").status_code == 302  # sign in first
    for number, url in enumerate(["https://evil.example/", "//evil.example/", "/\\evil.example"]):
        notice = Notification.objects.create(
            user=ana, kind="other", text="Away", url=url, key=f"away{number}"
        )
        answer = client_of(ana).get(f"/notifications/{notice.pk}/open", follow=True)
        assert answer.redirect_chain == [("/notifications/", 302)]
        assert "That notice links to no page of this site." in answer.content.decode()


def test_mark_all_read():
    ana, ben = make_user(), make_user()
    for key in "abc":
        notify(ana, "other", f"Notice {key}", url="/play/", key=key)
    notify(ben, "other", "Ben's", url="/play/", key="a")
    browser = client_of(ana)
    assert "Mark all read" in browser.get("/notifications/").content.decode()
    answer = browser.post("/notifications/read", follow=True)
    html = answer.content.decode()
    assert "3 notices marked read" in html and "Nothing new" in html
    assert "Mark all read" not in html and bell_of(html) == "Notifications"
    assert unread_count(ana) == 0 and unread_count(ben) == 1
    assert browser.get("/notifications/read").status_code == 405


def test_a_rematch_offer_and_its_start_reach_the_other_person_and_the_game_marks_them_read():
    game = make_game(players=2, bots=["greedy"])
    play_to_end(game.pk)
    ana, ben = (seat.user for seat in game.seats.order_by("number")[:2])
    rematch.offer(game_id=game.pk, person=ana)
    (offer,) = Notification.objects.filter(user=ben)
    assert (
        offer.kind == "rematch"
        and offer.text == f"{ana.username} offers a rematch of game {game.pk}"
    )
    assert offer.url == f"/games/{game.pk}/" and not Notification.objects.filter(user=ana)
    assert bell_of(client_of(ben).get("/clubs/").content.decode()) == "Notifications, 1 unread"
    # Ben opens the game's page: the offer there is read.
    client_of(ben).get(f"/games/{game.pk}/")
    assert unread_count(ben) == 0

    rematch.answer(game_id=game.pk, person=ben, accept=True)
    new = rematch.state(game.pk).new_game
    (started,) = Notification.objects.filter(user=ana)
    assert started.text == f"The rematch of game {game.pk} started: game {new}"
    assert started.url == f"/games/{new}/"


def test_a_season_start_and_each_fixture_reach_the_people_entered():
    season, ada, ben = autumn_season()
    season_start(season=season, admin=ada)
    # (The club's admin was told who joined it: another kind, league/clubs.py.)
    Notification.objects.filter(kind="club-members").delete()
    notices = list(Notification.objects.filter(user=ada).order_by("pk"))
    assert notices[0].kind == "season" and notices[0].text == "Autumn League of " + (
        season.club.name + " started"
    )
    assert notices[0].url == "/seasons/autumn/"
    fixtures = Fixture.objects.filter(seats__entry__user=ada).exclude(game=None)
    if not fixtures:  # ada sits the first round out: the next round opens once it is played
        for fixture in Fixture.objects.filter(division__season=season).exclude(game=None):
            play_to_end(fixture.game_id)
        open_due_rounds(season=season)
        notices = list(Notification.objects.filter(user=ada).order_by("pk"))
    assert fixtures.exists()
    assert [n.url for n in notices[1:]] == [f"/games/{f.game_id}/" for f in fixtures]
    assert all(
        n.text.startswith("Your fixture is open: Autumn League, Premier, round ")
        for n in notices[1:]
    )
    # Ben entered nothing: told nothing.
    assert not Notification.objects.filter(user=ben).exists()
    # The rounds open again (the beat sweep runs it every few minutes): nothing told twice.
    open_due_rounds(season=season)
    assert Notification.objects.filter(user=ada).count() == len(notices)


def test_the_list_shows_older_notices_a_page_at_a_time(monkeypatch):
    from social import notifications

    monkeypatch.setattr(notifications, "PAGE_SIZE", 2)
    ana = make_user()
    for number in range(3):
        notify(ana, "other", f"Notice {number}", key=f"n{number}")
    client = client_of(ana)

    def shown(html: str) -> list[str]:
        return re.findall(r"Notice \d", html)

    first = client.get("/notifications/").content.decode()
    older = re.search(r'<a href="\?before=(\d+)">Older</a>', first)
    assert shown(first) == ["Notice 2", "Notice 1"]
    assert older and int(older[1]) == Notification.objects.get(user=ana, key="n1").pk

    second = client.get(f"/notifications/?before={older[1]}").content.decode()
    assert shown(second) == ["Notice 0"]
    assert ">Older</a>" not in second and ">Newest</a>" in second

    assert client.get("/notifications/?before=999999").status_code == 404
    assert client.get("/notifications/?before=x").status_code == 400


def test_the_lists_queries_do_not_grow_with_the_notices():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ana = make_user()
    client = client_of(ana)

    def counted() -> tuple[int, int]:
        found = []
        for url in ("/notifications/", "/api/notifications"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            found.append(len(queries))
        return found[0], found[1]

    for number in range(3):
        notify(ana, "other", f"Notice {number}", key=f"a{number}")
    few = counted()
    for number in range(70):
        notify(ana, "other", f"Notice {number}", key=f"b{number}")
    page, api = counted()
    assert page <= few[0] and api <= few[1]
    # And a page holds what it says, however many there are.
    assert len(client.get("/api/notifications").json()["results"]) == 30
