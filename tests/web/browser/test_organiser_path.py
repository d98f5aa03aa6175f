"""A club organiser's path in the browser, on a phone (360 x 740) and a desktop (1280 x 800): a
ruling on a fixture and an entrant added say what they did where the page comes back to (the
fixture, the organiser's panel), on the screen without a scroll; a forfeit marks its fixture at
once; the "Rule" disclosure is a thumb's height; the new deadline's box says its time zone and
format; and the new API token and the club's invitation link are shown whole, with a Copy
button (static/copy.js)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from league.seasons import season_start
from tests.league.factories import make_club, make_season
from tests.web.browser.clicks import at_size, scrolls_sideways, too_wide
from tests.web.browser.conftest import ARTIFACTS
from tests.web.league_pages import autumn_season, open_fixture_of, referee

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def snapshot(page, name: str) -> None:
    """The screen as the person sees it (not the whole page): where the redirect left them."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_organiser_path-{name}.png"))


def on_screen(page, locator) -> bool:
    """Wholly inside the viewport as the page stands (no scroll needed to read it)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


def holds_still(page) -> bool:
    """The page stays where it loaded: nothing moves it after the first frames."""
    before = page.evaluate("scrollY")
    page.wait_for_timeout(300)
    return bool(page.evaluate("scrollY") == before)


@pytest.mark.parametrize("size", SIZES)
def test_a_ruling_says_what_it_did_in_the_fixture_it_was_on(open_page, eager_tasks, size):
    season, ada, _ = autumn_season()
    season = season_start(season=season, admin=ada)
    fixture = open_fixture_of(season, ada)
    # The staff rule on it: ada, the club's only admin, plays in it (she may not forfeit a seat
    # of her own fixture).
    page = open_page(referee(), f"/seasons/{season.slug}/", **SIZES[size])
    box = page.locator(f"#fixture-{fixture.pk}")

    # A button a thumb hits, that says what it is for.
    toggle = box.locator("details.rule > summary")
    assert toggle.inner_text().startswith("Rule on this fixture")
    assert toggle.bounding_box()["height"] >= 44
    toggle.click()
    # The deadline's box writes the date the device's way: the help says the time is UTC.
    deadline = box.get_by_label("New deadline, in UTC")
    described = page.locator(f"#{deadline.get_attribute('aria-describedby')}").inner_text()
    assert "In UTC, not your device's time zone: it is now " in described
    assert f"{timezone.now():%a %-d %b}" in described and "your device's way" in described
    snapshot(page, f"rule-{size}")

    later = (timezone.now() + datetime.timedelta(days=9)).replace(second=0, microsecond=0)
    deadline.fill(later.strftime("%Y-%m-%dT%H:%M"))
    with page.expect_navigation():
        box.get_by_role("button", name="Move the deadline").click()
    assert page.url.endswith(f"/seasons/{season.slug}/#fixture-{fixture.pk}")
    said = box.locator(".message.success")
    assert said.inner_text() == f"The fixture's deadline is now {later:%a %-d %b %Y, %H:%M} UTC."
    assert on_screen(page, said) and holds_still(page)
    assert page.locator("main > [role=status]").count() == 0  # not at the top as well
    snapshot(page, f"retimed-{size}")

    # Greta, the bot, forfeits: in a fixture of two the match ends there (one seat left
    # playing), and the fixture says so.
    box.locator("details.rule > summary").click()
    box.get_by_label("Seat", exact=True).select_option(label="Greta (bot, seat 1)")
    box.get_by_label("Note").first.fill("no show")
    box.get_by_role("checkbox").check()
    with page.expect_navigation():
        box.get_by_role("button", name="Forfeit the seat").click()
    said = box.locator(".message.success")
    assert said.inner_text() == (
        "Greta forfeits: the match is over, won by the only seat left playing."
    )
    assert on_screen(page, said) and holds_still(page)
    assert "Finished" in box.locator(".fixture__head").inner_text()
    greta = box.locator(".fixture__seats li").filter(has_text="Greta")
    assert "forfeited" in greta.inner_text()
    assert box.locator(".fixture__forfeit").inner_text() == (
        "Greta was forfeited by the league's ruling: “no show”. Placed last."
    )
    assert not scrolls_sideways(page), too_wide(page)
    snapshot(page, f"forfeited-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_an_entrant_added_is_said_in_the_organisers_panel(open_page, size):
    club, ada, (ben,) = make_club(members=1)
    season = make_season(club, ada, name="Spring", slug="spring")
    page = open_page(ada, "/seasons/spring/", **SIZES[size])

    page.locator("#member_username").fill(ben.username)
    with page.expect_navigation():
        page.get_by_role("button", name="Add the member").click()
    assert page.url.endswith("/seasons/spring/#organiser")
    said = page.locator("#organiser .message.success")
    assert said.inner_text() == f"{ben.username} is entered."
    assert on_screen(page, said) and holds_still(page)
    snapshot(page, f"entered-{size}")

    # A refusal comes back to the panel too, with the form at hand to try again.
    page.locator("#member_username").fill(ben.username)
    with page.expect_navigation():
        page.get_by_role("button", name="Add the member").click()
    refused = page.locator("#organiser .message.error")
    assert ben.username in refused.inner_text()
    assert on_screen(page, refused) and holds_still(page)
    assert season.divisions.get().members.count() == 1


@pytest.mark.parametrize("javascript", [True, False])
def test_a_new_token_and_the_invitation_are_shown_whole_with_a_copy_button(
    open_page, live_server, javascript
):
    club, ada, _ = make_club()
    page = open_page(ada, "/", javascript=javascript, **SIZES["phone"])
    if javascript:
        page.context.grant_permissions(
            ["clipboard-read", "clipboard-write"], origin=live_server.url
        )
    for size in SIZES:
        page = at_size(open_page, live_server, page, ada, "/accounts/profile/token/", **SIZES[size])
        page.get_by_role(
            "button", name=("Create", "Rotate")[size != "phone"] + " the token"
        ).click()
        for box, path in (("#new-key", None), ("#invite-url", f"/clubs/{club.slug}/")):
            if path:
                page.goto(live_server.url + path)
            field = page.locator(box)
            value = field.input_value()
            # All of it in the box: no line scrolls inside it, and the box is on the screen.
            assert field.evaluate(
                "f => f.scrollWidth <= f.clientWidth && f.scrollHeight <= f.clientHeight"
            ), value
            box_size = field.bounding_box()
            assert box_size["x"] + box_size["width"] <= SIZES[size]["width"]
            assert not scrolls_sideways(page), too_wide(page)
            copy = page.get_by_role("button", name="Copy")
            if not javascript:
                assert copy.count() == 0  # hidden: it would do nothing
                continue
            copy.click()
            page.get_by_role("status").filter(has_text="Copied.").wait_for()
            assert page.evaluate("navigator.clipboard.readText()") == value
            snapshot(page, f"copied-{box[1:]}-{size}")
