"""The new-game form (/play/new/): every family and option, the precognitive modifier, seats of
people and bots, the clock; started through tables/invitations.py start_or_invite."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Profile
from bots.strategies import STRATEGIES, STRATEGY_LINES
from engine import Variant
from engine.rules import RULESETS
from frontdoor.variant_form import OPTION_NAMES, variant_spec
from games.game_settings import GameSettings
from games.models import Bot, Game
from tables.models import Table
from web.new_game import NewGameForm, seat_specs

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def ada(client):
    user = User.objects.create_user("ada")
    Profile.objects.create(user=user, birth_date=datetime.date(1990, 12, 10))
    client.force_login(user)
    return user


def form_data(**changes: str) -> dict[str, str]:
    """What the form posts as first shown (me and three greedy bots), with `changes`."""
    data = {
        "rules": "official",
        **{name: "" for name in OPTION_NAMES},
        "lane": "1",
        "sight": "sighted",
        "turn_seconds": "",
    }
    first = ["me", "bot:greedy", "bot:greedy", "bot:greedy"]
    for number in range(10):
        data[f"seat{number}"] = first[number] if number < len(first) else ""
        data[f"seat{number}_user"] = ""
    data.update(changes)
    return data


def cleaned(**changes: str) -> dict:
    form = NewGameForm(form_data(**changes))
    assert form.is_valid(), form.errors
    return form.cleaned_data


# The form's helper: one spec per family.


@pytest.mark.parametrize(
    ("changes", "spec"),
    [
        ({}, {"rules": "official", "options": {}}),
        (
            {
                "hand_size": "5",
                "scoring": "running-total",
                "target": "200",
                "uno_penalty": "4",
                "precognitive": "on",
                "lane": "2",
                "sight": "blind",
            },
            {
                "rules": "official",
                "options": {
                    "hand_size": 5,
                    "scoring": "running-total",
                    "target": 200,
                    "uno_penalty": 4,
                },
                "precognitive": {"lane": 2, "sight": "blind"},
            },
        ),
        (
            {
                "rules": "basic-plus",
                "precognitive": "on",
                "lane": "half-hand",
                "sight": "telepathic",
            },
            {
                "rules": "basic-plus",
                "options": {},
                "precognitive": {"lane": "half-hand", "sight": "telepathic"},
            },
        ),
        (
            {"rules": "newno", "scoring": "single-hand", "hand_size": "3"},
            {"rules": "newno", "options": {"scoring": "single-hand", "hand_size": 3}},
        ),
        (
            {"rules": "censorship", "dealer_draws": "no", "uno_penalty": "0"},
            {"rules": "censorship", "options": {"dealer_draws": False, "uno_penalty": 0}},
        ),
        (
            {"rules": "censorship", "dealer_draws": "yes"},
            {"rules": "censorship", "options": {"dealer_draws": True}},
        ),
    ],
)
def test_the_variant_spec_is_built_from_the_form(changes, spec):
    assert variant_spec(cleaned(**changes)) == spec
    # The engine takes it as it is.
    Variant.from_spec(spec)


def test_every_option_of_every_family_has_a_field():
    offered = {name for rules in RULESETS.values() for name in rules.option_checks}

    assert offered == set(OPTION_NAMES)
    assert set(OPTION_NAMES) <= set(NewGameForm.base_fields)


def test_seats_are_the_rows_filled_in_order():
    User.objects.create_user("bob")
    data = cleaned(
        seat0="bot:random",
        seat1="",
        seat2="me",
        seat3="person",
        seat3_user=" bob ",
        seat5="bot:censor",
    )

    assert seat_specs(data) == [
        {"bot": "random"},
        {"user": "me"},
        {"user": "bob"},
        {"bot": "censor"},
    ]


# The page.


def test_it_offers_every_family_option_strategy_and_seat(client, ada):
    html = client.get("/play/new/").content.decode()

    for family in RULESETS:
        assert f'name="rules" value="{family}"' in html
    for name in OPTION_NAMES:
        assert f'name="{name}"' in html
    for strategy in STRATEGIES:
        assert f'<option value="bot:{strategy}"' in html
    for number in range(10):
        assert f'name="seat{number}"' in html and f'name="seat{number}_user"' in html
    assert 'name="precognitive"' in html and "Over Official or Basic-plus only." in html
    assert "Censorship only" in html
    assert '<option value="me" selected>' in html
    assert 'name="turn_seconds"' in html and "the site&#x27;s default (3 days)" in html


def test_each_bot_a_seat_may_take_is_said_in_one_line_under_the_seats(client, ada):
    """A newcomer picks a bot knowing what it does: its line and the families it is made for."""
    html = client.get("/play/new/").content.decode()
    key = html[html.index('<details class="bot-key"') :]
    key = key[: key.index("</details>")]
    assert (
        'greedy <span class="muted">(every family)</span></dt><dd>Sheds its highest card, '
        "keeps black cards for late.</dd>" in key
    )
    assert (
        'stacker <span class="muted">(newno)</span></dt><dd>Stacks, jumps in, swaps with '
        "7 and 0 when it gains.</dd>" in key
    )
    for strategy in STRATEGIES:
        assert f"<dt>{strategy} " in key


def test_the_bots_lines_are_docs_bots_tables():
    """docs/bots.md's table says each bot as the form does (one source: STRATEGY_LINES)."""
    table = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text()
    rows = {
        cells[0].strip("` "): (cells[2].strip(), cells[3].strip())
        for line in table.splitlines()
        if line.startswith("| `")
        for cells in [line.strip("|").split("|")]
        if len(cells) == 4
    }
    assert {name: rows[name] for name in STRATEGIES} == STRATEGY_LINES


@pytest.mark.parametrize(
    ("changes", "spec"),
    [
        ({}, {"rules": "official"}),
        (
            {"precognitive": "on", "lane": "2", "sight": "blind", "target": "100"},
            {
                "rules": "official",
                "options": {"target": 100},
                "precognitive": {"lane": 2, "sight": "blind"},
            },
        ),
        (
            {"rules": "basic-plus", "precognitive": "on", "hand_size": "4"},
            {"rules": "basic-plus", "options": {"hand_size": 4}, "precognitive": {}},
        ),
        ({"rules": "newno", "uno_penalty": "3"}, {"rules": "newno", "options": {"uno_penalty": 3}}),
        (
            {"rules": "censorship", "dealer_draws": "no"},
            {"rules": "censorship", "options": {"dealer_draws": False}},
        ),
    ],
)
def test_it_starts_a_game_of_each_family_and_opens_it(client, ada, changes, spec):
    response = client.post("/play/new/", form_data(**changes))

    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert game.variant == Variant.from_spec(spec).spec
    assert game.seat_count == 4
    seats = game.seats.order_by("number")
    assert [s.user for s in seats] == [ada, None, None, None]
    assert [s.bot for s in seats] == ["", "greedy", "greedy", "greedy"]


def test_it_seats_people_by_username_and_sets_the_clock(client, ada):
    bob = User.objects.create_user("bob")

    client.post(
        "/play/new/",
        form_data(seat1="person", seat1_user="bob", seat2="", seat3="", turn_seconds="3600"),
    )
    # bob is asked first (tests/web/test_new_game_consent.py); his Accept starts the game.
    assert not Game.objects.exists()
    table = Table.objects.get(opener=ada)
    bobs = Client()
    bobs.force_login(bob)
    bobs.post(f"/tables/{table.pk}/join")

    game = Game.objects.get()
    assert [s.user for s in game.seats.order_by("number")] == [ada, bob]
    assert GameSettings.of(game.context).turn_seconds == 3600


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"rules": "newno", "precognitive": "on"},
            "precognitive",
            "over Official or Basic-plus only",
        ),
        (
            {"hand_size": "20"},
            "hand_size",
            "Must be a whole number from 1 to 15, not 20.",
        ),
        ({"uno_penalty": "-1"}, "uno_penalty", "from 0 to 20"),
        ({"dealer_draws": "no"}, "dealer_draws", "Only Censorship has this option."),
        ({"seat1": "person"}, "seat1_user", "Give their username."),
        ({"seat1_user": "bob"}, "seat1", "Choose “another person”"),
        ({"seat1": "person", "seat1_user": "nobody"}, "seat1_user", "Nobody is called 'nobody'."),
        ({"rules": "cricket"}, "rules", "Select a valid choice."),
    ],
)
def test_a_bad_field_is_shown_next_to_it_and_starts_nothing(client, ada, changes, field, message):
    page = client.post("/play/new/", form_data(**changes))

    assert page.status_code == 200
    assert message in " ".join(page.context["form"].errors[field])
    assert message in page.content.decode().replace("&#x27;", "'")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"rules": "censorship", "seat2": "", "seat3": ""},
            "censorship needs 3 to 10 seats, not 2",
        ),
        ({"seat1": "", "seat2": "", "seat3": ""}, "official needs 2 to 10 seats, not 1"),
        ({"seat0": "bot:greedy"}, "you must hold a seat in a game you start"),
        # A seat the service names is said as the form's row (Seat 2), counted from 1, though
        # game_start counts the rows filled in from 0; an empty row between is skipped.
        (
            {"rules": "newno", "seat1": "person", "seat1_user": "bob"},
            "seat 2: bob has given no birth date",
        ),
        (
            {"rules": "newno", "seat1": "", "seat2": "person", "seat2_user": "bob"},
            "seat 3: bob has given no birth date",
        ),
    ],
)
def test_a_game_the_service_refuses_shows_its_message_and_starts_nothing(
    client, ada, changes, message
):
    User.objects.create_user("bob")

    page = client.post("/play/new/", form_data(**changes))

    assert page.status_code == 200
    assert message in " ".join(page.context["form"].non_field_errors())
    assert message in page.content.decode().replace("&#x27;", "'")
    assert not Game.objects.exists()
    # What was chosen is kept.
    for name, value in changes.items():
        if value and name.startswith("seat") and not name.endswith("_user"):
            assert f'<option value="{value}" selected>' in page.content.decode()


def quick_start_forms(html: str) -> list[tuple[str, dict[str, str]]]:
    """The quick starts at the top of the page: each button's words and the fields it posts."""
    section = html.split('<section class="quick-start"', 1)[1].split("</section>", 1)[0]
    found = []
    for form in re.findall(r"<form.*?</form>", section, re.S):
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
        fields.pop("csrfmiddlewaretoken", None)
        (label,) = re.findall(r'<button class="primary" type="submit">([^<]+)</button>', form)
        found.append((label, fields))
    return found


def test_a_quick_start_plays_one_hand_against_bots_in_one_tap(client, ada):
    """A newcomer's first game is one hand, not a ten-hand match to 500: the page's first
    buttons start one, and the game they start is what their words say."""
    html = client.get("/play/new/").content.decode()
    quick = quick_start_forms(html)
    assert [label for label, _ in quick] == [
        "One hand against three bots",
        "One hand against one bot",
    ]
    assert html.index("Quick start") < html.index("<legend>Rules</legend>")

    for (label, fields), bots in zip(quick, (3, 1), strict=True):
        response = client.post("/play/new/", fields)
        game = Game.objects.latest("pk")
        assert response.status_code == 302 and response.url == f"/games/{game.pk}/", label
        assert (
            game.variant
            == Variant.from_spec({"rules": "official", "options": {"scoring": "single-hand"}}).spec
        )
        seats = game.seats.order_by("number")
        assert [s.user for s in seats] == [ada] + [None] * bots
        assert [s.bot for s in seats] == [""] + ["greedy"] * bots


def test_a_bot_owner_seats_their_own_bots_and_watches_a_practice_match(client, ada):
    """Their active registered bots are offered for a seat (nobody else's, nor a retired one);
    with only bots seated, one of them theirs, the game starts and they land on its page,
    watching from no seat."""

    def bot(owner, name, status=Bot.Status.ACTIVE):
        return Bot.objects.create(
            owner=owner, name=name, kind=Bot.Kind.BUILTIN, strategy="greedy", status=status
        )

    mine = bot(ada, "adabot")
    bot(ada, "oldbot", Bot.Status.RETIRED)
    bot(User.objects.create_user("bob"), "bobbot")
    html = client.get("/play/new/").content.decode()
    assert f'<option value="mybot:{mine.pk}">my bot: adabot</option>' in html
    assert "oldbot" not in html and "bobbot" not in html
    assert "then you watch a practice match of your bot" in html

    response = client.post(
        "/play/new/",
        form_data(rules="newno", seat0=f"mybot:{mine.pk}", seat2="bot:censor", seat3=""),
    )

    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert [(s.user, s.registered_bot, s.bot) for s in game.seats.order_by("number")] == [
        (None, mine, "greedy"),
        (None, None, "greedy"),
        (None, None, "censor"),
    ]
    assert GameSettings.of(game.context).watched_by == ada.pk
    page = client.get(response.url).content.decode()
    assert "you are watching" in page and "Practice match: ada watches their bot play" in page
