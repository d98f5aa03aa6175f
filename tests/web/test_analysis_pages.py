"""The analysis on the site without a browser (web/analysis.py): the replay's button asks for
one (signed in), never for a game whose log stays hidden; the section's poll; the player
page's cost per decision per family."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from analysis import services
from analysis.models import GameAnalysis
from games.models import Game
from tests.games.factories import make_game, make_user, play_to_end
from tests.web.clients import signed_in

pytestmark = pytest.mark.django_db

ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand"}}


@pytest.fixture(autouse=True)
def few_playouts(settings):
    settings.ANALYSIS_PLAYOUTS = 2


def over(players: int = 0, seed: int = 2, **kwargs) -> Game:
    bots = ["greedy", "random"]
    game = make_game(players=players, bots=bots, spec=ONE_HAND, seed=seed, **kwargs)
    play_to_end(game.pk, seed=seed)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    return game


def test_the_replay_button_asks_for_an_analysis_which_the_poll_then_shows():
    game = over()
    replay = reverse("web:replay", args=[game.pk])
    anonymous = Client().get(replay).content.decode()
    assert "This match has not been analysed" in anonymous
    assert "data-analysis-ask" not in anonymous  # only a signed-in person may ask

    ana = signed_in(make_user("ana"))
    assert "data-analysis-ask" in ana.get(replay).content.decode()
    asked = ana.post(reverse("web:analysis-ask", args=[game.pk]), {"at": "5"})
    assert asked.status_code == 302 and asked["Location"] == f"{replay}?at=5"
    row = GameAnalysis.objects.get(game=game)
    assert row.status == "queued" and row.requested_by.username == "ana"
    page = ana.get(replay).content.decode()
    assert "Analysis waiting for its turn" in page and 'hx-trigger="every 2s"' in page
    assert "data-analysis-ask" not in page

    services.run(row.pk)
    panel = ana.get(reverse("web:analysis-panel", args=[game.pk]) + "?at=5&as=all")
    text = panel.content.decode()
    assert panel.status_code == 200 and "data-chance-chart" in text
    assert "hx-trigger" not in text  # done: the poll stops
    assert "The whole match" in text


def test_a_game_that_never_reveals_shows_no_analysis_and_refuses_the_button():
    game = over(seed=3, reveal="never")
    ana = signed_in(make_user("ana"))
    page = ana.get(reverse("web:replay", args=[game.pk])).content.decode()
    assert "data-analysis" not in page
    asked = ana.post(reverse("web:analysis-ask", args=[game.pk]))
    assert asked.status_code == 302
    assert not GameAnalysis.objects.filter(game=game).exists()
    assert "never shows every card" in ana.get(asked["Location"]).content.decode()


def test_the_player_page_shows_the_cost_per_decision_per_family():
    game = over(players=1, seed=4)
    person = game.seats.get(number=0).user
    page = Client().get(reverse("web:player", args=[person.username])).content.decode()
    assert "No analysed match yet" in page
    # The match-end hook's work (run on commit; tests/analysis has it after a real commit).
    services.run(services.queue_after_match(game.pk).pk)
    page = Client().get(reverse("web:player", args=[person.username])).content.decode()
    assert "data-decision-costs" in page and "points per decision over" in page
    assert game.created_at.strftime("%Y-%m") in page
