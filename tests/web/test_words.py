"""Words that misled people (issue 30, item 8), each as the person sees it on the page: a bot's
registration that had already failed, a status said twice, a round that "opens" while it is
played, a refused lane, the home page's families, the season's forfeit form and closing, and
the lobby's fixtures and aborted games."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Bot
from tests.games.factories import make_user
from tests.web.tables import FAMILIES, advance, people_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def words(html: str) -> str:
    """The page's text as a reader sees it: tags gone, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


# The bots' pages


@pytest.mark.django_db(transaction=True)
def test_a_webhook_whose_validation_failed_at_once_is_not_said_to_be_validating(
    eager_tasks, settings
):
    """Nothing listens at the URL: the validation has failed before the answer is drawn."""
    settings.BOTS_VALIDATION_MATCHES = 1
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    ada = make_user("ada")
    response = signed_in(ada).post(
        reverse("web:my-bots"),
        {"kind": "webhook", "webhook-name": "Hook", "webhook-url": "http://127.0.0.1:9/move"},
    )

    hook = Bot.objects.get(owner=ada)
    assert hook.status == Bot.Status.FAILED
    shown = words(response.content.decode())
    assert "It is playing its validation games now" not in shown
    assert "It did not pass its validation" in shown
    assert "ask for a new validation on its page" in shown


def test_a_bots_status_is_said_once():
    ada = make_user("ada")
    greta = Bot.objects.create(
        owner=ada, name="Greta", kind=Bot.Kind.BUILTIN, strategy="greedy", status="active"
    )
    shown = words(Client().get(reverse("web:bot", args=[greta.pk])).content.decode())
    assert "active (validated, may enter ladders)" in shown
    assert "active active" not in shown
    mine = words(signed_in(ada).get(reverse("web:my-bot", args=[greta.pk])).content.decode())
    assert "active active" not in mine


# A refused lane


def lane_to_fill():
    game, people = people_game(FAMILIES["precognitive-sighted"])
    for _ in range(8):
        seat = game.to_act[0] if game.to_act else None
        if seat is not None:
            view = services.game_view(game_id=game.pk, viewer=people[seat])
            if view["pending"]["type"] == "precommit" and view["pending"]["count"] == 2:
                once = [card for card, n in Counter(view["hand"]).items() if n == 1]
                if once:
                    return game, seat, people[seat], once[0]
        game = advance(game, 1)
    raise AssertionError("no lane of two to fill")


def lane_post(client, game, seat, cards, **extra):
    data = {
        "command": f'{{"type":"precommit","seat":{seat}}}',
        "expected_version": game.version,
        "command_id": "lane-1",
        "card": cards,
    }
    return client.post(reverse("web:command", args=[game.pk]), data, **extra)


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-javascript"])
def test_a_lane_naming_a_card_twice_says_which_and_keeps_the_choices(htmx):
    game, seat, person, card = lane_to_fill()
    name = card.replace("-", " ").replace("draw2", "draw two")
    client = signed_in(person)

    if htmx:
        response = lane_post(client, game, seat, [card, card], **HTMX)
    else:
        response = lane_post(client, game, seat, [card, card], follow=True)

    html = response.content.decode()
    shown = words(html)
    assert f"the lane names {name} twice, but your regular hand holds only 1" in shown
    assert "precommit cards from your regular hand" not in shown
    # Both slots still hold the person's choice.
    form = html.split('class="precommit"')[1].split("</form>")[0]
    assert form.count(f'value="{card}" selected') == 2
    game.refresh_from_db()
    assert services.game_view(game_id=game.pk, viewer=person)["pending"]["type"] == "precommit"
    # Shown once: the page after is the plain lane form again.
    if not htmx:
        again = client.get(reverse("web:play", args=[game.pk])).content.decode()
        assert " selected>" not in again.split('class="precommit"')[1].split("</form>")[0]
