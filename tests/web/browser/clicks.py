"""Playing by clicking: find a legal control on the play page, click it, wait for the board."""

from __future__ import annotations

from typing import Any

Page = Any

# How often a `wait_for_function` predicate is tried, in ms. Playwright's default ("raf") runs it
# on every animation frame, which keeps chromium drawing frames for as long as the wait lasts (a
# board's poll comes once a second): about 0.1 s of chromium's CPU a second of waiting, against
# almost nothing at this interval. Every predicate waited on is a state that holds, not a flicker.
POLL_MS = 50


def version(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def hand_number(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-hand"))


# The frame after a swap drawn, then the page's CSS transitions over. A board swapped in under
# the resting pointer (where the last click was) gives the hover to the control that lands there,
# and a card rises 4 px (static/cards.css, `transition: transform 0.08s`). Playwright clicks only
# an element that holds still over two frames; each miss is retried, and the retries scroll it
# into view whether needed or not: block "end", then "center", then "start". Two misses in a
# row (a click begun as the card started to rise) scrolled the page by 132 px at 1280x800 and
# by 324 px at 360x740, a scroll no person's click makes.
SETTLED = """async () => {
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  await Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition)
    .map(a => a.finished.catch(() => null)));
}"""


def wait_for_board_after(page: Page, old: int, timeout: float = 10_000) -> None:
    """Wait until the board shows a version after `old` (htmx swapped it in) and holds still
    (`SETTLED`), so that the next click lands without Playwright scrolling."""
    page.wait_for_function(
        "old => Number(document.querySelector('#game').dataset.version) > old",
        arg=old,
        timeout=timeout,
        polling=POLL_MS,
    )
    page.evaluate(SETTLED)


def scrolls_sideways(page: Page) -> bool:
    """The page scrolls sideways by a pixel or more. (Chromium rounds the layout's overflow to
    whole pixels: a row that ends a fraction of a pixel past the edge, which no thumb can
    scroll, made scrollWidth one more than the viewport now and then.)"""
    return bool(page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1"))


def too_wide(page: Page) -> list[str]:
    """What a failed `scrolls_sideways` is about: the page's widths, then the elements that
    end past the viewport's right edge, those outside any strip that scrolls on its own first
    (the others marked "in a scroller"), widest first, named by tag, class and text."""
    return list(
        page.evaluate(
            """() => {
                 const root = document.documentElement;
                 const scroller = el => {
                   for (let up = el.parentElement; up; up = up.parentElement) {
                     const o = getComputedStyle(up).overflowX;
                     if (o !== 'visible' && o !== 'clip' && up !== root && up !== document.body)
                       return true;
                   }
                   return false;
                 };
                 const wide = [...document.querySelectorAll('body *')]
                   .map(el => [el, el.getBoundingClientRect().right])
                   .filter(([, right]) => right > window.innerWidth)
                   .sort((a, b) => (scroller(a[0]) - scroller(b[0])) || (b[1] - a[1])).slice(0, 8)
                   .map(([el, right]) => el.tagName.toLowerCase() + '.'
                     + [...el.classList].join('.')
                     + ` right=${right.toFixed(2)}${scroller(el) ? ' in a scroller' : ''}`
                     + ` "${(el.textContent || '').trim().slice(0, 50)}"`);
                 return [`viewport ${window.innerWidth}, client ${root.clientWidth},`
                   + ` scroll ${root.scrollWidth}, body ${document.body.scrollWidth},`
                   + ` scrollX ${window.scrollX}`, ...wide];
               }"""
        )
    )


def my_turn(page: Page) -> bool:
    return page.locator(".status--mine").count() > 0


def click_a_move(page: Page) -> bool:
    """Click one legal control of the viewer's turn: a card that plays (calling UNO when the
    card offers it), else a colour, else the first other move. False if there is none."""
    card = page.locator(".hand__card--live .card-button")
    if card.count():
        card.first.click()
        return True
    choice = page.locator(".hand__card--live details.card-choice > summary")
    if choice.count():
        choice.first.click()
        options = page.locator("details.card-choice[open] .card-choice__options button")
        calling = options.filter(has_text="call UNO")
        (calling if calling.count() else options).first.click()
        return True
    action = page.locator(".actions button.action")
    if action.count():
        action.first.click()
        return True
    return False


def play_a_turn(page: Page) -> None:
    """Click a move and wait for the board it brings."""
    old = version(page)
    assert click_a_move(page), "it is my turn, but no control is offered"
    wait_for_board_after(page, old)


def at_size(
    open_page: Any, live_server: Any, page: Page | None, person: Any, path: str, **size: int
) -> Page:
    """`path` at `size` ({"width", "height"}) for `person`: opened by `open_page` the first time
    (`page` None), else the same tab resized and sent there, so one test sees each screen size
    without a browser context per size."""
    if page is None:
        opened: Page = open_page(person, path, **size)
        return opened
    page.set_viewport_size({"width": size["width"], "height": size["height"]})
    page.goto(live_server.url + path)
    return page
