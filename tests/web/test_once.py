"""A form that creates something is acted on once (web/once.py): sent twice with its one-time
token, as a double tap sends it, it makes one game, table, club, post, season, tournament, bot
or token, and the second answer lands where the first did."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from accounts.models import PersonalToken
from chat.models import ClubPost
from games.models import Bot, Game
from league.models import Club, Season
from tables.models import Table
from tests.games.factories import make_user
from tests.league.factories import make_club
from tests.web.clients import signed_in
from tests.web.test_tables import form as table_form
from tests.web.test_tournaments import _new_form
from tournaments.models import Tournament
from web import once

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

TOKEN = re.compile(r'<input type="hidden" name="once" value="([^"]+)">')


def tokens(client: Client, path: str) -> list[str]:
    """The one-time tokens of the forms on `path`, in the page's order."""
    response = client.get(path)
    assert response.status_code == 200
    return TOKEN.findall(response.content.decode())


def twice(client: Client, path: str, data: dict[str, Any]) -> tuple[Any, Any]:
    return client.post(path, data), client.post(path, data)


def quick_start() -> dict[str, str]:
    """The fields of the quick start "One hand against one bot" (templates/play/new_game.html)."""
    return {"rules": "official", "scoring": "single-hand", "seat0": "me", "seat1": "bot:greedy"}


def test_a_quick_start_sent_twice_makes_one_game_and_both_answers_go_to_it():
    ana = make_user("ana")
    client = signed_in(ana)
    found = tokens(client, "/play/new/")
    assert len(found) == 3 and len(set(found)) == 3  # two quick starts and the whole form

    first, second = twice(client, "/play/new/", {**quick_start(), "once": found[1]})

    game = Game.objects.get()
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == f"/games/{game.pk}/"


def test_the_same_form_drawn_again_or_changed_is_a_new_submission():
    client = signed_in(make_user("ana"))
    token = tokens(client, "/play/new/")[1]
    client.post("/play/new/", {**quick_start(), "once": token})
    # Back, then the other quick start of the same page (its own token), or this one with other
    # seats: each is a game of its own. Without a token (a script), as before.
    client.post("/play/new/", {**quick_start(), "seat2": "bot:greedy", "once": token})
    client.post("/play/new/", quick_start())
    client.post("/play/new/", quick_start())

    assert Game.objects.count() == 4


def test_a_refused_form_frees_its_token_for_the_corrected_one():
    client = signed_in(make_user("ana"))
    token = tokens(client, "/clubs/new/")[0]

    refused = client.post("/clubs/new/", {"name": "", "once": token})
    made = client.post("/clubs/new/", {"name": "Riverside", "once": token})

    assert refused.status_code == 200 and "This field is required" in refused.content.decode()
    assert made.status_code == 302 and Club.objects.get().slug == "riverside"


def test_a_table_opened_twice_is_one_table():
    client = signed_in(make_user("ana"))
    token = tokens(client, "/tables/new/")[0]

    first, second = twice(client, "/tables/new/", table_form(once=token))

    table = Table.objects.get()
    assert first["Location"] == second["Location"] == f"/tables/{table.pk}/"


def test_a_challenge_sent_twice_is_one_challenge():
    make_user("bo")
    client = signed_in(make_user("ana"))
    token = tokens(client, "/tables/new/?challenge=bo")[0]

    first, second = twice(client, "/tables/new/", table_form(challenge="bo", once=token))

    assert Table.objects.count() == 1
    assert first["Location"] == second["Location"]


def test_a_board_post_sent_twice_is_posted_once():
    club, admin, _ = make_club()
    client = signed_in(admin)
    compose, *_ = tokens(client, f"/clubs/{club.slug}/")

    first, second = twice(client, f"/clubs/{club.slug}/board", {"text": "hi", "once": compose})

    assert ClubPost.objects.filter(text="hi").count() == 1
    assert first["Location"] == second["Location"] == f"/clubs/{club.slug}/#board"


def test_a_club_sent_twice_is_one_club():
    client = signed_in(make_user("ana"))
    token = tokens(client, "/clubs/new/")[0]

    first, second = twice(client, "/clubs/new/", {"name": "Riverside", "once": token})

    assert Club.objects.count() == 1
    assert first["Location"] == second["Location"] == "/clubs/riverside/"


def test_a_season_sent_twice_is_one_season():
    club, admin, _ = make_club()
    client = signed_in(admin)
    path = f"/clubs/{club.slug}/seasons/new/"
    token = tokens(client, path)[0]
    data = {
        "rules": "official",
        "lane": "1",
        "sight": "sighted",
        "name": "Spring",
        "start_date": "2030-03-02",
        "round_days": "7",
        "seats_per_game": "4",
        "division1_name": "Premier",
        "once": token,
    }

    first, second = twice(client, path, data)

    assert first.status_code == 302, first.content.decode()[:3000]
    assert Season.objects.count() == 1 and first["Location"] == second["Location"]


def test_a_tournament_sent_twice_is_one_tournament():
    client = signed_in(make_user("ana"))
    token = tokens(client, "/tournaments/new/")[0]
    data = {**_new_form(name="Spring Swiss"), "once": token}

    first, second = twice(client, "/tournaments/new/", data)

    assert first.status_code == 302, first.content.decode()[:3000]
    assert Tournament.objects.count() == 1 and first["Location"] == second["Location"]


def test_a_bot_registered_twice_is_one_bot_and_its_token_is_shown():
    client = signed_in(make_user("ana"))
    builtin = tokens(client, "/me/bots/")[0]
    data = {
        "kind": "builtin",
        "builtin-name": "annabot",
        "builtin-strategy": "greedy",
        "once": builtin,
    }

    first, second = twice(client, "/me/bots/", data)

    bot = Bot.objects.get()
    assert first["Location"] == second["Location"]
    assert str(bot.pk) in second["Location"]
    assert client.get(second["Location"]).status_code == 200


def test_an_api_token_made_twice_is_one_token_and_its_key_is_shown():
    client = signed_in(make_user("ana"))
    token = TOKEN.findall(client.get("/accounts/profile/").content.decode())[0]
    data = {"name": "laptop", "scopes": ["bots"], "once": token}

    first, second = twice(client, "/accounts/profile/tokens/", data)

    made = PersonalToken.objects.get()
    assert first["Location"] == second["Location"] == f"/accounts/profile/tokens/{made.pk}/shown"
    assert "laptop" in client.get(second["Location"]).content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_posts_that_arrive_together_make_one_game():
    """Two requests at once, as a double tap sends them: the second waits for the first and
    answers with its game."""
    ana = make_user("ana")
    client = signed_in(ana)
    token = tokens(client, "/play/new/")[1]
    answers: list[Any] = []
    start = threading.Barrier(2)

    def send() -> None:
        try:
            start.wait()
            answers.append(client.post("/play/new/", {**quick_start(), "once": token}))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    game = Game.objects.get()
    assert [answer["Location"] for answer in answers] == [f"/games/{game.pk}/"] * 2


def test_a_first_post_that_never_finishes_leaves_the_second_a_409(monkeypatch):
    client = signed_in(make_user("ana"))
    token = tokens(client, "/clubs/new/")[0]
    monkeypatch.setattr(once, "WAIT_SECONDS", 0.1)
    data = {"name": "Riverside", "once": token}
    request = client.post("/clubs/new/", data).wsgi_request
    # As if the first were still running: its claim, without a result.
    cache.set(once._key(request, token), "pending", 60)

    second = client.post("/clubs/new/", data)

    assert second.status_code == 409
    assert "sent-twice" in second.content.decode()
