"""The analysis on the site without a browser (web/analysis.py): the replay's button asks for
one (signed in), never for a game whose log stays hidden; the section's poll; the player
page's cost per decision per family."""

from __future__ import annotations

import math
import re

import pytest
from django.test import Client
from django.urls import reverse

from analysis import report, services
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


def analysed(game: Game) -> tuple[str, report.MatchAnalysis]:
    """The game's analysis run; the replay's URL and what the analysis found."""
    row = services.queue_after_match(game.pk)
    services.run(row.pk)
    row.refresh_from_db()
    return reverse("web:replay", args=[game.pk]), report.from_json(row.result)


def test_the_chart_and_the_figures_say_what_they_measure_and_how_precise_they_are():
    game = over(players=1, seed=6)
    replay, found = analysed(game)
    page = signed_in(game.seats.get(number=0).user).get(replay).content.decode()
    svg = page.split("data-chance-chart", 1)[1].split("</svg>", 1)[0]
    # The axis says what its 0-100% is: the chance to win the hand (docs/analysis.md).
    assert "Chance to win this hand" in svg
    # How each point is estimated and how precise it is, from the analysis's own playouts.
    se = round(50 / math.sqrt(found.playouts))
    note = page.split("data-chance-precision", 1)[1].split("</p>", 1)[0]
    assert f"{found.playouts} simulated games" in note and f"±{se} percentage points" in note
    # The accounts name their unit, and a "How to read this" explains them once.
    assert page.count("How to read this") == 1 and 'href="#analysis-how"' in page
    accounts = page.split("data-hand-accounts", 1)[1].split("</ul>", 1)[0]
    assert re.search(r"The deal gave you [−+]?\d+ points? and the draws", accounts)
    how = page.split("data-analysis-how", 1)[1].split("</details>", 1)[0]
    assert 'id="analysis-how"' in how
    assert "average player" in how and "the winner scores" in how


def test_costly_moves_are_said_in_words_and_marked_with_links_to_their_step():
    game = over(players=1, seed=6)
    replay, found = analysed(game)
    page = signed_in(game.seats.get(number=0).user).get(replay).content.decode()
    costly = [d for d in found.decisions if d.hand == 1 and d.cost >= 5]
    assert costly, "the seed's match has a costly decision"
    assert "After event" not in page
    listed = page.split("data-costly>", 1)[1].split("</ol>", 1)[0]
    # The move in words, its step as the replay counts it, then the better option.
    moves = "played|drew|passed|chose|challenged|accepted"
    assert re.search(rf'<a href="[^"]*\?at=\d+&amp;as=0">[^<]+ ({moves})[^<]*</a>', listed)
    assert "(event " in listed and " was better by " in listed
    # Each mark on the chart is a link to its step, with a name for a screen reader.
    svg = page.split("data-chance-chart", 1)[1].split("</svg>", 1)[0]
    marks = re.findall(r'<a [^>]*href="([^"]*)"[^>]*aria-label="([^"]*)"[^>]*data-costly-mark', svg)
    assert len(marks) == len(costly)
    for d in costly:
        assert any(f"?at={d.version}&amp;" in href and "better by" in name for href, name in marks)


def test_each_hand_s_analysis_is_a_link_away():
    game = make_game(players=1, bots=["greedy", "random"], seed=1)  # SHORT: several hands
    play_to_end(game.pk, seed=1)
    replay, found = analysed(game)
    assert len(found.hands) >= 2
    person = signed_in(game.seats.get(number=0).user)
    page = person.get(replay).content.decode()
    nav = page.split("data-analysis-hands", 1)[1].split("</nav>", 1)[0]
    links = re.findall(r'<a href="([^"]*)"[^>]*>Hand (\d+)</a>', nav)
    current = re.findall(r'aria-current="true"[^>]*>Hand (\d+)<', nav)
    assert current == ["1"] and [n for _, n in links] == [
        str(h.hand) for h in found.hands if h.hand != 1
    ]
    for href, number in links:
        shown = person.get(href.replace("&amp;", "&")).content.decode()
        assert f'Analysis <span class="muted">· hand {number}</span></h2>' in shown
