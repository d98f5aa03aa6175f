"""The replay: a finished match step by step, seen as a seat, a spectator or with every card."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.event_reads import _NO_END
from games.models import Game
from games.repository import repository
from games.visibility import game_events
from tests.web.clients import signed_in
from tests.web.tables import advance, page_cards, people_game
from web import replay as web_replay

pytestmark = pytest.mark.django_db

ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand", "hand_size": 4}}


def finished(reveal: str = Game.Reveal.AFTER_MATCH) -> tuple[Game, list]:
    game, people = people_game(ONE_HAND, seats=3, reveal=reveal)
    game = advance(game, 500)
    assert game.status == Game.Status.MATCH_OVER
    return game, people


def replay(client: Client, game: Game, **query):
    return client.get(reverse("web:replay", args=[game.pk]), query)


def state_at(game: Game, at: int):
    return repository.state(game, until=at)[1]


def test_a_match_in_progress_has_no_replay_yet():
    game, people = people_game(ONE_HAND, seats=3)

    for client in (Client(), signed_in(people[0])):
        response = replay(client, game, **{"as": "all"})
        assert response.status_code == 403
        assert b"match-not-over" in response.content


def test_an_unknown_game_has_no_replay(client):
    assert client.get(reverse("web:replay", args=[999999])).status_code == 404


def test_each_step_shows_the_board_after_that_event_as_the_seat_saw_it():
    game, people = finished()
    client = signed_in(people[0])
    for at in (2, 5, game.version // 2, game.version):
        html = replay(client, game, at=at).content.decode()
        state = state_at(game, at)
        expected = Counter(state.hands[0]) + Counter(state.discard[-1:])
        if at == game.version:
            # The end: the last hand's result lists every seat's cards (a public event).
            ended = [
                e
                for e in game_events(game_id=game.pk, viewer=None)
                if e["event"]["type"] == "hand-ended"
            ][-1]["event"]
            expected += Counter(c for hand in ended["cards_left"] for c in hand)
        assert page_cards(html) == expected, at
        assert f"Event <strong>{at}</strong> of {game.version}" in html


def test_the_steps_are_links_to_shareable_positions():
    game, people = finished()
    html = replay(signed_in(people[1]), game, at=5).content.decode()
    url = reverse("web:replay", args=[game.pk])

    assert f'href="{url}?at=1&amp;as=1"' in html
    assert f'href="{url}?at=4&amp;as=1" rel="prev"' in html
    assert f'href="{url}?at=6&amp;as=1" rel="next"' in html
    assert f'href="{url}?at={game.version}&amp;as=1"' in html
    assert f'type="range" name="at" min="1" max="{game.version}" value="5"' in html


def test_at_is_kept_within_the_log():
    game, people = finished()
    client = signed_in(people[0])

    assert b"Event <strong>1</strong>" in replay(client, game, at=-4).content
    assert (
        f"Event <strong>{game.version}</strong>".encode() in replay(client, game, at=10**6).content
    )
    assert b"Event <strong>" in replay(client, game, at="x").content


def test_the_replay_starts_where_the_first_hand_waits_for_its_first_move():
    game, people = finished()
    html = replay(Client(), game).content.decode()

    first = next(
        e["version"]
        for e in game_events(game_id=game.pk, viewer=None)
        if e["event"]["type"] == "prompted"
    )
    assert f"Event <strong>{first}</strong>" in html


def test_all_reveals_every_hand_once_the_match_is_over():
    game, _ = finished()
    at = game.version // 2
    state = state_at(game, at)

    html = replay(Client(), game, at=at, **{"as": "all"}).content.decode()

    expected = Counter(state.discard[-1:]) + Counter(c for hand in state.hands for c in hand)
    assert page_cards(html) == expected


def test_another_seats_view_once_revealed_tells_that_seats_story_without_you():
    game, people = finished()
    html = replay(signed_in(people[0]), game, at=game.version // 2, **{"as": "2"}).content.decode()

    assert page_cards(html) == Counter(state_at(game, game.version // 2).hands[2]) + Counter(
        state_at(game, game.version // 2).discard[-1:]
    )
    assert "your cards" not in html


@pytest.mark.parametrize("view", ["9", "abc", "-1"])
def test_an_unknown_view_is_a_bad_request(view):
    # Not a view this game has at all: the query string is wrong (400), nothing is withheld.
    game, _ = finished()

    response = replay(Client(raise_request_exception=False), game, **{"as": view})

    assert response.status_code == 400
    assert b"<code>unknown-view</code>" in response.content
    assert b"choose a seat (0 to 2), spectator or all" in response.content


def test_a_spectator_sees_the_spectators_view():
    game, _ = finished()
    at = game.version // 2

    html = replay(Client(), game, at=at).content.decode()

    assert page_cards(html) == Counter(state_at(game, at).discard[-1:])


def test_a_game_that_never_reveals_shows_only_your_own_seat():
    game, people = finished(reveal=Game.Reveal.NEVER)
    at = game.version // 2
    client = signed_in(people[0])

    own = replay(client, game, at=at)
    everything = replay(client, game, at=at, **{"as": "all"})
    other = replay(client, game, at=at, **{"as": "1"})
    watcher = replay(Client(), game, at=at)

    assert own.status_code == 200
    assert page_cards(own.content.decode()) == Counter(state_at(game, at).hands[0]) + Counter(
        state_at(game, at).discard[-1:]
    )
    assert everything.status_code == 403 and b"not-revealed" in everything.content
    assert other.status_code == 403
    assert watcher.status_code == 200
    assert page_cards(watcher.content.decode()) == Counter(state_at(game, at).discard[-1:])
    assert replay(Client(), game, **{"as": "all"}).status_code == 403


def test_the_story_runs_up_to_the_step():
    game, _ = finished()
    html = replay(Client(), game, at=3, **{"as": "all"}).content.decode()

    assert "was turned up." in html
    assert "The match is over" not in html
    assert 'story__line--current" data-version="3"' in html


def story_of(html: str) -> list[str]:
    return re.findall(r'data-version="(\d+)"', html)


def test_a_step_reads_the_log_around_it_not_the_whole_match(monkeypatch):
    game, people = finished()
    client = signed_in(people[0])
    at = game.version - 1
    whole = replay(client, game, at=at).content.decode()
    # A window of 8 events for 3 lines, as a long match's step reads STORY_EVENTS of thousands.
    monkeypatch.setattr(web_replay, "STORY_EVENTS", 8)
    monkeypatch.setattr(web_replay, "STORY_LINES", 3)
    with CaptureQueriesContext(connection) as queries:
        windowed = replay(client, game, at=at).content.decode()

    # The same story (its newest lines) and board as when the window held the whole log...
    assert story_of(windowed) == story_of(whole)[:3] and len(story_of(whole)) > 3
    assert page_cards(windowed) == page_cards(whole)
    # ...from the events near `at` (four times the window when it told too few), never the
    # log from its start (the board's state folds from the newest snapshot: this short match
    # has none, a long one one every snapshots.EVERY events), never the whole log.
    sql = [q["sql"] for q in queries.captured_queries]
    told = [text for text in sql if text.startswith("SELECT version, type")]
    assert told and not any(" version > 0 AND" in text.split("UNION")[0] for text in told), told
    assert not any(f"version <= {_NO_END}" in text for text in sql)
