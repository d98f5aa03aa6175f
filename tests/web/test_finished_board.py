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
