"""Ladders in the browser: a leaderboard earned by bots that really played (each line marked bot,
its trend drawn), a bot's page with its rating chart, on a desktop and a phone; and an owner
registering a built-in bot, which plays its validation on the eager workers, then entering it
in the ladder from the bot's page."""

from __future__ import annotations

import pytest

from games.models import Bot
from league.models import Entry
from league.services import competition_join
from tests.games.factories import make_user
from tests.league.factories import make_bot, make_competition
from tests.web.browser.clicks import scrolls_sideways
from tests.web.browser.conftest import ARTIFACTS
from tests.web.ladder_pages import played_ladder

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def snapshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_ladder_pages-{name}.png"), full_page=True)


def test_the_leaderboard_and_a_bots_rating_chart(open_page):
    played = played_ladder()
    greta = played.bots["Greta"]

    board = open_page(None, "/ladders/")
    board.get_by_role("link", name="Open Ladder").click()
    assert board.locator("h1").inner_text() == "Open Ladder"
    lines = board.locator("tr.board-line")
    assert lines.count() == 4
    assert board.locator("tr.board-line .kind--bot").count() == 4
    assert board.locator("tr.board-line svg.spark polyline").count() == 4
    assert board.locator("tr.board-line").first.locator("td").first.inner_text() == "1"
    snapshot(board, "leaderboard")

    board.get_by_role("link", name="Greta", exact=True).click()
    assert board.locator("h1").inner_text().startswith("Greta")
    chart = board.locator("figure.rating-chart svg:visible")
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box["width"] > 300 and box["height"] > 100
    assert chart.locator("circle.rating-chart__dot").count() == 4  # the start and 3 sets
    assert board.locator("tr.meeting").count() == 3
    assert board.locator("[data-card]").count() == 0

    # On a phone the table scrolls inside its frame, the chart shrinks: the page never scrolls
    # sideways.
    phone = open_page(None, f"/bots/{greta.pk}/", width=360, height=800)
    small = phone.locator("figure.rating-chart svg:visible")
    assert small.bounding_box()["width"] <= 360
    # The phone's drawing: its words read at 10 px or more (the wide one's were about 4).
    assert "rating-chart__svg--narrow" in small.get_attribute("class")
    for words in small.locator("text").all():
        assert words.bounding_box()["height"] >= 10, words.text_content()
    assert small.locator("circle.rating-chart__dot").count() == 4
    # The head-to-head table is wider than the phone: its box scrolls and says so, a shadow at
    # the edge it goes on past (white layers that scroll with it cover a shadow at an end).
    strip = phone.locator("tr.meeting").first.locator(
        "xpath=ancestor::div[contains(@class, 'table-scroll')]"
    )
    assert strip.evaluate("(box) => box.scrollWidth > box.clientWidth")
    look = strip.evaluate(
        "(box) => { const s = getComputedStyle(box);"
        " return [s.backgroundImage, s.backgroundAttachment]; }"
    )
    assert look[0].count("radial-gradient") == 2 and look[0].count("linear-gradient") == 2, look
    assert look[1].startswith("local, local, scroll, scroll"), look
    strip.scroll_into_view_if_needed()
    strip.screenshot(path=str(ARTIFACTS / "test_ladder_pages-head-to-head-phone.png"))
    assert not scrolls_sideways(phone)
    phone.goto(phone.url.replace(f"/bots/{greta.pk}/", "/ladders/open/"))
    assert not scrolls_sideways(phone)
    snapshot(phone, "leaderboard-phone")


def test_an_owner_registers_a_bot_and_enters_it_in_the_ladder(open_page, settings):
    settings.BOTS_VALIDATION_MATCHES = 1
    played = played_ladder(rounds=1)
    ada = played.ada

    page = open_page(ada, "/me/bots/")
    builtin = page.locator("section", has=page.locator("#register-builtin"))
    builtin.get_by_label("Name").fill("Nova")
    builtin.get_by_label("Strategy").select_option("stacker")
    snapshot(page, "register-form")
    builtin.get_by_role("button", name="Register the built-in bot").click()
    page.wait_for_selector("text=Nova is registered")
    snapshot(page, "registered")

    # Its validation played on commit (eager workers): active by the time its page opens.
    page.get_by_role("link", name="Go to Nova's page").click()
    nova = Bot.objects.get(owner=ada, name="Nova")
    assert nova.status == Bot.Status.ACTIVE
    assert "active" in page.locator(".validation").inner_text()
    assert "passed" in page.locator(".status-reason").inner_text()
    page.get_by_role("button", name="Enter in Open Ladder").click()
    page.wait_for_selector("text=Bot Nova is entered in Open Ladder.")
    assert Entry.objects.filter(competition=played.ladder, bot=nova, active=True).exists()
    snapshot(page, "entered")

    # On the leaderboard, off the board until its first set is rated.
    page.get_by_role("link", name="Open Ladder").first.click()
    unranked = page.locator("#unranked-heading + p + .table-scroll tr.board-line")
    assert "Nova" in unranked.first.inner_text()
    assert page.get_by_role("button", name="Withdraw Nova").is_visible()


def test_two_bots_of_one_name_are_told_apart_by_their_owners(open_page):
    # Ana's Gus and bob's Gus: the name a phone shows first, before the owner's column scrolls
    # into view, already says whose.
    ladder = make_competition(name="Bot Arena", slug="arena")
    for owner in ("ana", "bob"):
        competition_join(ladder, bot=make_bot(owner=make_user(owner), name="Gus"))
    competition_join(ladder, bot=make_bot(owner=make_user("cy"), name="Rex"))

    for width, height, name in ((1280, 800, "same-names"), (360, 740, "same-names-phone")):
        board = open_page(None, "/ladders/arena/", width=width, height=height)
        names = board.locator("tr.board-line th a")
        assert names.all_inner_texts() == ["Gus (ana)", "Gus (bob)", "Rex"]
        assert board.get_by_role("link", name="Gus (bob)").is_visible()
        snapshot(board, name)
