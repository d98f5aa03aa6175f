"""A bot's owner picks their own bot for a seat on the new-game page, takes no seat, and lands on
the game's page watching their practice match (games/lobby.py game_start, web/new_game.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import lobby
from games.models import Bot, Game
from tests.games.factories import make_user
from tests.web.browser.clicks import scrolls_sideways
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_an_owner_starts_a_practice_match_of_their_bot_and_watches_it(open_page, width, height):
    ana = make_user("ana")
    mine = Bot.objects.create(
        owner=ana,
        name="annabot",
        kind=Bot.Kind.BUILTIN,
        strategy="greedy",
        status=Bot.Status.ACTIVE,
    )
    page = open_page(ana, reverse("web:new-game"), width=width, height=height)
    assert not scrolls_sideways(page)

    page.select_option("#id_scoring", "single-hand")
    page.select_option("#id_seat0", label="my bot: annabot")
    page.select_option("#id_seat3", "")
    page.locator("#id_seat0").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"watch-own-bot-form-{width}.png"))
    page.get_by_role("button", name="Start the game").click()

    game = Game.objects.get()
    page.wait_for_url(f"**/games/{game.pk}/")
    status = page.locator(".status")
    assert "you are watching" in status.inner_text()
    assert "Practice match: ana watches their bot play" in status.inner_text()
    # Bots move at once: the one hand is over by now, and the replay shows it move by move.
    page.wait_for_selector('#game[data-status="match-over"]')
    assert page.get_by_role("link", name="Watch the replay").is_visible()
    assert page.locator(".hand__card").count() == 0
    assert not scrolls_sideways(page)
    page.screenshot(path=str(ARTIFACTS / f"watch-own-bot-over-{width}.png"), full_page=True)
    assert [s.registered_bot_id for s in game.seats.order_by("number")] == [mine.pk, None, None]


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_a_running_practice_match_shows_its_owner_no_hidden_card(open_page, width, height):
    """A pull bot of hers that has not answered yet: the game waits, and she, watching, sees
    card counts only, her own bot's hand included."""
    ana = make_user("ana")
    game = waiting_practice_match(ana)

    page = open_page(ana, reverse("web:play", args=[game.pk]), width=width, height=height)

    assert page.locator("#game").get_attribute("data-status") == "playing"
    assert "you are watching" in page.locator(".status").inner_text()
    assert page.locator(".hand__card").count() == 0
    assert not scrolls_sideways(page)
    page.screenshot(path=str(ARTIFACTS / f"watch-own-bot-running-{width}.png"), full_page=True)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_the_owner_finds_a_running_practice_match_again_in_the_lobby(open_page, width, height):
    """Back in the lobby after starting it, she finds her practice match on the Playing tab,
    said to be her bot's, and watches it from there."""
    ana = make_user("ana")
    game = waiting_practice_match(ana)

    page = open_page(ana, reverse("web:lobby"), width=width, height=height)

    card = page.locator("li.game.practice")
    assert card.count() == 1
    assert "Practice match of your bot pullbot: you watch it play from no seat." in (
        card.inner_text()
    )
    assert "You are in no" not in page.locator("main").inner_text()
    assert not scrolls_sideways(page)
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"watch-own-bot-lobby-{width}.png"))
    card.get_by_role("link", name=f"Watch game {game.pk}").click()
    page.wait_for_url(f"**/games/{game.pk}/")
    assert "you are watching" in page.locator(".status").inner_text()


def waiting_practice_match(owner) -> Game:
    """A practice match of the owner's pull bot (not answering yet) and two built-in bots: it
    waits on the pull bot, running."""
    pulled = Bot.objects.create(
        owner=owner, name="pullbot", kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
    )
    return lobby.game_start(
        creator=owner,
        variant_spec={"rules": "official", "options": {"scoring": "single-hand"}},
        seats=[{"bot_id": pulled.pk}, {"bot": "greedy"}, {"bot": "random"}],
    )
