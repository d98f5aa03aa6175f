"""The people's directory (/players/, web/people.py): a search by the start of a username in
any case, bounded and read through the username index; with nothing typed, the people waiting
at an open table and those playing now; a Challenge button on every row but the viewer's; the
people who keep their name out of the open database found by their whole name only; reachable
from the site's menu and from the challenge form."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Profile
from games import seat_facts
from games.creation import SeatSpec, game_create
from games.models import Game, GameEvent
from tables import services
from tests.games.factories import make_user, take_turns
from web import people

pytestmark = pytest.mark.django_db


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def names(html: str) -> list[str]:
    return [part.split('"', 1)[0] for part in html.split('<li class="person-row" data-user="')[1:]]


def test_search_by_the_start_of_a_name_in_any_case_with_a_challenge_button_each():
    ana = make_user("ana")
    for name in ("Anabel", "anton", "bob", "hanna"):
        make_user(name)
    html = client_of(ana).get("/players/?q=AN").content.decode()
    assert names(html) == ["ana", "Anabel", "anton"]  # a prefix, not "hanna"
    assert 'href="/tables/new/?challenge=anton"' in html
    assert 'href="/players/Anabel/"' in html
    assert 'href="/tables/new/?challenge=ana"' not in html  # not yourself
    assert 'name="q" value="AN"' in html
    nobody = client_of(ana).get("/players/?q=zed").content.decode()
    assert "Nobody's username starts with “zed”" in nobody


def test_the_search_is_bounded_and_says_when_more_match(monkeypatch):
    monkeypatch.setattr(people, "RESULTS", 3)
    for number in range(5):
        make_user(f"cat{number}")
    html = Client().get("/players/?q=cat").content.decode()
    assert names(html) == ["cat0", "cat1", "cat2"]
    assert "More than 3 people match: type more of the name." in html


def test_a_person_who_keeps_their_name_out_of_the_open_database_is_found_by_their_whole_name():
    dee = make_user("dee")
    Profile.objects.create(user=dee, export_name=False)
    make_user("deb")
    assert names(Client().get("/players/?q=de").content.decode()) == ["deb"]
    assert names(Client().get("/players/?q=DEE").content.decode()) == ["dee"]
    # The profile's box says so.
    profile = client_of(dee).get("/accounts/profile/").content.decode()
    assert "People page lists you only to someone who types your whole username" in profile


def test_with_nothing_typed_the_page_lists_who_waits_and_who_plays_now():
    ana, ben, cy, dee = (make_user(name) for name in ("ana", "ben", "cy", "dee"))
    table = services.open_table(opener=ana, variant_spec={"rules": "official"}, seats=2)
    game = game_create(
        variant_spec={"rules": "official"}, seats=[SeatSpec(user=ben), SeatSpec(bot="greedy")]
    )
    take_turns(game)
    old = game_create(
        variant_spec={"rules": "official"}, seats=[SeatSpec(user=cy), SeatSpec(bot="greedy")]
    )
    with time_machine.travel(timezone.now() - datetime.timedelta(hours=2), tick=False):
        take_turns(old)
    html = client_of(dee).get("/players/").content.decode()
    waiting = html.split('id="waiting-heading"', 1)[1].split("</section>", 1)[0]
    playing = html.split('id="playing-heading"', 1)[1].split("</section>", 1)[0]
    assert names(waiting) == ["ana"] and f'href="/tables/{table.pk}/"' in waiting
    assert "waiting at table" in waiting
    assert names(playing) == ["ben"] and "playing now" in playing  # not cy: 2 hours still
    assert 'href="/tables/new/?challenge=ben"' in playing


def test_playing_now_lists_who_acted_not_whose_game_the_bots_moved():
    ben, cy, eve = make_user("ben"), make_user("cy"), make_user("eve")
    moved_by_bots = game_create(
        variant_spec={"rules": "official"}, seats=[SeatSpec(user=ben), SeatSpec(bot="greedy")]
    )
    # ben acted there 2 hours ago; his turns since were played for him, and the bot's.
    with time_machine.travel(timezone.now() - datetime.timedelta(hours=2), tick=False):
        take_turns(moved_by_bots)
    assert GameEvent.objects.filter(game_id=moved_by_bots.pk, actor=f"user:{ben.pk}").exists()
    take_turns(moved_by_bots, person_away=True)
    # cy and eve play each other; only eve has moved yet.
    together = game_create(
        variant_spec={"rules": "official"}, seats=[SeatSpec(user=cy), SeatSpec(user=eve)]
    )
    first = Game.objects.get(pk=together.pk).to_act[0]
    mover = cy if first == 0 else eve
    take_turns(together, turns=1)
    playing = Client().get("/players/").content.decode().split('id="playing-heading"', 1)[1]
    playing = playing.split("</section>", 1)[0]
    assert names(playing) == [mover.username]
    assert "Made a move in the last 15 minutes in a game still being played" in playing
    with time_machine.travel(timezone.now() + datetime.timedelta(minutes=16), tick=False):
        html = Client().get("/players/").content.decode()
    assert "Nobody made a move in the last 15 minutes in a game still being played." in html


def test_acting_in_one_game_does_not_list_a_person_for_a_game_the_bots_moved():
    admin, ana = make_user("admin"), make_user("ana")
    ruled = game_create(
        variant_spec={"rules": "official"}, seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")]
    )
    # The admin rules on a fixture they do not play (a forfeit, the log names them)...
    seat_facts.seat_forfeit(game_id=ruled.pk, seat=0, actor=admin)
    # ...while their own game moved only by the default bot, for them.
    theirs = game_create(
        variant_spec={"rules": "official"}, seats=[SeatSpec(user=admin), SeatSpec(bot="greedy")]
    )
    take_turns(theirs, person_away=True)

    html = Client().get("/players/").content.decode()

    assert "Nobody made a move in the last 15 minutes in a game still being played." in html
    assert people.playing_now(timezone.now()) == []


def test_a_name_the_database_folds_otherwise_than_python_is_found_and_challenged_whole():
    # Python's upper() makes "STRASSE" of "straße"; the database keeps the ß, as its index does.
    # A "+" in a name must reach the challenge form as a "+", not a space.
    strasse, plus = make_user("straße"), make_user("tom+jerry")
    html = Client().get("/players/", {"q": "straße"}).content.decode()
    assert names(html) == [strasse.username]
    html = client_of(strasse).get("/players/", {"q": "tom"}).content.decode()
    assert names(html) == [plus.username]
    assert 'href="/tables/new/?challenge=tom%2Bjerry"' in html
    form = client_of(strasse).get("/tables/new/?challenge=tom%2Bjerry").content.decode()
    assert "<h1>Challenge tom+jerry</h1>" in form


def test_the_page_answers_head_and_playing_now_reads_only_the_newest_playing_games(monkeypatch):
    assert Client().head("/players/").status_code == 200
    monkeypatch.setattr(people, "PLAYING_SCAN", 1)
    ben, cy = make_user("ben"), make_user("cy")
    for person in (ben, cy):
        game = game_create(
            variant_spec={"rules": "official"},
            seats=[SeatSpec(user=person), SeatSpec(bot="greedy")],
        )
        take_turns(game)
    # Both moved just now; only the newest of the playing games is looked at.
    playing = Client().get("/players/").content.decode().split('id="playing-heading"', 1)[1]
    assert names(playing.split("</section>", 1)[0]) == ["cy"]


def test_an_empty_site_says_so_and_where_to_go():
    html = client_of(make_user("ana")).get("/players/").content.decode()
    assert "Nobody is waiting at an open table now." in html
    assert "bots fill its empty seats after a few minutes" in html
    assert "Nobody made a move in the last 15 minutes in a game still being played." in html


def test_the_queries_do_not_grow_with_the_people_and_the_search_reads_the_index():
    for number in range(40):
        make_user(f"eve{number}")
    with CaptureQueriesContext(connection) as found:
        Client().get("/players/?q=eve")
    with CaptureQueriesContext(connection) as listed:
        Client().get("/players/")
    assert len(found) <= 3 and len(listed) <= 4
    search = next(query["sql"] for query in found if "auth_user" in query["sql"])
    with connection.cursor() as cursor:
        # As on a large table: no scan of every row, no sort of the matches (the index's order).
        cursor.execute("SET enable_seqscan = off")
        cursor.execute("SET enable_sort = off")
        cursor.execute("EXPLAIN " + search)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_seqscan")
        cursor.execute("RESET enable_sort")
    assert "auth_user_username_upper_prefix" in plan, plan
    assert "Sort" not in plan.split("auth_user_username_upper_prefix")[0], plan


def test_the_menu_and_the_challenge_form_lead_here():
    ana = make_user("ana")
    assert 'href="/players/">People</a>' in client_of(ana).get("/play/").content.decode()
    assert 'href="/players/">People</a>' in Client().get("/").content.decode()
    form = client_of(ana).get("/tables/new/?challenge=nobody").content.decode()
    assert 'href="/players/"' in form


@pytest.mark.parametrize(
    ("seed", "turned_up"),
    [
        (0, "card-flipped"),
        # The card turned up makes more of the start, all in the starter's name.
        (8, "card-reinserted"),
        (20, "cards-drawn"),
        (25, "direction-changed"),
    ],
)
def test_starting_a_game_is_no_move_and_a_match_just_over_is_not_playing_now(seed, turned_up):
    """The bugs: the list showed an invitation's opener whose game had started (the start is
    written in their name) though they had not moved; and it said nobody had moved in a game
    while two people had, a minute before, in a match that then ended."""
    ana, ben = make_user("ana"), make_user("ben")
    started = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(user=ben)],
        actor=ana,
        seed=seed,
    )
    assert GameEvent.objects.filter(
        game_id=started.pk, actor=f"user:{ana.pk}", type=turned_up
    ).exists()
    html = Client().get("/players/").content.decode()
    assert "Nobody made a move in the last 15 minutes in a game still being played." in html
    assert people.playing_now(timezone.now()) == []
    # Once someone moves, they are listed, and only they.
    first = Game.objects.get(pk=started.pk).to_act[0]
    take_turns(started, turns=1)
    assert [p.username for p in people.playing_now(timezone.now())] == [
        (ana if first == 0 else ben).username
    ]
