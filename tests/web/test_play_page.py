"""The play page shows each viewer exactly the cards it may see, and every legal command."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games.commands import game_command
from games.repository import repository
from games.visibility import game_events, game_view
from staff.actions import game_abort
from tests.engine.decks import stacked
from tests.games.factories import make_game, make_user
from tests.web.clients import signed_in
from tests.web.league_pages import text
from tests.web.tables import (
    FAMILIES,
    advance,
    last_hand_cards,
    page_cards,
    page_commands,
    people_game,
    visible_cards,
)

pytestmark = pytest.mark.django_db

# Moves played before each look, long enough for lanes, rulings, draws and a jump-in window.
STEPS = (0, 1, 2, 3, 5, 8, 13, 21)


def keys(commands: list[dict]) -> set[str]:
    return {json.dumps(command, sort_keys=True) for command in commands}


def page(client: Client, game_id: int, **query: int) -> str:
    response = client.get(reverse("web:play", args=[game_id]), query)
    assert response.status_code == 200
    return response.content.decode()


# What each family's looks must include, so the test sees the hidden cards it is about.
SITUATIONS = {
    "official": {"hidden hands"},
    "basic-plus": {"hidden hands"},
    "newno": {"hidden hands"},
    "censorship": {"hidden hands", "submission"},
    "precognitive-blind": {"hidden hands", "lane"},
    "precognitive-sighted": {"hidden hands", "lane"},
}


def situations(game) -> set[str]:
    _, state, _ = repository.state(game)
    found = {"hidden hands"} if all(state.hands) else set()
    if state.extra.get("submission"):
        found.add("submission")
    if any(state.lanes):
        found.add("lane")
    if (state.pending or {}).get("type") == "drawn":
        found.add("drawn")
    return found


@pytest.mark.parametrize("family", FAMILIES)
def test_every_seat_and_a_spectator_see_only_the_cards_they_may(family):
    game, people = people_game(FAMILIES[family])
    played = 0
    seen: set[str] = set()
    clients = [signed_in(person) for person in people]
    for step in STEPS:
        game = advance(game, step - played, seed=step)
        played = step
        seen |= situations(game)
        public = last_hand_cards(game)
        for seat, client in enumerate(clients):
            shown = page_cards(page(client, game.pk))
            assert shown == visible_cards(game, seat) + public, (family, step, seat)
        shown = page_cards(page(Client(), game.pk))
        assert shown == visible_cards(game, None) + public, (family, step, "spectator")
    assert SITUATIONS[family] <= seen, seen


@pytest.mark.parametrize("family", FAMILIES)
def test_every_seat_gets_each_legal_command_as_a_control_and_nothing_else(family):
    game, people = people_game(FAMILIES[family])
    clients = [signed_in(person) for person in people]
    for step in range(12):
        game = advance(game, 1 if step else 0, seed=step)
        for seat, (person, client) in enumerate(zip(people, clients, strict=True)):
            controls = page_commands(page(client, game.pk))
            legal = game_view(game_id=game.pk, viewer=person, seat=seat)["legal"]
            lane = [c for c in legal if c["type"] == "precommit" and len(c["cards"]) > 1]
            if lane:
                # The lane form carries the command's skeleton; its slots carry the cards.
                controls.remove({"type": "precommit", "seat": seat})
                legal = [c for c in legal if c not in lane]
            # A card held twice shows its commands on both copies.
            assert keys(controls) == keys(legal), (family, step, seat)


def test_a_drawn_card_that_may_be_played_is_shown_to_the_drawer_only():
    hands = [["green-1", "green-2"], ["blue-1", "blue-2"], ["yellow-1", "yellow-2"]]
    game, people = people_game(
        {"rules": "official", "options": {"hand_size": 2}},
        seats=3,
        deck=stacked(hands, "red-5", ["red-9"], first=0),
        dealer=2,
    )
    game_command(
        game_id=game.pk,
        actor=people[0],
        command={"type": "draw", "seat": 0},
        expected_version=game.version,
    )
    game.refresh_from_db()

    drawer = Client()
    drawer.force_login(people[0])
    html = page(drawer, game.pk)
    assert page_cards(html)["red-9"] == 1
    assert "You drew red 9: play it or keep it" in html
    assert keys(page_commands(html)) == keys(
        [{"type": "play", "seat": 0, "card": "red-9", "uno": False}, {"type": "pass", "seat": 0}]
    )
    for seat in (1, 2):
        other = Client()
        other.force_login(people[seat])
        html = page(other, game.pk)
        assert page_cards(html) == visible_cards(game, seat)
        assert "red-9" not in html and "red 9" not in html


def test_a_spectator_sees_the_table_and_no_control():
    game, _ = people_game(FAMILIES["official"])
    html = page(Client(), game.pk)

    assert "you are watching" in html
    assert page_commands(html) == []
    assert "Your hand" not in html


def test_a_game_opened_signed_out_offers_to_sign_in_and_come_back_to_it():
    """A turn email's link opened in another browser (a mail app's own): the game as a
    spectator sees it, with a way back to it signed in."""
    game, _ = people_game(FAMILIES["official"])
    html = page(Client(), game.pk)

    back = f"/accounts/login/?next=/games/{game.pk}/"
    assert f'your game? <a href="{back}" hx-boost="false">Sign in to play</a>' in html
    assert f'<a href="{back}">Sign in</a>' in html  # the header's too
    assert '<a href="/accounts/login/">Sign in</a>' in Client().get("/").content.decode()


def test_a_signed_in_person_without_a_seat_watches_as_a_spectator():
    game, _ = people_game(FAMILIES["newno"])
    client = Client()
    client.force_login(people_game(FAMILIES["official"])[1][0])

    html = page(client, game.pk)

    assert page_commands(html) == []
    assert page_cards(html) == visible_cards(game, None)
    assert "Sign in to play" not in html


def test_a_person_with_two_seats_picks_one_with_the_seat_parameter():
    game, people = people_game(FAMILIES["newno"], seats=3)
    # Give seat 2 to the person of seat 0.
    game.seats.filter(number=2).update(user=people[0])
    client = Client()
    client.force_login(people[0])

    first = page(client, game.pk)
    second = page(client, game.pk, seat=2)

    assert page_cards(first) == visible_cards(game, 0)
    assert page_cards(second) == visible_cards(game, 2)
    # The link says the seat as a person counts it (from 1); the parameter is the log's index.
    assert 'aria-current="page">seat 3<' in second
    assert 'name="seat" value="2"' in second


def test_a_person_with_two_seats_reads_them_counted_from_one():
    game, people = people_game(FAMILIES["newno"], seats=3)
    # The person of the log's seat 0 holds seat 1 too: the table's first two seats.
    game.seats.filter(number=1).update(user=people[0])

    html = page(signed_in(people[0]), game.pk)

    nav = re.search(r'<nav class="status__seats".*?</nav>', html, re.S)
    assert nav and text(nav.group(0)) == "Your seats: seat 1 , seat 2"
    assert f'<a href="{reverse("web:play", args=[game.pk])}?seat=1">seat 2</a>' in nav.group(0)


def test_bots_of_one_name_are_told_apart_by_their_seats_counted_from_one():
    # The log's seats 1 and 2: the table's second and third.
    game = make_game(players=1, bots=["greedy", "greedy"])
    person = game.seats.get(number=0).user

    html = page(signed_in(person), game.pk)

    panels = [text(name) for name in re.findall(r'<span class="seat__name">(.*?)</span>', html)]
    assert sorted(panels) == sorted(
        [f"{person.username} (you)", "greedy (seat 2)", "greedy (seat 3)"]
    )
    assert "greedy (seat 1)" not in html


def test_another_persons_seat_is_refused():
    game, people = people_game(FAMILIES["official"])
    client = Client()
    client.force_login(people[0])

    response = client.get(reverse("web:play", args=[game.pk]), {"seat": 1})

    assert response.status_code == 403
    assert b"not-your-seat" in response.content


def test_an_unknown_game_is_404(client):
    assert client.get(reverse("web:play", args=[999999])).status_code == 404


def test_cards_name_themselves_in_words_and_letters():
    game, people = people_game(FAMILIES["official"])
    client = Client()
    client.force_login(people[0])
    html = page(client, game.pk)
    hand = game_view(game_id=game.pk, viewer=people[0])["hand"]

    for card in hand:
        words = (
            card.replace("-", " ")
            .replace("draw2", "draw two")
            .replace("wild draw4", "wild draw four")
        )
        assert f'data-card="{card}" role="img" aria-label="{words}"' in html


def test_the_story_tells_the_viewer_as_you_and_hides_others_draws():
    game, people = people_game(FAMILIES["official"])
    game = advance(game, 30, seed=4)
    client = Client()
    client.force_login(people[0])
    html = page(client, game.pk)

    assert "Hand 1 was dealt, 7 cards each" in html
    assert "your cards:" in html
    events = game_events(game_id=game.pk, viewer=AnonymousUser())
    drawers = {e["event"]["seat"] for e in events if e["event"]["type"] == "cards-drawn"}
    if drawers - {0}:
        assert " drew a card" in html or " drew 2 cards" in html or " cards (" in html


def submission_place(html: str) -> tuple[str, str]:
    """The pile's place for a censorship submission: its words and its card (a card's code, or
    "face down"; "" for none)."""
    found = re.search(r'<div class="pile__stack pile__submission">(.*?)</div>', html, re.S)
    assert found, "the pile has no place for the submission"
    place = found.group(1)
    caption = re.search(r'<span class="pile__caption">(.*?)</span>', place, re.S)
    card = re.search(r'data-card="([^"]+)"', place)
    down = "card--back" in place
    return text(caption.group(1)) if caption else "", (
        card.group(1) if card else "face down" if down else ""
    )


def censorship_table(submitter_holds: str) -> tuple[Any, list[Any]]:
    """Four people at censorship, two cards each, blue 8 turned up; seat 0 the censor (dealer),
    seat 1 to submit first, holding `submitter_holds` and yellow 3."""
    hands = [
        ["blue-2", "green-1"],
        [submitter_holds, "yellow-3"],
        ["green-9", "blue-9"],
        ["red-0", "red-1"],
    ]
    return people_game(
        {"rules": "censorship", "options": {"hand_size": 2}},
        deck=stacked(hands, "blue-8", first=1),
        dealer=0,
    )


def test_the_pile_shows_a_censorship_submission_to_each_viewer_as_they_may_see_it():
    game, people = censorship_table("red-7")
    clients = [signed_in(person) for person in people]
    for client in [*clients, Client()]:
        assert submission_place(page(client, game.pk)) == ("Nothing submitted", "")

    game_command(
        game_id=game.pk,
        actor=people[1],
        command={"type": "submit", "seat": 1, "card": "red-7"},
        expected_version=game.version,
    )
    name = people[1].username
    # The censor and the submitter see the card; the other seats and a spectator its back.
    assert submission_place(page(clients[0], game.pk)) == (f"Submitted by {name}", "red-7")
    assert submission_place(page(clients[1], game.pk)) == ("Submitted by you", "red-7")
    for client in [clients[2], clients[3], Client()]:
        assert submission_place(page(client, game.pk)) == (f"Submitted by {name}", "face down")


def test_a_submitted_wild_names_its_colour_to_those_who_see_it_and_the_replay_shows_it_all():
    game, people = censorship_table("wild")
    game_command(
        game_id=game.pk,
        actor=people[1],
        command={"type": "submit", "seat": 1, "card": "wild", "color": "green", "uno": False},
        expected_version=game.version,
    )
    submitted = repository.game(game.pk).version
    name = people[1].username
    clients = [signed_in(person) for person in people]
    assert submission_place(page(clients[0], game.pk)) == (f"Submitted by {name} as green", "wild")
    assert submission_place(page(clients[1], game.pk)) == ("Submitted by you as green", "wild")
    # The colour is as hidden as the card from the other seats and a spectator.
    for client in [clients[2], Client()]:
        html = page(client, game.pk)
        assert submission_place(html) == (f"Submitted by {name}", "face down")

    # Once the match is over, the replay's every-card view shows the submission face up with
    # the hands; a seat's view still as that seat saw it.
    staff = make_user("censor-staff")
    staff.is_staff = True
    staff.save()
    game_abort(game_id=game.pk, user=staff, reason="the test of the replay")
    replay = reverse("web:replay", args=[game.pk])
    every = clients[2].get(replay, {"as": "all", "at": submitted}).content.decode()
    assert submission_place(every) == (f"Submitted by {name} as green", "wild")
    seat2 = clients[2].get(replay, {"as": "2", "at": submitted}).content.decode()
    assert submission_place(seat2) == (f"Submitted by {name}", "face down")
