"""A finished game's board: every seat's hand shown, the winner's counted once."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from games.visibility import game_view
from tests.games.factories import make_game, play_to_end

pytestmark = pytest.mark.django_db


def test_the_winners_empty_hand_is_said_once():
    game = make_game(players=1, bots=["greedy", "random"])
    play_to_end(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    person = game.seats.get(number=0).user
    winner = game_view(game_id=game.pk, viewer=person)["winner"]
    client = Client()
    client.force_login(person)

    html = client.get(f"/games/{game.pk}/").content.decode()

    panel = re.search(rf'<li class="seat[^"]*" data-seat="{winner}">.*?</li>', html, re.S)
    assert panel is not None
    text = re.sub(r"<[^>]+>|\s+", " ", panel[0])
    assert "0 cards" in text
    assert "no cards" not in text
    # The others' hands are shown, card by card (the viewer's own is in the dock).
    loser = next(seat for seat in (1, 2) if seat != winner)
    other = re.search(rf'<li class="seat[^"]*" data-seat="{loser}">.*?</li>', html, re.S)
    assert other is not None and 'class="seat__revealed"' in other[0]


def places_said(game: Game, seat: int = 0) -> tuple[list[str], str]:
    """The finished match's places as the seated person reads them, and the line under them."""
    client = Client()
    client.force_login(game.seats.get(number=seat).user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    listed = html.split('class="match-over__places"', 1)[1].split("</ul>", 1)[0]
    rows = [re.sub(r"<[^>]+>|\s+", " ", row).strip() for row in listed.split("<li")[1:]]
    rule = re.search(r"data-tie-rule>(.*?)</p>", html)
    return [row.split(">", 1)[-1].strip() for row in rows], rule[1] if rule else ""


def test_places_of_seats_level_on_points_say_the_rule_that_placed_them():
    # Single hand: the seats that did not go out all score 0, and are placed by the points
    # left in their hands (docs/rules.md, "Placement"): the page says so under the places.
    spec = {"rules": "official", "options": {"scoring": "single-hand"}}
    game = make_game(players=2, bots=["greedy", "random"], spec=spec, seed=1)
    play_to_end(game.pk)
    rows, rule = places_said(game)
    assert [row.split(" ", 1)[0] for row in rows] == ["1st", "2nd", "3rd", "4th"], rows
    assert rows[1].endswith(": 0 points") and rows[2].endswith(": 0 points"), rows
    assert rule == (
        "Seats level on points are placed by the points left in their hands, fewest first; "
        "level on those too, they share the place (“2=”)."
    )


def test_a_shared_place_is_written_2_equals():
    # Winner takes: one hand to 50 points, the three others level on 0 points and 0 hands won
    # share second place.
    game = make_game(players=2, bots=["greedy", "random"], seed=1)
    play_to_end(game.pk)
    rows, rule = places_said(game)
    words = [row.split(" ", 1)[0] for row in rows]
    assert words[0] == "1st" and "2nd" not in words, rows
    assert words.count("2=") >= 2, rows
