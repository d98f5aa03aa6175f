"""The staff console in chromium: the dashboard's figures refresh in place (no reload), the page
works without JavaScript, and the inspector steps through a game's states from its log."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.creation import SeatSpec, game_create
from games.models import Game, Seat
from staff import views
from tests.games.factories import make_user
from tests.staff.test_dashboard import SHORT, first_to_act_seed
from tests.web.browser.clicks import POLL_MS
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def staff():
    return get_user_model().objects.create_user("root", is_staff=True)


def persons_game(username: str) -> Game:
    """A person against two bots, the person first: it waits for them (tasks run in-process, so
    a bot's turn would be played at once)."""
    return game_create(
        variant_spec=SHORT,
        seats=[SeatSpec(user=make_user(username)), SeatSpec(bot="greedy"), SeatSpec(bot="random")],
        seed=first_to_act_seed(3, 0),
    )


def bot_match() -> Game:
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(bot="greedy"), SeatSpec(bot="colour-control")], seed=3
    )
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    return game


def test_the_dashboard_refreshes_in_place(open_page, monkeypatch):
    monkeypatch.setattr(views, "LIVE_EVERY", 1)
    bot_match()
    late = persons_game("late-lucy")
    Seat.objects.filter(game=late, number=0).update(deadline_at=timezone.now() - timedelta(hours=2))
    page = open_page(staff(), "/staff/")
    assert page.locator("#tile-live .big").inner_text() == "1"
    assert "late-lucy" in page.locator("#overdue").inner_text()
    assert page.locator("#activity svg path.area").count() == 1
    # open_page runs tasks in-process: no broker, so no worker to ask.
    assert "tasks run in-process" in page.locator("#tile-workers").inner_text()
    # A mark on this very document: a reload would lose it.
    page.evaluate("window.sameDocument = true")
    first = page.locator("#live").get_attribute("data-updated")

    persons_game("new-nina")
    # A function, not an expression: Playwright evals an expression in the page, which the
    # Content-Security-Policy refuses.
    page.wait_for_function(
        "() => document.querySelector('#tile-live .big').textContent.trim() === '2'",
        timeout=10_000,
        polling=POLL_MS,
    )
    assert page.evaluate("window.sameDocument") is True
    assert page.locator("#live").get_attribute("data-updated") != first
    assert page.locator("#live").count() == 1


# Each chart label as drawn: its font size on the screen (the SVG's scale applied), its box, and
# whether it is shown at all.
LABELS = """() => {
  const svgs = [...document.querySelectorAll('#activity svg')];
  return [...document.querySelectorAll('#activity text.label')].map((t) => {
    const m = t.getScreenCTM(), box = t.getBoundingClientRect();
    const size = parseFloat(getComputedStyle(t).fontSize);
    return {text: t.textContent, shown: getComputedStyle(t).display !== 'none' && box.width > 0,
            x: size * m.a, y: size * m.d, left: box.left, right: box.right, top: box.top,
            bottom: box.bottom, svg: svgs.indexOf(t.ownerSVGElement)};
  });
}"""


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_the_charts_labels_are_legible_on_a_phone_and_a_desktop(open_page, width, height):
    bot_match()
    persons_game("lucy")
    page = open_page(staff(), "/staff/", width=width, height=height)
    labels = [label for label in page.evaluate(LABELS) if label["shown"]]
    texts = [label["text"] for label in labels]
    # The y axis's 0 and peak, the x axis's hours (18:00 … 12:00), the bars' peak and hours.
    assert len(labels) >= 8, texts
    for label in labels:
        # At least 11 px high and wide on the screen (a 720-unit chart drawn 300 px wide made
        # them 4.6 px), not squeezed.
        assert min(label["x"], label["y"]) >= 11, label
        assert label["left"] >= 0 and label["right"] <= width, label
    # No two labels of one row touch.
    for one in labels:
        for other in labels:
            if one is not other and one["svg"] == other["svg"]:
                apart = one["right"] <= other["left"] or other["right"] <= one["left"]
                apart = apart or one["bottom"] <= other["top"] or other["bottom"] <= one["top"]
                assert apart, (one, other)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#activity").scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#activity").screenshot(
        path=str(ARTIFACTS / f"test_the_charts_labels_are_legible-{width}.png")
    )


def test_the_dashboard_without_javascript(open_page):
    persons_game("lucy")
    page = open_page(staff(), "/staff/", javascript=False)
    assert page.locator("#tile-live .big").inner_text() == "1"
    assert page.locator("#projections tr[data-projection]").count() >= 2
    assert page.get_by_role("link", name="reload the page").count() == 1


def test_the_inspector_steps_through_the_states(open_page):
    game = bot_match()
    page = open_page(staff(), f"/staff/games/{game.pk}/?at=10")
    assert page.locator("#state-json").get_attribute("data-version") == "10"
    assert page.locator("#log tbody tr[data-version]").count() == game.version
    assert page.locator("#log tr.current[data-version]").get_attribute("data-version") == "10"
    page.locator("#log tr[data-version='5'] td:nth-child(2) a").click()
    page.wait_for_url(f"**/staff/games/{game.pk}/?at=5#state")
    assert page.locator("#state-json").get_attribute("data-version") == "5"
    page.get_by_role("link", name="event 6 ›").click()
    page.wait_for_url("**?at=6#state")
    assert '"hands"' in page.locator("#state-json").inner_text()
    # The full-page screenshot is a long log; this one is the screen a person sees first.
    page.goto(page.url.split("?")[0])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "test_the_inspector_steps_through_the_states-top.png"))
    page.locator("#log").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "test_the_inspector_steps_through_the_states-log.png"))


def test_the_inspector_and_its_search_on_a_phone(open_page):
    game = persons_game("marguerite")
    page = open_page(staff(), f"/staff/games/{game.pk}/", width=360, height=740)
    # Each fact's value on one line: the dates are not broken over several.
    created = page.locator(".facts dt", has_text="Created").locator(
        "xpath=following-sibling::dd[1]"
    )
    line = float(created.evaluate("(dd) => parseFloat(getComputedStyle(dd).lineHeight)"))
    assert created.bounding_box()["height"] < 1.5 * line, created.inner_text()
    # The search's hint is whole in its box, and nothing scrolls sideways.
    search = page.get_by_label("Find a game")
    assert search.evaluate("(box) => box.scrollWidth <= box.clientWidth")
    hint = search.evaluate(
        "(box) => { const c = document.createElement('canvas').getContext('2d');"
        " c.font = getComputedStyle(box).font; return c.measureText(box.placeholder).width; }"
    )
    assert hint <= search.bounding_box()["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "test_the_inspector_and_its_search_on_a_phone-top.png"))


def test_the_search_finds_a_player_and_opens_the_inspector(open_page):
    game = persons_game("marguerite")
    persons_game("someone-else")
    page = open_page(staff(), "/staff/")
    page.get_by_label("Find a game").fill("margue")
    page.get_by_role("button", name="Find games").click()
    page.wait_for_url("**/staff/games/?q=margue")
    assert page.locator("table.results tbody tr").count() == 1
    page.get_by_role("link", name=f"#{game.pk}").click()
    page.wait_for_url(f"**/staff/games/{game.pk}/")
    assert page.locator("#seats").inner_text().count("marguerite") == 1


def test_staff_abort_a_game_from_its_inspector_with_a_reason(open_page):
    game = persons_game("stuck-sam")
    page = open_page(staff(), f"/staff/games/{game.pk}/")
    page.get_by_role("link", name="Abort…").click()
    page.wait_for_url(f"**/staff/games/{game.pk}/abort/")
    assert "game-aborted" in page.locator("body").inner_text()
    assert page.get_by_text("Never shown to a player").count() == 1
    page.get_by_label("Note for the staff").fill("a duplicated account playing itself")
    page.locator("form.staff-action button[type=submit]").click()
    page.wait_for_url(f"**/staff/games/{game.pk}/")
    assert f"Game #{game.pk} was aborted." in page.locator("body").inner_text()
    # The log ends with the staff's event, the staff member as its actor; the note is in the
    # audit trail, not in the event.
    log = page.locator("#log").inner_text()
    assert "game-aborted" in log and "root (staff)" in log
    assert "a duplicated account playing itself" not in log
    assert "a duplicated account playing itself" in page.locator("#audit").inner_text()
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER


def test_an_extension_tells_the_player_the_message_and_never_the_staff_note(open_page):
    """On a phone: the staff member's form says which words go where; the player's page says
    the new deadline and the message, as typed (escaped), and nothing of the note."""
    from clocks import deadlines

    game = persons_game("ill-ines")
    deadlines.sync_deadlines(game.pk)
    page = open_page(staff(), f"/staff/games/{game.pk}/extend-deadline/", width=360, height=740)
    page.get_by_label("Note for the staff").fill("internal: user 😀 <b>bold</b> two accounts?")
    page.get_by_label("Message to the player (optional)").fill("Get well <i>soon</i>")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "test_an_extension_staff_form-360.png"), full_page=True)
    page.locator("form.staff-action button[type=submit]").click()
    page.wait_for_url(f"**/staff/games/{game.pk}/")
    said = page.locator("ul.messages li.message").first.inner_text()
    when = r"\w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC"
    assert re.fullmatch(rf"Seat 0's deadline in game #{game.pk} is now {when}\.", said), said

    player = Seat.objects.get(game=game, number=0).user
    play = open_page(player, f"/games/{game.pk}/", width=360, height=740)
    body = play.locator("body").inner_text()
    assert "Get well <i>soon</i>" in body
    assert "internal" not in body and "two accounts" not in body
    play.get_by_text("Get well <i>soon</i>").first.scroll_into_view_if_needed()
    play.screenshot(path=str(ARTIFACTS / "test_an_extension_player_page-360.png"))
