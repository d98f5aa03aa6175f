"""What a person sees on a phone (360x740) and a desktop after the default bot played their
timed-out turn (the bell's notice and the lobby's card say so, not "Your turn"), and around a
rematch: the offerer's page holds no banner that outlives the offer, the other's Decline is a
button like Accept."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from clocks import overdue
from games import lobby
from games.models import Game, Seat
from tests.games.factories import make_game, make_user, play_to_end
from tests.web.browser.clicks import SETTLED
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}


def time_out_into_anothers_turn(ana, maya) -> Game:
    """ana, maya and greedy with one-minute turns; ana's turns time out until the default bot's
    move leaves the game waiting for maya."""
    with transaction.atomic():
        game = lobby.game_start(
            creator=ana,
            variant_spec={"rules": "official", "options": {"target": 500}},
            seats=[{"user": "me"}, {"user": "maya"}, {"bot": "greedy"}],
            turn_seconds=60,
        )
    for _ in range(60):
        game.refresh_from_db()
        waiting = list(game.to_act)
        if 0 not in waiting:
            # maya's turn: the default bot plays it too, so ana's comes round.
            Seat.objects.filter(game=game, number__in=waiting).update(
                deadline_at=timezone.now() - datetime.timedelta(seconds=1)
            )
            overdue.expire()
            continue
        Seat.objects.filter(game=game, number=0).update(
            deadline_at=timezone.now() - datetime.timedelta(seconds=1)
        )
        overdue.expire()
        game.refresh_from_db()
        if game.status == Game.Status.PLAYING and 0 not in game.to_act:
            return game
    raise AssertionError("ana's turn never passed on to another")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_turn_the_default_bot_played_is_told_under_the_bell_and_in_the_lobby(open_page, size):
    ana, maya = make_user("ana"), make_user("maya")
    game = time_out_into_anothers_turn(ana, maya)
    page = open_page(ana, "/notifications/", **size)
    body = page.locator("main").inner_text()
    assert (
        f"The default bot played your turn against maya and greedy (official, game {game.pk})"
        in body
    )
    assert "Your turn against" not in body
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bot-played-bell-{size['width']}.png"))
    page.goto(page.url.replace("/notifications/", "/play/"))
    card = page.locator("li.game").filter(has_text=f"Game {game.pk}")
    said = card.locator(".bot-played")
    assert said.is_visible()
    assert "the default bot played it for you" in said.inner_text()
    card.scroll_into_view_if_needed()
    page.evaluate(SETTLED)
    page.screenshot(path=str(ARTIFACTS / f"bot-played-lobby-{size['width']}.png"))


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_offerers_page_holds_no_stale_banner_and_decline_is_a_button(open_page, size):
    game = make_game(players=2, bots=["greedy"])
    play_to_end(game.pk)
    ana, ben = (seat.user for seat in game.seats.order_by("number")[:2])
    ben_page = open_page(ben, f"/games/{game.pk}/", **size)
    ben_page.get_by_role("button", name="Offer a rematch").wait_for()
    ana_page = open_page(ana, f"/games/{game.pk}/", **size)
    ana_page.get_by_role("button", name="Offer a rematch").click()
    ana_page.wait_for_url(f"**/games/{game.pk}/")
    ana_page.get_by_text("Waiting for " + ben.username).wait_for()
    accept = ben_page.get_by_role("button", name="Accept the rematch")
    accept.wait_for(timeout=6_000)
    decline = ben_page.get_by_role("button", name="Decline")
    # Decline looks like the site's buttons: Accept's height and shape, not the browser's grey.
    box, accept_box = decline.bounding_box(), accept.bounding_box()
    assert abs(box["height"] - accept_box["height"]) < 1
    radius = decline.evaluate("b => getComputedStyle(b).borderRadius")
    assert radius == accept.evaluate("b => getComputedStyle(b).borderRadius")
    decline.scroll_into_view_if_needed()
    ben_page.evaluate(SETTLED)
    ARTIFACTS.mkdir(exist_ok=True)
    ben_page.screenshot(path=str(ARTIFACTS / f"rematch-answer-{size['width']}.png"))
    client = Client()
    client.force_login(ben)
    client.post(f"/games/{game.pk}/rematch", {"answer": "accept"})
    ana_page.get_by_role("link", name="Go to game").wait_for(timeout=6_000)
    assert "Rematch offered" not in ana_page.locator("main").inner_text()
    assert "starts when everyone accepts" not in ana_page.locator("main").inner_text()
    ana_page.locator("#rematch").scroll_into_view_if_needed()
    ana_page.evaluate(SETTLED)
    ana_page.screenshot(path=str(ARTIFACTS / f"rematch-started-offerer-{size['width']}.png"))
