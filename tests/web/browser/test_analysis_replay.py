"""The replay page's analysis (web/analysis.py, templates/games/_analysis.html): waiting while
queued, refreshed by its poll once the run is done, then the chart of each seat's chance to win
the hand and a costly decision with the better option named, the luck and decisions split per
hand and for the match; on a phone (360x740), then in the same tab resized to a desktop
(1280x800)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from analysis import report, services
from analysis.models import GameAnalysis
from games.models import Game
from tests.games.factories import make_game, play_to_end
from tests.web.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand"}}


@pytest.fixture(autouse=True)
def few_playouts(settings):
    settings.ANALYSIS_PLAYOUTS = 3


def finished() -> Game:
    game = make_game(players=1, bots=["greedy", "random"], spec=ONE_HAND, seed=6)
    play_to_end(game.pk, seed=6)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    return game


def test_the_replay_shows_the_chance_chart_and_the_costly_moves(open_page, live_server):
    game = finished()
    ana = game.seats.get(number=0).user
    row = GameAnalysis.objects.get(game=game)  # queued by the match's end
    assert row.status == GameAnalysis.Status.QUEUED

    replay = reverse("web:replay", args=[game.pk])
    page = open_page(ana, replay, width=360, height=740)
    section = page.locator("[data-analysis]")
    assert "waiting" in section.inner_text()

    services.run(row.pk)
    row.refresh_from_db()
    found = report.from_json(row.result)
    costly = max(found.decisions, key=lambda d: d.cost)
    assert costly.cost >= 5, "the seed's match has a costly decision"

    # The poll brings the finished analysis in, for the hand being viewed; on a phone, then
    # the same replay loaded again in the tab resized to a desktop.
    page.locator("[data-chance-chart]").wait_for()
    player = None
    for width, height in [(360, 740), (1280, 800)]:
        if width != 360:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(live_server.url + replay)
        the_analysis_reads_well(page, found, width)

        # The player's page: their cost per decision in the family, by month.
        if player is None:
            path = reverse("web:player", args=[ana.username])
            player = open_page(None, path, width=width, height=height)
        else:
            player.set_viewport_size({"width": width, "height": height})
        panel = player.locator("[data-decision-costs]")
        assert "points per decision over" in panel.inner_text()
        assert panel.locator("tbody tr").count() == 1
        panel.scroll_into_view_if_needed()
        player.screenshot(path=str(ARTIFACTS / f"analysis-player-{width}.png"), full_page=True)


def the_analysis_reads_well(page: Any, found: Any, width: int) -> None:
    """The chart, the costly decisions and the accounts of the replay's hand, legible at the
    page's width, and a costly move's link that steps the replay to it."""
    chart = page.locator("[data-chance-chart]")
    chart.wait_for()
    assert page.get_by_role("img", name="Each player's chance to win hand").count() == 1
    assert page.locator(".analysis-chart__line").count() >= 3
    assert page.locator("[data-costly-mark]").count() >= 1
    listed = page.locator("[data-costly] li").first.inner_text()
    assert " was better by " in listed and "points" in listed
    accounts = page.locator("[data-hand-accounts]").inner_text()
    # Ana's own seat is "you".
    assert "The deal gave you" in accounts and "your decisions cost" in accounts
    assert "decisions cost" in accounts
    assert "The cards gave" in page.locator("[data-match-accounts]").inner_text()
    # The table alternative has a row per step.
    assert page.locator(".analysis-table tbody tr").count() >= 2
    # The chart's words read at 11 px or more, on a phone as on a desktop, inside the chart.
    for tick in page.locator(".analysis-chart__axis text").all():
        box = tick.bounding_box()
        assert box["height"] >= 11, (width, tick.text_content(), box)
        assert box["x"] >= chart.bounding_box()["x"] - 0.5, (width, tick.text_content(), box)
    # The axis says what it measures, upright beside the ticks, inside the chart.
    label = page.locator(".analysis-chart__axis text", has_text="Chance to win this hand")
    box, frame = label.bounding_box(), chart.bounding_box()
    assert box["width"] >= 11 and box["height"] > 3 * box["width"], (width, box)
    assert frame["y"] <= box["y"] and box["y"] + box["height"] <= frame["y"] + frame["height"]
    # How precise each point is, beside the chart.
    assert "simulated games" in page.locator("[data-chance-precision]").inner_text()
    # Each name of the legend on one line.
    names = page.locator(".analysis-legend__name").all()
    assert len(names) == 3 and all(name.inner_text() for name in names)
    for name in names:
        line = float(name.evaluate("(n) => parseFloat(getComputedStyle(n).lineHeight)"))
        box = name.bounding_box()
        assert box["width"] > 20 and box["height"] < 1.5 * line, (width, name.inner_text(), box)

    # A costly move's link steps the replay to it.
    link = page.locator("[data-costly] li a").first
    step = int(link.get_attribute("href").split("at=")[1].split("&")[0])
    assert step in {d.version for d in found.decisions if d.cost >= 5}
    link.click()
    page.wait_for_url(f"**at={step}&**")
    assert page.locator(".replay__at strong").inner_text() == str(step)
    page.locator("[data-chance-chart]").wait_for()
    # A costly mark on the chart is a link of at least 24 x 24 px (WCAG 2.5.8) with a name,
    # its edge taking a tap as its middle does, and a tap steps the replay to its move.
    mark = page.locator("a[data-costly-mark]").last
    mark.scroll_into_view_if_needed()
    box = mark.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24, (width, box)
    assert " was better by " in mark.get_attribute("aria-label")
    edge = page.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y)?.closest('a[data-costly-mark]')",
        [box["x"] + box["width"] / 2 + 10, box["y"] + box["height"] / 2],
    )
    assert edge, "the mark's hit area takes a tap 10 px from its middle"
    step = int(mark.get_attribute("href").split("at=")[1].split("&")[0])
    page.locator("[data-analysis-chart]").screenshot(
        path=str(ARTIFACTS / f"analysis-chart-{width}.png")
    )
    # Not boosted (an SVG link): a whole page's load.
    with page.expect_navigation():
        mark.click()
    assert f"at={step}&" in page.url
    assert page.locator(".replay__at strong").inner_text() == str(step)

    page.locator("[data-chance-chart]").wait_for()
    page.screenshot(path=str(ARTIFACTS / f"analysis-replay-{width}.png"), full_page=True)
    # "How to read these figures" opens the explanation, shown once on the page.
    how = page.locator("[data-analysis-how]")
    assert how.get_attribute("open") is None
    page.get_by_role("link", name="How to read these figures").click()
    expect(how).to_have_attribute("open", "")
    assert "expected points" in how.inner_text() and "simulated games" in how.inner_text()
    # The section alone, to look at on a phone's width too.
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("[data-analysis]").screenshot(
        path=str(ARTIFACTS / f"analysis-section-{width}.png")
    )
