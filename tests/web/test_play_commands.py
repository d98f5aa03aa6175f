"""Commands from the play page's forms, with and without htmx, and the live board's poll."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.visibility import game_events, game_view
from tests.web.clients import signed_in
from tests.web.tables import FAMILIES, advance, page_commands, people_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def post(client: Client, game: Game, command: dict, *, version: int | None = None, **extra):
    data = {
        "command": json.dumps(command),
        "expected_version": game.version if version is None else version,
        "command_id": extra.pop("command_id", "c1"),
        **extra.pop("data", {}),
    }
    return client.post(reverse("web:command", args=[game.pk]), data, **extra)


def to_act(game: Game, people: list) -> tuple[int, object]:
    seat = game.to_act[0]
    return seat, people[seat]


def test_a_legal_command_changes_the_game_and_comes_back_to_the_page():
    game, people = people_game(FAMILIES["official"])
    seat, person = to_act(game, people)
    before = game.version

    response = post(signed_in(person), game, {"type": "draw", "seat": seat})

    assert response.status_code == 302
    assert response["Location"] == reverse("web:play", args=[game.pk])
    game.refresh_from_db()
    assert game.version > before


def test_the_form_on_the_page_is_the_command_that_runs():
    game, people = people_game(FAMILIES["official"])
    seat, person = to_act(game, people)
    client = signed_in(person)
    html = client.get(reverse("web:play", args=[game.pk])).content.decode()
    command = next(c for c in page_commands(html) if c["type"] == "draw")

    post(client, game, command)

    last = game_events(game_id=game.pk, viewer=person, after=game.version)
    assert any(e["event"]["type"] == "cards-drawn" for e in last)


def test_an_illegal_command_shows_the_engines_reason_and_changes_nothing():
    game, people = people_game(FAMILIES["official"])
    seat, person = to_act(game, people)
    hand = game_view(game_id=game.pk, viewer=person)["hand"]
    missing = next(c for c in ("red-1", "blue-2", "green-3", "yellow-4") if c not in hand)
    client = signed_in(person)

    response = post(client, game, {"type": "play", "seat": seat, "card": missing}, follow=True)

    assert response.status_code == 200
    assert b"card-not-in-hand" in response.content
    assert b'role="alert"' in response.content
    assert Game.objects.get(pk=game.pk).version == game.version
    # Said to the person, the card in the page's words; the engine's code is for scripts (an
    # attribute), not shown.
    name = missing.replace("-", " ")
    assert f'data-code="card-not-in-hand"><strong>You hold no {name}.</strong></div>' in (
        response.content.decode()
    )
    assert ">card-not-in-hand<" not in response.content.decode()
    assert f"seat {seat}" not in response.content.decode().split('role="alert"')[1][:200]


def test_a_move_from_a_page_the_game_moved_past_says_it_is_not_your_turn():
    game, people = people_game(FAMILIES["official"])
    seat, person = to_act(game, people)
    client = signed_in(person)
    assert post(client, game, {"type": "draw", "seat": seat}).status_code == 302
    game.refresh_from_db()
    if seat in game.to_act:  # the drawn card can be played: pass, and the turn moves on
        post(client, game, {"type": "pass", "seat": seat}, command_id="c2")
        game.refresh_from_db()
    assert seat not in game.to_act

    # A form of the page that showed the next turn as the person's, the version current.
    response = post(client, game, {"type": "draw", "seat": seat}, command_id="c3", **HTMX)

    assert (
        'data-code="not-your-turn"><strong>It is not your turn.</strong></div>'
        in response.content.decode()
    )


def test_a_forged_command_for_another_seat_is_refused():
    game, people = people_game(FAMILIES["official"])
    seat, _ = to_act(game, people)
    other = people[(seat + 1) % 4]

    response = post(signed_in(other), game, {"type": "draw", "seat": seat})

    assert response.status_code == 403
    # Without htmx too, the seat by its name at the table, in one sentence.
    assert (
        f'data-code="not-your-seat">You cannot move for {people[seat].username}: that seat is '
        "not yours.</p>" in response.content.decode()
    )
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_forged_command_by_htmx_is_refused_in_the_board_as_a_sentence():
    game, people = people_game(FAMILIES["official"])
    seat, _ = to_act(game, people)
    other = people[(seat + 1) % 4]

    response = post(signed_in(other), game, {"type": "draw", "seat": seat}, **HTMX)

    assert response.status_code == 200
    # The seat by its name at the table, not by its number.
    assert (
        f'data-code="not-your-seat"><strong>You cannot move for {people[seat].username}: that '
        "seat is not yours.</strong></div>" in response.content.decode()
    )


@pytest.mark.parametrize("raw", ["not json", '{"type": "fly", "seat": 0}', "[1, 2]"])
def test_a_misshapen_command_is_refused_with_a_code(raw):
    game, people = people_game(FAMILIES["official"])
    _, person = to_act(game, people)
    client = signed_in(person)

    response = client.post(
        reverse("web:command", args=[game.pk]),
        {"command": raw, "expected_version": game.version, "command_id": "x"},
        follow=True,
    )

    assert any(
        code.encode() in response.content for code in ("malformed-command", "unknown-command")
    )
    assert Game.objects.get(pk=game.pk).version == game.version


def test_someone_without_a_seat_gets_403():
    game, people = people_game(FAMILIES["official"])
    seat, _ = to_act(game, people)
    stranger = people_game(FAMILIES["official"])[1][0]

    response = post(signed_in(stranger), game, {"type": "draw", "seat": seat})

    assert response.status_code == 403
    assert b"not-seated" in response.content


def test_an_anonymous_post_gets_403(client):
    game, people = people_game(FAMILIES["official"])
    seat, _ = to_act(game, people)

    response = post(client, game, {"type": "draw", "seat": seat})

    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_stale_version_is_a_conflict_shown_on_the_page():
    game, people = people_game(FAMILIES["official"])
    seat, person = to_act(game, people)
    stale = game.version
    game = advance(game, 2)
    seat, person = to_act(game, people)

    response = post(
        signed_in(person), game, {"type": "draw", "seat": seat}, version=stale - 1, follow=True
    )

    assert b"version-conflict" in response.content
    assert b"The game moved on" in response.content
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_double_submit_runs_once():
    game, people = people_game(FAMILIES["official"])
    seat, person = to_act(game, people)
    client = signed_in(person)

    post(client, game, {"type": "draw", "seat": seat}, command_id="same")
    after_first = Game.objects.get(pk=game.pk).version
    post(client, game, {"type": "draw", "seat": seat}, command_id="same")

    assert Game.objects.get(pk=game.pk).version == after_first


def test_with_htmx_the_answer_is_the_board_partial():
    game, people = people_game(FAMILIES["official"])
    seat, person = to_act(game, people)

    response = post(signed_in(person), game, {"type": "draw", "seat": seat}, **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="game"' in html and "<html" not in html
    game.refresh_from_db()
    assert f'data-version="{game.version}"' in html


def test_with_htmx_a_refusal_comes_inside_the_board():
    game, people = people_game(FAMILIES["official"])
    seat, person = to_act(game, people)

    response = post(signed_in(person), game, {"type": "challenge", "seat": seat}, **HTMX)

    assert response.status_code == 200
    assert b'role="alert"' in response.content
    assert b"unexpected-command" in response.content


def test_the_lane_form_sends_its_slots_in_order():
    game, people = people_game(FAMILIES["precognitive-sighted"])
    for _ in range(8):
        if (
            game.to_act
            and game_view(game_id=game.pk, viewer=people[game.to_act[0]])["pending"]["type"]
            == "precommit"
        ):
            break
        game = advance(game, 1)
    seat, person = to_act(game, people)
    view = game_view(game_id=game.pk, viewer=person)
    assert view["pending"]["type"] == "precommit"
    cards = view["hand"][: view["pending"]["count"]]

    post(
        signed_in(person),
        game,
        {"type": "precommit", "seat": seat},
        data={"card": cards},
    )

    lane = game_view(game_id=game.pk, viewer=person)["lane"][seat]
    assert lane[-len(cards) :] == cards


def test_the_poll_is_204_while_nothing_changed():
    game, people = people_game(FAMILIES["official"])
    client = signed_in(people[0])
    url = reverse("web:board", args=[game.pk])

    unchanged = client.get(url, {"version": game.version}, **HTMX)
    changed = client.get(url, {"version": game.version - 1}, **HTMX)

    assert unchanged.status_code == 204
    assert unchanged.content == b""
    assert changed.status_code == 200
    assert f'data-version="{game.version}"'.encode() in changed.content
    assert b'id="announce" hx-swap-oob="innerHTML"' in changed.content


def test_the_poll_of_an_unknown_game_is_404(client):
    assert client.get(reverse("web:board", args=[999999]), {"version": 1}).status_code == 404


def test_a_finished_game_stops_polling_and_offers_the_replay():
    game, people = people_game({"rules": "official", "options": {"scoring": "single-hand"}})
    game = advance(game, 2000)
    assert game.status == Game.Status.MATCH_OVER

    html = signed_in(people[0]).get(reverse("web:play", args=[game.pk])).content.decode()

    assert 'hx-trigger="every 1s"' not in html
    assert reverse("web:replay", args=[game.pk]) in html
    assert "The match is over" in html
