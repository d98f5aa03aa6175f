"""Resigning from the play page: a confirmation first, then every seat the person holds is
forfeited: the default bot plays it while two seats or more play on, else the match ends and
the seat left wins; refused to people who hold no seat."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clocks import overdue
from games import lobby, projections, seat_facts
from games.models import Game, MatchResult, Seat, TurnNotice
from social.models import Notification
from tests.games.factories import SHORT, make_game, make_user, play_to_end
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
    # Resigned for good: the status no longer offers it, and its page says it is done.
    play_page = client.get(reverse("web:play", args=[game.pk])).content.decode()
    assert url not in play_page and "· Resign" not in play_page
    again = client.get(url).content.decode()
    assert "nothing to resign" in again and "Your seat is forfeited already" in again
    assert 'type="submit"' not in again.split('class="confirm"')[1]


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

    assert f'data-code="match-over"><strong>Game {game.pk} is over.</strong></div>' in (
        response.content.decode()
    )


def story(client: Client, game: Game) -> list[str]:
    """The story's lines on the play page, newest first."""
    html = client.get(f"/games/{game.pk}/").content.decode()
    return [
        unescape(re.sub(r"\s+", " ", line)).strip()
        for line in re.findall(r'<li class="story__line[^"]*"[^>]*>(.*?)</li>', html, re.S)
    ]


def listed(client: Client, tab: str) -> set[int]:
    html = client.get(f"/play/?show={tab}").content.decode()
    return {int(n) for n in re.findall(r'<a class="game-link" href="/games/(\d+)/"', html)}


def test_resigning_a_two_person_game_ends_the_match_and_the_other_person_wins(
    eager_tasks, django_capture_on_commit_callbacks
):
    maya, theo = make_user("maya"), make_user("theo")
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.game_start(
            creator=maya,
            variant_spec=SHORT,
            seats=[{"user": "me"}, {"user": "theo"}],
            seed=None,
            turn_seconds=3600,
        )
    game.refresh_from_db()
    # Someone's turn runs on the clock, and is told under their bell.
    assert Seat.objects.filter(game=game).exclude(deadline_at=None).count() == 1
    assert Notification.objects.filter(game_id=game.pk, kind="turn").count() == 1
    mayas, theos = signed_in(maya), signed_in(theo)
    url = reverse("web:resign", args=[game.pk])

    asked = unescape(mayas.get(url).content.decode())
    assert "The match ends now and theo wins; you are placed last." in re.sub(r"\s+", " ", asked)
    assert "default bot" not in asked
    with django_capture_on_commit_callbacks(execute=True):
        response = mayas.post(url, follow=True)

    assert "<strong>You resigned: theo wins the match" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER and game.to_act == []
    assert "You resigned: theo wins the match." in story(mayas, game)
    theo_page = theos.get(f"/games/{game.pk}/").content.decode()
    assert "You win the match by forfeit." in theo_page  # maya's seat forfeited: resigned
    assert "maya resigned: you win the match." in story(theos, game)
    # The lobby lists it as finished, no longer as playing.
    assert game.pk in listed(theos, "finished") and game.pk not in listed(theos, "playing")
    # No clock runs, no turn waits under the bell, and no turn comes after the deadline.
    assert not Seat.objects.filter(game=game).exclude(deadline_at=None).exists()
    assert not Notification.objects.filter(game_id=game.pk, kind="turn").exists()
    notices = TurnNotice.objects.filter(seat__game=game).count()
    with time_machine.travel(timezone.now() + timedelta(hours=3), tick=False):
        assert overdue.expire() == []
    assert TurnNotice.objects.filter(seat__game=game).count() == notices
    # The results see a finished match: theo first, maya forfeited and last.
    projections.run("game-results")
    result = MatchResult.objects.get(game=game)
    assert (result.winner, result.places, result.forfeited) == (1, [2, 1], [0])


def test_resigning_with_two_others_playing_on_leaves_the_seat_to_the_default_bot(eager_tasks):
    game, people = people_game(FAMILIES["official"], seats=3)
    client = signed_in(people[0])
    url = reverse("web:resign", args=[game.pk])

    asked = client.get(url).content.decode()
    assert "The default bot plays your seat from now on" in asked and "ends now" not in asked
    response = client.post(url, follow=True)

    assert "<strong>You resigned: the default bot plays your seat from now on" in (
        response.content.decode()
    )
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert Seat.objects.get(game=game, number=0).controller == Seat.Controller.FALLBACK
    assert "You resigned: the default bot plays the seat, placed last." in story(client, game)
