"""Told when it matters (static/notify.js): when another seat's move makes it your turn, the tab's
title says "Your turn" and the icon gets its dot; opted in, a hidden tab shows a notification
and plays the sound; the lobby's countdowns are the server's words, which its refresh brings.
Headless chromium shows no notification: an init script records each `new Notification` and
each sound played, and says whether the tab is hidden."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games import lobby
from games.commands import game_command
from games.models import Game
from social.notifications import notify
from tests.games.factories import bot_move, make_user
from tests.web.browser.clicks import POLL_MS
from tests.web.browser.conftest import ARTIFACTS
from tests.web.tables import official_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOOKS = """
window.__notes = [];
window.__sounds = 0;
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return window.__hidden; } });
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__hidden ? "hidden" : "visible"; } });
const RealNotification = window.Notification;
function Recorded(title, options) {
  window.__notes.push({ title: title, body: options && options.body });
  return new RealNotification(title, options);
}
Object.defineProperty(Recorded, "permission", { get: () => RealNotification.permission });
Recorded.requestPermission = (...args) => RealNotification.requestPermission(...args);
window.Notification = Recorded;
HTMLMediaElement.prototype.play = function () { window.__sounds += 1; return Promise.resolve(); };
"""


def hooked(open_page, live_server, person, path, **size):
    """The page with the hooks and the notifications permission, loaded again with both."""
    page = open_page(person, path, own_context=True, **size)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.context.add_init_script(HOOKS)
    page.reload()
    return page


def two_people():
    ana, ben = make_user("ana"), make_user("ben")
    game = official_pair(ana, ben)
    game.refresh_from_db()
    mover, waiting = (ana, ben) if game.to_act == [0] else (ben, ana)
    return game, mover, waiting


def move(game: Game) -> None:
    """The other seat's moves until the game waits for the person (a skip gives it another)."""
    rng = random.Random(1)
    mover = game.to_act[0]
    while True:
        game.refresh_from_db()
        if game.to_act != [mover]:
            return
        actor, command, version = bot_move(game.pk, rng)
        game_command(game_id=game.pk, actor=actor, command=command, expected_version=version)


def icon(page) -> str:
    return page.locator('link[rel="icon"]').get_attribute("href")


@pytest.mark.parametrize("size", [(360, 740), (1200, 900)], ids=["phone", "desktop"])
def test_the_title_icon_notification_and_sound_when_it_becomes_your_turn(
    open_page, live_server, size
):
    game, mover, waiting = two_people()
    url = reverse("web:play", args=[game.pk])
    page = hooked(open_page, live_server, waiting, url, width=size[0], height=size[1])
    assert page.title() == f"Game {game.pk} · UNO League"
    assert icon(page).endswith("/favicon.svg")

    # Both off at first, and said so; turned on, each button says it is on.
    notify = page.locator('[data-alert-toggle="notify"]')
    sound = page.locator('[data-alert-toggle="sound"]')
    assert notify.inner_text() == "Notifications: off" and sound.inner_text() == "Sound: off"
    notify.click()
    page.wait_for_function(
        "() => document.querySelector('[data-alert-toggle=notify]').textContent"
        " === 'Notifications: on'",
        polling=POLL_MS,
    )
    sound.click()
    assert sound.inner_text() == "Sound: on" and sound.get_attribute("aria-pressed") == "true"
    assert "in the background" in page.locator("[data-alerts-state]").inner_text()
    assert page.evaluate("localStorage.getItem('uno.notify')") == "on"
    sounds_before = page.evaluate("window.__sounds")  # the button plays it once, to be heard

    page.evaluate("window.__hidden = true")
    move(game)
    page.wait_for_function(
        "() => document.title.startsWith('Your turn')", timeout=5_000, polling=POLL_MS
    )
    assert page.title() == f"Your turn · Game {game.pk} · UNO League"
    assert icon(page).endswith("/favicon-turn.svg")
    assert page.evaluate("window.__notes") == [
        {"title": "Your turn · UNO League", "body": f"Game {game.pk} waits for you"}
    ]
    assert page.evaluate("window.__sounds") == sounds_before + 1
    page.screenshot(path=str(ARTIFACTS / f"turn-alerts-play-{size[0]}.png"))

    # Remembered: a new page of the site starts with them on.
    page.reload()
    assert notify.inner_text() == "Notifications: on" and sound.inner_text() == "Sound: on"
    # Loaded on your turn, the title and icon say so from the start; no notification for that.
    assert page.title().startswith("Your turn") and icon(page).endswith("/favicon-turn.svg")
    assert page.evaluate("window.__notes") == []


def test_a_visible_tab_or_someone_who_did_not_opt_in_gets_no_notification(open_page, live_server):
    game, mover, waiting = two_people()
    page = hooked(open_page, live_server, waiting, reverse("web:play", args=[game.pk]))
    page.evaluate("window.__hidden = true")  # hidden, but never opted in
    assert page.locator("#bell").get_attribute("aria-label") == "Notifications"
    # A notice from elsewhere while they sit here: the board's poll brings the header's bell
    # with the turn, and counts it, not the turn in front of them (web/play.py).
    notify(waiting, "follow", "ben opened a table you follow", url="/tables/", key="elsewhere")
    move(game)
    page.wait_for_function(
        "() => document.title.startsWith('Your turn')", timeout=5_000, polling=POLL_MS
    )
    assert page.evaluate("window.__notes") == [] and page.evaluate("window.__sounds") == 0
    bell = page.get_by_role("link", name="Notifications, 1 unread")
    assert bell.is_visible() and bell.inner_text().strip() == "1"
    page.screenshot(path=str(ARTIFACTS / "turn-alerts-bell.png"))


def test_the_lobby_says_a_game_waits_and_notifies(open_page, live_server):
    game, mover, waiting = two_people()
    page = hooked(open_page, live_server, waiting, reverse("web:lobby"))
    assert page.title() == "Play · UNO League"
    page.locator('[data-alert-toggle="notify"]').click()
    page.wait_for_function("() => localStorage.getItem('uno.notify') === 'on'", polling=POLL_MS)
    page.evaluate("window.__hidden = true")
    move(game)
    # The lobby fetches itself every 20 s; the test asks for that fetch now.
    page.evaluate("window.unoNotify.refreshLobby()")
    page.wait_for_function(
        "() => document.title.startsWith('Your turn')", timeout=5_000, polling=POLL_MS
    )
    assert page.title() == "Your turn (1) · Play · UNO League"
    assert icon(page).endswith("/favicon-turn.svg")
    assert page.evaluate("window.__notes") == [
        {"title": "Your turn · UNO League", "body": "A game waits for you"}
    ]
    assert page.locator(".game.my-turn").count() == 1
    page.screenshot(path=str(ARTIFACTS / "turn-alerts-lobby.png"), full_page=True)


def test_the_lobby_s_countdown_is_the_server_s_time_left_brought_by_its_refresh(
    open_page, live_server
):
    ana, ben = make_user("ana"), make_user("ben")
    game = lobby.game_start(
        creator=ana,
        variant_spec={"rules": "official"},
        seats=[{"user": "me"}, {"user": "ben"}],
        turn_seconds=3 * 3600,
    )
    page = open_page(ben, reverse("web:lobby"))
    countdown = page.locator(f'[data-countdown="{game.pk}"]')
    # Rendered by the server (games/variant_text.time_left): three hours, a moment ago.
    assert re.fullmatch(r"2 h 5\d min left", countdown.inner_text())
    # The page counts nothing itself: the refresh (every 20 s; asked for now) brings the words.
    countdown.evaluate("(element) => { element.textContent = 'stale'; }")
    page.evaluate("window.unoNotify.refreshLobby()")
    page.wait_for_function(
        f"() => document.querySelector('[data-countdown=\"{game.pk}\"]').textContent !== 'stale'",
        polling=POLL_MS,
    )
    assert re.fullmatch(r"2 h 5\d min left", countdown.inner_text())


def test_the_alert_buttons_are_the_sites_buttons_and_say_what_they_do(open_page):
    """On a phone the two switches are the site's buttons (a blue outline, a thumb's height, as
    the lobby's New game), not the browser's small grey ones, and their words are true of both:
    a notification is seen, not heard."""
    person = make_user("ana")
    page = open_page(person, reverse("web:lobby"), width=360, height=740)
    page.wait_for_selector("[data-alerts]:not([hidden])")

    assert page.locator("[data-alerts-state]").inner_text() == (
        "Turn these on to be told when a game starts waiting for you while this tab is in the "
        "background."
    )
    site = page.locator(".page-head .button").first.evaluate(
        "e => getComputedStyle(e).borderTopColor"
    )
    for toggle in ("notify", "sound"):
        button = page.locator(f'[data-alert-toggle="{toggle}"]')
        assert button.evaluate("e => getComputedStyle(e).borderTopColor") == site, toggle
        assert button.bounding_box()["height"] >= 36, toggle
    page.screenshot(path=str(ARTIFACTS / "turn-alerts-buttons-360.png"))
