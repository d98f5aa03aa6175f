"""People's ratings on the site: the player page's Ratings section (each pool's figure with the
provisional mark, the history chart, the rated games behind it with every seat marked person or
bot), the pools' page and a pool's leaderboard of people (never a bot), valid HTML all."""

from __future__ import annotations

import json
import subprocess

import pytest
from django.test import Client, override_settings

from tests.games.factories import make_user
from tests.ratings.games import one_card_game, run_ratings
from tests.web.test_html_valid import ROOT, validator

pytestmark = pytest.mark.django_db


def page(path: str) -> str:
    response = Client().get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def section(html: str, start: str, end: str = "</section>") -> str:
    return html.split(start, 1)[1].split(end, 1)[0]


@pytest.fixture
def rated():
    """ana beat ben twice and lost once to cy at a table with a bot; dee played only casually."""
    ana, ben, cy, dee = (make_user(name) for name in ("ana", "ben", "cy", "dee"))
    one_card_game([ana, ben], winner=0)
    one_card_game([ben, ana], winner=1)
    game = one_card_game([cy, ana, "greedy"], winner=0)
    one_card_game([dee, ana], rated=False)
    run_ratings()
    return game


@override_settings(RATINGS_PROVISIONAL_GAMES=3)
def test_the_player_page_shows_each_pools_rating_chart_and_rated_games(rated):
    html = page("/players/ana/")
    ratings = section(html, 'id="ratings"')
    panel = section(ratings, 'data-family="official"', "</article>")
    assert "<h3" in panel and ">Official</h3>" in panel
    # 3 rated games: no longer provisional (the casual game with dee does not count).
    assert "provisional</span>" not in panel and 'class="provisional"' not in panel
    assert "<dt>Rated games</dt><dd>3</dd>" in panel
    assert 'rating-chart__svg--wide" viewBox="0 0 640 240"' in panel
    assert 'rating-chart__svg--narrow" viewBox="0 0 320 200"' in panel
    assert "over 3 rating events" in panel
    # The rated games behind it, newest first, linked to their replays.
    links = [part.split('"', 1)[0] for part in panel.split('<a href="')[1:]]
    games = [link for link in links if link.startswith("/games/")]
    assert games[0] == f"/games/{rated.pk}/replay/" and len(games) == 3
    assert "1st of 2 people" in panel and "2nd of 2 people" in panel
    # Every seat at the table is marked: the bot shown as a bot, not rated.
    assert 'cy <span class="kind kind--person">person</span>' in panel
    assert 'greedy <span class="kind kind--bot">bot, not rated</span>' in panel
    assert 'href="/ratings/official/"' in panel

    cy_panel = section(page("/players/cy/"), 'data-family="official"', "</article>")
    assert '<span class="provisional"' in cy_panel and "provisional</span>" in cy_panel
    assert "<dt>Rated games</dt><dd>1</dd>" in cy_panel


def test_a_person_with_only_casual_games_has_no_rating(rated):
    ratings = section(page("/players/dee/"), 'id="ratings"')
    assert "No rated game yet." in ratings and "data-family" not in ratings


@override_settings(RATINGS_PROVISIONAL_GAMES=2)
def test_the_leaderboard_ranks_people_and_lists_the_provisional_apart(rated):
    html = page("/ratings/official/")
    ranked = section(html, 'id="board-heading"')
    provisional = section(html, 'id="provisional-heading"')
    assert ranked.index(">ana</a>") < ranked.index(">ben</a>")
    assert ">cy</a>" not in ranked and ">cy</a>" in provisional
    assert "greedy" not in html
    assert ranked.count('<span class="kind kind--person">person</span>') == 2
    assert 'href="/players/ana/"' in ranked

    pools = page("/ratings/")
    assert 'href="/ratings/official/"' in pools
    assert "2 people ranked, 1 provisional (fewer than 2 rated games)" in pools
    assert 'href="/ratings/basic-plus-precognitive/"' in pools
    assert Client().get("/ratings/chess/").status_code == 404
    assert 'href="/ratings/">Ratings</a>' in page("/")  # in the site's navigation


@override_settings(RATINGS_PROVISIONAL_GAMES=10)
def test_a_board_of_provisional_people_says_who_is_there(rated):
    """Not "0 people on the board" while three people are on it, provisional."""
    pools = page("/ratings/")
    official = section(pools, 'href="/ratings/official/"', "</li>")
    assert "No one ranked yet: 3 people are provisional (fewer than 10 rated games)" in official
    assert "0 people" not in pools
    assert "Nobody played a rated game here in the last 30 days" in section(
        pools, 'href="/ratings/newno/"', "</li>"
    )
    board = page("/ratings/official/")
    ranked = section(board, 'id="board-heading"')
    assert "No one ranked yet: 3 people are provisional (fewer than 10 rated games)" in ranked
    listed = section(board, 'id="provisional-heading"')
    assert all(f">{name}</a>" in listed for name in ("ana", "ben", "cy"))
    empty = section(page("/ratings/newno/"), 'id="board-heading"')
    assert "Nobody played a rated game in this family in the last 30 days" in empty


def test_the_pages_validate(rated, tmp_path):
    files = []
    for number, path in enumerate(["/players/ana/", "/ratings/", "/ratings/official/"]):
        file = tmp_path / f"{number}.html"
        file.write_text(page(path))
        files.append(str(file))
    run = subprocess.run(
        [str(validator()), "--config", str(ROOT / ".htmlvalidate.json"), "--formatter", "json",
         *files],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    problems = [
        f"{result['filePath']}:{message['line']} {message['ruleId']}: {message['message']}"
        for result in json.loads(run.stdout or "[]")
        for message in result["messages"]
    ]
    assert problems == [], "\n".join(problems)
