"""Catch and UNO buttons that teach (issue 30): each says what it does and what it costs, and one
the public state shows will fail (basic-plus and newno list it all the same) asks first."""

from __future__ import annotations

import html as html_lib
import json

import pytest
from django.urls import reverse

from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.models import Game
from games.visibility import game_view
from tests.engine.decks import stacked
from tests.games.factories import make_user
from tests.web.clients import signed_in
from tests.web.tables import FAMILIES, people_game
from web.controls import controls
from web.names import Names

pytestmark = pytest.mark.django_db

NAMES = Names(["ana", "ben", "cy"], 0)


def options(legal, view, penalty):
    result = controls(legal, view, NAMES, uno_penalty=penalty)
    return {json.loads(o.command)["type"]: o for o in result.actions} | {
        f"catch {target}": o for target, o in result.catches.items()
    }


def test_a_catch_that_will_succeed_says_who_draws_and_asks_nothing():
    view = {
        "seat": 0,
        "hand": ["red-3"] * 5,
        "to_act": [1],
        "hand_sizes": [5, 1, 4],
        "uncalled": [1],
    }
    catch = options([{"type": "catch", "seat": 0, "target": 1}], view, 2)["catch 1"]

    assert catch.label == "Catch ben: 1 card and no UNO called — ben draws 2 cards"
    assert catch.confirm == ""


def test_a_catch_of_a_seat_with_many_cards_says_it_costs_the_catcher_and_asks():
    view = {
        "seat": 0,
        "hand": ["red-3"] * 5,
        "to_act": [1],
        "hand_sizes": [5, 8, 1],
        "uncalled": [],
    }
    legal = [{"type": "catch", "seat": 0, "target": 1}, {"type": "catch", "seat": 0, "target": 2}]
    found = options(legal, view, 3)

    assert found["catch 1"].label == "Catch ben (8 cards): you would draw 3 cards"
    assert found["catch 1"].confirm == (
        "ben holds 8 cards, so there is no UNO to catch: the catch fails and you draw 3 cards "
        "as the penalty."
    )
    assert found["catch 1"].confirm_button == "Catch ben anyway: draw 3 cards"
    # One card, but called: nothing to catch either.
    assert found["catch 2"].label == "Catch cy (1 card, UNO called): you would draw 3 cards"
    assert "cy has called UNO" in found["catch 2"].confirm


def test_a_false_uno_call_asks_first_and_a_due_one_does_not():
    legal = [{"type": "call-uno", "seat": 0}]
    many = {
        "seat": 0,
        "hand": ["red-3"] * 4,
        "to_act": [1],
        "hand_sizes": [4, 3, 3],
        "uncalled": [],
    }
    due = many | {"hand": ["red-3"], "hand_sizes": [1, 3, 3], "uncalled": [0]}

    false_call = options(legal, many, 3)["call-uno"]
    assert false_call.label == "Call UNO (4 cards): you would draw 3 cards"
    assert false_call.confirm.startswith("You hold 4 cards: UNO is called with one card left")
    assert options(legal, due, 3)["call-uno"].confirm == ""
    assert options(legal, due, 3)["call-uno"].label.startswith("Call UNO: your last card")


def test_a_repeat_call_is_not_offered():
    """basic-plus lists a call of UNO from a seat that already called (it does no harm, and
    nothing else either): the page offers no button whose only effect is nothing. A seat with
    one card that has not called, and a seat with more (a false call, at a price), keep theirs."""
    legal = [{"type": "call-uno", "seat": 0}]
    called = {
        "seat": 0,
        "hand": ["blue-1"],
        "to_act": [1],
        "hand_sizes": [1, 3, 3],
        "uncalled": [],
    }
    result = controls(legal, called, NAMES, uno_penalty=3)
    assert result.actions == []
    assert "call-uno" in options(legal, called | {"uncalled": [0]}, 3)
    assert "call-uno" in options(legal, called | {"hand_sizes": [2, 3, 3]}, 3)


def test_the_page_has_no_call_again_button_after_play_and_call():
    """ana plays red 3 and calls UNO at basic-plus: she holds one card, called; her page offers
    no second call (the engine still lists one)."""
    game, (ana, _) = basic_plus_down_to_one(uno=True)
    view = game_view(game_id=game.pk, viewer=ana)
    assert {"type": "call-uno", "seat": 0} in view["legal"]
    anas = page(ana, game)
    assert "Call UNO" not in anas
    assert "call-uno" not in anas


def page(person, game: Game) -> str:
    return html_lib.unescape(
        signed_in(person).get(reverse("web:play", args=[game.pk])).content.decode()
    )


def basic_plus_down_to_one(people: list | None = None, *, uno: bool = False) -> tuple[Game, list]:
    """Two people at basic-plus (`people`, else new ana and ben): ana plays down to one card,
    without calling UNO (`uno`: calling it with the play)."""
    ana, ben = people or [make_user("ana"), make_user("ben")]
    deck = stacked([["red-3", "red-5"], ["blue-1", "green-9"]], flip="red-7", first=0)
    game = game_create(
        variant_spec={"rules": "basic-plus", "options": {"hand_size": 2}},
        seats=[SeatSpec(user=ana), SeatSpec(user=ben)],
        deck=deck,
        first=0,
    )
    game_command(
        game_id=game.pk,
        actor=ana,
        command={"type": "play", "seat": 0, "card": "red-3", "uno": uno},
        expected_version=game.version,
    )
    game.refresh_from_db()
    return game, [ana, ben]


def test_the_page_marks_a_seat_that_owes_uno_and_says_what_each_button_does():
    game, (ana, ben) = basic_plus_down_to_one()

    bens = page(ben, game)
    assert "owes UNO: can be caught" in bens
    # ben's catch will succeed: a plain button, no question.
    assert "Catch ana: 1 card and no UNO called — ana draws 3 cards</button>" in bens
    # ben holds 2 cards: basic-plus lists his call of UNO all the same, and asks first.
    assert "Call UNO (2 cards): you would draw 3 cards</summary>" in bens
    assert bens.count('<details class="confirm">') == 1

    anas = page(ana, game)
    assert "you owe UNO: call it before you are caught" in anas
    assert "Call UNO: your last card" in anas
    # ana's catch of ben (2 cards) fails: a disclosure says why and what it costs.
    assert "Catch ben (2 cards): you would draw 3 cards</summary>" in anas
    assert "ben holds 2 cards, so there is no UNO to catch" in anas
    assert "Catch ben anyway: draw 3 cards</button>" in anas


def test_the_confirmed_wrong_catch_costs_what_it_said():
    game, (ana, ben) = basic_plus_down_to_one()
    anas = page(ana, game)
    command = '{"type":"catch","seat":0,"target":1}'
    assert f'value="{command}"' in anas

    response = signed_in(ana).post(
        reverse("web:command", args=[game.pk]),
        {"command": command, "expected_version": game.version, "command_id": "c1"},
    )

    assert response.status_code == 302
    view = game_view(game_id=game.pk, viewer=ana)
    assert view["hand_sizes"][0] == 1 + 3


def test_newno_catches_at_the_start_all_ask_first():
    game, people = people_game(FAMILIES["newno"], seats=3)
    html = page(people[0], game)
    names = [seat.user.username for seat in game.seats.order_by("number")]

    for name in names[1:]:
        assert f"Catch {name} (7 cards): you would draw 2 cards</summary>" in html
    assert html.count('<details class="confirm">') == 2
    # newno refuses a call that is not owed: it is not offered.
    assert "Call UNO" not in html


def test_a_phones_dock_asks_the_costly_moves_in_one_question():
    # The seats sit under a phone's pinned dock: the dock asks the moves that would cost cards
    # in one question, each with why and its button (static/dock.css shows it on a phone only,
    # instead of the questions on the seats and among the moves).
    game, (ana, ben) = basic_plus_down_to_one()
    bens = page(ben, game)
    # ben's false call only (his catch of ana succeeds, among the moves).
    assert '<summary class="action action--costly asks__summary">Call UNO?</summary>' in bens
    assert bens.count('<details class="confirm asks">') == 1
    assert bens.count("Call UNO anyway: draw 3 cards</button>") == 2
    # ana's catch of ben (two cards) would only cost her: no UNO to catch, the dock does not
    # ask it (ben's seat, a desktop's, still offers it); her call is due, a plain button.
    anas = page(ana, game)
    assert "asks__summary" not in anas and "Catch a seat?" not in anas
    assert anas.count("Catch ben anyway: draw 3 cards</button>") == 1

    # newno lists a catch of every seat: while nobody holds one card there is no UNO to catch,
    # and the dock asks nothing (the seats, a desktop's, still offer each).
    newno, people = people_game(FAMILIES["newno"], seats=3)
    html = page(people[0], newno)
    assert "asks__summary" not in html and "Catch a seat?" not in html
    for name in [seat.user.username for seat in newno.seats.order_by("number")][1:]:
        assert html.count(f"Catch {name} anyway: draw 2 cards</button>") == 1
