"""Rematch on the site (web/rematch.py): the finished game's page offers the same table again,
the other person answers on their page, the lobby lists the offer, and both pages link to the
new game."""

from __future__ import annotations

import pytest
from django.test import Client

from games import rematch
from games.game_settings import GameSettings
from games.models import Game
from staff.actions import game_abort
from tests.games.factories import make_game, make_user, play_to_end

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def finished(**kwargs) -> Game:
    game = make_game(**kwargs)
    play_to_end(game.pk)
    return game


def test_offer_accept_and_both_pages_link_to_the_new_game():
    game = finished(players=2, bots=["greedy"])
    ana, ben = (seat.user for seat in game.seats.order_by("number")[:2])
    page = f"/games/{game.pk}/"
    html = client_of(ana).get(page).content.decode()
    assert "Offer a rematch" in html

    offered = client_of(ana).post(f"/games/{game.pk}/rematch", {"answer": "offer"})
    assert offered.status_code == 302 and offered["Location"] == page
    ana_sees = client_of(ana).get(page).content.decode()
    assert "Waiting for " + ben.username in ana_sees

    lobby = client_of(ben).get("/play/").content.decode()
    assert f"{ana.username} offers a rematch of" in lobby and f"/games/{game.pk}/#rematch" in lobby
    ben_sees = client_of(ben).get(page).content.decode()
    assert "Accept the rematch" in ben_sees and "Decline" in ben_sees

    accepted = client_of(ben).post(f"/games/{game.pk}/rematch", {"answer": "accept"})
    new = rematch.state(game.pk).new_game
    assert new is not None and accepted["Location"] == f"/games/{new}/"
    # ana's open page polls the panel: it links to the new game now.
    panel = client_of(ana).get(f"/games/{game.pk}/rematch/panel").content.decode()
    assert f'href="/games/{new}/"' in panel and "Go to game" in panel
    assert "offers a rematch of" not in client_of(ben).get("/play/").content.decode()


def test_a_decline_is_shown_to_everyone():
    game = finished(players=2)
    ana, ben = (seat.user for seat in game.seats.order_by("number"))
    client_of(ana).post(f"/games/{game.pk}/rematch", {"answer": "offer"})
    client_of(ben).post(f"/games/{game.pk}/rematch", {"answer": "decline"})
    html = client_of(ana).get(f"/games/{game.pk}/").content.decode()
    assert f"{ben.username} declined the rematch." in html


def test_a_ladder_game_offers_no_rematch_and_says_why():
    game = finished(players=2, settings=GameSettings(kind="ladder", competition=1))
    ana = game.seats.order_by("number")[0].user
    html = client_of(ana).get(f"/games/{game.pk}/").content.decode()
    assert "Offer a rematch" not in html
    assert "has no rematch: its competition makes the next game" in html
    refused = client_of(ana).post(f"/games/{game.pk}/rematch", {"answer": "offer"}, follow=True)
    assert "not-rematchable" in refused.content.decode()


def test_a_game_still_playing_shows_no_rematch():
    game = make_game(players=2)
    ana = game.seats.order_by("number")[0].user
    assert 'id="rematch"' not in client_of(ana).get(f"/games/{game.pk}/").content.decode()


def test_a_refused_offer_is_said_as_a_sentence_with_its_code():
    game = make_game(players=2)
    ana = game.seats.order_by("number")[0].user

    refused = client_of(ana).post(f"/games/{game.pk}/rematch", {"answer": "offer"}, follow=True)

    assert 'data-code="not-over"><strong>The match is not over yet.</strong></div>' in (
        refused.content.decode()
    )


def test_a_game_the_staff_aborted_offers_no_rematch_and_says_why():
    game = make_game(players=2)
    ana = game.seats.order_by("number")[0].user
    staff = make_user()
    staff.is_staff = True
    staff.save()
    game_abort(game_id=game.pk, user=staff, reason="a broken deal")

    html = client_of(ana).get(f"/games/{game.pk}/").content.decode()

    assert "The match was aborted by the staff, with no result" in html
    assert "Offer a rematch" not in html
    assert "The staff aborted this game, so it has no rematch" in html
    refused = client_of(ana).post(f"/games/{game.pk}/rematch", {"answer": "offer"}, follow=True)
    assert 'data-code="aborted">' in refused.content.decode()
    assert not rematch.state(game.pk).possible


def test_answering_on_the_open_page_reads_the_offer_and_no_banner_outlives_it():
    """The bugs: ben had the finished game's page open when ana's offer came (the panel's poll
    showed it); he accepted there, and "ana offers a rematch of game N" stayed New under his
    bell. ana's page kept a green "Rematch offered: the game starts when everyone accepts"
    after the game had started. The Decline button was a plain browser button."""
    from social.models import Notification

    game = finished(players=2, bots=["greedy"])
    ana, ben = (seat.user for seat in game.seats.order_by("number")[:2])
    page = f"/games/{game.pk}/"
    assert client_of(ben).get(page).status_code == 200  # open before the offer
    ana_browser = client_of(ana)
    ana_browser.post(f"/games/{game.pk}/rematch", {"answer": "offer"})
    ana_sees = ana_browser.get(page).content.decode()
    assert "Rematch offered" not in ana_sees and "Waiting for " + ben.username in ana_sees
    (offer,) = Notification.objects.filter(user=ben, key=f"rematch:{game.pk}")
    assert offer.read_at is None
    panel = client_of(ben).get(f"/games/{game.pk}/rematch/panel").content.decode()
    assert '<button type="submit" name="answer" value="decline" class="button">Decline' in panel
    client_of(ben).post(f"/games/{game.pk}/rematch", {"answer": "accept"})
    offer.refresh_from_db()
    assert offer.read_at is not None
    # ana's page, still open, polls the panel: it links to the new game; no banner says it waits.
    panel = ana_browser.get(f"/games/{game.pk}/rematch/panel").content.decode()
    assert "Go to game" in panel


def test_a_declined_offer_no_longer_says_it_waits_under_the_bell():
    from social.models import Notification

    game = finished(players=3)
    ana, ben, cy = (seat.user for seat in game.seats.order_by("number"))
    client_of(ana).post(f"/games/{game.pk}/rematch", {"answer": "offer"})
    client_of(ben).post(f"/games/{game.pk}/rematch", {"answer": "decline"})
    (ben_notice,) = Notification.objects.filter(user=ben, key=f"rematch:{game.pk}")
    (cy_notice,) = Notification.objects.filter(user=cy, key=f"rematch:{game.pk}")
    assert ben_notice.read_at is not None
    assert cy_notice.read_at is None
    assert cy_notice.text == (
        f"{ana.username} offered a rematch of game {game.pk}: {ben.username} declined it"
    )
