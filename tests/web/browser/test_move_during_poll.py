"""A move made while the board's poll is in flight (every second, so often in normal play) writes
no error to the console. The move's form had aborted the poll (hx-sync "replace"), and htmx logs
every aborted request as the errors "htmx:afterRequest" and "htmx:sendAbort"; the move now waits
the poll's few milliseconds instead, the poll's older board is not swapped in, and the move's
answer is the board shown (static/games.js)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from tests.web.browser.test_turn_alerts import two_people

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_move_during_the_boards_poll_logs_no_error_and_lands(open_page):
    game, mover, _waiting = two_people()
    page = open_page(
        mover, reverse("web:play", args=[game.pk]), width=360, height=740, own_context=True
    )
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    held: list = []
    # The board's polls are held: one is in flight when the person taps.
    page.route("**/games/*/board?*", lambda route: held.append(route))
    page.wait_for_function(
        "() => document.querySelector('#game.htmx-request') !== null", timeout=5_000
    )
    assert held, "no poll went out"
    cards_before = page.locator(".dock .hand__card").count()
    version = Game.objects.get(pk=game.pk).version
    page.get_by_role("button", name="Draw a card").click()
    page.wait_for_timeout(300)
    page.unroute_all(behavior="ignoreErrors")
    for route in held:
        try:
            route.continue_()
        except Exception:  # aborted by the page meanwhile (before the fix)
            pass
    page.wait_for_function(
        f"() => document.querySelectorAll('.dock .hand__card').length === {cards_before + 1}",
        timeout=6_000,
    )
    assert Game.objects.get(pk=game.pk).version > version
    page.wait_for_timeout(2_000)  # the next polls, and anything late
    assert [line for line in console if "htmx" in line] == []
    assert page.locator(".dock .hand__card").count() == cards_before + 1
