"""The soak's leak checks for play pages and emails (soak/pages.py, soak/leaks.py) pass a page
as the site serves it, in every family and sight mode, and fail on a planted leak: another
seat's card on the board, in the hand area or in a story line, a card in a turn email."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from engine.events import apply, initial_state
from engine.state import State
from games import event_reads
from games.creation import SeatSpec, game_create
from soak import harness, leaks
from soak.pages import read_page
from web.cards import card_name

pytestmark = pytest.mark.django_db


def a_game(spec: dict) -> tuple[int, object]:
    person = get_user_model().objects.create(username="ann", email="ann@example.invalid")
    # newno deals by age; the other families take none.
    ages = [30, 40, 50] if spec["rules"] == "newno" else [None] * 3
    game = game_create(
        variant_spec={**spec, "options": {"target": 100}},
        seats=[
            SeatSpec(user=person, age=ages[0]),
            SeatSpec(bot="greedy", age=ages[1]),
            SeatSpec(bot="greedy", age=ages[2]),
        ],
        seed=7,
    )
    return game.pk, person


def state_of(game_id: int) -> State:
    log = event_reads.load(game_id)
    state = initial_state(log[0])
    for event in log[1:]:
        apply(state, event)
    return state


def hidden_card(state: State) -> str:
    """A card of seat 1's hand that seat 0 may not know of."""
    known = leaks.known_to(state, 0, None, None)
    return next(card for card in state.hands[1] if card not in known)


def page_of(client, game_id: int, person=None) -> str:
    if person is not None:
        client.force_login(person)
    answer = client.get(f"/games/{game_id}/")
    assert answer.status_code == 200
    return answer.content.decode()


def failures(game_id: int, seat: int | None, html: str) -> list[str]:
    page = read_page("play-page", game_id, seat, html)
    found = leaks.check_all([], [], [page], [])
    assert found.checked["play-page"] == 1
    return found.failures


@pytest.mark.parametrize("family", list(harness.FAMILIES))
def test_a_page_as_served_passes_for_every_family_and_sight(client, family):
    game_id, person = a_game(harness.FAMILIES[family][0])
    html = page_of(client, game_id, person)
    page = read_page("play-page", game_id, 0, html)
    assert sorted(page.hand) == sorted(state_of(game_id).hands[0])
    assert page.story, "the story was read"
    assert failures(game_id, 0, html) == []
    client.logout()
    assert failures(game_id, None, page_of(client, game_id)) == []


def test_another_seats_card_on_the_board_is_a_leak(client):
    game_id, person = a_game({"rules": "official"})
    html = page_of(client, game_id, person)
    card = hidden_card(state_of(game_id))
    planted = html.replace(
        '<section class="story"',
        f'<span class="card" data-card="{card}"></span><section class="story"',
    )
    assert planted != html
    assert any("the board names" in failure for failure in failures(game_id, 0, planted))


def test_a_card_in_words_on_a_spectators_board_is_a_leak(client):
    game_id, _ = a_game({"rules": "basic-plus"})
    html = page_of(client, game_id)
    card = state_of(game_id).hands[0][0]
    planted = html.replace(
        '<section class="story"', f'<p>{card_name(card)}</p><section class="story"'
    )
    assert any(card in failure for failure in failures(game_id, None, planted))


def test_a_hand_area_with_another_card_is_a_leak(client):
    game_id, person = a_game({"rules": "official"})
    html = page_of(client, game_id, person)
    card = hidden_card(state_of(game_id))
    planted, count = re.subn(
        r'(<ul class="hand"[^>]*>)', rf'\1<li><span data-card="{card}"></span></li>', html, count=1
    )
    assert count == 1
    assert any("the hand area shows" in failure for failure in failures(game_id, 0, planted))


def test_a_story_line_naming_another_hand_is_a_leak(client):
    game_id, person = a_game({"rules": "official"})
    html = page_of(client, game_id, person)
    card = hidden_card(state_of(game_id))
    planted, count = re.subn(
        r'(class="story__line[^"]*" data-version="\d+">)', rf"\1{card_name(card)}: ", html, count=1
    )
    assert count == 1
    assert any("story" in failure and card in failure for failure in failures(game_id, 0, planted))


def test_an_email_naming_a_card_is_a_leak():
    turn = (
        "Subject: Your turn against maya (official, game 3)\n\n"
        "It is your turn against maya (official, game 3, seat 1).\n"
    )
    assert leaks.check_all([], [], [], [turn]).failures == []
    assert leaks.check_all([], [], [], [turn + "You hold red 7.\n"]).failures
    assert leaks.check_all([], [], [], [turn + "You hold red-7.\n"]).failures


def test_the_docks_line_is_checked_against_the_story_not_the_pile(client):
    """The dock's "just happened" line repeats the story's newest lines: a card it names that the
    story names too passes, though the pile may have been reshuffled since (the board's check
    would call it unknown); one the story does not name is a leak."""
    game_id, person = a_game({"rules": "official"})
    html = page_of(client, game_id, person)
    assert 'class="dock__news"' in html
    card = hidden_card(state_of(game_id))
    told = html.replace(
        '<section class="story"',
        f'<section class="story"><ol><li class="story__line" data-version="1">'
        f'Ben played {card_name(card)}.</li></ol></section><section class="story"',
    )
    told = re.sub(
        r'<p class="dock__news" data-news>.*?</p>',
        f'<p class="dock__news" data-news>Ben played {card_name(card)}.</p>',
        told,
        flags=re.S,
    )
    assert not any("dock" in failure for failure in failures(game_id, 0, told))
    untold = re.sub(
        r'<p class="dock__news" data-news>.*?</p>',
        f'<p class="dock__news" data-news>Ben played {card_name(card)}.</p>',
        html,
        flags=re.S,
    )
    assert any("the dock's line names" in failure for failure in failures(game_id, 0, untold))
