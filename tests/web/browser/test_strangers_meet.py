"""Two new people who do not know each other meet at an open table and play a rated game to its
end, with a word each way in the table's chat; their ratings move on their player pages, and the
game is in each one's notification centre. Then a third person reports one of the messages and a
member of staff hides it. The whole of the site's social round, by clicking (issue 31's proof).

The table is a short one a person may choose on the form: two cards dealt and one hand, so the
rated match ends in a few moves; everything else is as any open table."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from chat.models import Message, Report
from games.models import Game
from ratings.models import PersonRating
from tables.models import Table
from tests.games.factories import make_user
from tests.ratings.games import run_ratings
from tests.web.browser.clicks import POLL_MS, my_turn, play_a_turn, scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def say(page, text: str) -> None:
    """Open the chat under the board (if closed) and send a line with its form."""
    if not page.locator("#chat[open]").count():
        page.locator("#chat summary").click()
    page.fill("#chat-text", text)
    page.locator("#chat-body").get_by_role("button", name="Send", exact=True).click()
    page.wait_for_selector(f"#chat-messages >> text={text}")


def test_two_strangers_meet_play_a_rated_game_talk_and_a_report_is_hidden(open_page):
    ana, ben = make_user("ana"), make_user("ben")

    # ana opens a rated table on her phone.
    anas = open_page(ana, "/tables/new/", **PHONE)
    anas.get_by_label("Rated: the result moves ratings").check()
    anas.get_by_label("Cards dealt").fill("2")
    anas.get_by_label("Scoring").select_option("single-hand")
    anas.get_by_role("button", name="Open the table").click()
    anas.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get(opener=ana)
    assert table.rated and table.variant["options"]["hand_size"] == 2

    # ben, who has never heard of ana, finds it in the lobby and joins with one click.
    bens = open_page(ben, "/play/")
    bens.locator(f'[data-table="{table.pk}"]').get_by_role(
        "button", name=f"Join ana's table {table.pk}"
    ).click()
    table.refresh_from_db()
    url = f"/games/{table.game_id}/"
    bens.wait_for_url(f"**{url}")
    anas.wait_for_url(f"**{url}", timeout=8_000)
    game = Game.objects.get(pk=table.game_id)
    assert game.context["rated"] is True

    # A word each way.
    say(anas, "hi ben, good luck!")
    say(bens, "thanks ana, you too")
    bens.wait_for_selector("#chat-messages >> text=hi ben, good luck!", timeout=8_000)
    anas.wait_for_selector("#chat-messages >> text=thanks ana, you too", timeout=8_000)

    # They play the match to its end, each on their own turn (the other's page sees it by its
    # poll, as people do).
    pages = {ana.pk: anas, ben.pk: bens}
    seats = dict(game.seats.values_list("number", "user_id"))
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.MATCH_OVER:
            break
        page = pages[seats[game.to_act[0]]]
        page.wait_for_function(
            "v => Number(document.querySelector('#game').dataset.version) >= v",
            arg=game.version,
            polling=POLL_MS,
        )
        if my_turn(page):
            play_a_turn(page)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    for page in (anas, bens):
        page.wait_for_selector(".status >> text=The match is over", timeout=8_000)
        assert not scrolls_sideways(page), too_wide(page)
    ARTIFACTS.mkdir(exist_ok=True)
    anas.screenshot(path=str(ARTIFACTS / "strangers-match-over-phone.png"), full_page=True)

    # The ratings projection runs (the periodic job's work) and both ratings moved.
    run_ratings()
    ratings = {r.user.username: r for r in PersonRating.objects.select_related("user")}
    assert set(ratings) == {"ana", "ben"}
    assert ratings["ana"].games == ratings["ben"].games == 1
    assert ratings["ana"].mu != ratings["ben"].mu
    for person, page in (("ana", anas), ("ben", bens)):
        page.goto(page.url.split("/games/")[0] + f"/players/{person}/")
        official = page.locator('article.rating-panel[data-family="official"]')
        assert official.locator("dt:has-text('Rated games') + dd").inner_text().strip() == "1"
        assert official.locator(".badge--provisional").inner_text() == "provisional"
        assert official.locator("ul.rated-games li").count() == 1
        assert official.locator(f'ul.rated-games a[href*="/games/{game.pk}/"]').count() >= 1
        assert not scrolls_sideways(page), too_wide(page)
    anas.screenshot(path=str(ARTIFACTS / "strangers-ratings-phone.png"), full_page=True)

    # The game is in the opener's notification centre (ben's join started it and took him to
    # it: nothing to tell him there).
    for page in (anas,):
        page.get_by_role("link", name=re.compile(r"^Notifications")).click()
        page.wait_for_url("**/notifications/")
        notice = page.locator(".notice", has_text=f"(game {game.pk})")
        assert "Your table started: a rated Official table for 2" in notice.inner_text()
        notice.get_by_role("link").click()
        page.wait_for_url(f"**{url}")
    origin = re.match(r"https?://[^/]+", bens.url).group(0)
    bens.goto(origin + "/notifications/")
    assert "Your table started" not in bens.locator("main").inner_text()
    bens.goto(origin + url)  # back at the game
    anas.screenshot(path=str(ARTIFACTS / "strangers-back-at-the-game.png"), full_page=True)

    # cy, who watched, reports ana's message; staff hide it.
    cys = open_page(make_user("cy"), f"{url}?chat=1", **PHONE)
    cys.get_by_role("link", name="Report ana's message").click()
    cys.fill("#reason", "I do not like it")
    cys.get_by_role("button", name="Report").click()
    cys.wait_for_selector("text=the moderators will look at it")
    report = Report.objects.get()
    assert report.message == Message.objects.get(author=ana)

    moderator = make_user("moderator")
    moderator.is_staff = True
    moderator.save()
    staff = open_page(moderator, reverse("staff:reports"))
    assert "hi ben, good luck!" in staff.locator(".report").inner_text()
    staff.fill(f"#hide-{report.pk}", "hidden for the test of the queue")
    staff.get_by_role("button", name="Hide").click()
    staff.wait_for_selector("text=No open report")
    assert "hidden for the test of the queue" in staff.locator(".audit").inner_text()

    bens.goto(bens.url.split("?")[0].split("#")[0] + "?chat=1")
    chat = bens.locator("#chat-messages").inner_text()
    assert "message hidden by moderators" in chat and "good luck" not in chat
    assert "thanks ana, you too" in chat
