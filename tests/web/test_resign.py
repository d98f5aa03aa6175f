"""Resigning from the play page: a confirmation first, then every seat the person holds is
forfeited (the default bot plays it); refused to people who hold no seat."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import seat_facts
from games.models import Game, Seat
from tests.games.factories import make_game, play_to_end
from tests.web.clients import signed_in
from tests.web.tables import FAMILIES, people_game

pytestmark = pytest.mark.django_db


def test_a_person_resigns_after_confirming_and_the_board_says_so():
    game, people = people_game(FAMILIES["official"])
    client = signed_in(people[1])
    url = reverse("web:resign", args=[game.pk])

    assert url in client.get(reverse("web:play", args=[game.pk])).content.decode()
    asked = client.get(url)
    assert asked.status_code == 200
    assert "Resign game" in asked.content.decode()
    assert "The default bot plays your seat from now on" in asked.content.decode()
    assert seat_facts.facts_of(game.pk).forfeited == {}

    response = client.post(url, follow=True)

    assert seat_facts.facts_of(game.pk).forfeited == {1: "resigned"}
    assert Seat.objects.get(game=game, number=1).controller == Seat.Controller.FALLBACK
    page = response.content.decode()
    assert '<div class="banner banner--success" role="status"><strong>You resigned' in page
    assert 'class="messages"' not in page  # said once, in the board, not again above it
    assert "You resigned: the default bot plays the seat" in page  # and told in the story


def test_someone_without_a_seat_cannot_resign_and_nothing_changes():
    game, _ = people_game(FAMILIES["official"])
    outsider = signed_in(people_game(FAMILIES["official"])[1][0])
    version = Game.objects.get(pk=game.pk).version

    response = outsider.post(reverse("web:resign", args=[game.pk]))

    assert response.status_code == 403
    assert "not-seated" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == version


def test_resigning_needs_a_signed_in_person():
    game, _ = people_game(FAMILIES["official"])

    response = Client().post(reverse("web:resign", args=[game.pk]))

    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert seat_facts.facts_of(game.pk).forfeited == {}


def test_resigning_a_finished_game_is_refused_in_a_sentence():
    game = make_game(players=2)
    play_to_end(game.pk)
    person = game.seats.order_by("number")[0].user

    response = signed_in(person).post(reverse("web:resign", args=[game.pk]), follow=True)

    assert f"<strong>Game {game.pk} is over.</strong> <code>match-over</code>" in (
        response.content.decode()
    )
