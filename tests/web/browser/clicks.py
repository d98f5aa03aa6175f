"""Playing by clicking: find a legal control on the play page, click it, wait for the board."""

from __future__ import annotations

from typing import Any

Page = Any


def version(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def hand_number(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-hand"))


def wait_for_board_after(page: Page, old: int, timeout: float = 10_000) -> None:
    """Wait until the board shows a version after `old` (htmx swapped it in)."""
    page.wait_for_function(
        "old => Number(document.querySelector('#game').dataset.version) > old",
        arg=old,
        timeout=timeout,
    )


def scrolls_sideways(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth > window.innerWidth"))


def too_wide(page: Page) -> list[str]:
    """The elements that stick out past the viewport's right edge (outside any strip that
    scrolls on its own), named by tag, class and text: what a failed `scrolls_sideways` is about."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('body *')].filter(el => {
                 const r = el.getBoundingClientRect();
                 if (r.right <= window.innerWidth + 0.5) return false;
                 for (let up = el.parentElement; up; up = up.parentElement) {
                   const o = getComputedStyle(up).overflowX;
                   if (o === 'auto' || o === 'scroll' || o === 'hidden') return false;
                 }
                 return true;
               }).map(el => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`
                 + ` right=${Math.round(el.getBoundingClientRect().right)}`
                 + ` "${(el.textContent || '').trim().slice(0, 60)}"`)"""
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
