"""Two people at one game: each sees the other's move without reloading."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.games.factories import make_user
from tests.web.browser.clicks import POLL_MS, play_a_turn, version
from tests.web.tables import official_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_move_shows_up_on_the_other_persons_board_without_a_reload(open_page):
    ana, ben = make_user("ana"), make_user("ben")
    game = official_pair(ana, ben)
    game.refresh_from_db()
    mover, watcher = (ana, ben) if game.to_act == [0] else (ben, ana)
    url = reverse("web:play", args=[game.pk])
    movers = open_page(mover, url)
    watchers = open_page(watcher, url, width=360, height=800)
    watchers.evaluate("window.stillTheSamePage = true")
    before = version(watchers)
    assert watchers.locator(".status--mine").count() == 0

    movers.wait_for_selector(".status--mine")
    play_a_turn(movers)

    # The poll runs every second: well within two seconds (and a margin for a slow machine).
    watchers.wait_for_function(
        "old => Number(document.querySelector('#game').dataset.version) > old",
        arg=before,
        timeout=4_000,
        polling=POLL_MS,
    )
    assert watchers.evaluate("window.stillTheSamePage") is True
    assert version(watchers) == version(movers)
    assert f"{mover.username} " in watchers.locator(".story").inner_text()
