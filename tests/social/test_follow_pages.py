"""Following on the site (web/follows.py, web/bell.py): the player page's Follow and Unfollow
button and counts, the person's games still being played (seats' names, never a card), and the
Following list of the notification centre with the games to watch."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from social.models import Follow
from tests.games.factories import make_game, make_user, play_to_end
from tests.web.league_pages import text

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_follow_and_unfollow_from_the_player_page():
    ana, ben = make_user(), make_user()
    page = f"/players/{ben.username}/"
    browser = client_of(ana)
    html = browser.get(page).content.decode()
    assert f"Follow {ben.username}" in html and "0 followers · following 0" in html
    answer = browser.post(f"{page}follow", {"follow": "1"}, follow=True)
    html = answer.content.decode()
    assert answer.redirect_chain == [(page, 302)]
    assert f"You follow {ben.username}" in html and f"Unfollow {ben.username}" in html
    assert "1 follower · following 0" in html
    assert Follow.objects.filter(follower=ana, followed=ben).exists()

    html = browser.post(f"{page}follow", {"follow": "0"}, follow=True).content.decode()
    assert f"You no longer follow {ben.username}" in html and f"Follow {ben.username}" in html
    assert not Follow.objects.exists()


def test_no_button_for_oneself_or_signed_out_and_the_refusals():
    ana = make_user()
    page = f"/players/{ana.username}/"
    assert f"Follow {ana.username}" not in client_of(ana).get(page).content.decode()
    assert f"Follow {ana.username}" not in Client().get(page).content.decode()
    own = client_of(ana).post(f"{page}follow", {"follow": "1"}, follow=True)
    assert "You cannot follow yourself." in own.content.decode()
    signed_out = Client().post(f"{page}follow", {"follow": "1"})
    assert signed_out.status_code == 302 and signed_out["Location"].startswith("/accounts/login/")
    assert client_of(ana).get(f"{page}follow").status_code == 405
    assert not Follow.objects.exists()


def test_the_player_page_and_the_following_list_show_running_games_without_cards():
    running = make_game(players=2, bots=["greedy"])
    over = make_game(players=2)
    play_to_end(over.pk)
    ben = running.seats.get(number=0).user
    over.seats.filter(number=0).update(user=ben)
    ana = make_user()
    Follow.objects.create(follower=ana, followed=ben)

    html = client_of(ana).get(f"/players/{ben.username}/").content.decode()
    assert "Games being played" in html
    assert f'href="/games/{running.pk}/">Watch game {running.pk}</a>' in html
    assert f"Watch game {over.pk}" not in html and f"Replay of game {over.pk}" in html
    # Seats by name only: no card of anyone's hand reaches the page.
    assert 'class="card' not in html

    html = client_of(ana).get("/notifications/").content.decode()
    assert f'href="/players/{ben.username}/">{ben.username}</a>' in html
    assert f'href="/games/{running.pk}/">Watch game {running.pk}</a>' in html
    assert f"Watch game {over.pk}" not in html
    # Their own page says Play, not Watch.
    own = client_of(ben).get(f"/players/{ben.username}/").content.decode()
    assert f"Play game {running.pk}" in own
    assert Game.objects.get(pk=running.pk).status == Game.Status.PLAYING


def test_the_following_list_when_following_nobody():
    html = client_of(make_user()).get("/notifications/").content.decode()
    assert "You follow nobody yet." in html and "No notifications yet." in html


def test_bots_of_one_name_are_told_apart_by_their_seats_as_on_the_play_page():
    running = make_game(players=1, bots=["greedy", "greedy"])
    ben = running.seats.get(number=0).user
    over = make_game(players=1, bots=["greedy", "greedy"])
    over.seats.filter(number=0).update(user=ben)
    play_to_end(over.pk)
    ana = make_user()
    Follow.objects.create(follower=ana, followed=ben)
    # As the play page names them (web/names.py): a name held twice with its seat, counted
    # from 1 (the log's seats 1 and 2).
    seats = f"{ben.username}, greedy (seat 2), greedy (seat 3)"

    page = text(client_of(ana).get(f"/players/{ben.username}/").content.decode())
    assert f"Watch game {running.pk} · {seats}" in page
    assert f"Replay of game {over.pk}" in page
    assert "with greedy (seat 2), greedy (seat 3)" in page

    inbox = text(client_of(ana).get("/notifications/").content.decode())
    assert f"Watch game {running.pk} · {seats}" in inbox


def test_a_followed_persons_game_the_viewer_plays_in_is_theirs_to_open_not_watch():
    game = make_game(players=2)
    ana, ben = (seat.user for seat in game.seats.order_by("number"))
    Follow.objects.create(follower=ana, followed=ben)

    inbox = text(client_of(ana).get("/notifications/").content.decode())

    assert f"Open game {game.pk} (you play in it)" in inbox
    assert f"Watch game {game.pk}" not in inbox
