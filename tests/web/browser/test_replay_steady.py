"""The replay holds still while it is stepped through: the steps and the slider stay where they
were tap after tap, on a phone (360x740, a touch screen) and on a desktop (1280x800), and the page
does not scroll; on a desktop the status box and the table take their content's height, not the
side column's; and no step breaks the Content-Security-Policy, even where something (axe-core,
a browser's extension) has left a style attribute on the page's elements.

Measured: bounding boxes against the viewport and window.scrollY, before and after each step."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.creation import SeatSpec, game_create
from games.models import Game
from tests.games.factories import make_user
from tests.web.browser.clicks import POLL_MS, SETTLED
from tests.web.browser.conftest import ARTIFACTS
from tests.web.browser.test_replay_steps import at, wait_for_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740, "touch": True}
DESKTOP = {"width": 1280, "height": 800}
# Before event 10 of a match of more than 100 events: the counter gains a digit on the way.
START = 7


def a_finished_match() -> Game:
    """Four bots, one hand, played out when created (tasks in-process): 195 events."""
    game = game_create(
        variant_spec={"rules": "official", "options": {"scoring": "single-hand"}},
        seats=[
            SeatSpec(bot="greedy"),
            SeatSpec(bot="random"),
            SeatSpec(bot="colour-control"),
            SeatSpec(bot="greedy"),
        ],
        seed=4,
    )
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    assert game.version >= 100
    return game


def controls(page: Any) -> dict[str, Any]:
    """Where the steps, the slider and the view's select are (x, y, width, height, rounded to
    the pixel), and window.scrollY."""
    found: dict[str, Any] = page.evaluate(
        """() => {
          const box = el => { const r = el.getBoundingClientRect();
            return [r.x, r.y, r.width, r.height].map(Math.round); };
          // « First, ‹ Previous, Next ›, Last » (links, or words where there is no step).
          const steps = [...document.querySelectorAll('.replay__steps > .action')];
          return {steps: steps.map(box), slider: box(document.getElementById('replay-at')),
                  select: box(document.querySelector('.replay__jump select')),
                  scrollY: window.scrollY};
        }"""
    )
    return found


def under(page: Any, box: list[int]) -> str:
    """What a tap at the middle of `box` would land on: its data-step, else its tag."""
    return str(
        page.evaluate(
            """([x, y]) => { const el = document.elementFromPoint(x, y);
              const step = el && el.closest('[data-step]');
              return step ? step.dataset.step : (el ? el.tagName : ''); }""",
            [box[0] + box[2] // 2, box[1] + box[3] // 2],
        )
    )


def step(page: Any, name: str, touch: bool) -> None:
    before = at(page)
    link = page.locator(f'.replay__steps a[data-step="{name}"]')
    link.tap() if touch else link.click()
    page.wait_for_function(
        "n => Number(document.querySelector('.replay__at strong').textContent) !== n",
        arg=before,
        polling=POLL_MS,
    )
    page.evaluate(SETTLED)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_stepping_through_the_replay_moves_no_control_and_scrolls_nothing(
    open_page: Any, size: dict[str, Any]
) -> None:
    game = a_finished_match()
    url = reverse("web:replay", args=[game.pk]) + f"?as=all&at={START}"
    page = open_page(make_user("ana"), url, **size)
    touch = bool(size.get("touch"))
    first = controls(page)
    assert first["scrollY"] == 0
    ARTIFACTS.mkdir(exist_ok=True)
    name = f"replay-steady-{size['width']}"
    page.screenshot(path=str(ARTIFACTS / f"{name}-before.png"))

    for n in range(1, 5):
        # The same spot each time: where "Next" was when the page opened.
        assert under(page, first["steps"][2]) == "next", n
        step(page, "next", touch)
        assert at(page) == START + n
        assert controls(page) == first, (START + n, first, controls(page))
    page.screenshot(path=str(ARTIFACTS / f"{name}-after-next.png"))
    step(page, "prev", touch)
    assert at(page) == START + 3
    assert controls(page) == first
    # The end of the match: Next and Last are then words, not links, where the links were.
    step(page, "last", touch)
    assert at(page) == game.version
    assert page.locator(".replay__steps a[data-step='next']").count() == 0
    assert controls(page) == first
    page.screenshot(path=str(ARTIFACTS / f"{name}-last.png"))
    step(page, "first", touch)
    assert at(page) == 1
    assert controls(page) == first
    # A jump with the slider: the same.
    page.locator("#replay-at").fill("150")
    wait_for_at(page, 150)
    page.evaluate(SETTLED)
    assert controls(page) == first


def height_over_content(page: Any, selector: str) -> float:
    """How much taller the box at `selector` is than its content (its children, their margins,
    its own padding and border), in px."""
    return float(
        page.evaluate(
            """sel => {
              const el = document.querySelector(sel), css = getComputedStyle(el);
              const kids = [...el.children].filter(k => k.getClientRects().length);
              const top = Math.min(...kids.map(k => k.getBoundingClientRect().top
                - parseFloat(getComputedStyle(k).marginTop)));
              const bottom = Math.max(...kids.map(k => k.getBoundingClientRect().bottom
                + parseFloat(getComputedStyle(k).marginBottom)));
              const frame = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth']
                .reduce((sum, key) => sum + parseFloat(css[key]), 0);
              return el.getBoundingClientRect().height - (bottom - top + frame);
            }""",
            selector,
        )
    )


def test_on_a_desktop_the_status_box_and_the_table_take_their_contents_height(
    open_page: Any,
) -> None:
    game = a_finished_match()
    url = reverse("web:replay", args=[game.pk]) + "?as=all&at=106"
    page = open_page(make_user("ana"), url, **DESKTOP)
    # Two columns: the side (scores, story, what was said) beside the board, and taller.
    side = page.locator(".replay .game__side").bounding_box()
    board = page.locator(".replay__board").bounding_box()
    assert side["x"] > board["x"] + board["width"]
    for where in ("mid-match", "the end"):
        assert page.locator(".status .status__line").inner_text().strip()
        assert abs(height_over_content(page, ".replay__board .status")) <= 2, where
        assert abs(height_over_content(page, ".replay__board .pile")) <= 2, where
        assert page.locator(".replay__board .status").bounding_box()["height"] < 100, where
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"replay-desktop-heights-{where[:3]}.png"))
        if where == "mid-match":
            page.get_by_role("link", name="Last »").click()
            wait_for_at(page, game.version)
            page.evaluate(SETTLED)


# What axe-core's checks and some browser extensions leave behind: a style attribute, set and
# emptied through the CSSOM (which the Content-Security-Policy allows), on elements with an id.
STYLE_EVERY_ID = """() => document.querySelectorAll('[id]').forEach(el => {
  el.style.setProperty('outline-style', 'none');
  el.style.removeProperty('outline-style');
})"""


def violations(page: Any) -> list[str]:
    found: list[str] = []
    page.on(
        "console",
        lambda message: (
            found.append(message.text)
            if "Content Security Policy" in message.text or "CSP violation" in message.text
            else None
        ),
    )
    return found


def test_stepping_the_replay_breaks_no_csp_rule(open_page: Any) -> None:
    game = a_finished_match()
    url = reverse("web:replay", args=[game.pk]) + f"?as=all&at={START}"
    page = open_page(make_user("ana"), url, **DESKTOP)
    found = violations(page)
    page.evaluate("window.__axeCheck()")  # axe's run on the page's load is over
    for name in ("next", "last", "prev", "first"):
        page.evaluate(STYLE_EVERY_ID)
        step(page, name, touch=False)
        assert found == [], name
    page.evaluate(STYLE_EVERY_ID)
    page.locator("#replay-at").fill("50")
    wait_for_at(page, 50)
    page.evaluate(SETTLED)
    assert found == []
    page.evaluate(STYLE_EVERY_ID)
    page.get_by_label("as").select_option("spectator")
    page.wait_for_function("() => location.search.includes('as=spectator')", polling=POLL_MS)
    page.evaluate(SETTLED)
    assert found == []


def test_a_move_on_the_play_page_breaks_no_csp_rule(open_page: Any) -> None:
    ana = make_user("ana")
    game = game_create(
        variant_spec={"rules": "official"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy")],
        seed=4,
        dealer=1,
    )
    page = open_page(ana, reverse("web:play", args=[game.pk]), **DESKTOP)
    found = violations(page)
    page.wait_for_selector(".status--mine")
    page.evaluate(STYLE_EVERY_ID)
    old = int(page.locator("#game").get_attribute("data-version"))
    page.locator(".actions button.action").first.click()
    page.wait_for_function(
        "old => Number(document.querySelector('#game').dataset.version) > old",
        arg=old,
        polling=POLL_MS,
    )
    page.evaluate(SETTLED)
    assert found == []
