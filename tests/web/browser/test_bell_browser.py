"""The bell and the notification centre in the browser, on a phone (360x740) and a desktop: the
bell in the header says how many notices are unread, fits the header without a sideways scroll,
opens the list; a notice opened goes to its place and is read after; "Mark all read"; a game
that ended while its person was away is told under the bell (its end, not a turn); the longer
notices (a club's, a season's, a bot's) wrap on a phone."""

from __future__ import annotations

import random
import time

import pytest
from django.utils import timezone

from bots import suspension_notice
from games.actors import SYSTEM
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from social.models import Follow, Notification
from social.notifications import notify
from tests.games.factories import bot_move, make_game, make_user
from tests.web.browser.clicks import scrolls_sideways
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_bell_counts_opens_the_list_and_a_notice_goes_to_its_place(open_page, size):
    ana = make_user("ana")
    game = make_game(players=2, bots=["greedy"])
    ben = game.seats.get(number=0).user
    Follow.objects.create(follower=ana, followed=ben)
    notify(ana, "season", "Autumn League of Riverside started", url="/clubs/", key="season")
    notify(ana, "rematch", f"{ben.username} offers a rematch of game {game.pk}",
           url=f"/games/{game.pk}/", key="rematch", game=game.pk)  # fmt: skip

    page = open_page(ana, "/play/", **size)
    bell = page.get_by_role("link", name="Notifications, 2 unread")
    assert bell.is_visible() and bell.inner_text().strip() == "2"
    box = bell.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24  # WCAG 2.5.8's smallest target
    assert box["y"] + box["height"] < 200, "the bell sits in the header"
    assert not scrolls_sideways(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bell-header-{size['width']}.png"))

    bell.click()
    page.wait_for_url("**/notifications/")
    assert page.get_by_role("heading", name="2 unread").is_visible()
    assert not scrolls_sideways(page)
    items = page.locator(".notice")
    assert items.count() == 2 and "offers a rematch" in items.first.inner_text()
    assert page.locator(".notice--unread").count() == 2
    following = page.get_by_role("region", name="Following")
    assert following.get_by_role("link", name=f"Watch game {game.pk}").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"bell-list-{size['width']}.png"), full_page=True)

    page.get_by_role("link", name="Autumn League of Riverside started").click()
    page.wait_for_url("**/clubs/")
    assert page.get_by_role("link", name="Notifications, 1 unread").is_visible()
    page.get_by_role("link", name="Notifications, 1 unread").click()
    page.wait_for_url("**/notifications/")
    assert page.locator(".notice--unread").count() == 1

    page.get_by_role("button", name="Mark all read").click()
    page.wait_for_url("**/notifications/")
    assert page.get_by_text("1 notice marked read").is_visible()
    assert page.get_by_role("heading", name="Nothing new").is_visible()
    assert page.get_by_role("link", name="Notifications", exact=True).is_visible()
    assert page.locator(".notice--unread").count() == 0
    assert not scrolls_sideways(page)


def test_the_follow_button_on_a_phone(open_page):
    ana, ben = make_user("ana"), make_user("ben")
    make_game(players=1, bots=["greedy"]).seats.filter(number=0).update(user=ben)
    page = open_page(ana, f"/players/{ben.username}/", **PHONE)
    page.get_by_role("button", name="Follow ben").click()
    page.wait_for_url("**/players/ben/")
    assert page.get_by_text("You follow ben").is_visible()
    assert page.get_by_role("button", name="Unfollow ben").is_visible()
    assert page.get_by_role("heading", name="Games being played").is_visible()
    assert not scrolls_sideways(page)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_game_that_ended_while_away_is_told_under_the_bell_not_a_turn(open_page, size):
    """ana's turns came and went while she was away (the default bot played them, as past a
    deadline) to the match's end: the bell counts its end, unread, and the list says the game is
    over and how she placed, not that it is her turn."""
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official", "options": {"target": 1}},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        seed=5,
    )
    rng = random.Random(1)
    told = False
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.MATCH_OVER:
            break
        told = told or Notification.objects.filter(user=ana, read_at__isnull=True).exists()
        if game.to_act == [0]:
            _, command, version = bot_move(game.pk, rng)
            game_command(game_id=game.pk, actor=SYSTEM, command=command, expected_version=version)
        else:
            time.sleep(0.05)  # the bot's move, dispatched on commit
    assert game.status == Game.Status.MATCH_OVER and told, "a turn of ana's was told, unread"

    page = open_page(ana, "/play/", **size)
    bell = page.get_by_role("link", name="Notifications, 1 unread")
    assert bell.is_visible()
    bell.click()
    page.wait_for_url("**/notifications/")
    notice = page.locator(".notice").first
    assert page.get_by_role("heading", name="1 unread").is_visible()
    said = notice.inner_text()
    assert (
        f"You won game {game.pk} against greedy" in said
        or f"Game {game.pk} is over: you placed 2nd" in said
    )
    assert "a game of yours ended" in said
    assert page.locator(".notice--unread").count() == 1
    assert "Your turn" not in page.locator("main").inner_text()
    assert not scrolls_sideways(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bell-game-over-{size['width']}.png"), full_page=True)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_notices_of_a_club_a_season_and_a_bot_read_whole_on_a_phone(open_page, size):
    """The longer notices (a suspended bot's, a season's close, a club's announcement, a
    match's end) wrap in the list without a sideways scroll, and each goes to its place."""
    ona = make_user("ona")
    bot = Bot.objects.create(owner=ona, name="Rex", kind=Bot.Kind.BUILTIN, strategy="greedy")
    suspension_notice.tell_suspended(
        bot.pk, why=suspension_notice.by_strikes(3, "timeout"), at=timezone.now()
    )
    notify(ona, "season", "Autumn League of Friday Night UNO closed: you finished 2nd of 5 in "
           "Premier (shared), promoted", url="/clubs/", key="closed")  # fmt: skip
    notify(ona, "club", "ada posted an announcement on the board of Friday Night UNO",
           url="/clubs/", key="club-post")  # fmt: skip
    notify(ona, "game-over", "You won game 110 against fiona", url="/clubs/", key="over")

    page = open_page(ona, "/notifications/", **size)
    assert page.get_by_role("heading", name="4 unread").is_visible()
    assert page.locator(".notice--unread").count() == 4
    main = page.locator("main").inner_text()
    assert "Your bot Rex is suspended after 3 failed calls in a row" in main
    assert "a bot of yours" in main and "your club's board" in main
    assert not scrolls_sideways(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bell-new-notices-{size['width']}.png"), full_page=True)
    page.get_by_role("link", name="Your bot Rex is suspended").click()
    page.wait_for_url(f"**/me/bots/{bot.pk}/")
    assert page.get_by_role("link", name="Notifications, 3 unread").is_visible()
